"""Canonical request → Messages API body, with a warning for each setting that is not sent (pure).

``response_format`` is a forced answer tool (the Messages API's documented way to get JSON): a
tool named after the format (``response`` by default) whose ``input_schema`` is the schema (any
object for ``type="json"``), with ``tool_choice`` set to it; its input comes back as the answer's
text (:func:`._blocks.block_part`). Thinking allows no forced tool, and a forced answer leaves no
room for function tools: both are an ``InvalidRequestError``.

``max_tokens`` is required by the API: when ``max_output_tokens`` is unset it is the model
family's output limit (:data:`MAX_TOKENS`). ``reasoning`` becomes ``thinking``: a budget
(``budget_tokens``, at least 1024 and below ``max_tokens``), an effort turned into a budget
(:data:`EFFORT_BUDGETS`), or ``{"type": "disabled"}``. With thinking on, the API takes no
``temperature`` and no ``top_k``: they are not sent, with a warning.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.schemas import anthropic_tool_schema
from modelport.types import (
    CallWarning,
    FunctionTool,
    ProviderTool,
    Request,
    ResponseFormat,
    SpecificToolChoice,
    ToolSubsetChoice,
)

from ._messages import wire_messages
from ._options import AnthropicOptions, PromptCache, parse_options
from .tools import tool_to_wire

__all__ = ["DEFAULT_MAX_TOKENS", "EFFORT_BUDGETS", "MAX_TOKENS", "build_body", "count_body"]

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
#: ``thinking.budget_tokens`` for ``reasoning.effort`` when no budget is given.
EFFORT_BUDGETS = {"low": 2048, "medium": 8192, "high": 16384, "max": 32000}
_MIN_BUDGET = 1024


def _unsupported(setting: str, details: str) -> CallWarning:
    return CallWarning(type="unsupported-setting", setting=setting, details=details)


def max_tokens(model_name: str, request: Request) -> int:
    """``max_output_tokens``, else the family default."""
    if request.max_output_tokens is not None:
        return request.max_output_tokens
    return next((limit for prefix, limit in MAX_TOKENS if model_name.startswith(prefix)), DEFAULT_MAX_TOKENS)


def _messages(request: Request) -> dict[str, Any]:
    system, messages = wire_messages(request.messages)
    body: dict[str, Any] = {"messages": messages}
    if system is not None:
        body["system"] = system
    return body


def answer_tool(request: Request) -> str | None:
    """The name of the forced answer tool of ``request``'s ``response_format`` (``None``: no format)."""
    fmt = request.response_format
    if fmt is None or fmt.type == "text":
        return None
    return fmt.name or "response"


def build_body(
    model_name: str, request: Request, *, stream: bool
) -> tuple[dict[str, Any], list[CallWarning]]:
    """The body and the warnings for ``request`` sent to ``model_name``."""
    options = parse_options(request.provider_options, "anthropic")
    limit = max_tokens(model_name, request)
    body: dict[str, Any] = {"model": model_name, "max_tokens": limit, **_messages(request)}
    warnings: list[CallWarning] = []
    thinking = _thinking(request, options, limit)
    thinking_on = thinking is not None and thinking.get("type") != "disabled"
    for setting in ("temperature", "top_k"):
        value = getattr(request, setting)
        if value is None:
            continue
        if thinking_on:
            warnings.append(_unsupported(setting, f"{setting} cannot be set with thinking; it is not sent"))
        else:
            body[setting] = value
    if request.top_p is not None:
        body["top_p"] = request.top_p
    if request.stop_sequences:
        body["stop_sequences"] = list(request.stop_sequences)
    for setting in ("seed", "presence_penalty", "frequency_penalty"):
        if getattr(request, setting) is not None:
            warnings.append(_unsupported(setting, f"the Messages API has no {setting}; it is not sent"))
    _tools(request, options, body)
    if answer_tool(request) is not None:
        assert request.response_format is not None
        if thinking_on:
            raise InvalidRequestError(
                "response_format cannot be combined with thinking on Anthropic (no forced tool)"
            )
        warnings += _answer(request.response_format, body)
    if thinking is not None:
        body["thinking"] = thinking
    if request.user_id is not None:
        body["metadata"] = {"user_id": request.user_id}
    if request.request_labels:
        warnings.append(_unsupported("request_labels", "the Messages API has no labels; they are not sent"))
    if options.cache is not None:
        place_cache(body, options.cache)
    body.update(options.wire())
    if stream:
        body["stream"] = True
    return body, warnings


def _ending_with(content: str | list[dict[str, Any]], control: dict[str, str]) -> list[dict[str, Any]]:
    """``content`` as blocks (a string becomes one text block), the last one carrying ``control``."""
    blocks: list[dict[str, Any]] = (
        [{"type": "text", "text": content}] if isinstance(content, str) else [dict(b) for b in content]
    )
    blocks[-1]["cache_control"] = control
    return blocks


def place_cache(body: dict[str, Any], cache: PromptCache) -> None:
    """Put a ``cache_control`` breakpoint at the end of each part of the prompt ``cache.at`` names:
    the system text, the last tool, the last block of the last user turn. A part the request does
    not have gets none."""
    control = {"type": "ephemeral", "ttl": cache.ttl}
    if "system" in cache.at and "system" in body:
        body["system"] = _ending_with(body["system"], control)
    if "tools" in cache.at and body.get("tools"):
        body["tools"] = [*body["tools"][:-1], {**body["tools"][-1], "cache_control": control}]
    users = [i for i, m in enumerate(body["messages"]) if m["role"] == "user"]
    if "messages" in cache.at and users:
        turn = body["messages"][users[-1]]
        body["messages"][users[-1]] = {**turn, "content": _ending_with(turn["content"], control)}


def count_body(model_name: str, request: Request) -> dict[str, Any]:
    """The ``/v1/messages/count_tokens`` body: what the input is (no ``max_tokens``, no sampling)."""
    options = parse_options(request.provider_options, "anthropic")
    body: dict[str, Any] = {"model": model_name, **_messages(request)}
    _tools(request, options, body)
    thinking = _thinking(request, options, max_tokens(model_name, request))
    if thinking is not None:
        body["thinking"] = thinking
    body.update(options.extra_body or {})
    return body


def _thinking(request: Request, options: AnthropicOptions, limit: int) -> dict[str, Any] | None:
    if options.thinking is not None:
        return dict(options.thinking)
    config = request.reasoning
    if config is None:
        return None
    if config.enabled is False:
        if config.effort is not None or config.budget_tokens is not None:
            raise InvalidRequestError("reasoning.enabled=False cannot be combined with an effort or a budget")
        return {"type": "disabled"}
    budget = config.budget_tokens
    if budget is None and config.effort is not None:
        budget = EFFORT_BUDGETS[config.effort]
    if budget is None:
        budget = EFFORT_BUDGETS["medium"] if config.enabled else None
    if budget is None:
        return None
    if budget < _MIN_BUDGET:
        raise InvalidRequestError(
            f"reasoning.budget_tokens must be at least {_MIN_BUDGET} on Anthropic, got {budget}"
        )
    if budget >= limit:
        raise InvalidRequestError(
            f"reasoning budget {budget} must be below max_tokens {limit} (set max_output_tokens higher)"
        )
    return {"type": "enabled", "budget_tokens": budget}


def _answer(fmt: ResponseFormat, body: dict[str, Any]) -> list[CallWarning]:
    """The forced answer tool for ``fmt``."""
    if "tools" in body:
        raise InvalidRequestError("response_format cannot be combined with function tools on Anthropic")
    warnings: list[CallWarning] = []
    schema: dict[str, Any] = {"type": "object"}
    if fmt.type == "json_schema" and fmt.json_schema is not None:
        compiled = anthropic_tool_schema(fmt.json_schema)
        schema, warnings = compiled.schema, list(compiled.warnings)
    if fmt.strict:
        warnings.append(
            _unsupported("response_format.strict", "the answer tool is not strict; strict is not sent")
        )
    name = fmt.name or "response"
    description = fmt.description or "Give the answer as this tool's input."
    body["tools"] = [{"name": name, "description": description, "input_schema": schema}]
    body["tool_choice"] = {"type": "tool", "name": name}
    return warnings


def _tool(tool: FunctionTool) -> dict[str, Any]:
    wire: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        wire["description"] = tool.description
    wire["input_schema"] = tool.parameters
    return wire


def _tools(request: Request, options: AnthropicOptions, body: dict[str, Any]) -> None:
    tools = request.tools or []
    functions = [t for t in tools if isinstance(t, FunctionTool)]
    server = [tool_to_wire(t) for t in tools if isinstance(t, ProviderTool)]
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
