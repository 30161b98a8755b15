"""A stream's frames and the whole answer in the kit: the fold of an item-by-item stream into the
whole answer (``modelport.http.merge_items``) and a whole answer decoded as frames
(``decode_frames``), on frames of the scaffold's example API as its fake server sends them
(``modelport new-provider``'s cases; the API is a fake one, so the values are MOCK)."""

from __future__ import annotations

from typing import Any

import pytest

from modelport import events as ev
from modelport.errors import ProviderRateLimitError
from modelport.http import StreamParts, decode_frames, merge_items
from modelport.types import Result, TextPart, Usage

SOURCES = [{"title": "Capitals of Europe", "url": "https://example.test/capitals"}]
FRAMES = [
    {"type": "start", "id": "resp_2", "model": "demo-1"},
    {"type": "text", "text": "The"},
    {"type": "text", "text": " capital"},
    {"type": "tool_call", "id": "call_1", "name": "weather", "arguments": {"city": "Paris"}},
    {"type": "text", "text": "Done."},
    {"type": "ping"},
    {"type": "stop", "stop_reason": "end_turn", "usage": {"input_tokens": 12}, "sources": SOURCES},
]


def test_items_in_order_text_in_a_row_joined_and_the_other_frames_fields_on_the_answer() -> None:
    merged = merge_items(FRAMES, items={"text", "tool_call"}, fields={"start", "stop"}, join={"text": "text"})
    assert merged == {
        "output": [
            {"type": "text", "text": "The capital"},
            {"type": "tool_call", "id": "call_1", "name": "weather", "arguments": {"city": "Paris"}},
            {"type": "text", "text": "Done."},
        ],
        "id": "resp_2",
        "model": "demo-1",
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 12},
        "sources": SOURCES,
    }
    assert FRAMES[1] == {"type": "text", "text": "The"}  # the frames are not changed


def test_without_join_every_frame_is_an_item_and_a_later_field_replaces_an_earlier() -> None:
    frames = [
        {"kind": "a", "x": 1},
        {"kind": "t", "v": "p"},
        {"kind": {"t": 1}, "v": "unhashable"},
        {"v": "no kind"},
        {"kind": "t", "v": "q"},
        {"kind": "a", "x": 2},
    ]
    assert merge_items(frames, items={"t"}, fields={"a"}, kind="kind", into="items") == {
        "items": [{"kind": "t", "v": "p"}, {"kind": "t", "v": "q"}],
        "x": 2,
    }


class _Decoder:
    """The scaffold's frames on the tracker; an ``error`` frame raises, as an answer reporting a
    failure would."""

    def __init__(self) -> None:
        self.parts = StreamParts(sequential=True)

    def feed(self, frame: dict[str, Any]) -> list[ev.StreamEvent]:
        if frame["type"] == "text":
            return self.parts.text(frame["text"])
        if frame["type"] == "error":
            raise ProviderRateLimitError("slow down", provider="demo")
        if frame["type"] == "stop":
            usage = Usage(input_tokens=frame["usage"]["input_tokens"])
            return [*self.parts.finish(), ev.FinishEvent(finish_reason="stop", usage=usage)]
        return []

    def finish(self) -> list[ev.StreamEvent]:
        return self.parts.finish()


def test_a_whole_answer_decoded_as_frames_is_the_streams_result() -> None:
    assert decode_frames(_Decoder(), FRAMES[1:3] + FRAMES[-1:]) == Result(
        content=[TextPart(text="The capital")], finish_reason="stop", usage=Usage(input_tokens=12)
    )


def test_an_error_while_decoding_keeps_what_came_before_as_partial() -> None:
    with pytest.raises(ProviderRateLimitError) as caught:
        decode_frames(_Decoder(), [FRAMES[1], {"type": "error"}, FRAMES[-1]])
    assert caught.value.partial == Result(content=[TextPart(text="The")], finish_reason="error")


def test_frames_that_decode_to_no_finish_event_are_refused() -> None:
    with pytest.raises(ValueError, match="^the answer's frames decoded to no finish event$"):
        decode_frames(_Decoder(), FRAMES[1:3])
