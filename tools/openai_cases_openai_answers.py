# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The hand-written MOCK answers of the ``openai`` cases of :mod:`openai_cases_openai_faults`
(mapping code no other case reached, issue #35): ``response_format`` JSON without a schema
(``json_object``), a strict schema's format strict mode does not take, a reasoning part left out
of a user message, a legacy ``function_call`` message, tool arguments sent as an object, a dated
snapshot of a sampling model, and ``effort="max"`` on each model whose highest level is ``xhigh``.
Each answer is in the API reference's ``chat.completion`` shape; no recording is behind them."""

from __future__ import annotations

import json
from typing import Any

from openai_case_data import CREATE
from openai_corpus import JSON_TYPE, Recorded

__all__ = ["answer_cases"]

WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "Get weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def _answer(message: dict[str, Any], finish: str = "stop", model: str = "gpt-4o-mini-2024-07-18") -> Recorded:
    """A hand-written ``chat.completion`` in the API reference's shape (MOCK)."""
    body = {
        "id": "chatcmpl-mock-faults",
        "object": "chat.completion",
        "created": 1780000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "refusal": None, "annotations": [], **message},
                "logprobs": None,
                "finish_reason": finish,
            }
        ],
        "usage": {
            "prompt_tokens": 52,
            "completion_tokens": 9,
            "total_tokens": 61,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
        },
        "service_tier": "default",
        "system_fingerprint": "fp_mock",
    }
    return 200, JSON_TYPE, json.dumps(body)


def _mock(note: str, anchor: str) -> dict[str, Any]:
    return {"mock": True, "docs": [f"{CREATE}#chat-create-{anchor}"], "note": "MOCK: " + note}


def _weather_call(arguments: Any) -> dict[str, Any]:
    call = {
        "id": "call_mock_weather",
        "type": "function",
        "function": {"name": "get_weather", "arguments": arguments},
    }
    return {"content": None, "tool_calls": [call]}


def _answers() -> list[dict[str, Any]]:
    return [
        {
            "name": "generate-json-object",
            "description": "response_format JSON without a schema: response_format json_object sent; the JSON text answered.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "features": ["structured_output"],
            "request": {"prompt": "List two colours as JSON.", "response_format": {"type": "json"}},
            "response": _answer({"content": '{"colours": ["red", "blue"]}'}),
            "source_dict": _mock(
                "no recorded Chat Completions call with response_format json_object is vendored; the request is the API reference's, the answer hand-written",
                "response_format",
            ),
        },
        {
            "name": "generate-strict-schema-format-dropped",
            "description": "A strict json_schema with a string format strict mode does not take (uri): the format not sent, an unsupported-setting warning names it; the JSON answered.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "features": ["structured_output"],
            "request": {
                "prompt": "Give me the address of the Python website as JSON.",
                "response_format": {
                    "type": "json_schema",
                    "name": "site",
                    "schema": {
                        "type": "object",
                        "properties": {"url": {"type": "string", "format": "uri"}},
                        "required": ["url"],
                    },
                    "strict": True,
                },
            },
            "response": _answer({"content": '{"url": "https://www.python.org"}'}),
            "source_dict": _mock(
                "no recording of a strict schema with a format strict mode does not take is vendored; the request is the API reference's (the Structured Outputs guide's supported formats), the answer hand-written",
                "response_format",
            ),
        },
        {
            "name": "generate-user-reasoning-dropped",
            "description": "A user message holding a reasoning part beside its text: the reasoning is left out, the text sent as a text content part.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "reasoning", "text": "They want a greeting."},
                            {"type": "text", "text": "Hello"},
                        ],
                    }
                ]
            },
            "response": _answer({"content": "Hello! How can I help?"}),
            "source_dict": _mock(
                "no recording of a reasoning part in a user message is vendored; the request is the API reference's, the answer hand-written",
                "messages",
            ),
        },
        {
            "name": "generate-legacy-function-call",
            "description": "An answer in the deprecated function_call shape (finish_reason function_call): one tool call, id function_call, with the function's name and arguments.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "features": ["function_tools"],
            "request": {"prompt": "What's the weather in Paris?", "tools": [WEATHER]},
            "response": _answer(
                {"content": None, "function_call": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
                "function_call",
            ),
            "source_dict": _mock(
                "no recording of a legacy function_call answer is vendored; the message is the reference's deprecated function_call shape, hand-written",
                "function_call",
            ),
        },
        {
            "name": "generate-sampling-model-snapshot",
            "description": "temperature on gpt-5.4-nano-2026-03-17, a dated snapshot of a model that takes it while it does not reason: temperature sent, no warning.",
            "method": "generate",
            "model": "gpt-5.4-nano-2026-03-17",
            "request": {"prompt": "What is the capital of France?", "temperature": 0.2},
            "response": _answer({"content": "Paris."}, model="gpt-5.4-nano-2026-03-17"),
            "source_dict": _mock(
                "no recorded Chat Completions call of gpt-5.4-nano is vendored (its Responses recordings are openai-responses' cases); the answer is hand-written",
                "temperature",
            ),
        },
        {
            "name": "generate-reasoning-effort-max-gpt-5-4",
            "description": "reasoning.effort max on gpt-5.4-mini (a gpt-5.4 model, whose highest level is xhigh): reasoning_effort xhigh, no warning.",
            "method": "generate",
            "model": "gpt-5.4-mini",
            "features": ["reasoning"],
            "request": {"prompt": "What is the capital of France?", "reasoning": {"effort": "max"}},
            "response": _answer({"content": "Paris."}, model="gpt-5.4-mini-2026-03-17"),
            "source_dict": _mock(
                "no recorded Chat Completions call of a gpt-5.4 model is vendored; the request is the API reference's, the answer hand-written",
                "reasoning_effort",
            ),
        },
        {
            "name": "generate-tool-arguments-object",
            "description": "Tool-call arguments answered as a JSON object, not its text (as some OpenAI-compatible servers do): the same call args.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "features": ["function_tools"],
            "request": {"prompt": "What's the weather in München?", "tools": [WEATHER]},
            "response": _answer(_weather_call({"city": "München"}), "tool_calls"),
            "source_dict": _mock(
                "no recording of tool arguments sent as an object is vendored; the answer is hand-written in the reference's shape, its arguments an object",
                "tools",
            ),
        },
    ]


def _xhigh_cases() -> list[dict[str, Any]]:
    """``effort="max"`` on each other Chat Completions model the reference lists with ``xhigh``."""
    return [
        {
            "name": f"generate-reasoning-effort-max-{model.replace('.', '-')}",
            "description": f"reasoning.effort max on {model} (its highest level is xhigh): reasoning_effort xhigh, no warning.",
            "method": "generate",
            "model": model,
            "features": ["reasoning"],
            "request": {"prompt": "What is the capital of France?", "reasoning": {"effort": "max"}},
            "response": _answer({"content": "Paris."}, model=model),
            "source_dict": _mock(
                f"no recorded Chat Completions call of {model} is vendored; the request is the API reference's, the answer hand-written",
                "reasoning_effort",
            ),
        }
        for model in ("gpt-5.2", "gpt-5.3", "gpt-5.6")
    ]


def answer_cases() -> list[dict[str, Any]]:
    """Every answer case (see the module)."""
    return _answers() + _xhigh_cases()
