"""The expected values of a recording, read straight from its JSON (independent of the adapter).

Each function reads the recorded body or chunks the way the Chat Completions reference describes
them and returns plain values (text, reasoning text, tool calls with ids and parsed arguments, the
raw finish reason, the usage numbers), for the tests to compare with what the adapter decoded. Only
the first choice is read (``n`` is not a canonical setting).
"""

from __future__ import annotations

import json
from typing import Any


def _usage(raw: Any, *, xai: bool) -> dict[str, int | None]:
    raw = raw or {}
    prompt = raw.get("prompt_tokens_details") or {}
    completion = raw.get("completion_tokens_details") or {}
    output = raw.get("completion_tokens")
    reasoning = completion.get("reasoning_tokens")
    if xai and output is not None and reasoning:
        output += reasoning  # xAI leaves reasoning out of completion_tokens (total = prompt + both)
    cached = prompt.get("cached_tokens")
    return {
        "input": raw.get("prompt_tokens"),
        "output": output,
        "reasoning": reasoning,
        "total": raw.get("total_tokens"),
        "cached": cached if cached is not None else raw.get("prompt_cache_hit_tokens"),
    }


def _calls(calls: list[dict[str, Any]]) -> list[tuple[str, str, Any]]:
    return [(c["id"], c["function"]["name"], json.loads(c["function"]["arguments"] or "{}")) for c in calls]


def completion(data: dict[str, Any], *, xai: bool = False) -> dict[str, Any]:
    """Expected values of a ``chat.completion`` body."""
    choice = data["choices"][0]
    message = choice.get("message") or {}
    return {
        "text": (message.get("content") or "") + (message.get("refusal") or ""),
        "reasoning": message.get("reasoning_content") or message.get("reasoning") or "",
        "calls": _calls(message.get("tool_calls") or []),
        "raw_finish": choice.get("finish_reason"),
        "usage": _usage(data.get("usage") or (data.get("x_groq") or {}).get("usage"), xai=xai),
        "response_id": data.get("id") or None,
    }


def stream(chunks: list[dict[str, Any]], *, xai: bool = False) -> dict[str, Any]:
    """Expected values of a stream's chunks, joined as the reference describes."""
    text, reasoning, finish, usage, first_id = "", "", None, None, None
    calls: dict[int, dict[str, Any]] = {}
    for chunk in chunks:
        first_id = first_id or chunk.get("id") or None
        usage = chunk.get("usage") or (chunk.get("x_groq") or {}).get("usage") or usage
        for choice in chunk.get("choices") or []:
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            text += (delta.get("content") or "") + (delta.get("refusal") or "")
            reasoning += delta.get("reasoning_content") or delta.get("reasoning") or ""
            for call in delta.get("tool_calls") or []:
                into = calls.setdefault(call["index"], {"id": "", "function": {"name": "", "arguments": ""}})
                into["id"] = into["id"] or call.get("id") or ""
                function = call.get("function") or {}
                into["function"]["name"] = into["function"]["name"] or function.get("name") or ""
                into["function"]["arguments"] += function.get("arguments") or ""
            finish = choice.get("finish_reason") or finish
    return {
        "text": text,
        "reasoning": reasoning,
        "calls": _calls([calls[i] for i in sorted(calls)]),
        "raw_finish": finish,
        "usage": _usage(usage, xai=xai),
        "response_id": first_id,
    }


def embeddings(data: dict[str, Any]) -> dict[str, Any]:
    """Expected values of an embeddings body: count, dimensions, first values (floats) and usage."""
    import base64
    import struct

    vectors = []
    for item in sorted(data["data"], key=lambda i: i["index"]):
        value = item["embedding"]
        if isinstance(value, str):
            raw = base64.b64decode(value)
            value = list(struct.unpack(f"<{len(raw) // 4}f", raw))
        vectors.append(value)
    return {
        "count": len(vectors),
        "dimensions": [len(v) for v in vectors],
        "first": [v[:3] for v in vectors],
        "input_tokens": data["usage"]["prompt_tokens"],
    }


def error(data: dict[str, Any]) -> dict[str, Any]:
    """Expected values of an error body: its message and its code (or type)."""
    found = data["error"]
    code = found.get("code")
    return {"message": found["message"], "status": code if isinstance(code, str) else found.get("type")}
