"""Thinking, signatures and redacted thinking go back to Anthropic exactly as they came.

Turn 1 of each recording is replayed; its ``result.message`` is put in the history of turn 2, and
the assistant turn the adapter sends must equal, block for block, the one the recording tool sent
in its (accepted) turn-2 request: thinking text with its signature, redacted data, text and
tool_use in their places. Another model gets the turn without its thinking, with a warning.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from modelport.types import Message, ReasoningPart, TextPart, ToolCallPart

from . import corpus
from .fakes import message, model

P = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__"
ROUND_TRIPS = {
    "thinking": P + "test_anthropic_model_thinking_part.yaml",
    "redacted-thinking": P + "test_anthropic_model_thinking_part_redacted.yaml",
    "thinking-then-tool-use": P + "test_anthropic_tool_with_thinking.yaml",
    "streamed-thinking-then-tool-use": "charmbracelet__fantasy/providertests__testdata__TestAnthropicThinking__claude-sonnet-4__thinking-streaming.yaml",
    "streamed-thinking-tool-chain": "simonw__llm-anthropic/tests__cassettes__test_anthropic__test_fixed_version_tool_chain_with_thinking_display_regression.yaml",
}


def _reply(recorded: corpus.Interaction) -> httpx.Response:
    return httpx.Response(recorded.status, headers=recorded.headers, content=recorded.body)


def _first_turn(name: str) -> tuple[Any, dict[str, Any]]:
    """The result of turn 1 and the recorded turn-2 request."""
    first, second = corpus.interactions(name)[:2]
    assert first.request is not None and second.request is not None
    m, _ = model([_reply(first)], name=first.request["model"])
    prompt = first.request["messages"][0]["content"]
    text = prompt if isinstance(prompt, str) else prompt[0]["text"]
    if first.is_sse:
        return m.stream(prompt=text, max_output_tokens=first.request["max_tokens"]).result(), second.request
    return m.generate(prompt=text, max_output_tokens=first.request["max_tokens"]), second.request


@pytest.mark.parametrize("name", ROUND_TRIPS.values(), ids=ROUND_TRIPS.keys())
def test_the_assistant_turn_goes_back_block_for_block(name: str) -> None:
    result, recorded = _first_turn(name)
    m, sent = model([httpx.Response(200, json=message())], name=recorded["model"])
    m.generate(messages=[Message(role="user", content=[TextPart(text="again")]), result.message])
    assistant = sent.body()["messages"][1]
    assert assistant["role"] == "assistant"
    expected = recorded["messages"][1]["content"]
    # The recording tools send the same blocks; some add fields of their own (None citations).
    expected = [{k: v for k, v in b.items() if v is not None and k != "cache_control"} for b in expected]
    assert assistant["content"] == expected


def test_redacted_thinking_is_an_empty_reasoning_part_holding_the_data() -> None:
    result, recorded = _first_turn(ROUND_TRIPS["redacted-thinking"])
    sent_back = [b for b in recorded["messages"][1]["content"] if b["type"] == "redacted_thinking"]
    parts = [p for p in result.content if isinstance(p, ReasoningPart)]
    assert [(p.text, p.signature, p.provider_metadata) for p in parts] == [
        ("", None, {"anthropic": {"redacted_data": b["data"]}}) for b in sent_back
    ]


def test_another_model_gets_the_turn_without_its_thinking() -> None:
    result, recorded = _first_turn(ROUND_TRIPS["thinking-then-tool-use"])
    m, sent = model([httpx.Response(200, json=message())], name="claude-opus-4-1")
    answer = m.generate(messages=[Message(role="user", content=[TextPart(text="again")]), result.message])
    call = next(p for p in result.content if isinstance(p, ToolCallPart))
    blocks = sent.body()["messages"][1]["content"]
    assert [b["type"] for b in blocks] == [
        b["type"] for b in recorded["messages"][1]["content"] if b["type"] != "thinking"
    ]
    assert blocks[-1] == {"type": "tool_use", "id": call.id, "name": call.name, "input": call.args}
    assert [w.setting for w in answer.warnings] == ["reasoning_replay"]
