"""A Chat Completions response body → :class:`Result` (pure).

Reads what servers send besides OpenAI's own fields: reasoning text as ``reasoning_content``
(DeepSeek, xAI, Z.ai) or ``reasoning`` (Groq, OpenRouter, Ollama), a ``refusal`` instead of content,
usage under ``x_groq.usage``, cache hits as ``prompt_cache_hit_tokens`` (DeepSeek) or a top-level
``cached_tokens`` (Together), a choice with no ``message`` (Azure's content filter), the legacy
``function_call``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from modelport.types import (
    REFUSAL_METADATA,
    CallWarning,
    FinishReason,
    Part,
    ReasoningPart,
    Result,
    TextPart,
    TokenLogprob,
    ToolCallPart,
    TopLogprob,
    Usage,
)

from ._quirks import Quirks
from ._wire_map import FINISH

if TYPE_CHECKING:
    from ._chat_wire import Completion

__all__ = ["FINISH", "decode_completion", "finish_reason", "logprobs", "reasoning_text", "usage"]


def finish_reason(raw: str | None, *, calls: bool, refused: bool) -> FinishReason:
    """The canonical finish reason; a refusal is a content filter, a missing reason is inferred."""
    if refused:
        return "content-filter"
    if raw is None:
        return "tool-calls" if calls else "stop"
    return FINISH.get(raw, "other")


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _detail(raw: dict[str, Any], details: str, key: str) -> int | None:
    found = raw.get(details)
    return _count(found.get(key)) if isinstance(found, dict) else None


def _first(*counts: int | None) -> int | None:
    return next((count for count in counts if count is not None), None)


def usage(raw: Any, quirks: Quirks) -> Usage:
    """Token counts, whatever the server calls them; a count it did not send stays ``None``.

    ``prompt_tokens`` already holds the cache reads and writes, ``completion_tokens`` the reasoning
    (except where ``quirks.completion_excludes_reasoning``: xAI). Cache reads are
    ``prompt_tokens_details.cached_tokens``, Together's top-level ``cached_tokens`` or DeepSeek's
    ``prompt_cache_hit_tokens`` (its ``prompt_tokens`` = hits + ``prompt_cache_miss_tokens``).
    """
    if not isinstance(raw, dict):
        return Usage()
    hits = _count(raw.get("prompt_cache_hit_tokens"))
    misses = _count(raw.get("prompt_cache_miss_tokens"))
    prompt = _count(raw.get("prompt_tokens"))
    if prompt is None and hits is not None and misses is not None:
        prompt = hits + misses
    reasoning = _detail(raw, "completion_tokens_details", "reasoning_tokens")
    output = _count(raw.get("completion_tokens"))
    if quirks.completion_excludes_reasoning and output is not None and reasoning:
        output += reasoning
    return Usage(
        input_tokens=prompt,
        output_tokens=output,
        reasoning_tokens=reasoning,
        total_tokens=_count(raw.get("total_tokens")),
        cache_read_input_tokens=_first(
            _detail(raw, "prompt_tokens_details", "cached_tokens"), _count(raw.get("cached_tokens")), hits
        ),
        cache_write_input_tokens=_detail(raw, "prompt_tokens_details", "cache_write_tokens"),
    )


def raw_usage(data: Mapping[str, Any]) -> Any:
    """The usage object of a body or chunk (Groq also nests it under ``x_groq``)."""
    found = data.get("usage")
    if isinstance(found, dict):
        return found
    groq = data.get("x_groq")
    return groq.get("usage") if isinstance(groq, dict) else None


def reasoning_text(message: Mapping[str, Any]) -> str:
    """Reasoning text of a message or a delta, under either name servers use."""
    for key in ("reasoning_content", "reasoning"):
        value = message.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def logprobs(raw: Any) -> list[TokenLogprob]:
    """The per-token log probabilities of a choice's ``logprobs.content``."""
    items = raw.get("content") if isinstance(raw, dict) else None
    return [
        TokenLogprob(
            token=item["token"],
            logprob=item["logprob"],
            bytes=item.get("bytes"),
            top=[
                TopLogprob(token=t["token"], logprob=t["logprob"], bytes=t.get("bytes"))
                for t in item.get("top_logprobs") or []
            ],
        )
        for item in items or []
    ]


def argument_text(value: Any) -> str:
    """A call's ``arguments`` as JSON text: a string as sent, an object some servers send decoded as
    its JSON text (so it becomes the call's ``args``, streamed or not), nothing as ``""``."""
    if value is None or isinstance(value, str):
        return value or ""
    return json.dumps(value, ensure_ascii=False)


def tool_call(call_id: str, name: str, arguments: Any) -> tuple[ToolCallPart, CallWarning | None]:
    """A call from its arguments (:func:`argument_text`), built as the core builds a streamed one."""
    from modelport.events import tool_call_part  # here: a text answer imports no stream events

    return tool_call_part(call_id, name, argument_text(arguments))


def refusal_metadata(provider: str) -> dict[str, dict[str, Any]]:
    """A refusal part's metadata: the provider's own marker and the core's (``Result.refusal``)."""
    return {provider: {"refusal": True}, **REFUSAL_METADATA}


def metadata(data: Mapping[str, Any], provider: str, refusal: str | None) -> dict[str, dict[str, Any]]:
    """``Result.provider_metadata``: the refusal text and the server's fingerprint and tier."""
    found = {k: data[k] for k in ("system_fingerprint", "service_tier") if data.get(k)}
    if refusal:
        found["refusal"] = refusal
    return {provider: found} if found else {}


def decode_completion(data: Completion, *, quirks: Quirks, provider: str) -> Result:
    """The result of a ``chat.completion`` body (the first choice)."""
    choice = data["choices"][0]
    message = choice.get("message") or {}
    content: list[Part] = []
    warnings: list[CallWarning] = []
    thought = reasoning_text(message)
    if thought:
        content.append(ReasoningPart(text=thought))
    text = message.get("content")
    if isinstance(text, str) and text:
        content.append(TextPart(text=text))
    refusal = message.get("refusal") if isinstance(message.get("refusal"), str) else None
    if refusal:
        content.append(TextPart(text=refusal, provider_metadata=refusal_metadata(provider)))
    calls = list(message.get("tool_calls") or [])
    legacy = message.get("function_call")
    if isinstance(legacy, dict):
        calls.append({"id": "function_call", "function": legacy})
    for call in calls:
        function = call["function"]
        part, warning = tool_call(call["id"], function["name"], function.get("arguments"))
        content.append(part)
        if warning is not None:
            warnings.append(warning)
    raw = choice.get("finish_reason")
    return Result(
        content=content,
        finish_reason=finish_reason(raw, calls=bool(calls), refused=bool(refusal)),
        raw_finish_reason=raw,
        usage=usage(raw_usage(data), quirks),
        warnings=warnings,
        provider_metadata=metadata(data, provider, refusal),
        response_id=data.get("id") or None,
        model_version=data.get("model") or None,
        logprobs=logprobs(choice.get("logprobs")) or None,
    )
