"""What the kit does from a plugin's tables (``modelport.http``): request settings sent from a table
(``wire_settings``) and the others set reported (``setting_warnings``), a stop reason read through a
table (``finish_reason``, ``StreamParts.stop``), one vector per value checked for every plugin, the
key's header a credential header without being listed, and ``StreamEnd`` from plain sets. The
requests and answers are MOCK: they test the kit's rules, not a provider's shapes; the settings and
stop reasons are those of the scaffold's example API (``modelport new-provider``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from modelport import events as ev
from modelport.errors import ProviderResponseError
from modelport.http import (
    GENERATION_SETTINGS,
    HttpProvider,
    HttpRequest,
    StreamEnd,
    StreamParts,
    finish_reason,
    setting_warnings,
    wire_settings,
)
from modelport.provider import Capabilities, EmbedRequest
from modelport.secrets import credential_headers
from modelport.types import CallWarning, Citation, EmbeddingResult, FinishReason, Request, Source, Usage

from .counter import Counter, Transport, provider

SETTINGS = {"max_output_tokens": "max_tokens", "temperature": "temperature", "stop_sequences": "stop"}
FINISH: dict[str, FinishReason] = {"end_turn": "stop", "max_tokens": "length", "tool_use": "tool-calls"}


def _request(**settings: Any) -> Request:
    return Request.model_validate({"messages": [{"role": "user", "content": "Hi"}], **settings})


def test_the_settings_set_are_sent_under_their_wire_keys_a_zero_included() -> None:
    stop = ["END"]
    request = _request(max_output_tokens=256, temperature=0.0, stop_sequences=stop, seed=7)
    sent = wire_settings(request, SETTINGS)
    assert sent == {"max_tokens": 256, "temperature": 0.0, "stop": ["END"]}
    assert list(sent) == ["max_tokens", "temperature", "stop"]
    assert sent["stop"] is not request.stop_sequences  # a copy: the body never aliases the request
    assert wire_settings(_request(), SETTINGS) == {}


def test_every_other_setting_set_is_one_warning_in_field_order() -> None:
    request = _request(temperature=0.5, seed=7, top_k=3, user_id="u-1")
    assert setting_warnings(request, SETTINGS) == [
        CallWarning(type="unsupported-setting", setting="top_k", details="the API has no field for it"),
        CallWarning(type="unsupported-setting", setting="seed", details="the API has no field for it"),
        CallWarning(type="unsupported-setting", setting="user_id", details="the API has no field for it"),
    ]
    only = setting_warnings(request, settings=("seed", "temperature"), details="not on this model")
    assert only == [  # in the order of ``settings``
        CallWarning(type="unsupported-setting", setting="seed", details="not on this model"),
        CallWarning(type="unsupported-setting", setting="temperature", details="not on this model"),
    ]


def test_the_details_may_name_each_setting() -> None:
    request = _request(seed=7, presence_penalty=0.5)
    named = setting_warnings(request, settings=("seed", "presence_penalty"), details="no {setting}; not sent")
    assert [(w.setting, w.details) for w in named] == [
        ("seed", "no seed; not sent"),
        ("presence_penalty", "no presence_penalty; not sent"),
    ]


def test_a_name_that_is_no_setting_is_refused_rather_than_dropped() -> None:
    with pytest.raises(ValueError, match=r"^not generation settings of a Request: 'temprature'$"):
        wire_settings(_request(), {"temprature": "temperature"})
    with pytest.raises(ValueError, match=r"^not generation settings of a Request: 'tools'$"):
        setting_warnings(_request(), ("tools",))


def test_the_settings_table_is_every_request_field_not_mapped_on_its_own() -> None:
    own = {"messages", "tools", "documents", "prompt_cache", "provider_options", "reasoning_replay"}
    assert set(GENERATION_SETTINGS) == set(Request.model_fields) - own
    assert [name for name in Request.model_fields if name in GENERATION_SETTINGS] == list(GENERATION_SETTINGS)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [("end_turn", "stop"), ("tool_use", "tool-calls"), ("refusal", "other"), (None, "other"), (5, "other")],
)
def test_a_stop_reason_is_read_through_the_table_and_any_other_is_other(raw: object, reason: str) -> None:
    assert finish_reason(raw, FINISH) == reason
    assert finish_reason({"not": "hashable"}, FINISH) == "other"


def test_stop_ends_the_open_parts_then_finishes_with_the_mapped_reason() -> None:
    parts = StreamParts(sequential=True)
    parts.text("Paris is the capital.")
    sources = [Source(number=1, title="Atlas", uri="https://example.test/atlas")]
    events = parts.stop(
        "end_turn",
        FINISH,
        usage=Usage(input_tokens=8, output_tokens=5, total_tokens=13),
        sources=iter(sources),
        citations=[Citation(start=0, end=5, sources=[1])],
        metadata={"api": {"stop_sequence": None}},
    )
    assert [event.type for event in events] == ["text-end", "finish"]
    finish = events[1]
    assert isinstance(finish, ev.FinishEvent)
    assert (finish.finish_reason, finish.raw_finish_reason) == ("stop", "end_turn")
    assert (finish.usage.input_tokens, finish.usage.output_tokens, finish.usage.total_tokens) == (8, 5, 13)
    assert (finish.sources, finish.citations) == (sources, [Citation(start=0, end=5, sources=[1])])
    assert finish.provider_metadata == {"api": {"stop_sequence": None}}
    bare = StreamParts().stop("pause_turn", FINISH)
    assert [
        (e.finish_reason, e.raw_finish_reason, e.usage) for e in bare if isinstance(e, ev.FinishEvent)
    ] == [("other", "pause_turn", Usage())]


def test_stop_refuses_a_citation_of_a_source_not_sent() -> None:
    sources = [Source(number=1, uri="https://example.test/a"), Source(number=2, uri="https://example.test/b")]
    with pytest.raises(ValueError, match=r"^a citation names source 3, not one of the 2 sent$"):
        StreamParts().stop(
            "end_turn", FINISH, sources=sources, citations=[Citation(start=0, end=1, sources=[1, 3])]
        )
    with pytest.raises(ValueError, match=r"^a citation names source 1, not one of the 0 sent$"):
        StreamParts().stop("end_turn", FINISH, citations=[Citation(start=0, end=1, sources=[1])])


class _Decoder(StreamParts):
    """A decoder on the tracker whose own ``finish`` adds an event: the tracker never calls it."""

    def __init__(self) -> None:
        super().__init__(sequential=True)
        self.finished = 0

    def feed(self, frame: dict[str, Any]) -> list[ev.StreamEvent]:
        if frame["type"] == "text":
            return self.text(frame["text"])
        if frame["type"] == "tool_call":
            return self.call(frame["id"], frame["name"], frame["arguments"])
        return self.stop(frame["stop_reason"], FINISH)

    def finish(self) -> list[ev.StreamEvent]:
        self.finished += 1
        return [*super().finish(), ev.FinishEvent(finish_reason="error")]


def test_a_subclass_overriding_finish_keeps_the_trackers_own_ending() -> None:
    decoder = _Decoder()
    frames = [
        {"type": "text", "text": "Checking."},
        {"type": "tool_call", "id": "call_1", "name": "weather", "arguments": {"city": "Paris"}},
        {"type": "stop", "stop_reason": "tool_use"},
    ]
    events = [event for frame in frames for event in decoder.feed(frame)]
    assert [event.type for event in events] == [
        "text-start",
        "text-delta",
        "text-end",
        "tool-call-start",
        "tool-call-delta",
        "tool-call-end",
        "finish",
    ]
    assert decoder.finished == 0
    assert [event.type for event in decoder.finish()] == ["finish"]


class _Embedder(Counter):
    id: ClassVar[str] = "embedder"
    capabilities: ClassVar[Capabilities] = Capabilities(embed=True)

    def embed_requests(self, model_name: str, request: EmbedRequest) -> list[HttpRequest]:
        return [HttpRequest("/embed", {"input": list(request.values)})]

    def decode_embeddings(self, request: EmbedRequest, specs: Any, responses: Any) -> EmbeddingResult:
        return EmbeddingResult(embeddings=responses[0]["embeddings"])


def test_an_answer_with_a_vector_too_few_is_a_provider_response_error_for_any_plugin() -> None:
    embedder = provider(_Embedder, Transport())
    spec = HttpRequest("/embed", {})
    answer = {"embeddings": [[0.25, 0.5]]}
    with pytest.raises(ProviderResponseError) as raised:
        embedder.decode_embedding_result(EmbedRequest.checked(["hello", "world"]), spec, answer)
    assert str(raised.value).endswith(
        "the response could not be decoded: ValueError: 1 embeddings for 2 values"
    )
    one = embedder.decode_embedding_result(EmbedRequest.checked(["hello"]), spec, answer)
    assert one.embeddings == [[0.25, 0.5]]


def test_the_keys_header_is_a_credential_header_without_being_listed() -> None:
    class Keyed(HttpProvider):
        id: ClassVar[str] = "keyed-in-header"
        api_key_header: ClassVar[str] = "X-Keyed-Key"

    class Listed(HttpProvider):
        id: ClassVar[str] = "keyed-listed"
        api_key_header: ClassVar[str] = "x-listed-key"
        credential_headers: ClassVar[frozenset[str]] = frozenset({"x-listed-key", "x-session"})

    assert Keyed.credential_headers == frozenset({"x-keyed-key"})
    assert Listed.credential_headers == frozenset({"x-listed-key", "x-session"})
    assert Counter.credential_headers == frozenset()  # authorization is a credential header already
    assert {"x-keyed-key", "x-listed-key", "x-session", "authorization"} <= credential_headers()


def test_a_stream_end_takes_plain_sets_and_keeps_frozen_ones() -> None:
    rule = StreamEnd(kind="type", terminal={"stop"}, required={"start"})
    assert rule == StreamEnd(kind="type", terminal=frozenset({"stop"}), required=frozenset({"start"}))
    assert (type(rule.terminal), type(rule.required)) == (frozenset, frozenset)
    assert hash(rule) == hash(
        StreamEnd(kind="type", terminal=frozenset({"stop"}), required=frozenset({"start"}))
    )
