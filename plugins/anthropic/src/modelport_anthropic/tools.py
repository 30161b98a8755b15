"""Anthropic's server tools as modelport provider tools, validated strictly before any request.

``anthropic.web_search``, ``anthropic.web_fetch`` and ``anthropic.code_execution`` run on
Anthropic's side; a request names them as ``{"type": "provider", "id": "anthropic.web_search",
"args": {...}}`` (or the builders here), and each is sent as the tool block of its ``version``
(``{"type": "web_search_20250305", "name": "web_search", ...}``). Their calls and results come
back as provider-executed tool call and result parts (:mod:`modelport_anthropic._blocks`). Web
fetch and some code-execution versions are beta features: pass ``beta=`` to ``get_model`` (e.g.
``"web-fetch-2025-09-10"``, ``"code-execution-2025-08-25"``).

``anthropic.mcp_server`` is the MCP connector: a remote MCP server Anthropic lists and calls itself.
It is an entry of the request's ``mcp_servers``, sent with the beta of its ``version`` (added to the
``anthropic-beta`` header): ``mcp-client-2025-04-04`` (:data:`MCP_BETA`, the default, the shape the
recordings hold) puts the tools chosen in the entry (``{"type": "url", "url", "name",
"tool_configuration", "authorization_token"}``); ``mcp-client-2025-11-20`` (the current one, per
Anthropic's MCP connector page; no recording holds it) leaves them out of the entry and chooses them
with an ``{"type": "mcp_toolset", "mcp_server_name": ...}`` block in ``tools`` (``allowed_tools``:
``"default_config": {"enabled": false}`` and each named tool ``{"enabled": true}`` in
``"configs"``). Its ``mcp_tool_use`` and ``mcp_tool_result`` blocks
come back as provider-executed parts. The ``authorization_token`` is a :class:`pydantic.SecretStr`:
no ``repr`` shows it, and the kit scrubs it from errors.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SecretStr

from modelport.provider_tools import ProviderToolSpec
from modelport.tools.args import ApproximateLocation as UserLocation
from modelport.tools.args import DomainLimits, ToolArgs
from modelport.types import ProviderTool

__all__ = [
    "MCP_BETA",
    "MCP_TOOLSET_BETA",
    "CodeExecutionArgs",
    "McpServerArgs",
    "PROVIDER_TOOL_SPECS",
    "UserLocation",
    "WebFetchArgs",
    "WebSearchArgs",
    "code_execution",
    "mcp_beta",
    "mcp_server",
    "mcp_servers_to_wire",
    "mcp_toolset_to_wire",
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


#: The beta the MCP connector needs (``anthropic-beta`` header), as the API reference names it: the
#: default ``version`` of :class:`McpServerArgs`.
MCP_BETA = "mcp-client-2025-04-04"
#: The current connector's beta: tools chosen by an ``mcp_toolset`` block.
MCP_TOOLSET_BETA = "mcp-client-2025-11-20"


class McpServerArgs(ToolArgs):
    """Arguments of ``anthropic.mcp_server``: one ``mcp_servers`` entry of the MCP connector."""

    url: str = Field(pattern=r"^https://[^\s]+$")
    """The server's URL (streamable HTTP or SSE; the connector takes ``https`` only)."""
    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")
    allowed_tools: list[str] | None = Field(default=None, min_length=1)
    """Only these of the server's tools (``tool_configuration.allowed_tools``)."""
    authorization_token: SecretStr | None = None
    """An OAuth bearer token the connector sends to the server."""
    version: Literal["mcp-client-2025-04-04", "mcp-client-2025-11-20"] = "mcp-client-2025-04-04"
    """The connector's version (its beta): the tools chosen in the ``mcp_servers`` entry
    (``tool_configuration``, 2025-04-04) or by an ``mcp_toolset`` block in ``tools`` (2025-11-20)."""


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
    ProviderToolSpec(
        "anthropic.mcp_server",
        "mcp_server",
        "anthropic",
        McpServerArgs,
        "A remote MCP server's tools, run by Anthropic (the MCP connector).",
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


def mcp_servers_to_wire(tools: list[ProviderTool]) -> tuple[list[dict[str, Any]], list[str]]:
    """The ``mcp_servers`` entries of the (validated) ``anthropic.mcp_server`` tools, and the
    credentials they carry (for the kit to scrub)."""
    servers: list[dict[str, Any]] = []
    secrets: list[str] = []
    for tool in tools:
        args = _BY_ID[tool.id].args_of(tool)
        assert isinstance(args, McpServerArgs)
        entry: dict[str, Any] = {"type": "url", "url": args.url, "name": args.name}
        if args.allowed_tools is not None and args.version == MCP_BETA:
            entry["tool_configuration"] = {"enabled": True, "allowed_tools": list(args.allowed_tools)}
        if args.authorization_token is not None:
            token = args.authorization_token.get_secret_value()
            entry["authorization_token"] = token
            secrets.append(token)
        servers.append(entry)
    return servers, secrets


def mcp_toolset_to_wire(tool: ProviderTool) -> dict[str, Any] | None:
    """The ``mcp_toolset`` block of a (validated) ``anthropic.mcp_server`` tool of version
    2025-11-20 (``None`` for 2025-04-04, which chooses its tools in its ``mcp_servers`` entry)."""
    args = _BY_ID[tool.id].args_of(tool)
    assert isinstance(args, McpServerArgs)
    if args.version == MCP_BETA:
        return None
    block: dict[str, Any] = {"type": "mcp_toolset", "mcp_server_name": args.name}
    if args.allowed_tools is not None:  # an allowlist: every tool off but those named
        block["default_config"] = {"enabled": False}
        block["configs"] = {name: {"enabled": True} for name in args.allowed_tools}
    return block


def mcp_beta(tools: list[ProviderTool]) -> str:
    """The beta of the (validated) ``anthropic.mcp_server`` tool's connector version (a request
    holds one: provider tools have one name each)."""
    args = _BY_ID[tools[0].id].args_of(tools[0])
    assert isinstance(args, McpServerArgs)
    return args.version


def mcp_server(**args: Any) -> ProviderTool:
    """``anthropic.mcp_server`` (see :class:`McpServerArgs`); an ``authorization_token`` given as
    a string is kept as a :class:`pydantic.SecretStr`."""
    token = args.get("authorization_token")
    if isinstance(token, str):
        args = {**args, "authorization_token": SecretStr(token)}
    return ProviderTool(id="anthropic.mcp_server", name="mcp_server", args=args)


def web_search(**args: Any) -> ProviderTool:
    """``anthropic.web_search`` with ``args`` (see :class:`WebSearchArgs`)."""
    return ProviderTool(id="anthropic.web_search", name="web_search", args=args)


def web_fetch(**args: Any) -> ProviderTool:
    """``anthropic.web_fetch`` with ``args`` (see :class:`WebFetchArgs`)."""
    return ProviderTool(id="anthropic.web_fetch", name="web_fetch", args=args)


def code_execution(**args: Any) -> ProviderTool:
    """``anthropic.code_execution`` (see :class:`CodeExecutionArgs`)."""
    return ProviderTool(id="anthropic.code_execution", name="code_execution", args=args)
