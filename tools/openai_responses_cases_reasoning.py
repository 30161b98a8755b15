# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai-responses`` cases about reasoning: summaries, encrypted items, and their replay ahead
of the items they precede in the next turn."""

from __future__ import annotations

from typing import Any

from openai_responses_case_data import ADAPTED, FINAL, PLAN, SAME, WEATHER, F, P, V, result, turn
from openai_responses_corpus import chunks, raw_json, vcr

__all__ = ["reasoning_cases"]


def reasoning_cases() -> list[dict[str, Any]]:
    thinking = P + "openai_responses_model_thinking_part.yaml"
    tool_thinking = P + "openai_responses_thinking_with_tool_calls.yaml"
    summary = F + "TestOpenAIResponsesWithSummaryThinking__openai-gpt-5__thinking-streaming.yaml"
    encrypted = V + "openai-reasoning-encrypted-content.1.chunks.txt"
    poem = [{"role": "user", "content": "Compose a 12-line poem"}]
    street = [{"role": "user", "content": "How do I cross the street?"}]
    florence = [{"role": "user", "content": "What's the weather in Florence, Italy?"}]
    first_poem = turn(vcr(tool_thinking, 0))
    first_weather = turn(vcr(summary, 0))
    out: list[dict[str, Any]] = [
        {
            "name": "stream-reasoning-required-call-usage",
            "description": "gpt-5 stream: an encrypted reasoning item without summary, a required call; usage with 448 reasoning tokens on response.completed.",
            "method": "stream",
            "model": "gpt-5",
            "features": ["function_tools", "reasoning"],
            "request": {
                "prompt": "Calculate 100 * 200 / 3",
                "tools": [FINAL],
                "tool_choice": "required",
                "reasoning": {"effort": "low"},
            },
            "response": vcr(P + "openai_responses_streaming_usage.yaml"),
            "source": P + "openai_responses_streaming_usage.yaml",
            "note": ADAPTED,
        },
        {
            "name": "generate-reasoning-summary-encrypted",
            "description": "gpt-5 with effort high: a reasoning item with six summaries and encrypted_content, then the message.",
            "method": "generate",
            "model": "gpt-5",
            "features": ["reasoning"],
            "request": {"messages": street, "reasoning": {"effort": "high"}},
            "response": vcr(thinking, 0),
            "source": thinking,
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "generate-reasoning-replayed-before-message",
            "description": "Second turn: the reasoning item (id, summaries, encrypted_content) sent back ahead of its message item.",
            "method": "generate",
            "model": "gpt-5",
            "features": ["reasoning"],
            "request": {
                "messages": [
                    *street,
                    turn(vcr(thinking, 0)),
                    {
                        "role": "user",
                        "content": "Considering the way to cross the street, analogously, how do I cross the river?",
                    },
                ],
                "reasoning": {"effort": "high"},
            },
            "response": vcr(thinking, 1),
            "source": thinking,
            "interaction": 1,
            "note": ADAPTED,
        },
        {
            "name": "stream-reasoning-summary-deltas",
            "description": "o3-mini stream: 383 reasoning_summary_text.delta events across summary parts, then text.",
            "method": "stream",
            "model": "o3-mini",
            "features": ["reasoning"],
            "request": {"messages": street, "reasoning": {"effort": "high"}},
            "response": vcr(P + "openai_responses_thinking_part_iter.yaml"),
            "source": P + "openai_responses_thinking_part_iter.yaml",
            "note": ADAPTED,
        },
        {
            "name": "generate-reasoning-then-function-call",
            "description": "gpt-5: reasoning with five summaries, then a function_call; reasoning tokens 1792.",
            "method": "generate",
            "model": "gpt-5",
            "features": ["function_tools", "reasoning"],
            "request": {
                "system": "You are a helpful assistant.",
                "messages": poem,
                "tools": [PLAN],
                "tool_choice": "auto",
                "reasoning": {"effort": "low"},
            },
            "response": vcr(tool_thinking, 0),
            "source": tool_thinking,
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "generate-reasoning-replayed-before-function-call",
            "description": "The reasoning item replayed ahead of its function_call, then the output: cached_tokens 2048.",
            "method": "generate",
            "model": "gpt-5",
            "features": ["function_tools", "reasoning"],
            "request": {
                "system": "You are a helpful assistant.",
                "messages": [
                    *poem,
                    first_poem,
                    result(first_poem["content"][-1]["id"], "update_plan", "plan updated"),
                ],
                "tools": [PLAN],
                "tool_choice": "auto",
                "reasoning": {"effort": "low"},
            },
            "response": vcr(tool_thinking, 1),
            "source": tool_thinking,
            "interaction": 1,
            "note": ADAPTED,
        },
        {
            "name": "stream-summary-thinking-function-call",
            "description": "gpt-5 stream: 153 reasoning_summary_text deltas, encrypted reasoning, a function call.",
            "method": "stream",
            "model": "gpt-5",
            "features": ["function_tools", "reasoning"],
            "request": {
                "system": "You are a helpful assistant",
                "messages": florence,
                "tools": [WEATHER],
                "tool_choice": "auto",
                "reasoning": {"effort": "high"},
            },
            "response": vcr(summary, 0),
            "source": summary,
            "interaction": 0,
            "note": SAME,
        },
        {
            "name": "stream-summary-thinking-after-function-output",
            "description": "Turn 2: the reasoning item and its function_call sent back with their ids, then the output.",
            "method": "stream",
            "model": "gpt-5",
            "features": ["function_tools", "reasoning"],
            "request": {
                "system": "You are a helpful assistant",
                "messages": [
                    *florence,
                    first_weather,
                    result(first_weather["content"][-1]["id"], "weather", "40 C"),
                ],
                "tools": [WEATHER],
                "tool_choice": "auto",
                "reasoning": {"effort": "high"},
            },
            "response": vcr(summary, 1),
            "source": summary,
            "interaction": 1,
            "note": "the recorded turn 2 dropped the reasoning item and the call's id; the canonical one sends them",
        },
        {
            "name": "stream-summary-thinking-effort-options",
            "description": "The recorded gpt-5 stream, its effort and summary asked for through the reasoning_effort and reasoning_summary options instead of reasoning: the same reasoning object is sent.",
            "method": "stream",
            "model": "gpt-5",
            "features": ["function_tools", "reasoning"],
            "request": {
                "system": "You are a helpful assistant",
                "messages": florence,
                "tools": [WEATHER],
                "tool_choice": "auto",
                "provider_options": {"openai-responses": {"reasoning_effort": "high", "reasoning_summary": "auto"}},
            },
            "response": vcr(summary, 0),
            "source": summary,
            "interaction": 0,
            "note": SAME + " (its reasoning object from the two options)",
        },
        {
            "name": "generate-reasoning-encrypted-content",
            "description": "include reasoning.encrypted_content: a reasoning item with summary_text and encrypted_content.",
            "method": "generate",
            "model": "gpt-5",
            "features": ["reasoning"],
            "request": {"prompt": "Hello", "reasoning": {"effort": "medium"}},
            "response": raw_json(V + "openai-reasoning-encrypted-content.1.json"),
            "source": V + "openai-reasoning-encrypted-content.1.json",
            "note": "body-only recording; canonical request",
        },
    ]
    for index in range(4):
        out.append(
            {
                "name": f"stream-codex-reasoning-{index + 1}",
                "description": f"gpt-5.1-codex-max stream {index + 1} of 4: summary deltas, encrypted reasoning, argument deltas.",
                "method": "stream",
                "model": "gpt-5.1-codex-max",
                "features": ["reasoning"],
                "request": {"prompt": "Hello", "reasoning": {"effort": "medium"}},
                "response": chunks(encrypted, index),
                "source": encrypted,
                "note": f"body-only recording, stream {index + 1} of the 4 concatenated; canonical request",
            }
        )
    return out
