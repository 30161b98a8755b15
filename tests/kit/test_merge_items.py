"""The kit's fold of an item-by-item stream into the whole answer (``modelport.http.merge_items``),
on the frames of the scaffold's example API as its fake server sends them (``modelport
new-provider``'s recorded ``stream-cited`` case; the API is a fake one, so the values are MOCK)."""

from __future__ import annotations

from modelport.http import merge_items

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
    frames = [{"kind": "a", "x": 1}, {"kind": "t", "v": "p"}, {"kind": "t", "v": "q"}, {"kind": "a", "x": 2}]
    assert merge_items(frames, items={"t"}, fields={"a"}, kind="kind", into="items") == {
        "items": [{"kind": "t", "v": "p"}, {"kind": "t", "v": "q"}],
        "x": 2,
    }
