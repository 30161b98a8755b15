"""A small fake of an OpenAI-style Chat Completions server, for recording the tutorial's cases.

Deterministic: the answer depends only on the request. The last user message picks the scenario:

- ``"Say hello."``: one text answer (streamed in three chunks, with a usage chunk at the end);
- ``"Weather in Paris and Rome?"``: two parallel tool calls whose arguments stream in fragments;
- ``"error 400"``, ``"error 401"``, ``"error 429"``, ``"error 500"``: that status with an
  OpenAI-shaped error body (the 429 with ``retry-after``), and an ``x-request-id`` header.

The server checks the bearer key it was given, as a real one would.
"""

from __future__ import annotations

import json
from typing import Any

from tests.loopback import Received, Reply

KEY = "acme-test-key-5f2e8c7a1b"
CREATED = 1_764_000_000
MODEL = "acme-mini"
ERRORS = {
    400: ("invalid_request_error", "max_tokens is too large"),
    401: ("authentication_error", "Incorrect API key provided."),
    429: ("rate_limit_error", "Rate limit reached for requests"),
    500: ("server_error", "The server had an error while processing your request."),
}


def _json(status: int, body: Any, **headers: str) -> Reply:
    return Reply(
        status,
        {"content-type": "application/json", "x-request-id": "req-fixed-1", **headers},
        json.dumps(body).encode(),
    )


def _sse(chunks: list[dict[str, Any]]) -> Reply:
    body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
    return Reply(200, {"content-type": "text/event-stream"}, body)


def _chunk(
    delta: dict[str, Any], finish: str | None = None, usage: dict[str, int] | None = None
) -> dict[str, Any]:
    choices = [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish}]
    out: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": MODEL,
        "choices": choices,
    }
    if usage:
        out["usage"] = usage
    return out


def handle(request: Received) -> Reply:
    if request.headers.get("authorization") != f"Bearer {KEY}":
        return _json(
            401, {"error": {"message": "Incorrect API key provided.", "type": "invalid_request_error"}}
        )
    body = json.loads(request.body)
    prompt = body["messages"][-1]["content"]
    stream = body.get("stream", False)
    if prompt.startswith("error "):
        status = int(prompt.split()[1])
        kind, message = ERRORS[status]
        extra = {"retry-after": "7"} if status == 429 else {}
        return _json(
            status, {"error": {"message": message, "type": kind, "param": None, "code": None}}, **extra
        )
    if prompt == "Weather in Paris and Rome?":
        return _sse(_tool_chunks()) if stream else _json(200, _tool_answer())
    usage = {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}
    if stream:
        return _sse(
            [
                _chunk({"role": "assistant", "content": ""}),
                _chunk({"content": "Hello"}),
                _chunk({"content": " there!"}, "stop"),
                _chunk({}, usage=usage),
            ]
        )
    message = {"role": "assistant", "content": "Hello there!"}
    return _json(
        200,
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": CREATED,
            "model": MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": usage,
        },
    )


def _tool_answer() -> dict[str, Any]:
    calls = [
        {
            "id": f"call_{c}",
            "type": "function",
            "function": {"name": "weather", "arguments": json.dumps({"city": c})},
        }
        for c in ("Paris", "Rome")
    ]
    return {
        "id": "chatcmpl-2",
        "object": "chat.completion",
        "created": CREATED,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None, "tool_calls": calls},
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 30, "completion_tokens": 18, "total_tokens": 48},
    }


def _tool_chunks() -> list[dict[str, Any]]:
    chunks = [_chunk({"role": "assistant", "content": None})]
    for index, city in enumerate(("Paris", "Rome")):
        start = {
            "index": index,
            "id": f"call_{city}",
            "type": "function",
            "function": {"name": "weather", "arguments": ""},
        }
        chunks.append(_chunk({"tool_calls": [start]}))
        for fragment in ('{"ci', 'ty": "', city, '"}'):
            chunks.append(_chunk({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]}))
    chunks.append(_chunk({}, "tool_calls"))
    chunks.append(_chunk({}, usage={"prompt_tokens": 30, "completion_tokens": 18, "total_tokens": 48}))
    for chunk in chunks:
        chunk["id"] = "chatcmpl-2"
    return chunks
