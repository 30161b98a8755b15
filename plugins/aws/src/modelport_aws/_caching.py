"""Canonical ``prompt_cache`` → Converse ``cachePoint`` blocks (pure).

``{"cachePoint": {"type": "default"}}`` goes after each part of the prompt ``prompt_cache.at``
names: at the end of ``system``, of ``toolConfig.tools``, and of the last user turn (a part the
request does not have gets none). A cache point is Bedrock's default retention, five minutes: a
``ttl`` of ``1h`` or ``24h`` is an ``InvalidRequestError``. Bedrock has no cache key, so
``prompt_cache.key`` is not sent (a warning says so). A cache point anywhere else goes by hand: a
message part with ``provider_metadata={"bedrock": {"cache_point": {"type": "default"}}}`` is
followed by one (see :mod:`._request`).
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import CallWarning, PromptCache

__all__ = ["CACHE_POINT", "place_cache"]

#: The one cache point Converse has.
CACHE_POINT: dict[str, Any] = {"cachePoint": {"type": "default"}}


def _ends_cached(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return blocks if blocks and "cachePoint" in blocks[-1] else [*blocks, CACHE_POINT]


def place_cache(body: dict[str, Any], cache: PromptCache) -> list[CallWarning]:
    """Put the cache points ``cache`` asks for into ``body``; the warnings for what is not sent."""
    if cache.ttl != "5m":
        raise InvalidRequestError(
            f"prompt_cache.ttl {cache.ttl!r}: a Bedrock cache point keeps its prefix for 5 minutes only"
        )
    if "system" in cache.at and body.get("system"):
        body["system"] = _ends_cached(body["system"])
    tools = body.get("toolConfig")
    if "tools" in cache.at and tools:
        body["toolConfig"] = {**tools, "tools": _ends_cached(tools["tools"])}
    users = [i for i, m in enumerate(body["messages"]) if m["role"] == "user"]
    if "messages" in cache.at and users:
        turn = body["messages"][users[-1]]
        body["messages"][users[-1]] = {**turn, "content": _ends_cached(turn["content"])}
    if cache.key is None:
        return []
    details = "Bedrock has no cache key; prompt_cache.key is not sent"
    return [CallWarning(type="unsupported-setting", setting="prompt_cache.key", details=details)]
