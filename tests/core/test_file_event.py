"""The ``file`` stream event (C4): a complete file the model produced, kept in its place among the
parts when a stream is accumulated, and round-tripped through JSON like every event."""

from __future__ import annotations

from modelport.events import (
    FileEvent,
    FinishEvent,
    StreamStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    accumulate,
    parse_event,
)
from modelport.types import FilePart, TextPart


def test_a_file_event_becomes_a_file_part_in_order() -> None:
    image = FilePart(media_type="image/png", data=b"\x89PNG")
    events = [
        StreamStartEvent(),
        TextStartEvent(id="0"),
        TextDeltaEvent(id="0", delta="Here:"),
        TextEndEvent(id="0"),
        FileEvent(part=image),
        FinishEvent(finish_reason="stop"),
    ]
    assert accumulate(events).content == [TextPart(text="Here:"), image]


def test_a_file_event_round_trips_through_json() -> None:
    event = FileEvent(part=FilePart(media_type="image/png", data=b"\x00\x01"))
    assert parse_event(event.model_dump_json()) == event
    assert parse_event(event.model_dump(mode="json")) == event
