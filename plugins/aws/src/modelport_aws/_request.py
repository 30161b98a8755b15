"""Canonical request → Bedrock Converse body (``POST /model/{modelId}/converse`` and
``/converse-stream``, the same body): messages, system, inference settings, tools and tool choice.
Pure: what Converse cannot carry is an ``InvalidRequestError`` before any I/O.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from modelport.errors import InvalidRequestError
from modelport.http import HttpRequest
from modelport.types import (
    FunctionTool,
    Message,
    Request,
    SpecificToolChoice,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)

__all__ = ["build_request", "model_path"]


def model_path(model_name: str, *, stream: bool) -> str:
    """``/model/{modelId}/converse[-stream]``; the id (an ARN or ``us.amazon.nova-micro-v1:0``)
    percent-encoded whole, as botocore sends it."""
    if not model_name or model_name.strip() != model_name:
        raise InvalidRequestError(f"bedrock: not a model id: {model_name!r}")
    return f"/model/{quote(model_name, safe='')}/{'converse-stream' if stream else 'converse'}"


def build_request(model_name: str, request: Request, *, stream: bool) -> HttpRequest:
    """The HTTP request of ``request`` (the body is the same for generate and stream)."""
    body: dict[str, Any] = {}
    system = [{"text": m.text} for m in request.messages if m.role == "system"]
    body["messages"] = _messages([m for m in request.messages if m.role != "system"])
    if system:
        body["system"] = system
    inference = _inference(request)
    if inference:
        body["inferenceConfig"] = inference
    tools = _tools(request)
    if tools:
        body["toolConfig"] = tools
    _refuse_unsupported(request)
    _add_raw_fields(body, (request.provider_options or {}).get("bedrock"))
    return HttpRequest(model_path(model_name, stream=stream), body, stream=stream)


def _add_raw_fields(body: dict[str, Any], extra: Any) -> None:
    """``provider_options={"bedrock": {...}}``: Converse fields sent as given where the mapping sets
    none (``additionalModelRequestFields``, ``guardrailConfig``, ``performanceConfig``...); an object
    the mapping also sets is merged, the mapping's keys winning."""
    if extra is None:
        return
    if not isinstance(extra, dict):
        raise InvalidRequestError("bedrock: provider_options['bedrock'] must be an object of Converse fields")
    for key, value in extra.items():
        if key in ("messages", "modelId"):
            raise InvalidRequestError(f"bedrock: provider_options cannot set {key!r}")
        mapped = body.get(key)
        if isinstance(mapped, dict) and isinstance(value, dict):
            body[key] = {**value, **mapped}
        elif key not in body:
            body[key] = value


def _refuse_unsupported(request: Request) -> None:
    for field in (
        "response_format",
        "reasoning",
        "documents",
        "seed",
        "presence_penalty",
        "frequency_penalty",
    ):
        if getattr(request, field) is not None:
            raise InvalidRequestError(f"bedrock: {field} is not supported by this provider yet")
    if request.top_k is not None:
        raise InvalidRequestError(
            "bedrock: top_k is not a Converse setting (it is model-specific: additionalModelRequestFields)"
        )


def _inference(request: Request) -> dict[str, Any]:
    config: dict[str, Any] = {}
    if request.max_output_tokens is not None:
        config["maxTokens"] = request.max_output_tokens
    if request.temperature is not None:
        config["temperature"] = request.temperature
    if request.top_p is not None:
        config["topP"] = request.top_p
    if request.stop_sequences:
        config["stopSequences"] = list(request.stop_sequences)
    return config


def _messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Converse messages; a ``tool`` message is a user turn of ``toolResult`` blocks, and turns of
    the same role in a row are one turn (Converse wants them alternating)."""
    out: list[dict[str, Any]] = []
    for message in messages:
        role = "assistant" if message.role == "assistant" else "user"
        blocks = [_block(part) for part in message.content]
        if not blocks:
            continue
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    if not out:
        raise InvalidRequestError("bedrock: the request has no user or assistant message")
    return out


def _block(part: Any) -> dict[str, Any]:
    if isinstance(part, TextPart):
        return {"text": part.text}
    if isinstance(part, ToolCallPart):
        return {"toolUse": {"toolUseId": part.id, "name": part.name, "input": part.args}}
    if isinstance(part, ToolResultPart):
        output = part.output
        content = [{"text": output}] if isinstance(output, str) else [{"json": output}]
        status = "error" if part.is_error else "success"
        return {"toolResult": {"toolUseId": part.call_id, "content": content, "status": status}}
    raise InvalidRequestError(f"bedrock: a {part.type} part is not supported by this provider yet")


def _tools(request: Request) -> dict[str, Any] | None:
    tools = request.tools or []
    specs = []
    for tool in tools:
        if not isinstance(tool, FunctionTool):
            raise InvalidRequestError(
                f"bedrock: the tool {getattr(tool, 'name', tool)!r} is not a function tool"
            )
        spec: dict[str, Any] = {"name": tool.name, "inputSchema": {"json": tool.parameters}}
        if tool.description:
            spec["description"] = tool.description
        specs.append({"toolSpec": spec})
    choice = request.tool_choice
    if not specs:
        if choice not in (None, "auto", "none"):
            raise InvalidRequestError("bedrock: tool_choice needs tools")
        return None
    config: dict[str, Any] = {"tools": specs}
    if choice is None or choice == "auto":
        return config
    if choice == "none":
        raise InvalidRequestError('bedrock: Converse has no tool_choice "none" (leave the tools out)')
    if choice in ("any", "required"):
        config["toolChoice"] = {"any": {}}
    elif isinstance(choice, SpecificToolChoice):
        config["toolChoice"] = {"tool": {"name": choice.name}}
    else:
        raise InvalidRequestError(f"bedrock: tool_choice {choice!r} is not supported")
    return config
