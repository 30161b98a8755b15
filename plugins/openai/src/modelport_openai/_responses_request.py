"""Canonical request → Responses API body (``POST /responses``), with a warning for each setting the
API does not take.

Pure: the same request gives the same body; every rule that can reject a request raises
``InvalidRequestError`` here, before any I/O. Stateless by default: ``store: false``, and for
reasoning models ``include: ["reasoning.encrypted_content"]``, so every reasoning item comes back
with the opaque state the next turn sends (:mod:`._responses_input`). Stateful when asked:
``previous_response_id`` (:class:`~modelport_openai.ResponsesOptions`) continues a stored
answer, and ``store`` then defaults to true. ``provider_options`` are sent under their own top-level
names, except ``reasoning_effort`` (sent as ``reasoning.effort``), ``reasoning_summary``
(``reasoning.summary``) and ``verbosity`` (``text.verbosity``); ``logprobs`` and ``logit_bias``
have no Responses field and are refused. Built-in tools (``openai.web_search`` ...) are sent as
:func:`modelport_openai.tools.tool_to_wire` makes them.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.http import setting_warnings
from modelport.types import (
    CallWarning,
    FunctionTool,
    ProviderTool,
    Request,
    ResponseFormat,
    SpecificToolChoice,
    ToolSubsetChoice,
)

from ._options import ResponsesOptions, parse_options
from ._quirks import Quirks
from ._request import is_reasoning_model, json_schema_format, prompt_cache_fields, reasoning_effort, sampling
from ._responses_input import input_items

__all__ = ["build_body", "count_body"]

_NOT_ON_RESPONSES = ("logprobs", "logit_bias")
#: The request's settings the Responses API has no field for: each one set is a warning, not sent.
_NO_FIELD = ("top_k", "stop_sequences", "seed", "presence_penalty", "frequency_penalty")


def _unsupported(setting: str, details: str) -> CallWarning:
    return CallWarning(type="unsupported-setting", setting=setting, details=details)


def build_body(
    model_name: str, request: Request, *, stream: bool, quirks: Quirks, provider: str
) -> tuple[dict[str, Any], list[CallWarning]]:
    """The body and the warnings for ``request`` sent to ``model_name``."""
    options = parse_options(request.provider_options, provider, ResponsesOptions).wire()
    for name in _NOT_ON_RESPONSES:
        if name in options:
            raise InvalidRequestError(
                f"provider_options[{provider!r}].{name}: the Responses API has no {name}"
            )
    reasoning_model = is_reasoning_model(model_name, quirks)
    stored = options.get("store") is True
    body: dict[str, Any] = {
        "model": model_name,
        "input": input_items(
            request.messages,
            developer=reasoning_model,
            stored=stored,
            stateful=bool(options.get("previous_response_id") or options.get("conversation")),
        ),
    }
    warnings: list[CallWarning] = []
    if request.max_output_tokens is not None:
        body["max_output_tokens"] = request.max_output_tokens
    effort_option = options.get("reasoning_effort")
    warnings += sampling(request, body, model_name, reasoning_model, quirks, effort_option=effort_option)
    no_field = "the Responses API has no {setting}; it is not sent"
    warnings += setting_warnings(request, settings=_NO_FIELD, details=no_field)
    text: dict[str, Any] = {}
    if request.response_format is not None and request.response_format.type != "text":
        text["format"] = _text_format(request.response_format, warnings)
    verbosity = options.pop("verbosity", None)
    if verbosity is not None:
        text["verbosity"] = verbosity
    if text:
        body["text"] = text
    _tools(request, body)
    reasoning: dict[str, Any] = {}
    if request.reasoning is not None:
        warnings += _reasoning(request, reasoning, model_name, quirks, reasoning_model)
    for option, field in (("reasoning_effort", "effort"), ("reasoning_summary", "summary")):
        value = options.pop(option, None)
        if value is not None:
            reasoning[field] = value
    if reasoning:
        body["reasoning"] = reasoning
    if request.user_id is not None:
        body["user"] = request.user_id
    if request.request_labels:
        body["metadata"] = dict(request.request_labels)
    if request.prompt_cache is not None and quirks.prompt_cache:
        body.update(prompt_cache_fields(request.prompt_cache))
    body["store"] = stored
    include = ["reasoning.encrypted_content"] if reasoning_model and not stored else []
    include += [name for name in options.pop("include", None) or [] if name not in include]
    if include:
        body["include"] = include
    body.update(options)
    if stream:
        body["stream"] = True
    return body, warnings


def count_body(model_name: str, request: Request, *, quirks: Quirks, provider: str) -> dict[str, Any]:
    """The ``POST /responses/input_tokens`` body: what the request sends that counts as input."""
    body, _ = build_body(model_name, request, stream=False, quirks=quirks, provider=provider)
    keep = ("model", "input", "instructions", "tools", "tool_choice", "text", "reasoning")
    return {key: body[key] for key in keep if key in body}


def _text_format(fmt: ResponseFormat, warnings: list[CallWarning]) -> dict[str, Any]:
    if fmt.type == "json":
        return {"type": "json_object"}
    return {"type": "json_schema", **json_schema_format(fmt, warnings)}


def _function(tool: FunctionTool) -> dict[str, Any]:
    # The Responses API makes a function strict unless told otherwise; the canonical tool is not.
    wire: dict[str, Any] = {"type": "function", "name": tool.name}
    if tool.description is not None:
        wire["description"] = tool.description
    wire["parameters"] = tool.parameters
    wire["strict"] = False
    return wire


def _tools(request: Request, body: dict[str, Any]) -> None:
    tools = request.tools or []
    functions = [t for t in tools if isinstance(t, FunctionTool)]
    built_in: list[dict[str, Any]] = []
    if any(isinstance(t, ProviderTool) for t in tools):
        from .tools import tool_to_wire  # here: a request without provider tools imports no tool modules

        built_in = [tool_to_wire(t) for t in tools if isinstance(t, ProviderTool)]
    if not functions and not built_in:
        return  # "none" and "auto" mean what no tools mean (the core refuses "any" without tools)
    body["tools"] = [_function(t) for t in functions] + built_in
    choice = request.tool_choice
    if choice is None:
        return
    if isinstance(choice, SpecificToolChoice):
        body["tool_choice"] = {"type": "function", "name": choice.name}
    elif isinstance(choice, ToolSubsetChoice):
        allowed = [{"type": "function", "name": name} for name in choice.names]
        body["tool_choice"] = {"type": "allowed_tools", "mode": "required", "tools": allowed}
    else:
        body["tool_choice"] = "required" if choice == "any" else choice


def _reasoning(
    request: Request, wire: dict[str, Any], model_name: str, quirks: Quirks, reasoning_model: bool
) -> list[CallWarning]:
    config = request.reasoning
    assert config is not None
    if not reasoning_model:
        return [_unsupported("reasoning", f"{model_name} is not a reasoning model; the setting is not sent")]
    # The effort levels of the model's family, as for Chat Completions ("max" is "xhigh" from
    # gpt-5.1-codex-max on, "high" before, with a warning).
    effort, warnings = reasoning_effort(config, quirks.reasoning_family(model_name), model_name)
    if effort is not None:
        wire["effort"] = effort
    if config.enabled is not False:
        wire["summary"] = "auto"  # the summaries are the reasoning text the result carries
    if config.budget_tokens is not None:
        warnings.append(_unsupported("reasoning.budget_tokens", "OpenAI takes an effort, not a budget"))
    return warnings
