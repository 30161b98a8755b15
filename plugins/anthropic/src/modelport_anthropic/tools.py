"""Anthropic's server tools as modelport provider tools, validated strictly before any request.

``anthropic.web_search``, ``anthropic.web_fetch`` and ``anthropic.code_execution`` run on
Anthropic's side; a request names them as ``{"type": "provider", "id": "anthropic.web_search",
"args": {...}}`` (or the builders here), and each is sent as the tool block of its ``version``
(``{"type": "web_search_20250305", "name": "web_search", ...}``). Their calls and results come
back as provider-executed tool call and result parts (:mod:`modelport_anthropic._blocks`). Web
fetch and some code-execution versions are beta features: pass ``beta=`` to ``get_model`` (e.g.
``"web-fetch-2025-09-10"``, ``"code-execution-2025-08-25"``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from modelport.provider_tools import ProviderToolSpec
from modelport.tools.args import ApproximateLocation as UserLocation
from modelport.tools.args import DomainLimits, ToolArgs
from modelport.types import ProviderTool

__all__ = [
    "CodeExecutionArgs",
    "PROVIDER_TOOL_SPECS",
    "UserLocation",
    "WebFetchArgs",
    "WebSearchArgs",
    "code_execution",
    "tool_to_wire",
    "web_fetch",
    "web_search",
]


class WebSearchArgs(DomainLimits):
    """Arguments of ``anthropic.web_search``; ``{}`` keeps Anthropic's defaults."""

    version: Literal["web_search_20250305", "web_search_20260209"] = "web_search_20250305"
    user_location: UserLocation | None = None


class _Citations(ToolArgs):
    enabled: bool


class WebFetchArgs(DomainLimits):
    """Arguments of ``anthropic.web_fetch``."""

    version: Literal["web_fetch_20250910", "web_fetch_20260209"] = "web_fetch_20250910"
    citations: _Citations | None = None
    max_content_tokens: int | None = Field(default=None, ge=1)


class CodeExecutionArgs(ToolArgs):
    """Arguments of ``anthropic.code_execution``: the tool version only."""

    version: Literal["code_execution_20250522", "code_execution_20250825", "code_execution_20260120"] = (
        "code_execution_20250825"
    )


PROVIDER_TOOL_SPECS: tuple[ProviderToolSpec, ...] = (
    ProviderToolSpec(
        "anthropic.web_search", "web_search", "anthropic", WebSearchArgs, "Web search, run by Anthropic."
    ),
    ProviderToolSpec(
        "anthropic.web_fetch", "web_fetch", "anthropic", WebFetchArgs, "Fetches a URL's content."
    ),
    ProviderToolSpec(
        "anthropic.code_execution",
        "code_execution",
        "anthropic",
        CodeExecutionArgs,
        "Runs code in a sandbox.",
    ),
)
"""Every Anthropic provider-tool spec, registered by the plugin."""

_BY_ID = {spec.id: spec for spec in PROVIDER_TOOL_SPECS}


def tool_to_wire(tool: ProviderTool) -> dict[str, Any]:
    """The tool block for a (validated) provider tool: its version as ``type``, then its arguments."""
    spec = _BY_ID[tool.id]
    args = spec.args_of(tool)
    given = args.model_dump(exclude_none=True)
    return {"type": given.pop("version"), "name": spec.name, **given}


def web_search(**args: Any) -> ProviderTool:
    """``anthropic.web_search`` with ``args`` (see :class:`WebSearchArgs`)."""
    return ProviderTool(id="anthropic.web_search", name="web_search", args=args)


def web_fetch(**args: Any) -> ProviderTool:
    """``anthropic.web_fetch`` with ``args`` (see :class:`WebFetchArgs`)."""
    return ProviderTool(id="anthropic.web_fetch", name="web_fetch", args=args)


def code_execution(**args: Any) -> ProviderTool:
    """``anthropic.code_execution`` (see :class:`CodeExecutionArgs`)."""
    return ProviderTool(id="anthropic.code_execution", name="code_execution", args=args)
