"""Canonical ``response_format`` → the Messages API: native JSON outputs or a forced answer tool (pure).

Native (``output_config: {"format": {"type": "json_schema", "schema": ...}}``, generally available
without a beta header on the models in :data:`NATIVE_OUTPUT`,
https://platform.claude.com/docs/en/build-with-claude/structured-outputs): the schema is compiled
to the JSON-outputs subset (:func:`modelport.outputs.schemas.anthropic_tool_schema` with ``strict``), the
answer is the text, and thinking and function tools may come with it. ``type="json"`` (any JSON,
no schema) has no native form.

The forced answer tool (every other model, ``type="json"``, or ``provider_options={"anthropic":
{"structured_output": "tool"}}``): a tool named after the format (``response`` by default) whose
``input_schema`` is the schema (any object for ``"json"``), with ``tool_choice`` set to it; its
input comes back as the answer's text (:func:`._blocks.block_part`). Thinking allows no forced
tool, and a forced answer leaves no room for function tools: both are an ``InvalidRequestError``,
as ``structured_output="native"`` is where the model or the format has no native form.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import CallWarning, Request, ResponseFormat

from ._options import AnthropicOptions

__all__ = ["NATIVE_OUTPUT", "answer_tool", "native_format", "place_answer_tool"]

#: Model-name prefixes of the models with native JSON outputs (``output_config.format``).
NATIVE_OUTPUT: tuple[str, ...] = (
    "claude-sonnet-4-5",
    "claude-haiku-4-5",
    "claude-opus-4-5",
    "claude-opus-4-6",
    "claude-sonnet-4-6",
    "claude-opus-4-7",
    "claude-opus-4-8",
    "claude-opus-5",
    "claude-sonnet-5",
    "claude-haiku-5",
    "claude-mythos",
    "claude-fable",
)


def _native(model_name: str, fmt: ResponseFormat, options: AnthropicOptions) -> bool:
    """Whether ``fmt`` goes as ``output_config.format`` (else as the forced answer tool)."""
    if options.structured_output == "tool":
        return False
    possible = fmt.type == "json_schema" and model_name.startswith(NATIVE_OUTPUT)
    if options.structured_output == "native" and not possible:
        why = (
            "type 'json' has no schema" if fmt.type != "json_schema" else f"{model_name} has no JSON outputs"
        )
        raise InvalidRequestError(f"structured_output='native' is not possible: {why}")
    return possible


def answer_tool(model_name: str, request: Request, options: AnthropicOptions) -> str | None:
    """The name of the forced answer tool ``request``'s ``response_format`` is sent as (``None``: no
    format, or a native one)."""
    fmt = request.response_format
    if fmt is None or fmt.type == "text" or _native(model_name, fmt, options):
        return None
    return fmt.name or "response"


def native_format(
    model_name: str, request: Request, options: AnthropicOptions
) -> tuple[dict[str, Any] | None, list[CallWarning]]:
    """``output_config.format`` for ``request`` on ``model_name``, or ``None`` (and its warnings)."""
    fmt = request.response_format
    if fmt is None or fmt.type == "text" or not _native(model_name, fmt, options):
        return None, []
    assert fmt.json_schema is not None
    # here: a request without a schema imports no schema compiler
    from modelport.outputs.schemas import anthropic_tool_schema

    compiled = anthropic_tool_schema(fmt.json_schema, strict=True)
    return {"type": "json_schema", "schema": compiled.schema}, list(compiled.warnings)


def place_answer_tool(fmt: ResponseFormat, body: dict[str, Any], *, thinking: bool) -> list[CallWarning]:
    """The forced answer tool for ``fmt`` in ``body``, and its warnings."""
    if thinking:
        raise InvalidRequestError(
            "response_format as a forced tool cannot be combined with thinking on Anthropic; "
            "use a model with JSON outputs (output_config.format)"
        )
    if "tools" in body:
        raise InvalidRequestError("response_format as a forced tool cannot be combined with function tools")
    warnings: list[CallWarning] = []
    schema: dict[str, Any] = {"type": "object"}
    if fmt.type == "json_schema" and fmt.json_schema is not None:
        # here: a request without a schema imports no schema compiler
        from modelport.outputs.schemas import anthropic_tool_schema

        compiled = anthropic_tool_schema(fmt.json_schema)
        schema, warnings = compiled.schema, list(compiled.warnings)
    if fmt.strict:
        warnings.append(
            CallWarning(
                type="unsupported-setting",
                setting="response_format.strict",
                details="the answer tool is not strict; strict is not sent",
            )
        )
    name = fmt.name or "response"
    description = fmt.description or "Give the answer as this tool's input."
    body["tools"] = [{"name": name, "description": description, "input_schema": schema}]
    body["tool_choice"] = {"type": "tool", "name": name}
    return warnings
