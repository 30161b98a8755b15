"""``modelport.wire_map``: the path syntax a plugin declares its wire map in, and the checks its
dataclasses make when a plugin class is defined."""

from __future__ import annotations

import pytest

from modelport.wire_map import BodyMap, Count, RequestMap, Span, WireMap, WirePath, get, locate, replaced

FRAMES = [
    {"type": "message_start", "message": {"usage": {"input_tokens": 9, "output_tokens": 1}}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
    {"type": "message_delta", "usage": {"output_tokens": 4}},
]
ANSWER = {
    "choices": [{"message": {"tool_calls": [{"function": {"name": "a"}}, {"function": {"name": "b"}}]}}],
    "a/b": {"~": 1},
}


def test_a_wildcard_reaches_every_item_and_records_what_it_took() -> None:
    path = WirePath.parse("/choices/0/message/tool_calls/*/function/name")
    assert path.locate(ANSWER) == [
        (("choices", 0, "message", "tool_calls", 0, "function", "name"), (0,)),
        (("choices", 0, "message", "tool_calls", 1, "function", "name"), (1,)),
    ]


def test_minus_one_is_the_last_item_and_escapes_are_json_pointers() -> None:
    assert locate("/choices/0/message/tool_calls/-1/function/name", ANSWER) == [
        (("choices", 0, "message", "tool_calls", 1, "function", "name"), ())
    ]
    assert locate("/a~1b/~0", ANSWER) == [(("a/b", "~"), ())]
    assert locate("/choices/5/message", ANSWER) == []


def test_a_condition_selects_the_frames_it_holds_on() -> None:
    paths = ("[/type=message_start]/message/usage/output_tokens", "[/type=message_delta]/usage/output_tokens")
    found = [(number, locate(paths, frame)) for number, frame in enumerate(FRAMES)]
    assert found == [
        (0, [(("message", "usage", "output_tokens"), ())]),
        (1, []),
        (2, [(("usage", "output_tokens"), ())]),
    ]
    assert locate("[/index=0]/delta/text", FRAMES[1]) == [(("delta", "text"), ())]  # compared as JSON text


def test_replaced_copies_the_way_and_leaves_the_document_alone() -> None:
    edited = replaced(FRAMES[1], ("delta", "text"), "Ho")
    assert get(edited, ("delta", "text")) == "Ho"
    assert FRAMES[1]["delta"]["text"] == "Hi"


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        ("usage/input_tokens", "does not start with '/'"),
        ("/usage//input_tokens", "has an empty segment"),
        ("[type=stop]/usage", "a condition is [/pointer=value]"),
        ("[/type]/usage", "a condition is [/pointer=value]"),
    ],
)
def test_a_path_that_is_none_is_refused_when_the_map_is_built(path: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem.replace("[", r"\[").replace("]", r"\]")):
        BodyMap(text=path)


def test_counts_name_usage_fields_and_one_path_is_a_tuple_of_one() -> None:
    with pytest.raises(ValueError, match="'input' is not a Usage count"):
        Count("input", "/usage/input")
    with pytest.raises(ValueError, match="'prompt_tokens' is not a Usage count"):
        Count("input_tokens", "/usage/input_tokens", also="prompt_tokens")
    body = BodyMap(usage=Count("input_tokens", "/u"), text="/t", citations=Span("/c/*/s", "/c/*/e"))
    assert (body.text, body.counts[0].paths, body.counts[0].also) == (("/t",), ("/u",), ())
    assert body.spans == (Span("/c/*/s", "/c/*/e"),)
    assert RequestMap(system="/system").system == ("/system",)
    with pytest.raises(ValueError, match="different wildcards"):
        Span("/c/*/s", "/c/e")
    with pytest.raises(ValueError, match="citation_units"):
        WireMap(citation_units="bytes")  # type: ignore[arg-type]
