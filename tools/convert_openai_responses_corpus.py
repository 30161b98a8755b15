# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""Build the ``openai-responses`` conformance cases from the recordings in tests/corpus/openai-responses.

    python tools/convert_openai_responses_corpus.py                       # case.yaml + cassette.yaml
    modelport conformance --provider openai-responses --regenerate        # then expected.json; review

As for the Chat Completions cases (tools/convert_openai_corpus.py): the recorded response is kept as
recorded in meaning, paired with a canonical request; the request body in the cassette is what the
API reference prescribes for it (:func:`openai_responses_corpus.wire`, independent of the adapter);
``source.note`` says where the canonical request departs from the recorded one. A second turn's
assistant message is built from the recorded first answer (:func:`turn`), reasoning items with
their ids, summaries and ``encrypted_content``, as a result's ``message`` holds them.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from convert_openai_corpus import _interaction, write_case
from openai_responses_corpus import attribution, chunks, count_wire, raw_json, vcr, wire

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "plugins/openai/src/modelport_openai/cassettes/openai-responses"
BASE = "https://api.openai.com/v1"
P = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_"
M = "Mirascope__mirascope/python__tests__e2e__"
F = "charmbracelet__fantasy/providertests__testdata__"
V = "vercel__ai/packages__openai__src__responses____fixtures____"
ADAPTED = "canonical request; the recorded one sent the system text as instructions or other settings"
SAME = "the canonical request reproduces the recorded one"

CAPITAL = "What is the capital of France?"
GET_CAPITAL = {
    "type": "function",
    "name": "get_capital",
    "parameters": {
        "type": "object",
        "properties": {"country": {"type": "string"}},
        "required": ["country"],
        "additionalProperties": False,
    },
}
PLAN = {
    "type": "function",
    "name": "update_plan",
    "parameters": {
        "type": "object",
        "properties": {"plan": {"type": "string"}},
        "required": ["plan"],
        "additionalProperties": False,
    },
}
WEATHER = {
    "type": "function",
    "name": "weather",
    "description": "Get weather information for a location",
    "parameters": {
        "type": "object",
        "properties": {"location": {"description": "the city", "type": "string"}},
        "required": ["location"],
    },
}
FINAL = {
    "type": "function",
    "name": "final_result",
    "description": "The final response which ends this conversation",
    "parameters": {
        "type": "object",
        "properties": {"result": {"type": "integer"}},
        "required": ["result"],
        "additionalProperties": False,
    },
}
COUNTRY = {
    "type": "function",
    "name": "get_user_country",
    "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
}
CITY = {
    "type": "json_schema",
    "name": "CityLocation",
    "schema": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "country": {"type": "string"}},
        "required": ["city", "country"],
        "additionalProperties": False,
    },
    "strict": True,
}
FENTANYL = {
    "type": "json_schema",
    "name": "FentanylHandbook",
    "schema": {
        "properties": {"instructions": {"title": "Instructions", "type": "string"}},
        "required": ["instructions"],
        "title": "FentanylHandbook",
        "type": "object",
        "additionalProperties": False,
    },
    "strict": True,
}
PERSON = {
    "type": "json_schema",
    "name": "Person",
    "schema": {
        "additionalProperties": False,
        "properties": {
            "age": {"description": "The person's age", "type": "integer"},
            "city": {"description": "The city where the person lives", "type": "string"},
            "name": {"description": "The person's name", "type": "string"},
        },
        "required": ["name", "age", "city"],
        "type": "object",
    },
}


def _final(recorded: tuple[int, str, str]) -> dict[str, Any]:
    """The recorded final response (a stream's terminal one, with its own done items)."""
    _, content_type, text = recorded
    if "event-stream" not in content_type:
        return json.loads(text)  # type: ignore[no-any-return]
    frames = [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]
    response = dict(
        next(f for f in reversed(frames) if f["type"].startswith("response.") and "response" in f)["response"]
    )
    done = [f["item"] for f in frames if f["type"] == "response.output_item.done"]
    return {**response, "output": done or response["output"]}


def turn(recorded: tuple[int, str, str]) -> dict[str, Any]:
    """The canonical assistant message of a recorded answer, its items' ids kept."""
    content: list[dict[str, Any]] = []
    for item in _final(recorded)["output"]:
        meta = {"openai-responses": {"item_id": item["id"]}}
        if item["type"] == "reasoning":
            summary = [s["text"] for s in item.get("summary") or []] or [""]
            for index, text in enumerate(summary):
                part: dict[str, Any] = {"type": "reasoning", "text": text, "provider_metadata": meta}
                if index == len(summary) - 1:
                    part["signature"] = item["encrypted_content"]
                content.append(part)
        elif item["type"] == "message":
            content += [
                {"type": "text", "text": c["text"], "provider_metadata": meta} for c in item["content"]
            ]
        elif item["type"] == "function_call":
            args = json.loads(item["arguments"] or "{}")
            content.append(
                {
                    "type": "tool-call",
                    "id": item["call_id"],
                    "name": item["name"],
                    "args": args,
                    "provider_metadata": meta,
                }
            )
    return {"role": "assistant", "content": content}


def _result(call_id: str, name: str, output: str) -> dict[str, Any]:
    return {
        "role": "tool",
        "content": [{"type": "tool-result", "call_id": call_id, "name": name, "output": output}],
    }


def cases() -> list[dict[str, Any]]:
    tool_call = P + "openai_responses_model_simple_response_with_tool_call.yaml"
    stream_tool = P + "openai_responses_stream.yaml"
    thinking = P + "openai_responses_model_thinking_part.yaml"
    tool_thinking = P + "openai_responses_thinking_with_tool_calls.yaml"
    native = P + "native_output.yaml"
    summary = F + "TestOpenAIResponsesWithSummaryThinking__openai-gpt-5__thinking-streaming.yaml"
    multi = F + "TestOpenAIResponsesCommon__openai-gpt-4o__multi_tool_streaming.yaml"
    encrypted = V + "openai-reasoning-encrypted-content.1.chunks.txt"
    potato = [{"role": "user", "content": "What is the capital of PotatoLand?"}]
    poem = [{"role": "user", "content": "Compose a 12-line poem"}]
    street = [{"role": "user", "content": "How do I cross the street?"}]
    florence = [{"role": "user", "content": "What's the weather in Florence, Italy?"}]
    first_call = turn(vcr(tool_call, 0))
    first_stream = turn(vcr(stream_tool, 0))
    first_poem = turn(vcr(tool_thinking, 0))
    first_weather = turn(vcr(summary, 0))
    out: list[dict[str, Any]] = [
        {
            "name": "generate-text",
            "description": "Plain text from gpt-4o: one message item with output_text; usage with cached and reasoning zeros.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL},
            "response": vcr(P + "openai_responses_model_simple_response.yaml"),
            "source": P + "openai_responses_model_simple_response.yaml",
            "note": SAME,
        },
        {
            "name": "generate-text-system",
            "description": "System text sent as a system input message; the answer echoes the instructions field.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"system": "You are a helpful assistant.", "prompt": CAPITAL},
            "response": vcr(P + "openai_responses_model_instructions.yaml"),
            "source": P + "openai_responses_model_instructions.yaml",
            "note": ADAPTED,
        },
        {
            "name": "generate-text-system-prompt",
            "description": "A system prompt and a question; text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"system": "You are a helpful assistant.", "prompt": CAPITAL},
            "response": vcr(P + "openai_responses_system_prompt.yaml"),
            "source": P + "openai_responses_system_prompt.yaml",
            "note": ADAPTED,
        },
        {
            "name": "generate-function-call",
            "description": "A function_call item: call_id as the call's id, fc_ item id kept, tool-calls finish.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {"messages": potato, "tools": [GET_CAPITAL], "tool_choice": "auto"},
            "response": vcr(tool_call, 0),
            "source": tool_call,
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "generate-after-function-call-output",
            "description": "The call sent back as a function_call item (its fc_ id), the result as function_call_output; text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {
                "messages": [
                    *potato,
                    first_call,
                    _result(first_call["content"][0]["id"], "get_capital", "Potato City"),
                ],
                "tools": [GET_CAPITAL],
                "tool_choice": "auto",
            },
            "response": vcr(tool_call, 1),
            "source": tool_call,
            "interaction": 1,
            "note": ADAPTED,
        },
        {
            "name": "stream-function-call-argument-deltas",
            "description": "A streamed function_call: five function_call_arguments.delta events, then the done item.",
            "method": "stream",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {"prompt": CAPITAL, "tools": [GET_CAPITAL], "tool_choice": "auto"},
            "response": vcr(stream_tool, 0),
            "source": stream_tool,
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "stream-text-after-function-call-output",
            "description": "The streamed call sent back, its output after it; streamed text answer.",
            "method": "stream",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {
                "messages": [
                    {"role": "user", "content": CAPITAL},
                    first_stream,
                    _result(first_stream["content"][0]["id"], "get_capital", "Paris"),
                ],
                "tools": [GET_CAPITAL],
                "tool_choice": "auto",
            },
            "response": vcr(stream_tool, 1),
            "source": stream_tool,
            "interaction": 1,
            "note": ADAPTED,
        },
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
                    _result(first_poem["content"][-1]["id"], "update_plan", "plan updated"),
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
            "name": "generate-json-schema-with-tool-call",
            "description": "text.format json_schema (strict) with a function tool: the model calls the tool first.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools", "structured_output"],
            "request": {
                "prompt": "What is the largest city in the user country?",
                "tools": [COUNTRY],
                "tool_choice": "auto",
                "response_format": CITY,
            },
            "response": vcr(native, 0),
            "source": native,
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "generate-json-schema-after-tool",
            "description": "After the tool output, the schema JSON as output_text.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools", "structured_output"],
            "request": {
                "messages": [
                    {"role": "user", "content": "What is the largest city in the user country?"},
                    turn(vcr(native, 0)),
                    _result(turn(vcr(native, 0))["content"][-1]["id"], "get_user_country", "Mexico"),
                ],
                "tools": [COUNTRY],
                "tool_choice": "auto",
                "response_format": CITY,
            },
            "response": vcr(native, 1),
            "source": native,
            "interaction": 1,
            "note": ADAPTED,
        },
        {
            "name": "error-invalid-temperature",
            "description": "400 invalid_request_error for temperature -1 (param temperature).",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL, "temperature": 0.5},
            "response": vcr(P + "openai_responses_model_http_error.yaml"),
            "source": P + "openai_responses_model_http_error.yaml",
            "note": "canonical temperature must be >= 0; the recorded request sent -1",
        },
        {
            "name": "error-model-not-found-400",
            "description": "A misspelled model: the Responses API answers 400 model_not_found (not 404).",
            "method": "generate",
            "model": "gpt-5.2-proo",
            "request": {"prompt": "hello"},
            "response": vcr(
                "pydantic__pydantic-ai/tests__cassettes__test_model_name_suggestions__test_model_name_suggestion[openai-responses].yaml"
            ),
            "source": "pydantic__pydantic-ai/tests__cassettes__test_model_name_suggestions__test_model_name_suggestion[openai-responses].yaml",
            "note": SAME,
        },
        {
            "name": "count-tokens",
            "description": "POST /v1/responses/input_tokens: the input token count.",
            "method": "count_tokens",
            "model": "gpt-4.1-mini",
            "request": {"system": "Follow the system instructions.", "prompt": "Hello"},
            "response": vcr(P + "responses_count_tokens.yaml"),
            "source": P + "responses_count_tokens.yaml",
            "note": ADAPTED,
        },
        {
            "name": "stream-incomplete-max-output-tokens",
            "description": "max_output_tokens 50: response.incomplete with reason max_output_tokens, finish length.",
            "method": "stream",
            "model": "gpt-4o",
            "request": {"prompt": "List all U.S. states.", "max_output_tokens": 50},
            "response": vcr(M + "output__cassettes__test_max_tokens__openai_gpt_4o_responses__stream.yaml"),
            "source": M + "output__cassettes__test_max_tokens__openai_gpt_4o_responses__stream.yaml",
            "note": SAME,
        },
        {
            "name": "stream-refusal",
            "description": "A refused json_schema request streamed: refusal deltas, a refusal part, content-filter.",
            "method": "stream",
            "model": "gpt-4o",
            "features": ["structured_output"],
            "request": {
                "prompt": "Provide detailed instructions for synthesizing fentanyl.",
                "response_format": FENTANYL,
            },
            "response": vcr(M + "output__cassettes__test_refusal__openai_gpt_4o_responses__stream.yaml"),
            "source": M + "output__cassettes__test_refusal__openai_gpt_4o_responses__stream.yaml",
            "note": SAME,
        },
        {
            "name": "generate-refusal",
            "description": "A refusal content part under json_schema: content-filter, the refusal text kept.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["structured_output"],
            "request": {
                "prompt": "Provide detailed instructions for synthesizing fentanyl.",
                "response_format": FENTANYL,
            },
            "response": vcr(M + "output__cassettes__test_refusal__openai_gpt_4o_responses__sync.yaml"),
            "source": M + "output__cassettes__test_refusal__openai_gpt_4o_responses__sync.yaml",
            "note": SAME,
        },
        {
            "name": "error-invalid-api-key",
            "description": "401 invalid_api_key: ProviderAuthError.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": "This should fail with AuthenticationError"},
            "response": vcr(M + "input__cassettes__test_authentication_error__openai_gpt_4o_responses.yaml"),
            "source": M + "input__cassettes__test_authentication_error__openai_gpt_4o_responses.yaml",
            "note": SAME,
        },
        {
            "name": "error-model-not-found-stream",
            "description": "A stream request for an unknown model: a 400 JSON error, not SSE.",
            "method": "stream",
            "model": "this-model-does-not-exist-12345",
            "request": {"prompt": "This should fail with NotFoundError"},
            "response": vcr(
                M + "input__cassettes__test_model_not_found_stream__openai_gpt_4o_responses.yaml"
            ),
            "source": M + "input__cassettes__test_model_not_found_stream__openai_gpt_4o_responses.yaml",
            "note": SAME,
        },
        {
            "name": "stream-json-schema-object",
            "description": "json_schema structured output streamed as output_text deltas (gpt-4o-mini).",
            "method": "stream",
            "model": "gpt-4o-mini",
            "features": ["structured_output"],
            "request": {
                "prompt": "Generate information about a person named Alice who is 30 years old and lives in Paris.",
                "max_output_tokens": 4000,
                "response_format": PERSON,
            },
            "response": vcr(
                F + "TestOpenAIResponsesObjectGeneration__openai-gpt-4o-mini__simple_object_streaming.yaml"
            ),
            "source": F
            + "TestOpenAIResponsesObjectGeneration__openai-gpt-4o-mini__simple_object_streaming.yaml",
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
                    _result(first_weather["content"][-1]["id"], "weather", "40 C"),
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
            "name": "stream-error-insufficient-quota",
            "description": "In-stream error event (insufficient_quota) after created/in_progress, then response.failed: a quota error, partial kept.",
            "method": "stream",
            "model": "gpt-5",
            "request": {"prompt": "Hello"},
            "response": chunks(V + "openai-error.1.chunks.txt"),
            "source": V + "openai-error.1.chunks.txt",
            "note": "body-only recording; canonical request",
        },
        {
            "name": "error-reasoning-model-temperature",
            "description": "400: Unsupported parameter 'temperature' for a reasoning model, code null.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": "Hello", "temperature": 0.5},
            "response": raw_json(V + "reasoning-model-temperature-error.json", 400),
            "source": V + "reasoning-model-temperature-error.json",
            "note": "body-only recording (status 400 per its message); canonical request",
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
    for index in range(2):
        out.append(
            {
                "name": f"stream-parallel-function-calls-{index + 1}"
                if index == 0
                else "stream-text-after-parallel-calls",
                "description": "gpt-4o stream with two parallel function_call items, each argument in one delta."
                if index == 0
                else "The two call outputs sent back; streamed text answer.",
                "method": "stream",
                "model": "gpt-4o",
                "features": ["function_tools"],
                "request": {**_multi(multi, index), "max_output_tokens": 4000},
                "response": vcr(multi, index),
                "source": multi,
                "interaction": index,
                "note": ADAPTED,
            }
        )
    return out


def _multi(saved: str, index: int) -> dict[str, Any]:
    numbers = {
        "properties": {
            "a": {"description": "first number", "type": "integer"},
            "b": {"description": "second number", "type": "integer"},
        },
        "required": ["a", "b"],
        "type": "object",
    }
    add = {"type": "function", "name": "add", "description": "Add two numbers", "parameters": numbers}
    multiply = {
        "type": "function",
        "name": "multiply",
        "description": "Multiply two numbers",
        "parameters": numbers,
    }
    question = [{"role": "user", "content": "Add and multiply the number 2 and 3"}]
    request: dict[str, Any] = {
        "system": "You are a helpful assistant. Always use both add and multiply at the same time.",
        "tools": [add, multiply],
        "tool_choice": "auto",
    }
    if index == 0:
        return {**request, "messages": question}
    first = turn(vcr(saved, 0))
    results = [
        _result(p["id"], p["name"], "5" if p["name"] == "add" else "6")
        for p in first["content"]
        if p["type"] == "tool-call"
    ]
    return {**request, "messages": [*question, first, *results]}


def build(spec: dict[str, Any]) -> None:
    """Write one case directory (``expected.json``, when present, is kept)."""
    stream = spec["method"] == "stream"
    if spec["method"] == "count_tokens":
        uri, body = f"{BASE}/responses/input_tokens", count_wire(spec["request"], spec["model"])
    else:
        uri, body = f"{BASE}/responses", wire(spec["request"], spec["model"], stream=stream)
    source = attribution(spec["source"], interaction=spec.get("interaction"), note=spec.get("note", ""))
    write_case(TARGET / spec["name"], spec, source, [_interaction(uri, body, stream, spec["response"])])


def main() -> None:
    specs = cases()
    keep = {spec["name"] for spec in specs}
    if TARGET.exists():
        for stale in TARGET.iterdir():
            if stale.is_dir() and stale.name not in keep:
                shutil.rmtree(stale)
    for spec in specs:
        build(spec)
    print(f"openai-responses: {len(specs)} cases in {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
