"""The K4 invariants catch what they claim to: stream shape, usage, provider-run marks, round trip
and origin."""

from __future__ import annotations

from modelport.events import (
    FinishEvent,
    StreamStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
)
from modelport.types import Origin, Result, ToolCallPart, ToolResultPart, Usage
from modelport_conformance.invariants import (
    check_origin,
    check_provider_executed,
    check_round_trip,
    check_stream_usage,
    check_stream_well_formed,
    check_usage,
)


def test_well_formed_stream_passes():
    events = [
        StreamStartEvent(),
        TextStartEvent(id="a"),
        TextDeltaEvent(id="a", delta="x"),
        TextEndEvent(id="a"),
        FinishEvent(finish_reason="stop"),
    ]
    assert check_stream_well_formed(events) == []


def test_malformed_streams_are_named():
    events = [
        TextStartEvent(id="a"),
        TextDeltaEvent(id="b", delta="x"),
        FinishEvent(finish_reason="stop"),
        TextStartEvent(id="a"),
        FinishEvent(finish_reason="stop"),
    ]
    assert check_stream_well_formed(events) == [
        "the stream does not begin with a stream-start event",
        "event 1: text-delta for id 'b' without an open text-start",
        "event 3: text-start reuses id 'a'",
        "expected exactly one finish event, got 2",
        "text-start 'a' has no text-end",
    ]
    unfinished = [StreamStartEvent(), TextStartEvent(id="a")]
    assert check_stream_well_formed(unfinished) == [
        "expected exactly one finish event, got 0",
        "text-start 'a' has no text-end",
    ]
    assert check_stream_well_formed(unfinished, finished=False) == []
    late = [
        StreamStartEvent(),
        FinishEvent(finish_reason="stop"),
        TextStartEvent(id="z"),
        TextEndEvent(id="z"),
    ]
    assert check_stream_well_formed(late) == ["the finish event is at position 1, not last (3)"]


def test_negative_usage_is_reported():
    # The core turns a negative count into "not reported"; a plugin that builds its values without
    # validation (model_construct) can still produce one, and the invariant must catch it.
    result = Result(usage=Usage.model_construct(input_tokens=3, output_tokens=-1))
    events = [FinishEvent(finish_reason="stop", usage=Usage.model_construct(total_tokens=-2))]
    assert check_usage(result, events) == [
        "result.usage.output_tokens is negative (-1)",
        "events[0].usage.total_tokens is negative (-2)",
    ]


def test_usage_parts_beyond_their_wholes_are_reported():
    # Gemini's shape as 2.0 decoded it: thoughts outside output, tool-use prompt outside input.
    gemini_2_0 = Usage(
        input_tokens=21, output_tokens=96, reasoning_tokens=86, total_tokens=363, tool_use_prompt_tokens=160
    )
    cache = Usage(input_tokens=100, cache_read_input_tokens=60, cache_write_input_tokens=50)
    assert check_usage(Result(usage=gemini_2_0), [FinishEvent(finish_reason="stop", usage=cache)]) == [
        "result.usage: tool_use_prompt_tokens (160) exceeds input_tokens (21), which includes it; "
        "input_tokens is every input token, cached ones included (docs/usage.md)",
        "result.usage.total_tokens (363) is not input_tokens + output_tokens (21 + 96)",
        "events[0].usage: cache_read_input_tokens (60) + cache_write_input_tokens (50) exceeds "
        "input_tokens (100), which includes it; input_tokens is every input token, cached ones included "
        "(docs/usage.md)",
    ]
    over = Usage(input_tokens=5, output_tokens=3, reasoning_tokens=4)
    assert check_usage(Result(usage=over)) == [
        "result.usage: reasoning_tokens (4) exceeds output_tokens (3), which includes it; output_tokens is "
        "every output token, reasoning included (docs/usage.md)"
    ]


def test_usage_that_holds_the_contract_passes():
    # Reported zeros, absent counts (no relation to check) and parts equal to their wholes.
    usages = [
        Usage(
            input_tokens=4020,
            output_tokens=4,
            total_tokens=4024,
            cache_read_input_tokens=0,
            cache_write_input_tokens=4012,
            reasoning_tokens=0,
        ),
        Usage(output_tokens=2, reasoning_tokens=2),
        Usage(cache_read_input_tokens=7, total_tokens=9),
        Usage(),
    ]
    assert check_usage(None, [FinishEvent(finish_reason="stop", usage=u) for u in usages]) == []


def test_stream_usage_differing_from_the_whole_decode_is_reported():
    decoded = Usage(input_tokens=438, output_tokens=120, reasoning_tokens=39, total_tokens=558)
    assert check_stream_usage(decoded, decoded) == []
    assert check_stream_usage(Usage(input_tokens=438, output_tokens=81, total_tokens=558), decoded) == [
        "usage.output_tokens of the stream is 81, of the same answer decoded whole 120",
        "usage.reasoning_tokens of the stream is None, of the same answer decoded whole 39",
    ]


def test_provider_executed_marks_are_checked():
    request = {
        "tools": [
            {"type": "provider", "id": "google.code_execution", "name": "code_execution"},
            {"type": "function", "name": "lookup"},
        ]
    }
    content = [
        ToolCallPart(id="c1", name="code_execution", args={}),
        ToolCallPart(id="c2", name="lookup", args={}, provider_executed=True),
        ToolResultPart(call_id="nope", name="code_execution", provider_executed=True),
    ]
    assert check_provider_executed(content, request) == [
        "content[0] (tool-call 'code_execution') comes from a provider tool but is not marked provider_executed",
        "content[1] (tool-call 'lookup') is a function tool the application runs, yet marked provider_executed",
        "content[2] (tool-result 'code_execution') answers call 'nope', which is no provider-executed call",
    ]


def test_round_trip_holds_for_results_and_events():
    assert check_round_trip([Result(usage=Usage(input_tokens=1)), StreamStartEvent()]) == []


def test_a_result_must_name_the_provider_and_model_it_came_from():
    origin = Origin(provider="acme", api="chat", model="m-1")
    assert check_origin(Result(origin=origin), "acme", "m-1") == []
    assert check_origin(None, "acme", "m-1") == []  # a call that raised has no result to check
    assert check_origin(Result(), "acme", "m-1") == [
        "the result has no origin (the core stamps it; a plugin that sets one must not clear it)"
    ]
    assert check_origin(Result(origin=origin), "acme", "m-2") == [
        "the result's origin is acme/m-1, but acme/m-2 was called"
    ]
