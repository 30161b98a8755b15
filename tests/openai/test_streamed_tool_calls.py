"""Streamed tool calls that servers send in odd shapes: arguments as a JSON object instead of text
(taken as the arguments, streamed or not: both paths give the same call), and a delta at a call's
index that carries another call id (a second call, never merged into the first)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from modelport_openai._stream import merge_frames

from modelport.events import ToolCallEndEvent
from modelport.types import ToolCallPart

from .fakes import model, response, sse


def call_chunk(index: int, *, id: str | None = None, name: str | None = None, arguments: Any = None) -> dict:
    function: dict[str, Any] = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    call: dict[str, Any] = {"index": index, "function": function}
    if id is not None:
        call["id"], call["type"] = id, "function"
    return {"id": "chatcmpl-1", "model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}


FINISH = {
    "id": "chatcmpl-1",
    "model": "m",
    "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
}


def completion(arguments: Any) -> dict[str, Any]:
    call = {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return {
        "id": "chatcmpl-1",
        "model": "m",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
    }


@pytest.mark.parametrize(
    ("arguments", "args", "raw"),
    [
        ({"city": "Paris", "days": 2}, {"city": "Paris", "days": 2}, None),
        ({}, {}, None),
        (["Paris"], {}, '["Paris"]'),  # no JSON object: kept as text, with the usual warning
    ],
    ids=["object", "empty-object", "array"],
)
def test_arguments_sent_as_json_are_the_same_call_streamed_and_not(
    arguments: Any, args: Any, raw: Any
) -> None:
    frames = [call_chunk(0, id="call_a", name="get_weather", arguments=arguments), FINISH]
    m, _ = model([sse(frames), response(200, completion(arguments))], max_retries=0)
    streamed = m.stream(prompt="Weather?").result()
    unary = m.generate(prompt="Weather?")
    expected_metadata = None if raw is None else {"modelport": {"raw_args": raw}}
    assert (
        streamed.tool_calls
        == unary.tool_calls
        == [ToolCallPart(id="call_a", name="get_weather", args=args, provider_metadata=expected_metadata)]
    )
    assert streamed.warnings == unary.warnings
    assert len(streamed.warnings) == (0 if raw is None else 1)
    # The frames merged into one body decode to the same call (the conformance "merged" check).
    merged_call = merge_frames(frames)["choices"][0]["message"]["tool_calls"][0]
    assert merged_call["function"]["arguments"] == json.dumps(arguments)


def test_a_delta_at_the_same_index_with_another_id_is_a_second_call() -> None:
    frames = [
        call_chunk(0, id="call_a", name="get_weather", arguments='{"city":'),
        call_chunk(0, arguments=' "Paris"}'),
        call_chunk(0, id="call_b", name="get_time", arguments='{"zone": "CET"}'),
        FINISH,
    ]
    m, _ = model([sse(frames)], max_retries=0)
    stream = m.stream(prompt="Weather and time?")
    events = list(stream)
    calls = [
        ToolCallPart(id="call_a", name="get_weather", args={"city": "Paris"}),
        ToolCallPart(id="call_b", name="get_time", args={"zone": "CET"}),
    ]
    assert stream.result().tool_calls == calls
    assert [e.part for e in events if isinstance(e, ToolCallEndEvent)] == calls
    merged = merge_frames(frames)["choices"][0]["message"]["tool_calls"]
    assert [(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in merged] == [
        ("call_a", "get_weather", '{"city": "Paris"}'),
        ("call_b", "get_time", '{"zone": "CET"}'),
    ]


def test_the_same_id_repeated_at_an_index_stays_one_call() -> None:
    # Mistral repeats the id (and an empty name) on later deltas of the same call.
    frames = [
        call_chunk(0, id="call_a", name="get_weather", arguments='{"city":'),
        call_chunk(0, id="call_a", name="", arguments=' "Paris"}'),
        FINISH,
    ]
    m, _ = model([sse(frames)], max_retries=0)
    assert m.stream(prompt="Weather?").result().tool_calls == [
        ToolCallPart(id="call_a", name="get_weather", args={"city": "Paris"})
    ]
