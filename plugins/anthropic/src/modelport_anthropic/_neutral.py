"""The neutral tools of :mod:`modelport.tools` as Anthropic server tools.

``web_search`` is ``anthropic.web_search`` (domains, user location, use limit; no time range or
context size), ``web_fetch`` is ``anthropic.web_fetch`` (domains, use limit, content-token limit;
a beta: pass ``beta="web-fetch-2025-09-10"`` to ``get_model``), ``code_execution`` is
``anthropic.code_execution`` at its default version. ``mcp_server`` is ``anthropic.mcp_server``,
the MCP connector (an ``mcp_servers`` entry, with its beta header): URL, name and allowed tools as
they are; of headers, only ``Authorization: Bearer <token>`` (its ``authorization_token``); the
connector asks for no approval, so ``require_approval="always"`` is refused (``"never"`` is what it
does).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, SecretStr

from modelport.errors import InvalidRequestError
from modelport.tools import McpServerOptions, NeutralToolMapping

__all__ = ["neutral_tool"]

_DOMAINS = frozenset({"allowed_domains", "blocked_domains", "max_uses"})


def _same_names(options: BaseModel) -> dict[str, Any]:
    """Anthropic names these options as the neutral tools do."""
    return options.model_dump(exclude_none=True)


def _connector(options: McpServerOptions) -> dict[str, Any]:
    args: dict[str, Any] = {"url": options.url, "name": options.name}
    if options.allowed_tools is not None:
        args["allowed_tools"] = list(options.allowed_tools)
    if options.require_approval == "always":
        raise InvalidRequestError(
            "mcp_server option 'require_approval' = 'always' not supported by provider 'anthropic' (the"
            " MCP connector runs every call without asking; use require_approval='never' or a local"
            " MCP server with the tool loop's approve=)"
        )
    headers = dict(options.headers or {})
    if headers:
        name, value = next(iter(headers.items()))
        scheme, _, token = value.get_secret_value().partition(" ")
        if len(headers) > 1 or name.lower() != "authorization" or scheme.lower() != "bearer" or not token:
            raise InvalidRequestError(
                f"mcp_server headers {sorted(headers)} not supported by provider 'anthropic': the MCP"
                " connector sends one header, 'Authorization: Bearer <token>' (authorization_token)"
            )
        args["authorization_token"] = SecretStr(token.strip())
    return args


_MCP = frozenset({"url", "name", "allowed_tools", "headers", "require_approval"})
_TOOLS = {
    "web_search": NeutralToolMapping("anthropic.web_search", _DOMAINS | {"user_location"}, _same_names),
    "web_fetch": NeutralToolMapping("anthropic.web_fetch", _DOMAINS | {"max_content_tokens"}, _same_names),
    "code_execution": NeutralToolMapping("anthropic.code_execution"),
    "mcp_server": NeutralToolMapping("anthropic.mcp_server", _MCP, _connector),
}


def neutral_tool(name: str) -> NeutralToolMapping | None:
    """How Anthropic expresses the neutral tool ``name``."""
    return _TOOLS.get(name)
