"""Gemini 3 streamed function-call arguments (``partialArgs``) as the API really sends them.

Two real recordings (tests/corpus/gemini/vercel__ai, Vertex AI with ``streamFunctionCallArguments``)
end every streamed call with an empty ``{"functionCall": {}}`` part. That part closes the call; it is
no call of its own (it made a nameless extra call, which a tool loop then ran as tool ``''`` and
Gemini refused in the replayed history).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from modelport_google._stream import StreamDecoder, merge_frames

from . import corpus as c
from .mock import SSE, model, response

V = "vercel__ai"
TWO_CALLS = "packages__google__src____fixtures____google-stream-tool-call-arguments.chunks.txt"
FOUR_CALLS = "packages__google__src____fixtures____google-stream-no-args-tool-call.chunks.txt"
NESTED = "packages__google__src____fixtures____google-vertex-stream-tool-call-arguments-nested.1.chunks.txt"

CALLS = {
    TWO_CALLS: [("getWeather", {"location": "Boston"}), ("getWeather", {"location": "San Francisco"})],
    FOUR_CALLS: [
        ("read_theme", {}),
        ("read_screen", {"id": "A"}),
        ("read_screen", {"id": "B"}),
        ("read_screen", {"id": "C"}),
    ],
}


def streamed(name: str) -> Any:
    m, _ = model([response(200, c.sse_body(c.chunks(V, name)), SSE)], "google-vertex/gemini-3.1-pro-preview")
    return m.stream(prompt="Hi").result()


@pytest.mark.parametrize("name", [TWO_CALLS, FOUR_CALLS], ids=["two-calls", "four-calls"])
def test_each_streamed_call_is_one_call_with_its_arguments(name: str) -> None:
    result = streamed(name)
    assert [(call.name, call.args) for call in result.tool_calls] == CALLS[name]
    assert result.finish_reason == "tool-calls"
    assert [w for w in result.warnings if w.setting == "tool_calls"] == []


@pytest.mark.parametrize("name", [TWO_CALLS, FOUR_CALLS], ids=["two-calls", "four-calls"])
def test_the_merged_frames_replay_only_the_calls(name: str) -> None:
    parts = merge_frames(c.chunks(V, name))["candidates"][0]["content"]["parts"]
    calls = [part["functionCall"] for part in parts if "functionCall" in part]
    assert [(call["name"], call.get("args", {})) for call in calls] == CALLS[name]
    result = streamed(name)
    assert [p for p in result.replay["google"]["parts"] if "functionCall" in p] == [
        p for p in parts if "functionCall" in p
    ]


def test_the_first_call_keeps_its_thought_signature() -> None:
    [first, second] = streamed(TWO_CALLS).tool_calls
    assert first.provider_metadata["google"]["thoughtSignature"].startswith("CiMBjz1rX25KieIB4d4AwFn8")
    assert "google" not in (second.provider_metadata or {})


def test_a_nested_call_streamed_in_75_pieces_is_one_call() -> None:
    frames = c.chunks(V, NESTED)
    decoder = StreamDecoder()
    events = [e for f in frames for e in decoder.feed(f)] + decoder.finish()
    ends = [e for e in events if e.type == "tool-call-end"]
    [end] = ends
    args = end.part.args
    assert end.part.name == "cookRecipe"
    assert args["recipe"]["name"] == "Lasagna"
    assert [i["name"] for i in args["recipe"]["ingredients"]][:3] == [
        "Lasagna noodles",
        "Ground beef",
        "Ricotta cheese",
    ]
    assert len(args["recipe"]["ingredients"]) == 10 and len(args["recipe"]["steps"]) == 10
    assert args["recipe"]["steps"][4] == "In a 9x13 baking dish, spread a thin layer of meat sauce."
    deltas = "".join(e.delta for e in events if e.type == "tool-call-delta")
    assert json.loads(deltas) == args
