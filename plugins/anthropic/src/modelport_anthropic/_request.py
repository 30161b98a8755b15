"""Canonical request → Messages API body, with a warning for each setting that is not sent (pure).

``max_tokens`` is required by the API: when ``max_output_tokens`` is unset it is the model
family's output limit (:data:`MAX_TOKENS`). ``reasoning`` becomes ``thinking`` and
``output_config.effort`` by model family (:mod:`._thinking`); with thinking on, the API takes no
``temperature`` and no ``top_k``: they are not sent, with a warning. ``response_format`` is native
JSON outputs or a forced answer tool (:mod:`._structured`); ``prompt_cache`` places
``cache_control`` breakpoints (:mod:`._caching`).
"""

from __future__ import annotations

from typing import Any

from modelport.http import setting_warnings
from modelport.types import (
    CallWarning,
    FunctionTool,
    ProviderTool,
    Request,
    SpecificToolChoice,
    ToolSubsetChoice,
)

from ._caching import place_cache
from ._documents import with_documents
from ._messages import wire_messages
from ._options import AnthropicOptions, parse_options
from ._structured import answer_tool, native_format, place_answer_tool
from ._thinking import EFFORT_BUDGETS, Thinking, thinking_for

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "EFFORT_BUDGETS",
    "MAX_TOKENS",
    "MCP_SERVER",
    "build_body",
    "count_body",
    "max_tokens",
    "mcp_secrets",
]

#: The provider tool sent as an ``mcp_servers`` entry (the MCP connector).
MCP_SERVER = "anthropic.mcp_server"

#: The request's settings the Messages API has no field for: each one set is a warning, not sent.
_NO_FIELD = ("seed", "presence_penalty", "frequency_penalty")

#: ``max_tokens`` sent when ``max_output_tokens`` is unset: each family's documented output limit,
#: by model-name prefix (first match), https://docs.anthropic.com/en/docs/about-claude/models.
MAX_TOKENS: tuple[tuple[str, int], ...] = (
    ("claude-3-haiku", 4096),
    ("claude-3-opus", 4096),
    ("claude-3-5", 8192),
    ("claude-3-7", 64000),
    ("claude-opus-4-0", 32000),
    ("claude-opus-4-1", 32000),
    ("claude-opus-4-2025", 32000),
    ("claude-opus-4", 64000),
    ("claude-sonnet-4", 64000),
    ("claude-haiku-4", 64000),
)
#: For a model of no known family.
DEFAULT_MAX_TOKENS = 4096


def _unsupported(setting: str, details: str) -> CallWarning:
    return CallWarning(type="unsupported-setting", setting=setting, details=details)


def max_tokens(model_name: str, request: Request) -> int:
    """``max_output_tokens``, else the family default."""
    if request.max_output_tokens is not None:
        return request.max_output_tokens
    return next((limit for prefix, limit in MAX_TOKENS if model_name.startswith(prefix)), DEFAULT_MAX_TOKENS)


def _messages(request: Request) -> dict[str, Any]:
    system, messages = wire_messages(request.messages)
    body: dict[str, Any] = {"messages": with_documents(messages, request.documents)}
    if system is not None:
        body["system"] = system
    return body


def build_body(
    model_name: str, request: Request, *, stream: bool
) -> tuple[dict[str, Any], list[CallWarning], str | None]:
    """The body, the warnings and the forced answer tool's name (``None``: none) for ``request``
    sent to ``model_name``."""
    options = parse_options(request.provider_options, "anthropic")
    limit = max_tokens(model_name, request)
    body: dict[str, Any] = {"model": model_name, "max_tokens": limit, **_messages(request)}
    thinking = _thinking(model_name, request, options, limit)
    warnings = list(thinking.warnings)
    for setting in ("temperature", "top_k"):
        value = getattr(request, setting)
        if value is None:
            continue
        if thinking.on:
            warnings.append(_unsupported(setting, f"{setting} cannot be set with thinking; it is not sent"))
        else:
            body[setting] = value
    if request.top_p is not None:
        body["top_p"] = request.top_p
    if request.stop_sequences:
        body["stop_sequences"] = list(request.stop_sequences)
    no_field = "the Messages API has no {setting}; it is not sent"
    warnings += setting_warnings(request, settings=_NO_FIELD, details=no_field)
    _tools(request, options, body)
    output_config: dict[str, Any] = {}
    answer = answer_tool(model_name, request, options)
    if answer is not None:
        assert request.response_format is not None
        warnings += place_answer_tool(request.response_format, body, thinking=thinking.on)
    else:
        fmt, format_warnings = native_format(model_name, request, options)
        warnings += format_warnings
        if fmt is not None:
            output_config["format"] = fmt
    if thinking.thinking is not None:
        body["thinking"] = thinking.thinking
    if thinking.effort is not None:
        output_config["effort"] = thinking.effort
    if output_config:
        body["output_config"] = output_config
    if request.user_id is not None:
        body["metadata"] = {"user_id": request.user_id}
    if request.request_labels:
        warnings.append(_unsupported("request_labels", "the Messages API has no labels; they are not sent"))
    if request.prompt_cache is not None:
        warnings += place_cache(body, request.prompt_cache)
    body.update(options.wire())
    if stream:
        body["stream"] = True
    return body, warnings, answer


def count_body(model_name: str, request: Request) -> dict[str, Any]:
    """The ``/v1/messages/count_tokens`` body: what the input is (no ``max_tokens``, no sampling)."""
    options = parse_options(request.provider_options, "anthropic")
    body: dict[str, Any] = {"model": model_name, **_messages(request)}
    _tools(request, options, body)
    thinking = _thinking(model_name, request, options, max_tokens(model_name, request)).thinking
    if thinking is not None:
        body["thinking"] = thinking
    body.update(options.extra_body or {})
    return body


def mcp_secrets(body: dict[str, Any]) -> list[str]:
    """The credentials the body's ``mcp_servers`` entries carry (``authorization_token``)."""
    servers = body.get("mcp_servers")
    if not isinstance(servers, list):
        return []
    tokens = [s.get("authorization_token") for s in servers if isinstance(s, dict)]
    return [token for token in tokens if isinstance(token, str) and token]


def _thinking(model_name: str, request: Request, options: AnthropicOptions, limit: int) -> Thinking:
    """``provider_options`` ``thinking`` as given, else what ``reasoning`` maps to."""
    if options.thinking is not None:
        return Thinking(dict(options.thinking))
    return thinking_for(model_name, request.reasoning, limit)


def _tool(tool: FunctionTool) -> dict[str, Any]:
    wire: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        wire["description"] = tool.description
    wire["input_schema"] = tool.parameters
    return wire


def _tools(request: Request, options: AnthropicOptions, body: dict[str, Any]) -> None:
    tools = request.tools or []
    functions = [t for t in tools if isinstance(t, FunctionTool)]
    given = [t for t in tools if isinstance(t, ProviderTool)]
    server: list[dict[str, Any]] = []
    if given:
        from .tools import (
            mcp_servers_to_wire,
            mcp_toolset_to_wire,
            tool_to_wire,
        )  # here: a request without provider tools imports no tool modules

        connectors = [t for t in given if t.id == MCP_SERVER]
        if connectors:  # the MCP connector: entries of mcp_servers (2025-11-20: and mcp_toolset blocks)
            body["mcp_servers"] = mcp_servers_to_wire(connectors)[0]
        blocks = [tool_to_wire(t) if t.id != MCP_SERVER else mcp_toolset_to_wire(t) for t in given]
        server = [block for block in blocks if block is not None]
    choice = request.tool_choice
    wire: dict[str, Any] | None
    if isinstance(choice, ToolSubsetChoice):
        functions = [t for t in functions if t.name in choice.names]
        wire = {"type": "tool", "name": choice.names[0]} if len(choice.names) == 1 else {"type": "any"}
    elif isinstance(choice, SpecificToolChoice):
        wire = {"type": "tool", "name": choice.name}
    elif choice in ("any", "required"):
        wire = {"type": "any"}
    elif choice is not None:
        wire = {"type": choice}
    else:
        wire = None
    if options.disable_parallel_tool_use is not None:
        wire = {**(wire or {"type": "auto"}), "disable_parallel_tool_use": options.disable_parallel_tool_use}
    if not functions and not server:
        return
    body["tools"] = [_tool(t) for t in functions] + server
    if wire is not None:
        body["tool_choice"] = wire
