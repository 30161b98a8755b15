"""A streamed ``tool-call-end`` carries the whole call, filled in by the core (C5 round trip kept).

Decoders send the start/delta/end triple without the call; the stream a consumer iterates hands
out each end with its ``ToolCallPart`` (id, name, parsed ``args``; text that is no JSON object kept
in ``provider_metadata["modelport"]["raw_args"]``), equal to the call in the accumulated result.
"""

from __future__ import annotations

import asyncio

import modelport
from modelport import testing
from modelport.events import (
    FinishEvent,
    StreamAccumulator,
    StreamStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    accumulate,
    parse_event,
)
from modelport.types import CallWarning, ToolCallPart

RAW = {"modelport": {"raw_args": '{"city": "Par'}}
WARNING = CallWarning(
    type="other",
    setting="tool_calls",
    details=(
        "the arguments of tool call 'c2' (get_time) are not JSON (Unterminated string starting at: line 1 "
        "column 10 (char 9)); args is empty and the text is in provider_metadata['modelport']['raw_args']"
    ),
)


def decoder_events() -> list[object]:
    """Two calls as a decoder sends them: the second one's arguments are cut JSON."""
    return [
        StreamStartEvent(),
        ToolCallStartEvent(id="0", call_id="c1", name="get_weather"),
        ToolCallDeltaEvent(id="0", delta='{"city": '),
        ToolCallStartEvent(id="1", call_id="c2", name="get_time"),
        ToolCallDeltaEvent(id="0", delta='"Paris"}'),
        ToolCallDeltaEvent(id="1", delta='{"city": "Par'),
        ToolCallEndEvent(id="0"),
        ToolCallEndEvent(id="1"),
        FinishEvent(finish_reason="tool-calls"),
    ]


CALLS = [
    ToolCallPart(id="c1", name="get_weather", args={"city": "Paris"}),
    ToolCallPart(id="c2", name="get_time", args={}, provider_metadata=RAW),
]


def test_the_stream_hands_out_each_end_with_its_whole_call(scripted: testing.Script) -> None:
    scripted.streams.append(decoder_events())
    stream = modelport.get_model("scripted/m", script=scripted).stream(prompt="x")
    ends = [e for e in stream if isinstance(e, ToolCallEndEvent)]
    assert [(e.id, e.part) for e in ends] == [("0", CALLS[0]), ("1", CALLS[1])]
    result = stream.result()
    assert result.tool_calls == CALLS
    assert result.warnings == [WARNING]


def test_the_async_stream_does_the_same(scripted: testing.Script) -> None:
    scripted.streams.append(decoder_events())

    async def ends() -> list[ToolCallPart | None]:
        stream = modelport.get_model("scripted/m", script=scripted).astream(prompt="x")
        return [e.part async for e in stream if isinstance(e, ToolCallEndEvent)]

    assert asyncio.run(ends()) == CALLS


def test_completed_events_round_trip_and_accumulate_to_the_same_result(scripted: testing.Script) -> None:
    scripted.streams.append(decoder_events())
    stream = modelport.get_model("scripted/m", script=scripted).stream(prompt="x")
    events = list(stream)
    again = [parse_event(e.model_dump_json()) for e in events]
    assert again == events
    # Stored events (with their parts) fold into the same result, warning included; the live stream's
    # result also carries the origin the core stamps (events do not).
    result = stream.result()
    assert result.origin is not None and (result.origin.provider, result.origin.model) == ("scripted", "m")
    assert accumulate(again) == accumulate(decoder_events()) == result.model_copy(update={"origin": None})


def test_add_returns_the_completed_end_and_leaves_other_events_alone() -> None:
    acc = StreamAccumulator()
    start = ToolCallStartEvent(id="0", call_id="c1", name="get_weather")
    assert acc.add(start) is start
    acc.add(ToolCallDeltaEvent(id="0", delta='{"city": "Paris"}'))
    completed = acc.add(ToolCallEndEvent(id="0"))
    assert completed == ToolCallEndEvent(id="0", part=CALLS[0])


def test_an_end_that_brings_its_call_is_taken_as_sent() -> None:
    # A decoder that has the call whole may send it on the end; the accumulator keeps it.
    part = ToolCallPart(id="c9", name="lookup", args={"q": 1})
    acc = StreamAccumulator()
    acc.add(ToolCallStartEvent(id="0", call_id="c9", name="lookup"))
    end = ToolCallEndEvent(id="0", part=part)
    assert acc.add(end) is end
    acc.add(FinishEvent(finish_reason="tool-calls"))
    assert acc.result().tool_calls == [part]
