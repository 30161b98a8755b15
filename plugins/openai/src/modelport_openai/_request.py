"""Canonical request → Chat Completions body, with a warning for each setting the server ignores.

Pure: the same request gives the same body; every rule that can reject a request raises
``InvalidRequestError`` here, before any I/O. The body's order is fixed: model and messages, the
sampling settings, output format, tools, reasoning, user and labels, then
``provider_options[<provider id>]`` (``extra_body`` last), then the stream flags.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import (
    CallWarning,
    FunctionTool,
    PromptCache,
    ReasoningConfig,
    Request,
    ResponseFormat,
    SpecificToolChoice,
    ToolSubsetChoice,
)

from ._messages import wire_messages
from ._options import parse_options
from ._quirks import Quirks, ReasoningFamily

__all__ = [
    "build_body",
    "is_reasoning_model",
    "json_schema_format",
    "prompt_cache_fields",
    "reasoning_effort",
    "sampling",
]


def is_reasoning_model(model_name: str, quirks: Quirks) -> bool:
    """Whether ``model_name`` is one of the server's reasoning models (by name prefix)."""
    return bool(quirks.reasoning_prefixes) and model_name.startswith(quirks.reasoning_prefixes)


def _unsupported(setting: str, details: str) -> CallWarning:
    return CallWarning(type="unsupported-setting", setting=setting, details=details)


def sampling(
    request: Request,
    body: dict[str, Any],
    model_name: str,
    reasoning_model: bool,
    quirks: Quirks,
    *,
    effort_option: str | None = None,
) -> list[CallWarning]:
    """``temperature`` and ``top_p`` into ``body``; a reasoning model takes neither (a warning each),
    unless it is one of ``quirks.sampling_models`` and the request asks for no reasoning.

    ``effort_option`` is the ``reasoning_effort`` given in ``provider_options``, which is sent in
    place of what ``reasoning.effort`` maps to: the effort sent decides, whichever way it is asked
    (OpenAI takes ``temperature`` and ``top_p`` on these models only with the effort ``none``)."""
    warnings: list[CallWarning] = []
    reasons = _reasons(request) if effort_option is None else effort_option != "none"
    samples = not reasoning_model or (quirks.takes_sampling(model_name) and not reasons)
    for setting in ("temperature", "top_p"):
        value = getattr(request, setting)
        if value is None:
            continue
        if samples:
            body[setting] = value
        elif quirks.takes_sampling(model_name):
            details = f"{model_name} takes {setting} only without reasoning; {setting} is not sent"
            warnings.append(_unsupported(setting, details))
        else:
            warnings.append(
                _unsupported(setting, f"{model_name} is a reasoning model; {setting} is not sent")
            )
    return warnings


def _reasons(request: Request) -> bool:
    """Whether ``request`` asks for reasoning (an effort, a budget, or reasoning switched on)."""
    config = request.reasoning
    if config is None or config.enabled is False:
        return False
    return config.enabled is True or config.effort is not None or config.budget_tokens is not None


def build_body(
    model_name: str, request: Request, *, stream: bool, quirks: Quirks, provider: str
) -> tuple[dict[str, Any], list[CallWarning]]:
    """The body and the warnings for ``request`` sent to ``model_name``."""
    reasoning_model = is_reasoning_model(model_name, quirks)
    body: dict[str, Any] = {
        "model": model_name,
        "messages": wire_messages(request.messages, developer=reasoning_model),
    }
    warnings: list[CallWarning] = []
    options = parse_options(request.provider_options, provider)
    if request.max_output_tokens is not None:
        body["max_completion_tokens" if reasoning_model else "max_tokens"] = request.max_output_tokens
    warnings += sampling(
        request, body, model_name, reasoning_model, quirks, effort_option=options.reasoning_effort
    )
    if request.top_k is not None:
        if quirks.top_k:
            body["top_k"] = request.top_k
        else:
            warnings.append(_unsupported("top_k", f"{provider} has no top_k; it is not sent"))
    if request.stop_sequences:
        body["stop"] = list(request.stop_sequences)
    if request.seed is not None:
        body[quirks.seed_field] = request.seed
    for setting in ("presence_penalty", "frequency_penalty"):
        if getattr(request, setting) is not None:
            body[setting] = getattr(request, setting)
    if request.response_format is not None and request.response_format.type != "text":
        body["response_format"] = _response_format(request.response_format, warnings)
    _tools(request, body)
    if request.reasoning is not None:
        warnings += _reasoning(request.reasoning, body, model_name, quirks, provider, reasoning_model)
    if request.user_id is not None:
        if quirks.user:
            body["user"] = request.user_id
        else:
            warnings.append(_unsupported("user_id", f"{provider} has no user field; it is not sent"))
    if request.request_labels:
        if quirks.metadata:
            body["metadata"] = dict(request.request_labels)
        else:
            warnings.append(_unsupported("request_labels", f"{provider} has no metadata field; not sent"))
    if request.prompt_cache is not None and quirks.prompt_cache:
        body.update(prompt_cache_fields(request.prompt_cache))
    body.update(options.wire())
    if stream:
        body["stream"] = True
        if quirks.stream_usage:
            body["stream_options"] = {"include_usage": True}
    return body, warnings


def prompt_cache_fields(cache: PromptCache) -> dict[str, Any]:
    """``prompt_cache`` on OpenAI, whose caching is automatic (the longest cached prefix, so every
    place in ``cache.at``): ``key`` → ``prompt_cache_key``; a ``ttl`` over the in-memory
    retention's 5 minutes → ``prompt_cache_retention: "24h"`` (the shortest that covers it)."""
    fields: dict[str, Any] = {}
    if cache.key is not None:
        fields["prompt_cache_key"] = cache.key
    if cache.ttl != "5m":
        fields["prompt_cache_retention"] = "24h"
    return fields


def _response_format(fmt: ResponseFormat, warnings: list[CallWarning]) -> dict[str, Any]:
    if fmt.type == "json":
        return {"type": "json_object"}
    return {"type": "json_schema", "json_schema": json_schema_format(fmt, warnings)}


def json_schema_format(fmt: ResponseFormat, warnings: list[CallWarning]) -> dict[str, Any]:
    """A ``json_schema`` format's ``name``, ``schema`` (in OpenAI's strict dialect when strict),
    ``description`` and ``strict``, as both OpenAI APIs take them."""
    wire_schema = fmt.json_schema
    if fmt.strict and wire_schema is not None:  # strict mode takes only its own dialect
        # here: a request without a schema imports no schema compiler
        from modelport.outputs.schemas import openai_strict_schema

        compiled = openai_strict_schema(wire_schema)
        wire_schema = compiled.schema
        warnings += compiled.warnings
    schema: dict[str, Any] = {"name": fmt.name or "response", "schema": wire_schema}
    if fmt.description is not None:
        schema["description"] = fmt.description
    if fmt.strict is not None:
        schema["strict"] = fmt.strict
    return schema


def _function(tool: FunctionTool) -> dict[str, Any]:
    function: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        function["description"] = tool.description
    function["parameters"] = tool.parameters
    return {"type": "function", "function": function}


def _tools(request: Request, body: dict[str, Any]) -> None:
    tools = request.tools or []
    for tool in tools:
        if not isinstance(tool, FunctionTool):
            raise InvalidRequestError(f"tool {tool.name!r}: this provider runs no provider tools")
    functions = [t for t in tools if isinstance(t, FunctionTool)]
    choice = request.tool_choice
    if isinstance(choice, ToolSubsetChoice):
        # Chat Completions forces one named tool or any tool: send only the subset, and require a call.
        functions = [t for t in functions if t.name in choice.names]
        choice = SpecificToolChoice(name=choice.names[0]) if len(choice.names) == 1 else "required"
    if not functions:
        # No tools, no choice: "none" and "auto" mean what no tools mean, and OpenAI answers 400
        # to a tool_choice without tools (the core refuses "any" / "required" without tools).
        return
    body["tools"] = [_function(t) for t in functions]
    if choice is None:
        return
    if isinstance(choice, SpecificToolChoice):
        body["tool_choice"] = {"type": "function", "function": {"name": choice.name}}
    else:
        body["tool_choice"] = "required" if choice == "any" else choice


#: The rank of each effort a server may take, to tell a renamed level (``max`` sent as ``xhigh``) from
#: a lowered or raised one (``max`` sent as ``high``), which is warned about.
_RANK = {"minimal": 0, "low": 1, "medium": 2, "high": 3, "xhigh": 4, "max": 4}


def reasoning_effort(
    config: ReasoningConfig, family: ReasoningFamily, model_name: str
) -> tuple[str | None, list[CallWarning]]:
    """The wire effort ``model_name``'s family takes for ``config.effort``, with a warning when it
    is another level (e.g. ``max`` sent as ``high`` to a model whose highest level is ``high``)."""
    effort = config.effort
    if effort is None:
        return None, []
    wire = dict(family.efforts).get(effort, effort)
    if _RANK.get(wire) == _RANK[effort]:
        return wire, []
    change = "lowered" if _RANK.get(wire, 0) < _RANK[effort] else "raised"
    details = f"{model_name} takes no effort {effort!r}: it is {change} to {wire!r}"
    return wire, [_unsupported("reasoning.effort", details)]


def _reasoning(
    config: ReasoningConfig,
    body: dict[str, Any],
    model_name: str,
    quirks: Quirks,
    provider: str,
    reasoning_model: bool,
) -> list[CallWarning]:
    family = quirks.reasoning_family(model_name)
    if family.effort is None:
        return [_unsupported("reasoning", f"{provider} sets reasoning by model; the setting is not sent")]
    if quirks.reasoning_prefixes and not reasoning_model:
        return [_unsupported("reasoning", f"{model_name} is not a reasoning model; the setting is not sent")]
    if family.thinking and config.enabled is False and config.effort is not None:
        raise InvalidRequestError("reasoning.enabled=False cannot be combined with reasoning.effort")
    effort, warnings = reasoning_effort(config, family, model_name)
    if family.effort == "reasoning":
        wire: dict[str, Any] = {}
        if effort is not None:
            wire["effort"] = effort
        if config.budget_tokens is not None:
            wire["max_tokens"] = config.budget_tokens
        if config.enabled is not None:
            wire["enabled"] = config.enabled
        if wire:
            body["reasoning"] = wire
        return warnings
    if family.thinking and config.enabled is not None:
        body["thinking"] = {"type": "enabled" if config.enabled else "disabled"}
    if effort is not None:
        body["reasoning_effort"] = effort
    if config.budget_tokens is not None:
        warnings.append(_unsupported("reasoning.budget_tokens", f"{provider} takes an effort, not a budget"))
    if config.enabled is not None and not family.thinking:
        warnings.append(_unsupported("reasoning.enabled", f"{provider} sets reasoning by model and effort"))
    return warnings
