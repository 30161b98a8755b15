"""S5 size bound without measuring (P2): a grounding metadata parsed from a body so small that even
``REENCODED_RATIO`` times its size is within the bound cannot exceed it, so it is not encoded; a
number too large for a double (which would decode as an infinity that measuring used to reject) is
refused by the strict parser before the metadata is looked at.

Responses are the REAL recording used across the grounding tests (Firebase unary grounded search),
served through ``httpx.MockTransport``.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

import modelport
from modelport import wire
from modelport.errors import ProviderMetadataError, ProviderResponseError
from modelport_google.grounding import MAX_METADATA_BYTES, _validate, grounding_metadata
from modelport_google.tools import google_search

from .test_grounding_corpus import FIREBASE, _read
from .test_grounding_e2e import FIREBASE_JSON

RAW = json.loads(_read(FIREBASE, FIREBASE_JSON))


def model(body: bytes) -> modelport.Model:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    return modelport.get_model(
        "google/gemini-2.5-flash", api_key="k", transport=httpx.MockTransport(answer), max_retries=0
    )


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes the exact check measured."""
    sizes: list[int] = []
    exact = _validate.check_size

    def counted(value: object, *, provider: str) -> int:
        sizes.append(size := exact(value, provider=provider))
        return size

    monkeypatch.setattr(_validate, "check_size", counted)
    return sizes


def test_a_small_body_is_not_measured_and_the_result_is_unchanged(measured: list[int]) -> None:
    body = json.dumps(RAW).encode()
    assert len(body) * wire.REENCODED_RATIO <= MAX_METADATA_BYTES
    result = model(body).generate(prompt="weather?", tools=[google_search()])
    assert measured == []
    assert grounding_metadata(result) == RAW["candidates"][0]["groundingMetadata"]


def test_a_body_past_the_shortcut_is_measured_exactly(measured: list[int]) -> None:
    raw = json.loads(json.dumps(RAW))
    raw["candidates"][0]["groundingMetadata"]["futureField"] = "x" * 60_000  # body over 52,428 bytes
    model(json.dumps(raw).encode()).generate(prompt="weather?", tools=[google_search()])
    metadata = raw["candidates"][0]["groundingMetadata"]
    assert measured == [len(json.dumps(metadata, ensure_ascii=False, separators=(",", ":")).encode())]


OVERFLOW = "google: the response body is not valid JSON: a number is too large for a double"


@pytest.mark.parametrize("literal", ["1e999", "-1e999", "1E400", "1" + "0" * 400 + ".0"])
def test_an_overflowing_number_from_the_wire_is_refused(literal: str) -> None:
    body = json.dumps(RAW).replace('"webSearchQueries"', f'"score": {literal}, "webSearchQueries"', 1)
    with pytest.raises(ProviderResponseError) as info:
        model(body.encode()).generate(prompt="weather?", tools=[google_search()])
    assert str(info.value) == OVERFLOW


@pytest.mark.parametrize(
    "where",
    [
        '"confidenceScores": [1e999]',  # a known field the fast pass reads
        '"futureScore": -1e999, "confidenceScores": [0.5]',  # an unknown field of a support
        '"confidenceScores": [0.5], "segment": {"endIndex": 3, "weight": 1E400}',  # of a segment
    ],
)
def test_an_overflowing_number_in_a_support_is_refused(where: str) -> None:
    raw = json.loads(json.dumps(RAW))
    metadata = raw["candidates"][0]["groundingMetadata"]
    metadata["groundingSupports"] = [{"groundingChunkIndices": [0]}, {"marker": True}]
    body = json.dumps(raw).replace('"marker": true', where, 1)
    with pytest.raises(ProviderResponseError) as info:
        model(body.encode()).generate(prompt="weather?", tools=[google_search()])
    assert str(info.value) == OVERFLOW


def test_an_infinity_in_metadata_not_from_the_wire_is_refused() -> None:
    metadata = json.loads(json.dumps(RAW["candidates"][0]["groundingMetadata"]))
    metadata["groundingSupports"][0]["confidenceScores"] = [float("inf")]
    with pytest.raises(ProviderMetadataError) as info:
        _validate.validate_grounding_metadata(metadata, provider="google")
    assert str(info.value) == (
        "google: invalid groundingMetadata: groundingMetadata.groundingSupports[0].confidenceScores[0]"
        " is inf, which is not a JSON number"
    )


def test_source_bytes_is_the_body_size_while_decoding_and_none_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from modelport_google import provider

    seen: list[int | None] = []
    decode = provider.GoogleProvider.decode_response

    def spy(self: Any, data: Any, spec: Any) -> Any:
        seen.append(wire.source_bytes())
        return decode(self, data, spec)

    monkeypatch.setattr(provider.GoogleProvider, "decode_response", spy)
    body = json.dumps(RAW, indent=2).encode()
    model(body).generate(prompt="weather?")
    assert seen == [len(body)]
    assert wire.source_bytes() is None


JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
    st.sampled_from(["\x00", '"', "\\", "\n", "\x1f", "é", "😀"]),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)
NUMBER_TEXTS = st.sampled_from(
    ["1e15", "-1e15", "1E15", "9e15", "1e0", "1e-5", "0.1", "-0", "1e308", "5e-324"]
)


def _reencoded(value: object) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


@given(value=JSON_VALUES, ascii_only=st.booleans(), indent=st.sampled_from([None, 0, 2]))
def test_a_parsed_value_re_encodes_within_the_ratio_of_its_text(
    value: object, ascii_only: bool, indent: int | None
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent).encode()
    assert _reencoded(wire.loads(text)) <= wire.REENCODED_RATIO * len(text)


@given(numbers=st.lists(NUMBER_TEXTS, min_size=1, max_size=30))
def test_numbers_written_shortest_stay_within_the_ratio(numbers: list[str]) -> None:
    text = ("[" + ",".join(numbers) + "]").encode()
    assert _reencoded(wire.loads(text)) <= wire.REENCODED_RATIO * len(text)
    single = numbers[0].encode()
    assert _reencoded(wire.loads(single)) <= wire.REENCODED_RATIO * len(single)
