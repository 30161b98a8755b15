"""The kit's stream bookkeeping (``modelport.http.StreamParts``): the exact events it gives for what a
decoder says its frames mean, and a real recording decoded with it to what the first-party decoder
gives. The hand-written fragments below are MOCK (they test the tracker's rules, not a provider's
shapes); the recordings are the Anthropic plugin's vendored ``stream-thinking-then-tool-call`` case
and the OpenAI plugin's ``stream-parallel-tool-calls``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from modelport import events as ev
from modelport.http import StreamParts
from modelport.types import ReasoningPart, TextPart, ToolCallPart

ROOT = Path(__file__).resolve().parents[2]
RECORDING = (
    ROOT / "plugins/anthropic/src/modelport_anthropic/cassettes/anthropic/stream-thinking-then-tool-call"
)
CHAT_RECORDING = ROOT / "plugins/openai/src/modelport_openai/cassettes/openai/stream-parallel-tool-calls"


def _dump(events: list[ev.StreamEvent]) -> list[dict[str, Any]]:
    return [event.model_dump(exclude_none=True) for event in events]


def test_sequential_parts_end_when_the_next_begins() -> None:
    parts = StreamParts(sequential=True)
    events = [
        *parts.text("Hel"),
        *parts.text("lo"),
        *parts.call("call_1", "weather", {"city": "Paris"}),
        *parts.text(""),
        *parts.text("Done."),
        *parts.finish(),
    ]
    assert _dump(events) == [
        {"type": "text-start", "id": "text-0"},
        {"type": "text-delta", "id": "text-0", "delta": "Hel"},
        {"type": "text-delta", "id": "text-0", "delta": "lo"},
        {"type": "text-end", "id": "text-0"},
        {"type": "tool-call-start", "id": "call-1", "call_id": "call_1", "name": "weather"},
        {"type": "tool-call-delta", "id": "call-1", "delta": '{"city": "Paris"}'},
        {
            "type": "tool-call-end",
            "id": "call-1",
            "part": {
                "type": "tool-call",
                "id": "call_1",
                "name": "weather",
                "args": {"city": "Paris"},
                "provider_executed": False,
            },
        },
        {"type": "text-start", "id": "text-2"},
        {"type": "text-delta", "id": "text-2", "delta": "Done."},
        {"type": "text-end", "id": "text-2"},
    ]
    assert parts.offset == len("HelloDone.")
    assert parts.finish() == []


def test_keyed_parts_stay_open_until_their_end_and_finish_ends_the_rest_in_start_order() -> None:
    parts = StreamParts()
    cited = {"acme": {"citations": [1]}}
    events = [
        *parts.text("Para", key=0),
        *parts.call_start("toolu_1", "search", key=1),
        *parts.text("graph one.", key=0),
        *parts.call_args('{"q": ', key=1),
        *parts.call_args("", key=1),
        *parts.end(0, metadata=cited),
        *parts.end(0),
        *parts.reasoning("hmm", key=2),
        *parts.call_args('"x"}', key=1),
        *parts.finish(),
    ]
    assert _dump(events) == [
        {"type": "text-start", "id": "text-0"},
        {"type": "text-delta", "id": "text-0", "delta": "Para"},
        {"type": "tool-call-start", "id": "call-1", "call_id": "toolu_1", "name": "search"},
        {"type": "text-delta", "id": "text-0", "delta": "graph one."},
        {"type": "tool-call-delta", "id": "call-1", "delta": '{"q": '},
        {"type": "text-end", "id": "text-0", "provider_metadata": cited},
        {"type": "reasoning-start", "id": "reasoning-2"},
        {"type": "reasoning-delta", "id": "reasoning-2", "delta": "hmm"},
        {"type": "tool-call-delta", "id": "call-1", "delta": '"x"}'},
        {"type": "tool-call-end", "id": "call-1"},
        {"type": "reasoning-end", "id": "reasoning-2"},
    ]
    result = ev.accumulate(events)
    assert result.content == [
        TextPart(text="Paragraph one.", provider_metadata=cited),
        ToolCallPart(id="toolu_1", name="search", args={"q": "x"}),
        ReasoningPart(text="hmm"),
    ]


def test_a_key_started_again_is_a_new_part_and_another_kind_at_a_key_ends_the_first() -> None:
    parts = StreamParts()
    events = [
        *parts.text("a", key=3),
        *parts.end(3),
        *parts.text("b", key=3),
        *parts.reasoning("c", key=3, metadata={"acme": {"x": 1}}),
        *parts.end(3, signature="sig"),
    ]
    assert [(e["type"], e["id"]) for e in _dump(events)] == [
        ("text-start", "text-0"),
        ("text-delta", "text-0"),
        ("text-end", "text-0"),
        ("text-start", "text-1"),
        ("text-delta", "text-1"),
        ("text-end", "text-1"),
        ("reasoning-start", "reasoning-2"),
        ("reasoning-delta", "reasoning-2"),
        ("reasoning-end", "reasoning-2"),
    ]
    assert events[6] == ev.ReasoningStartEvent(id="reasoning-2", provider_metadata={"acme": {"x": 1}})
    assert events[-1] == ev.ReasoningEndEvent(id="reasoning-2", signature="sig")


def test_the_offset_counts_the_answer_text_and_each_text_part_knows_where_it_began() -> None:
    parts = StreamParts()
    parts.text("The capital ", key="a")
    parts.reasoning("not counted", key="r")
    parts.text("of France", key="b")
    assert (parts.started_at("a"), parts.started_at("b"), parts.offset) == (0, 12, 21)
    parts.text(" is Paris.", key="a")
    assert (parts.started_at("a"), parts.offset) == (0, 31)
    assert parts.is_open("r") and not parts.is_open("z")


def test_a_fragment_of_no_open_call_is_a_key_error_for_the_decoder_guard() -> None:
    parts = StreamParts()
    with pytest.raises(KeyError):
        parts.call_args("{}", key=7)
    parts.text("x", key=7)
    with pytest.raises(KeyError, match="part 'text-0' at 7 is not a tool call"):
        parts.call_args("{}", key=7)


@pytest.mark.parametrize("fragment", [None, 3, ["a"]])
def test_a_fragment_that_is_not_a_string_is_a_type_error_and_changes_nothing(fragment: Any) -> None:
    parts = StreamParts()
    parts.text("a")
    parts.call_start("c1", "f", key=1)
    for add in (parts.text, parts.reasoning, lambda f: parts.call_args(f, 1)):
        with pytest.raises(TypeError, match="fragment must be a string, not "):
            add(fragment)
    assert (parts.offset, parts.is_open(0), parts.is_open(1)) == (1, True, True)
    assert _dump(parts.text("b")) == [{"type": "text-delta", "id": "text-0", "delta": "b"}]


def test_whole_call_arguments_given_as_text_are_parsed_by_the_core_and_kept_raw_when_bad() -> None:
    parts = StreamParts(sequential=True)
    events = [*parts.call("c1", "f", '{"a": 1'), *parts.call("c2", "g", "")]
    assert _dump(events) == [
        {"type": "tool-call-start", "id": "call-0", "call_id": "c1", "name": "f"},
        {"type": "tool-call-delta", "id": "call-0", "delta": '{"a": 1'},
        {"type": "tool-call-end", "id": "call-0"},
        {"type": "tool-call-start", "id": "call-1", "call_id": "c2", "name": "g"},
        {"type": "tool-call-end", "id": "call-1"},
    ]
    result = ev.accumulate([*events, ev.FinishEvent(finish_reason="tool-calls")])
    assert result.content == [
        ToolCallPart(id="c1", name="f", args={}, provider_metadata={"modelport": {"raw_args": '{"a": 1'}}),
        ToolCallPart(id="c2", name="g", args={}),
    ]
    assert [w.setting for w in result.warnings] == ["tool_calls"]


def _frames(case: Path = RECORDING) -> list[Any]:
    cassette = yaml.safe_load((case / "cassette.yaml").read_text(encoding="utf-8"))
    return [event["data"] for event in cassette["interactions"][0]["response"]["body"]["sse"]]


def _golden(case: Path) -> Any:
    recorded = json.loads((case / "expected.json").read_text(encoding="utf-8"))["events"]
    return ev.accumulate(ev.parse_event(event) for event in recorded)


def _decode_with_parts(frames: list[dict[str, Any]]) -> list[ev.StreamEvent]:
    """The Messages API's blocks through the tracker, keyed by block index: what the Anthropic
    decoder's block bookkeeping becomes (its other rules, usage and stop reasons, left out)."""
    parts, out = StreamParts(), []
    signatures: dict[int, str] = {}
    for frame in frames:
        index = frame.get("index", 0)
        if frame["type"] == "content_block_start":
            block = frame["content_block"]
            if block["type"] == "tool_use":
                out += parts.call_start(block["id"], block["name"], index)
        elif frame["type"] == "content_block_delta":
            delta = frame["delta"]
            if delta["type"] == "text_delta":
                out += parts.text(delta["text"], index)
            elif delta["type"] == "thinking_delta":
                out += parts.reasoning(delta["thinking"], index)
            elif delta["type"] == "signature_delta":
                signatures[index] = delta["signature"]
            elif delta["type"] == "input_json_delta":
                out += parts.call_args(delta["partial_json"], index)
        elif frame["type"] == "content_block_stop":
            out += parts.end(index, signature=signatures.get(index))
    return [*out, *parts.finish()]


def test_a_real_recording_through_the_tracker_gives_the_first_party_decoders_parts() -> None:
    events = _decode_with_parts(_frames())
    golden = _golden(RECORDING)
    assert ev.accumulate(events).content == golden.content
    assert [type(part).__name__ for part in golden.content] == ["ReasoningPart", "ToolCallPart"]
    assert golden.content[1] == ToolCallPart(
        id="toolu_01Js4AMfx5qpTLhwTusnvT68", name="weather", args={"location": "Florence, Italy"}
    )
    kinds = [event.type for event in events]  # the empty first fragment of the arguments sends no delta
    assert (kinds[0], kinds[-1], kinds.count("tool-call-delta")) == ("reasoning-start", "tool-call-end", 6)


def _decode_chat_with_parts(chunks: list[Any]) -> list[ev.StreamEvent]:
    """Chat Completions chunks through the tracker: text and reasoning at one key (a change of kind
    ends the part), each call at its index, started once its name is known; every part ends at the
    end. What the OpenAI decoder's ``_text``/``_close``/``_call`` bookkeeping becomes (its quirks,
    a call id reused at an index, usage and logprobs, left out)."""
    parts, out = StreamParts(), []
    for chunk in chunks:
        if chunk == "[DONE]":
            continue
        for choice in chunk["choices"]:
            delta = choice["delta"]
            if delta.get("content"):
                out += parts.text(delta["content"], "content")
            for call in delta.get("tool_calls") or []:
                key = ("call", call["index"])
                if not parts.is_open(key):
                    out += parts.call_start(call["id"], call["function"]["name"], key)
                out += parts.call_args(call["function"].get("arguments") or "", key)
    return [*out, *parts.finish()]


def test_a_real_chat_completions_stream_through_the_tracker_gives_the_first_party_parts() -> None:
    events = _decode_chat_with_parts(_frames(CHAT_RECORDING))
    golden = _golden(CHAT_RECORDING)
    assert ev.accumulate(events).content == golden.content
    assert [(call.name, call.args) for call in golden.tool_calls] == [
        ("get_current_weather", {"location": "Seattle, WA"}),
        ("get_current_weather", {"location": "San Francisco, CA"}),
    ]
    assert [(e.type, e.id) for e in events if e.type != "tool-call-delta"] == [
        ("tool-call-start", "call-0"),
        ("tool-call-start", "call-1"),
        ("tool-call-end", "call-0"),
        ("tool-call-end", "call-1"),
    ]
