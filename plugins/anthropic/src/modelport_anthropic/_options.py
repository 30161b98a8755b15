"""``provider_options["anthropic"]``: the typed, strict Messages API options.

``disable_parallel_tool_use`` goes into ``tool_choice`` (with ``{"type": "auto"}`` when the
request sets no choice); ``thinking`` replaces what ``reasoning`` maps to (e.g. ``{"type":
"adaptive"}``); ``structured_output`` chooses how ``response_format`` is sent; the others are
merged into the body under their wire names, ``extra_body`` last. Prompt caching is the canonical
``prompt_cache`` request keyword (:class:`modelport.types.PromptCache`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from modelport.provider import parse_provider_options

__all__ = ["AnthropicOptions", "RESERVED", "parse_options"]

#: Body fields the mapping owns: not even ``extra_body`` may replace them.
RESERVED = frozenset({"model", "messages", "stream", "system"})


class AnthropicOptions(BaseModel):
    """Messages API options that have no canonical request field."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    disable_parallel_tool_use: bool | None = Field(default=None, strict=True)
    """``True`` asks for at most one tool call per turn (sent inside ``tool_choice``)."""
    structured_output: Literal["native", "tool"] | None = None
    """How ``response_format`` is sent: ``"native"`` (``output_config.format``), ``"tool"`` (a forced
    answer tool); unset, native on the models that have it (``NATIVE_OUTPUT``), else the tool."""
    thinking: dict[str, Any] | None = None
    """Sent as ``thinking`` as given, replacing what ``reasoning`` maps to."""
    service_tier: str | None = None
    container: str | None = None
    extra_body: dict[str, Any] | None = None
    """Raw top-level body fields merged last (the escape hatch)."""

    def wire(self) -> dict[str, Any]:
        """The merged options by wire name (``disable_parallel_tool_use``, ``thinking`` and
        ``structured_output`` are read by the request mapping); ``extra_body`` last."""
        body = self.model_dump(
            exclude_unset=True,
            exclude={"extra_body", "disable_parallel_tool_use", "thinking", "structured_output"},
        )
        body.update(self.extra_body or {})
        return body


def parse_options(provider_options: dict[str, dict[str, Any]] | None, key: str) -> AnthropicOptions:
    """The options under ``provider_options[key]``, validated strictly."""
    return parse_provider_options(AnthropicOptions, provider_options, key, reserved=RESERVED)
