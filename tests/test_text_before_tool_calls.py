"""Text that precedes tool calls (a tool plan, a preamble) is an ordinary ``TextPart`` before the
``ToolCallPart`` parts of the same assistant message: decoded so, sent back so by every first-party
plugin (text, then the calls, in one turn), and kept as text when the history goes to another
provider (the replay policy drops reasoning state only).

The turn is the recorded one of pydantic-ai's ``test_multiple_parallel_tool_calls.yaml``
(claude-haiku-4-5: one text block, then four parallel ``tool_use`` blocks; MIT, vendored in
``tests/corpus/anthropic``); the streamed one is vercel/ai's ``anthropic-tool-no-args.chunks.txt``
(Apache-2.0, same place: a text block, then a ``tool_use`` with no arguments). Its second request is what pydantic-ai sent back to Anthropic: the
Anthropic mapping must give the same assistant message. What the other providers receive is
checked against their API references' shapes (no recording exists of these histories sent there).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import yaml

import modelport
from modelport.types import Message, TextPart, ToolCallPart, ToolResultPart
from tests.recordings import anthropic as recording

PARALLEL = (
    "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_multiple_parallel_tool_calls.yaml"
)
PLAN = (
    "I'll help you find out who is the youngest by retrieving information about each family member. "
    "I'll retrieve their entity information to compare their ages."
)
CALLS = [
    ("toolu_0167cfEnoQaPviGdVXA95zcu", "Alice"),
    ("toolu_01EEe2V5HD1Ac4rKiUR4HD2T", "Bob"),
    ("toolu_01XFyAjstT3966qvRynZyVPo", "Charlie"),
    ("toolu_013mnQZbgtK2oe3Mo3XKJsx3", "Daisy"),
]
TOOL = {
    "type": "function",
    "name": "retrieve_entity_info",
    "description": "Get the knowledge about the given entity.",
    "parameters": {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
    },
}
QUESTION = "Alice, Bob, Charlie and Daisy are a family. Who is the youngest?"


def _interactions() -> list[dict[str, Any]]:
    return yaml.safe_load(recording(PARALLEL).read_text())["interactions"]  # type: ignore[no-any-return]


def _sent(model_id: str, messages: list[Message], **options: Any) -> dict[str, Any]:
    """The JSON body ``model_id`` sends for this history (the answer is never read)."""
    bodies: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(400, json={"error": {"message": "stop here"}})

    options.setdefault("api_key", "test-key")
    model = modelport.get_model(model_id, transport=httpx.MockTransport(answer), max_retries=0, **options)
    with pytest.raises(modelport.ModelportError):
        model.generate(messages=messages, tools=[TOOL])
    return bodies[0]


def _decoded_turn() -> Message:
    recorded = _interactions()[0]["response"]["parsed_body"]

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=recorded)

    model = modelport.get_model(
        "anthropic/claude-haiku-4-5", api_key="test-key", transport=httpx.MockTransport(answer)
    )
    return model.generate(prompt=QUESTION, tools=[TOOL], max_output_tokens=4096).message


def _history() -> list[Message]:
    results = [
        "alice is bob's wife",
        "bob is alice's husband",
        "charlie is alice's son",
        "daisy is bob's daughter and charlie's younger sister",
    ]
    return [
        Message(role="user", content=[TextPart(text=QUESTION)]),
        _decoded_turn(),
        Message(
            role="tool",
            content=[
                ToolResultPart(call_id=call_id, name="retrieve_entity_info", output=output)
                for (call_id, _), output in zip(CALLS, results)
            ],
        ),
    ]


def test_the_text_is_a_text_part_before_the_calls() -> None:
    turn = _decoded_turn()
    assert [type(p) for p in turn.content] == [TextPart] + [ToolCallPart] * 4
    assert turn.content[0] == TextPart(text=PLAN)
    assert [(p.id, p.args) for p in turn.content[1:]] == [  # type: ignore[union-attr]
        (call_id, {"name": name}) for call_id, name in CALLS
    ]
    assert turn.origin is not None and turn.origin.provider == "anthropic"


def test_anthropic_sends_it_back_as_recorded() -> None:
    sent = _sent("anthropic/claude-haiku-4-5", _history())
    recorded = _interactions()[1]["request"]["parsed_body"]
    assert sent["messages"][1] == recorded["messages"][1]
    assert [b["type"] for b in sent["messages"][1]["content"]] == ["text"] + ["tool_use"] * 4


def test_chat_completions_gets_content_and_tool_calls_in_one_message() -> None:
    sent = _sent("openai/gpt-4o-mini", _history())
    turn = sent["messages"][1]
    assert turn["role"] == "assistant"
    assert turn["content"] == PLAN
    assert [
        (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"])) for c in turn["tool_calls"]
    ] == [(call_id, "retrieve_entity_info", {"name": name}) for call_id, name in CALLS]
    assert [m["role"] for m in sent["messages"][2:]] == ["tool"] * 4


def test_responses_gets_a_message_item_then_the_function_calls() -> None:
    sent = _sent("openai-responses/gpt-5-nano", _history())
    items = sent["input"][1:6]
    assert items[0]["type"] == "message" and items[0]["role"] == "assistant"
    assert [c["text"] for c in items[0]["content"]] == [PLAN]
    assert [(i["type"], i["call_id"], json.loads(i["arguments"])) for i in items[1:]] == [
        ("function_call", call_id, {"name": name}) for call_id, name in CALLS
    ]


def test_gemini_gets_a_text_part_then_the_function_calls_in_one_turn() -> None:
    sent = _sent("google/gemini-2.5-flash", _history())
    turn = sent["contents"][1]
    assert turn["role"] == "model"
    assert turn["parts"][0] == {"text": PLAN}
    assert [p["functionCall"]["args"] for p in turn["parts"][1:]] == [{"name": name} for _, name in CALLS]


def test_the_replay_policy_keeps_the_text_when_the_provider_changes() -> None:
    from modelport.reasoning import apply_reasoning_replay
    from modelport.types import Request

    history = _history()
    target = modelport.get_model("google/gemini-2.5-flash", api_key="test-key")
    replayed, warnings = apply_reasoning_replay(
        Request(messages=history, tools=[TOOL]), target.provider, target.name
    )
    assert replayed.messages[1].content == history[1].content
    assert warnings == []


NO_ARGS = "vercel__ai/packages__anthropic__src____fixtures____anthropic-tool-no-args.chunks.txt"


def test_a_streamed_turn_gives_the_text_block_then_the_call() -> None:
    frames = [line for line in recording(NO_ARGS).read_text().splitlines() if line]
    body = "".join(f"event: {json.loads(f)['type']}\ndata: {f}\n\n" for f in frames)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})

    model = modelport.get_model(
        "anthropic/claude-sonnet-4-5", api_key="test-key", transport=httpx.MockTransport(answer)
    )
    tool = {**TOOL, "name": "updateIssueList", "parameters": {"type": "object", "properties": {}}}
    stream = model.stream(prompt="Update the issue list.", tools=[tool])
    kinds = [
        e.type for e in stream if e.type in ("text-start", "text-end", "tool-call-start", "tool-call-end")
    ]
    content = stream.result().message.content
    assert kinds == ["text-start", "text-end", "tool-call-start", "tool-call-end"]
    assert content == [
        TextPart(text="I'll update the issue list for you."),
        ToolCallPart(id="toolu_01QE1WLsSVp5hy5Q3GmGTmjP", name="updateIssueList", args={}),
    ]
    sent = _sent(
        "openai/gpt-4o-mini",
        [Message(role="user", content=[TextPart(text="Update it.")]), stream.result().message],
    )
    assert (sent["messages"][1]["content"], sent["messages"][1]["tool_calls"][0]["id"]) == (
        "I'll update the issue list for you.",
        "toolu_01QE1WLsSVp5hy5Q3GmGTmjP",
    )
