"""Token counting (``:countTokens``): the same canonical request as ``generate``, counted, not run.

The Gemini API takes the whole generation request (``generateContentRequest``: contents, system
instruction, tools, generation config, cached content), so the count is the one the call would
use. Vertex AI takes ``contents``, ``systemInstruction``, ``tools`` and ``generationConfig``.
Fields that carry no tokens (labels, safety settings, tool config, service tier) are left out.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.provider import TokenCount

__all__ = ["count_body", "decode_count"]

#: What Vertex AI's ``CountTokensRequest`` accepts of a generation body.
_VERTEX_KEYS = ("contents", "systemInstruction", "tools", "generationConfig")
#: What the Gemini API's ``generateContentRequest`` accepts (``labels`` is Vertex-only).
_GEMINI_KEYS = (
    "contents",
    "systemInstruction",
    "tools",
    "toolConfig",
    "generationConfig",
    "safetySettings",
    "cachedContent",
)


def count_body(body: dict[str, Any], model_path: str, *, vertex: bool) -> dict[str, Any]:
    """The ``:countTokens`` body for a generation body."""
    if vertex:
        if "cachedContent" in body:
            raise InvalidRequestError(
                "Vertex AI cannot count tokens against cached content (countTokens has no cachedContent)"
            )
        return {key: body[key] for key in _VERTEX_KEYS if key in body}
    request = {"model": model_path, **{key: body[key] for key in _GEMINI_KEYS if key in body}}
    return {"generateContentRequest": request}


def _count(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def decode_count(data: object) -> TokenCount:
    """``{"totalTokens", "cachedContentTokenCount"?, ...}`` → :class:`TokenCount`."""
    if not isinstance(data, dict):
        raise TypeError("the countTokens response must be an object")
    total = _count(data, "totalTokens")
    if total is None:
        if "totalTokens" in data:
            raise ValueError("totalTokens must be a non-negative integer")
        total = 0  # Google omits a zero count (e.g. an empty prompt)
    details = {k: v for k, v in data.items() if k not in ("totalTokens", "cachedContentTokenCount")}
    return TokenCount(
        input_tokens=total,
        cached_input_tokens=_count(data, "cachedContentTokenCount"),
        provider_metadata={"google": details} if details else {},
    )
