"""The neutral tools of :mod:`modelport.tools` as Anthropic server tools.

``web_search`` is ``anthropic.web_search`` (domains, user location, use limit; no time range or
context size), ``web_fetch`` is ``anthropic.web_fetch`` (domains, use limit, content-token limit;
a beta: pass ``beta="web-fetch-2025-09-10"`` to ``get_model``), ``code_execution`` is
``anthropic.code_execution`` at its default version.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from modelport.tools import NeutralToolMapping

__all__ = ["neutral_tool"]

_DOMAINS = frozenset({"allowed_domains", "blocked_domains", "max_uses"})


def _same_names(options: BaseModel) -> dict[str, Any]:
    """Anthropic names these options as the neutral tools do."""
    return options.model_dump(exclude_none=True)


_TOOLS = {
    "web_search": NeutralToolMapping("anthropic.web_search", _DOMAINS | {"user_location"}, _same_names),
    "web_fetch": NeutralToolMapping("anthropic.web_fetch", _DOMAINS | {"max_content_tokens"}, _same_names),
    "code_execution": NeutralToolMapping("anthropic.code_execution"),
}


def neutral_tool(name: str) -> NeutralToolMapping | None:
    """How Anthropic expresses the neutral tool ``name``."""
    return _TOOLS.get(name)
