"""Canonical request → Bedrock Converse body (``POST /model/{modelId}/converse`` and
``/converse-stream``, the same body; ``/count-tokens`` wraps it): messages with their images,
documents and replayed reasoning, system, inference settings, reasoning, cache points, tools and
tool choice. Pure: what Converse cannot carry is an ``InvalidRequestError`` before any I/O.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.http import HttpRequest, bedrock_runtime
from modelport.http.aws_count_tokens import COUNT_TOKENS_ACTION, converse_count_body
from modelport.types import (
    CallWarning,
    FilePart,
    FunctionTool,
    Message,
    Part,
    ReasoningPart,
    Request,
    SpecificToolChoice,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)

from ._caching import CACHE_POINT, place_cache
from ._content import file_block
from ._documents import with_documents
from ._reasoning import reasoning_block, thinking_fields, with_thinking
from ._tool_results import tool_result_block

__all__ = ["build_request", "converse_body", "count_tokens_request", "model_path"]

#: The Converse fields CountTokens takes in ``input.converse`` (it takes no inference settings).
_COUNTED = ("messages", "system", "toolConfig", "additionalModelRequestFields")


def model_path(model_name: str, *, stream: bool, action: str | None = None) -> str:
    """``/model/{modelId}/converse[-stream]`` (or ``/{action}``); the id (an ARN or
    ``us.amazon.nova-micro-v1:0``) percent-encoded whole, as botocore sends it
    (:func:`modelport.http.bedrock_runtime.model_path`)."""
    action = action or ("converse-stream" if stream else "converse")
    return bedrock_runtime.model_path(model_name, action, provider="bedrock")


def converse_body(
    model_name: str, request: Request
) -> tuple[dict[str, Any], list[CallWarning], tuple[int | None, ...]]:
    """The Converse body of ``request``, the warnings for what it does not send, and for each
    document block the index in ``documents=`` it came from (``None``: a file part)."""
    _refuse_unsupported(request)
    body: dict[str, Any] = {}
    system = [b for m in request.messages if m.role == "system" for b in _system_blocks(m)]
    body["messages"], origins = with_documents(_messages(request.messages), request.documents)
    if system:
        body["system"] = system
    inference = _inference(request)
    warnings: list[CallWarning] = []
    thinking = thinking_fields(model_name, request.reasoning, request.max_output_tokens)
    if thinking:
        body["additionalModelRequestFields"] = thinking
        warnings += with_thinking(inference, request)
    if inference:
        body["inferenceConfig"] = inference
    tools = _tools(request)
    if tools:
        body["toolConfig"] = tools
    if request.prompt_cache is not None:
        warnings += place_cache(body, request.prompt_cache)
    _add_raw_fields(body, (request.provider_options or {}).get("bedrock"))
    return body, warnings, origins


def build_request(model_name: str, request: Request, *, stream: bool) -> HttpRequest:
    """The HTTP request of ``request`` (the body is the same for generate and stream); its
    ``context`` is where each document block came from, for the citations."""
    body, warnings, origins = converse_body(model_name, request)
    path = model_path(model_name, stream=stream)
    return HttpRequest(path, body, stream=stream, warnings=warnings, context=origins)


def count_tokens_request(model_name: str, request: Request) -> HttpRequest:
    """``POST /model/{modelId}/count-tokens``: ``{"input": {"converse": ...}}``, the Converse body's
    messages, system, tools and model fields (CountTokens takes no inference settings)."""
    body, warnings, _ = converse_body(model_name, request)
    counted = {key: body[key] for key in _COUNTED if key in body}
    path = model_path(model_name, stream=False, action=COUNT_TOKENS_ACTION)
    return HttpRequest(path, converse_count_body(counted), warnings=warnings)


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


def _cached(part: Part, block: dict[str, Any]) -> list[dict[str, Any]]:
    """``block``, followed by a cache point when its part asks for one by hand."""
    point = ((part.provider_metadata or {}).get("bedrock") or {}).get("cache_point")
    if point is None:
        return [block]
    if point != CACHE_POINT["cachePoint"]:
        raise InvalidRequestError(f"bedrock: cache_point {point!r} is not {CACHE_POINT['cachePoint']!r}")
    return [block, CACHE_POINT]


def _system_blocks(message: Message) -> list[dict[str, Any]]:
    return [b for p in message.content if isinstance(p, TextPart) for b in _cached(p, {"text": p.text})]


def _messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Converse messages (system messages are the ``system`` field); a ``tool`` message is a user
    turn of ``toolResult`` blocks, and turns of the same role in a row are one turn (Converse wants
    them alternating)."""
    out: list[dict[str, Any]] = []
    documents = 0
    for number, message in enumerate(messages):
        if message.role == "system":
            continue
        role = "assistant" if message.role == "assistant" else "user"
        blocks: list[dict[str, Any]] = []
        for index, part in enumerate(message.content):
            where = f"messages.{number}.content.{index}"
            block = _block(part, where, role, documents)
            if block is not None:
                documents += _documents_in(block)
                blocks += _cached(part, block)
        if not blocks:
            continue
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    if not out:
        raise InvalidRequestError("bedrock: the request has no user or assistant message")
    return out


def _block(part: Part, where: str, role: str, documents: int) -> dict[str, Any] | None:
    if isinstance(part, TextPart):
        return {"text": part.text}
    if isinstance(part, FilePart):
        if role != "user":
            raise InvalidRequestError(f"{where}: Converse takes files in user turns only")
        return file_block(part, where, documents)
    if isinstance(part, ReasoningPart):
        if role != "assistant":
            raise InvalidRequestError(f"{where}: reasoning belongs in an assistant turn")
        return reasoning_block(part)
    if isinstance(part, ToolCallPart):
        return {"toolUse": {"toolUseId": part.id, "name": part.name, "input": part.args}}
    if isinstance(part, ToolResultPart):
        return tool_result_block(part, where, documents)
    raise InvalidRequestError(f"bedrock: a {part.type} part is not supported by this provider yet")


def _documents_in(block: dict[str, Any]) -> int:
    """How many document blocks ``block`` is or holds (a tool result's content may hold some)."""
    if "toolResult" in block:
        return sum("document" in item for item in block["toolResult"]["content"])
    return int("document" in block)


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
