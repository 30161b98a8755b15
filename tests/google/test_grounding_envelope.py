"""The versioned grounding envelope and its ``decode`` (S6)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from modelport.errors import ProviderMetadataError
from modelport.types import Result, TextPart, ToolCallPart
from modelport_google.grounding import GroundingOutcome, build_envelope, decode
from modelport_google.grounding.envelope import ENVELOPE_KEYS

METADATA: dict[str, Any] = {
    "groundingChunks": [{"web": {"uri": "https://a.example", "title": "a.example"}}],
    "groundingSupports": [{"segment": {"endIndex": 5, "text": "Hello"}, "groundingChunkIndices": [0]}],
    "webSearchQueries": ["hello"],
    "searchEntryPoint": {"renderedContent": "<b>hello</b>"},
    "newProviderField": {"kept": ["as", "is", 1.5, None]},
}
RESULT = Result(content=[TextPart(text="Hello world")], finish_reason="stop", grounding_metadata=METADATA)


def envelope(**changes: Any) -> dict[str, Any]:
    data = build_envelope(RESULT, METADATA)
    data.update(changes)
    return data


def test_envelope_has_exactly_the_version_1_keys() -> None:
    data = build_envelope(RESULT, METADATA)
    assert list(data) == ["version", "provider", "type", "outcome", "metadata"]
    assert set(data) == ENVELOPE_KEYS
    assert (data["version"], data["provider"], data["type"]) == (1, "google", "google_search_grounding")
    assert data["outcome"] == {"status": "ok", "result": RESULT.model_dump(mode="json")}
    assert data["metadata"] == METADATA and data["metadata"] is not METADATA
    json.dumps(data, allow_nan=False)  # plain JSON


def test_decode_round_trips_from_a_mapping_text_and_bytes() -> None:
    data = build_envelope(RESULT, METADATA)
    event_safe = {
        "schema_version": 1,
        "provider": "google",
        "type": "google_search_grounding",
        "metadata": METADATA,
    }
    for stored in (data, json.dumps(data), json.dumps(data, ensure_ascii=False).encode()):
        outcome, metadata = decode(stored)
        assert outcome == GroundingOutcome(status="ok", result=RESULT)
        assert metadata == event_safe
        assert list(metadata) == ["schema_version", "provider", "type", "metadata"]


def test_unknown_metadata_fields_are_preserved() -> None:
    _, metadata = decode(json.dumps(build_envelope(RESULT, METADATA)))
    assert metadata["metadata"]["newProviderField"] == {"kept": ["as", "is", 1.5, None]}
    assert metadata["metadata"]["searchEntryPoint"]["renderedContent"] == "<b>hello</b>"


def test_decoded_metadata_is_detached_from_a_mutable_callback_value() -> None:
    data = build_envelope(RESULT, METADATA)
    _, metadata = decode(data)
    data["metadata"]["webSearchQueries"].append("changed later")
    assert metadata["metadata"]["webSearchQueries"] == ["hello"]


def test_streamed_and_tool_call_outcomes() -> None:
    streamed = build_envelope("streamed", METADATA)
    assert streamed["outcome"] == {"status": "streamed"}
    assert decode(streamed)[0] == GroundingOutcome(status="streamed")
    calls = Result(
        content=[ToolCallPart(id="c1", name="lookup", args={"q": "x"})], finish_reason="tool-calls"
    )
    data = build_envelope(calls, METADATA)
    assert data["outcome"]["status"] == "tool-calls"
    assert decode(data)[0].result == calls


MALFORMED = {
    "extra key": (envelope(extra=1), r"extra: \['extra'\]"),
    "missing key": ({k: v for k, v in envelope().items() if k != "outcome"}, r"missing: \['outcome'\]"),
    "version 2": (envelope(version=2), "unsupported version 2"),
    "version true": (envelope(version=True), "unsupported version True"),
    "version 1.0": (envelope(version=1.0), "unsupported version 1.0"),
    "version string": (envelope(version="1"), "unsupported version '1'"),
    "other provider": (envelope(provider="gemini"), "provider must be 'google'"),
    "other type": (envelope(type="url_context"), "type must be 'google_search_grounding'"),
    "not an object": ([envelope()], "expected an object, got list"),
    "outcome not an object": (envelope(outcome="ok"), "outcome must be an object"),
    "unknown status": (envelope(outcome={"status": "done", "result": {}}), "outcome.status"),
    "ok without result": (envelope(outcome={"status": "ok"}), "outcome keys must be exactly"),
    "streamed with result": (
        envelope(outcome={"status": "streamed", "result": RESULT.model_dump(mode="json")}),
        "outcome keys must be exactly",
    ),
    "extra outcome key": (
        envelope(outcome={"status": "ok", "result": RESULT.model_dump(mode="json"), "x": 1}),
        "outcome keys must be exactly",
    ),
    "malformed result": (
        envelope(outcome={"status": "ok", "result": {"content": 5}}),
        "outcome.result.content",
    ),
    "metadata not an object": (envelope(metadata=[]), "expected a JSON object"),
    "metadata bad shape": (envelope(metadata={"groundingChunks": {}}), "groundingChunks must be a list"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_envelopes_are_rejected(case: str) -> None:
    data, message = MALFORMED[case]
    with pytest.raises(ProviderMetadataError, match=message) as info:
        decode(data)
    assert info.value.provider == "google"


NON_JSON = {
    "NaN in metadata": envelope(metadata={"score": float("nan")}),
    "bytes in metadata": envelope(metadata={"blob": b"\x00"}),
    "set in metadata": envelope(metadata={"tags": {"a"}}),
    "tuple in metadata": envelope(metadata={"pair": (1, 2)}),
    "non-string key": envelope(metadata={1: "a"}),
    "lone surrogate": envelope(metadata={"webSearchQueries": ["\ud83d"]}),
    "bytes in outcome": envelope(outcome={"status": "streamed", "note": b"x"}),
    "NaN literal in text": json.dumps(envelope()).replace(
        '"newProviderField": {', '"newProviderField": {"x": NaN, '
    ),
    "Infinity literal in text": json.dumps(envelope()).replace('"version": 1', '"version": Infinity'),
    "not JSON text": "{'version': 1}",
    "truncated JSON": json.dumps(envelope())[:-2],
    "invalid UTF-8": json.dumps(envelope()).encode().replace(b"hello", b"hel\xfflo"),
    "overlong UTF-8": json.dumps(envelope()).encode().replace(b"hello", b"hel\xc0\xafo"),
}


@pytest.mark.parametrize("case", sorted(NON_JSON))
def test_non_json_envelopes_are_rejected(case: str) -> None:
    with pytest.raises(ProviderMetadataError):
        decode(NON_JSON[case])


def test_oversized_metadata_is_rejected_by_one_byte() -> None:
    base = {"filler": ""}
    room = 262_144 - len(json.dumps(base, separators=(",", ":")))
    at_limit = {"filler": "é" * (room // 2) + "a" * (room % 2)}
    decode(build_envelope("streamed", at_limit))
    over = {"filler": at_limit["filler"] + "a"}
    with pytest.raises(ProviderMetadataError, match="262145 bytes encoded"):
        build_envelope("streamed", over)
    data = build_envelope("streamed", at_limit)
    data["metadata"] = over  # e.g. grown by a callback
    with pytest.raises(ProviderMetadataError, match="262145 bytes encoded"):
        decode(data)
    with pytest.raises(ProviderMetadataError, match="262145 bytes encoded"):
        decode(json.dumps(data).encode())


def test_build_rejects_what_decode_would_reject() -> None:
    with pytest.raises(ProviderMetadataError):
        build_envelope(RESULT, {"x": float("inf")})
    with pytest.raises(ProviderMetadataError):
        build_envelope("done", METADATA)  # type: ignore[arg-type]


def test_outcome_model_rules() -> None:
    with pytest.raises(ValueError):
        GroundingOutcome(status="ok")
    with pytest.raises(ValueError):
        GroundingOutcome(status="streamed", result=RESULT)
    assert copy.deepcopy(GroundingOutcome(status="streamed")).to_json() == {"status": "streamed"}


@given(
    st.one_of(
        st.binary(max_size=64),
        st.text(max_size=64),
        st.recursive(
            st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=3)),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(
                    st.sampled_from(sorted(ENVELOPE_KEYS)) | st.text(max_size=3), inner, max_size=5
                )
            ),
            max_leaves=10,
        ),
    )
)
def test_decode_is_total(raw: Any) -> None:
    try:
        decode(raw)
    except ProviderMetadataError:
        pass


@given(
    st.sampled_from(sorted(ENVELOPE_KEYS)),
    st.one_of(st.none(), st.integers(), st.text(max_size=3), st.binary(max_size=2)),
)
def test_any_single_field_change_is_rejected(key: str, value: Any) -> None:
    data = envelope()
    assume(data[key] != value or type(data[key]) is not type(value))
    data[key] = value
    try:
        outcome, metadata = decode(data)
    except ProviderMetadataError:
        return
    raise AssertionError(f"accepted {key}={value!r}: {outcome}, {metadata}")
