"""Canonical ``prompt_cache`` → ``cache_control`` breakpoints (pure).

A breakpoint ``{"type": "ephemeral", "ttl": "5m" | "1h"}`` goes at the end of each part of the
prompt ``prompt_cache.at`` names: the system text, the last tool, the last block of the last user
turn (a part the request does not have gets none). Anthropic caches for 5 minutes or 1 hour: a
``ttl`` of ``24h`` is an ``InvalidRequestError``; it has no cache key, so ``prompt_cache.key`` is
not sent (a warning says so). A breakpoint on any other block goes by hand: a user turn's part
with ``provider_metadata={"anthropic": {"cache_control": {...}}}`` (see :mod:`._messages`).
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import CallWarning, PromptCache

__all__ = ["place_cache"]


def _ending_with(content: str | list[dict[str, Any]], control: dict[str, str]) -> list[dict[str, Any]]:
    """``content`` as blocks (a string becomes one text block), the last one carrying ``control``."""
    blocks: list[dict[str, Any]] = (
        [{"type": "text", "text": content}] if isinstance(content, str) else [dict(b) for b in content]
    )
    blocks[-1]["cache_control"] = control
    return blocks


def place_cache(body: dict[str, Any], cache: PromptCache) -> list[CallWarning]:
    """Put the breakpoints ``cache`` asks for into ``body``; the warnings for what is not sent."""
    if cache.ttl not in ("5m", "1h"):
        raise InvalidRequestError(f"prompt_cache.ttl {cache.ttl!r}: Anthropic caches for 5m or 1h")
    control = {"type": "ephemeral", "ttl": cache.ttl}
    if "system" in cache.at and "system" in body:
        body["system"] = _ending_with(body["system"], control)
    if "tools" in cache.at and body.get("tools"):
        body["tools"] = [*body["tools"][:-1], {**body["tools"][-1], "cache_control": control}]
    users = [i for i, m in enumerate(body["messages"]) if m["role"] == "user"]
    if "messages" in cache.at and users:
        turn = body["messages"][users[-1]]
        body["messages"][users[-1]] = {**turn, "content": _ending_with(turn["content"], control)}
    if cache.key is None:
        return []
    details = "the Messages API has no cache key; prompt_cache.key is not sent"
    return [CallWarning(type="unsupported-setting", setting="prompt_cache.key", details=details)]
