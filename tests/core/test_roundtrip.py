"""C5: every result and stream event round-trips through JSON to an equal object."""

from __future__ import annotations

import pytest

from modelport import events as ev
from modelport.types import (
    CallWarning,
    Citation,
    FilePart,
    ReasoningPart,
    Result,
    Source,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    Usage,
)

SIGNED = {"google": {"thoughtSignature": "CiQB0e2Kb7+/signature=="}}

RICH_RESULT = Result(
    content=[
        ReasoningPart(text="Thinking about the weather", signature="Cs0BAb4+9v=="),
        TextPart(text="It is 18 °C in Zürich. ", provider_metadata=SIGNED),
        ToolCallPart(
            id="call_0",
            name="code_execution",
            args={"code": "print(1)", "language": "PYTHON"},
            provider_executed=True,
        ),
        ToolResultPart(
            call_id="call_0",
            name="code_execution",
            output={"outcome": "OUTCOME_OK", "output": "1\n"},
            provider_executed=True,
        ),
        ToolCallPart(id="call_1", name="get_weather", args={"city": "東京", "days": [1, 2.5, None]}),
        FilePart(media_type="image/png", data=b"\x89PNG\r\n\x1a\n\x00\xff"),
        FilePart(media_type="application/pdf", uri="gs://bucket/doc.pdf"),
    ],
    finish_reason="tool-calls",
    raw_finish_reason="STOP",
    usage=Usage(
        input_tokens=3520,
        output_tokens=41,
        reasoning_tokens=302,
        total_tokens=3863,
        cache_read_input_tokens=3512,
        tool_use_prompt_tokens=360,
    ),
    warnings=[CallWarning(type="unsupported-setting", setting="presence_penalty", details="not supported")],
    provider_metadata={"google": {"groundingMetadata": {"webSearchQueries": ["weather zürich"]}}},
    grounding_metadata={"webSearchQueries": ["weather zürich"], "unknownFutureField": {"x": [1, 2]}},
    sources=[Source(number=1, title="meteo.ch", uri="https://example.org/a", domain="example.org")],
    citations=[Citation(start=0, end=22, sources=[1])],
    response_id="resp-123",
    model_version="gemini-2.5-flash",
    replay={"google": {"parts": [{"text": "It is", "thoughtSignature": "Cs0BAb4+9v=="}]}},
)


def test_rich_result_round_trips() -> None:
    encoded = RICH_RESULT.model_dump_json()
    decoded = Result.model_validate_json(encoded)
    assert decoded == RICH_RESULT
    assert decoded.text == "It is 18 °C in Zürich. "
    assert decoded.usage.cached_input_tokens == 3512
    assert [c.name for c in decoded.tool_calls] == ["get_weather"]


def test_empty_result_round_trips() -> None:
    assert Result.model_validate_json(Result().model_dump_json()) == Result()


def test_derived_fields_are_in_json_but_not_stored() -> None:
    data = RICH_RESULT.model_dump(mode="json")
    assert data["text"] == "It is 18 °C in Zürich. "
    assert data["usage"]["cached_input_tokens"] == 3512
    assert data["content"][5]["data"] == "iVBORw0KGgoA/w=="


ALL_EVENTS: list[ev.StreamEvent] = [
    ev.StreamStartEvent(warnings=[CallWarning(type="unsupported-setting", setting="frequency_penalty")]),
    ev.ResponseMetadataEvent(response_id="r1", model_version="gemini-3-pro-preview"),
    ev.ReasoningStartEvent(id="r0"),
    ev.ReasoningDeltaEvent(id="r0", delta="Let me think", signature=None),
    ev.ReasoningEndEvent(id="r0", signature="sig/+=="),
    ev.TextStartEvent(id="t1", provider_metadata=SIGNED),
    ev.TextDeltaEvent(id="t1", delta="Hello 👋🏽 "),
    ev.TextEndEvent(id="t1", provider_metadata=SIGNED),
    ev.ToolCallEvent(part=ToolCallPart(id="c", name="f", args={"a": 1})),
    ev.ToolResultEvent(
        part=ToolResultPart(call_id="c", name="f", output="ok", is_error=True, provider_executed=True)
    ),
    ev.FinishEvent(
        finish_reason="content-filter",
        raw_finish_reason="SAFETY",
        usage=Usage(input_tokens=1),
        provider_metadata={"google": {"safetyRatings": []}},
        grounding_metadata={"groundingChunks": []},
        sources=[Source(number=1)],
        citations=[Citation(start=0, end=1, sources=[1])],
        replay={"google": {"parts": []}},
    ),
    ev.ErrorEvent(error={"type": "ProviderOverloadedError", "message": "busy", "status_code": 503}),
]


@pytest.mark.parametrize("event", ALL_EVENTS, ids=lambda e: e.type)
def test_every_event_round_trips(event: ev.StreamEvent) -> None:
    assert ev.parse_event(event.model_dump_json()) == event


def test_every_event_type_is_covered() -> None:
    assert {e.type for e in ALL_EVENTS} == {
        "stream-start",
        "response-metadata",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "tool-call",
        "tool-result",
        "finish",
        "error",
    }


def test_accumulated_events_round_trip_into_the_same_result() -> None:
    result = ev.accumulate(ALL_EVENTS)
    assert Result.model_validate_json(result.model_dump_json()) == result
    assert result.content == [
        ReasoningPart(text="Let me think", signature="sig/+=="),
        TextPart(text="Hello 👋🏽 ", provider_metadata=SIGNED),
        ToolCallPart(id="c", name="f", args={"a": 1}),
        ToolResultPart(call_id="c", name="f", output="ok", is_error=True, provider_executed=True),
    ]
    assert result.finish_reason == "content-filter"
    assert result.response_id == "r1"
    assert result.warnings == [CallWarning(type="unsupported-setting", setting="frequency_penalty")]
    assert result.message.provider_metadata == {"google": {"parts": []}}
