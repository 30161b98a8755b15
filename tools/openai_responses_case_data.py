"""What the ``openai-responses`` case tables share: corpus folder prefixes, notes, the tools and
schemas the recordings used, and the canonical assistant turn of a recorded answer (:func:`turn`).
"""

from __future__ import annotations

import json
from typing import Any

from openai_responses_corpus import vcr

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


def result(call_id: str, name: str, output: str) -> dict[str, Any]:
    return {
        "role": "tool",
        "content": [{"type": "tool-result", "call_id": call_id, "name": name, "output": output}],
    }


def multi(saved: str, index: int) -> dict[str, Any]:
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
        result(p["id"], p["name"], "5" if p["name"] == "add" else "6")
        for p in first["content"]
        if p["type"] == "tool-call"
    ]
    return {**request, "messages": [*question, first, *results]}
