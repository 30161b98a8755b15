"""The neutral tools of :mod:`modelport.tools` as OpenAI Responses built-in tools.

``web_search`` is ``openai.web_search``: allowed domains go to ``filters.allowed_domains``, the
user's location to ``user_location``, the context size to ``search_context_size``; blocked domains,
a use limit and a time range are not expressible. ``code_execution`` is ``openai.code_interpreter``
in a new container. ``mcp_server`` is ``openai.mcp``: ``url`` → ``server_url``, ``name`` →
``server_label``, ``description`` → ``server_description``; ``allowed_tools``, ``headers`` and
``require_approval`` as they are (every option is expressible). The Responses API has no
page-fetch tool: no ``web_fetch``.
"""

from __future__ import annotations

from typing import Any

from modelport.tools import McpServerOptions, NeutralToolMapping, WebSearchOptions

__all__ = ["neutral_tool"]


def _search_args(options: WebSearchOptions) -> dict[str, Any]:
    args: dict[str, Any] = {}
    if options.allowed_domains is not None:
        args["filters"] = {"allowed_domains": list(options.allowed_domains)}
    if options.user_location is not None:
        args["user_location"] = options.user_location.model_dump(exclude_none=True)
    if options.context_size is not None:
        args["search_context_size"] = options.context_size
    return args


def _mcp_args(options: McpServerOptions) -> dict[str, Any]:
    args: dict[str, Any] = {"server_label": options.name, "server_url": options.url}
    if options.description is not None:
        args["server_description"] = options.description
    if options.allowed_tools is not None:
        args["allowed_tools"] = list(options.allowed_tools)
    if options.headers is not None:
        args["headers"] = dict(options.headers)  # SecretStr values: revealed only into the body
    if options.require_approval is not None:
        args["require_approval"] = options.require_approval
    return args


_MCP = frozenset({"url", "name", "description", "allowed_tools", "headers", "require_approval"})
_TOOLS = {
    "web_search": NeutralToolMapping(
        "openai.web_search", frozenset({"allowed_domains", "user_location", "context_size"}), _search_args
    ),
    "code_execution": NeutralToolMapping("openai.code_interpreter"),
    "mcp_server": NeutralToolMapping("openai.mcp", _MCP, _mcp_args),
}


def neutral_tool(name: str) -> NeutralToolMapping | None:
    """How the Responses API expresses the neutral tool ``name``."""
    return _TOOLS.get(name)
