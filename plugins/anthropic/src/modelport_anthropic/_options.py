"""``provider_options["anthropic"]``: the typed, strict Messages API options.

``cache`` places ``cache_control`` breakpoints (``_request.place_cache``);
``disable_parallel_tool_use`` goes into ``tool_choice`` (with ``{"type": "auto"}`` when the
request sets no choice); ``thinking`` replaces what ``reasoning`` maps to (e.g. ``{"type":
"adaptive"}``); the others are merged into the body under their wire names, ``extra_body`` last.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from modelport.provider import parse_provider_options

__all__ = ["AnthropicOptions", "PromptCache", "RESERVED", "parse_options"]

#: Body fields the mapping owns: not even ``extra_body`` may replace them.
RESERVED = frozenset({"model", "messages", "stream", "system"})


class PromptCache(BaseModel):
    """Where prompt-cache breakpoints go (``cache_control``), and for how long they live."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ttl: Literal["5m", "1h"] = "5m"
    """How long the cached prefix lives (``1h`` costs more to write)."""
    at: tuple[Literal["system", "tools", "messages"], ...] = ("system", "tools", "messages")
    """The breakpoints: the end of the system text, of the tools, and of the last user turn."""


class AnthropicOptions(BaseModel):
    """Messages API options that have no canonical request field."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    disable_parallel_tool_use: bool | None = Field(default=None, strict=True)
    """``True`` asks for at most one tool call per turn (sent inside ``tool_choice``)."""
    cache: PromptCache | None = None
    """Prompt-cache breakpoints placed by the mapping (``{"ttl": "1h"}``, ``{"at": ["system"]}``)."""
    thinking: dict[str, Any] | None = None
    """Sent as ``thinking`` as given, replacing what ``reasoning`` maps to."""
    service_tier: str | None = None
    container: str | None = None
    extra_body: dict[str, Any] | None = None
    """Raw top-level body fields merged last (the escape hatch)."""

    def wire(self) -> dict[str, Any]:
        """The merged options by wire name (``disable_parallel_tool_use``, ``thinking`` and ``cache``
        are placed by the request mapping); ``extra_body`` last."""
        body = self.model_dump(
            exclude_unset=True, exclude={"extra_body", "disable_parallel_tool_use", "thinking", "cache"}
        )
        body.update(self.extra_body or {})
        return body


def parse_options(provider_options: dict[str, dict[str, Any]] | None, key: str) -> AnthropicOptions:
    """The options under ``provider_options[key]``, validated strictly."""
    return parse_provider_options(AnthropicOptions, provider_options, key, reserved=RESERVED)
