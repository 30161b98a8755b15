"""The Messages API body a neutral request of the Anthropic corpus maps to, as its API reference
prescribes (the request side of each converted case), and the body of its token count; split from
:mod:`anthropic_corpus`, which reads the recordings."""

from __future__ import annotations

import base64
import json
from typing import Any

from anthropic_corpus import NEUTRAL_VERSIONS


def _wire_part(part: dict[str, Any]) -> dict[str, Any] | None:
    kind = part["type"]
    if kind == "text":
        control = (part.get("provider_metadata") or {}).get("anthropic", {}).get("cache_control")
        return {"type": "text", "text": part["text"], **({"cache_control": control} if control else {})}
    if kind == "reasoning":
        redacted = (part.get("provider_metadata") or {}).get("anthropic", {}).get("redacted_data")
        if redacted is not None:
            return {"type": "redacted_thinking", "data": redacted}
        return {"type": "thinking", "thinking": part["text"], "signature": part["signature"]}
    own = (part.get("provider_metadata") or {}).get("anthropic", {})
    if kind == "tool-call" and part.get("provider_executed"):
        block = {
            "type": own["block_type"],
            "id": part["id"],
            "name": part["name"],
            "input": part.get("args", {}),
        }
        return {**block, **({"server_name": own["server_name"]} if "server_name" in own else {})}
    if kind == "tool-result" and part.get("provider_executed"):
        return {"type": own["block_type"], "tool_use_id": part["call_id"], "content": part.get("output")}
    if kind == "tool-call":
        return {"type": "tool_use", "id": part["id"], "name": part["name"], "input": part.get("args", {})}
    if kind == "tool-result":
        output = part.get("output")
        wire = {
            "type": "tool_result",
            "tool_use_id": part["call_id"],
            "content": output if isinstance(output, str) else json.dumps(output, separators=(",", ":")),
        }
        if part.get("is_error"):
            wire["is_error"] = True
        return wire
    block = "document" if part["media_type"] == "application/pdf" else "image"
    if "uri" in part and part["uri"].startswith("file_"):  # a Files API id: a file source
        wire = {"type": block, "source": {"type": "file", "file_id": part["uri"]}}
    elif "uri" in part:
        wire = {"type": block, "source": {"type": "url", "url": part["uri"]}}
    else:
        wire = {
            "type": block,
            "source": {"type": "base64", "media_type": part["media_type"], "data": part["data"]},
        }
    if block == "document":  # the document block's own fields: title, context, citations switch
        wire.update({k: own[k] for k in ("title", "context", "citations") if k in own})
    return wire


def _documents(out: list[dict[str, Any]], documents: list[dict[str, Any]]) -> None:
    """Request documents as the citations guide writes them: ``document`` blocks with
    ``citations: {enabled: true}`` before the question of the (first) user turn; a text document
    (or a plain-text file's UTF-8 bytes) as a ``text`` source, a PDF by URL as a ``url`` source."""
    blocks = []
    for document in documents:
        if document["type"] == "text":
            source = {"type": "text", "media_type": "text/plain", "data": document["text"]}
        elif document["media_type"] == "text/plain":  # a plain-text file: its UTF-8 text, as a text source
            text = base64.b64decode(document["data"]).decode("utf-8")
            source = {"type": "text", "media_type": "text/plain", "data": text}
        elif "data" in document:  # a PDF's bytes: a base64 source
            source = {"type": "base64", "media_type": "application/pdf", "data": document["data"]}
        elif document["uri"].startswith("file_"):  # a Files API id: a file source
            source = {"type": "file", "file_id": document["uri"]}
        else:
            source = {"type": "url", "url": document["uri"]}
        block = {"type": "document", "source": source}
        block.update({k: document[k] for k in ("title", "context") if k in document})
        blocks.append({**block, "citations": {"enabled": True}})
    turn = next(m for m in out if m["role"] == "user")
    content = turn["content"]
    question = [{"type": "text", "text": content}] if isinstance(content, str) else content
    turn["content"] = [*blocks, *question]


def _wire_tool(tool: dict[str, Any]) -> dict[str, Any]:
    if tool["type"] == "neutral":  # the server tool at its neutral version; options by their names
        return {"type": NEUTRAL_VERSIONS[tool["name"]], "name": tool["name"], **tool.get("options", {})}
    if tool["type"] == "provider":  # a server tool: its version block, then its arguments
        args = dict(tool.get("args") or {})
        return {"type": args.pop("version"), "name": tool["id"].split(".", 1)[1], **args}
    return {
        "name": tool["name"],
        **({"description": tool["description"]} if "description" in tool else {}),
        "input_schema": tool["parameters"],
    }


def _mcp_server(options: dict[str, Any]) -> dict[str, Any]:
    """An ``mcp_servers`` entry (MCP connector reference): a URL server, its tool configuration."""
    entry: dict[str, Any] = {"type": "url", "url": options["url"], "name": options["name"]}
    if "allowed_tools" in options:
        entry["tool_configuration"] = {"enabled": True, "allowed_tools": options["allowed_tools"]}
    return entry


def wire(request: dict[str, Any], model: str, *, stream: bool) -> dict[str, Any]:
    """The Messages body for a canonical request (the API reference's shape)."""
    messages = request["messages"]
    system = [m["content"][0]["text"] for m in messages if m["role"] == "system"]
    out: list[dict[str, Any]] = []
    for message in messages:
        if message["role"] == "system":
            continue
        parts = message["content"]
        if message["role"] == "user" and len(parts) == 1 and set(parts[0]) == {"type", "text"}:
            out.append({"role": "user", "content": parts[0]["text"]})
            continue
        ordered = parts
        if message["role"] != "assistant":  # tool results come first in a user turn
            results = [p for p in parts if p["type"] == "tool-result"]
            ordered = results + [p for p in parts if p["type"] != "tool-result"]
        blocks = [b for b in map(_wire_part, ordered) if b is not None]
        role = "assistant" if message["role"] == "assistant" else "user"
        out.append({"role": role, "content": blocks})
    if request.get("documents"):
        _documents(out, request["documents"])
    body: dict[str, Any] = {"model": model, "max_tokens": request.get("max_output_tokens"), "messages": out}
    if system:
        body["system"] = system[0] if len(system) == 1 else [{"type": "text", "text": s} for s in system]
    thinks = "budget_tokens" in (request.get("reasoning") or {})
    for key in ("temperature", "top_p", "top_k", "stop_sequences"):
        if key in request and not (thinks and key in ("temperature", "top_k")):  # thinking takes neither
            body[key] = request[key]
    connectors = [t for t in request.get("tools") or [] if t.get("name") == "mcp_server"]
    if connectors:  # the MCP connector: one mcp_servers entry per server, not a tool block
        body["mcp_servers"] = [_mcp_server(t.get("options") or t.get("args") or {}) for t in connectors]
    tools = [t for t in request.get("tools") or [] if t.get("name") != "mcp_server"]
    choice = request.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "tools":  # a subset: only its tools go
        tools = [t for t in tools if t.get("name") in choice["names"]]
        names = choice["names"]
        choice = {"type": "tool", "name": names[0]} if len(names) == 1 else "any"
    if tools:
        body["tools"] = [_wire_tool(t) for t in tools]
        wire_choice: dict[str, Any] | None = None
        if isinstance(choice, dict):
            wire_choice = {"type": "tool", "name": choice["name"]}
        elif choice is not None:
            wire_choice = {"type": "any" if choice in ("any", "required") else choice}
        options = (request.get("provider_options") or {}).get("anthropic", {})
        if "disable_parallel_tool_use" in options:
            parallel = options["disable_parallel_tool_use"]
            wire_choice = {**(wire_choice or {"type": "auto"}), "disable_parallel_tool_use": parallel}
        if wire_choice is not None:
            body["tool_choice"] = wire_choice
    fmt = request.get("response_format")
    options = (request.get("provider_options") or {}).get("anthropic", {})
    if fmt is not None and _native(fmt, model, options):  # JSON outputs: output_config.format
        body["output_config"] = {"format": {"type": "json_schema", "schema": fmt["schema"]}}
    elif fmt is not None:  # the documented JSON route: one forced tool whose input is the answer
        schema = fmt.get("schema", {"type": "object"})
        tool = {
            "name": fmt.get("name", "response"),
            "description": fmt["description"],
            "input_schema": schema,
        }
        body["tools"] = [tool]
        body["tool_choice"] = {"type": "tool", "name": tool["name"]}
    reasoning = request.get("reasoning") or {}
    effort = reasoning.get("effort")
    if "budget_tokens" in reasoning:
        body["thinking"] = {"type": "enabled", "budget_tokens": reasoning["budget_tokens"]}
    elif reasoning.get("enabled") is False:
        body["thinking"] = {"type": "disabled"}
    elif effort is not None and model.startswith(ADAPTIVE_MODELS):  # adaptive thinking at that effort
        body["thinking"] = {"type": "adaptive"}
    elif effort is not None:  # the effort guide's budget for that effort
        body["thinking"] = {"type": "enabled", "budget_tokens": EFFORT_BUDGET[effort]}
    if effort is not None and model.startswith(ADAPTIVE_MODELS):
        body.setdefault("output_config", {})["effort"] = effort
    elif effort is not None and model.startswith(EFFORT_MODELS):  # low to high: max is sent as high
        body.setdefault("output_config", {})["effort"] = "high" if effort == "max" else effort
    if "user_id" in request:
        body["metadata"] = {"user_id": request["user_id"]}
    body.update((request.get("provider_options") or {}).get("anthropic", {}).get("extra_body", {}))
    if request.get("prompt_cache"):
        _breakpoints(body, request["prompt_cache"])
    if stream:
        body["stream"] = True
    return body


#: The models that take adaptive thinking and ``output_config.effort`` up to ``max`` (adaptive-thinking
#: guide), by name prefix; and those that take ``output_config.effort`` beside a budget (effort guide).
ADAPTIVE_MODELS = (
    "claude-opus-4-6",
    "claude-opus-4-7",
    "claude-opus-4-8",
    "claude-sonnet-4-6",
    "claude-opus-5",
    "claude-sonnet-5",
    "claude-haiku-5",
    "claude-mythos",
    "claude-fable",
)
EFFORT_MODELS = ("claude-opus-4-5",)
#: The ``budget_tokens`` an effort stands for where the model takes a budget only.
EFFORT_BUDGET = {"low": 2048, "medium": 8192, "high": 16384, "max": 32000}

#: The models with JSON outputs (``output_config.format``, structured-outputs guide), by name prefix.
JSON_OUTPUT_MODELS = ("claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-5", "claude-opus-4-6")


def _native(fmt: dict[str, Any], model: str, options: dict[str, Any]) -> bool:
    """Whether a format goes as JSON outputs: a schema, a model that has them, no forced tool asked
    for. The case's schema is already in the JSON-outputs subset (every object closed, every
    property required), so it is sent as written."""
    wanted = options.get("structured_output")
    return wanted != "tool" and fmt.get("type") == "json_schema" and model.startswith(JSON_OUTPUT_MODELS)


def _breakpoints(body: dict[str, Any], cache: dict[str, Any]) -> None:
    """``cache_control`` where the prompt-caching guide puts a breakpoint: on the last system block,
    the last tool, and the last content block of the last user turn (of those ``at`` names)."""
    ttl = cache.get("ttl", "5m")
    at = cache.get("at", ("system", "tools", "messages"))
    if "system" in at and "system" in body:
        system = body["system"]
        blocks = [{"type": "text", "text": system}] if isinstance(system, str) else [dict(b) for b in system]
        body["system"] = [*blocks[:-1], {**blocks[-1], "cache_control": _control(ttl)}]
    if "tools" in at and body.get("tools"):
        body["tools"] = [*body["tools"][:-1], {**body["tools"][-1], "cache_control": _control(ttl)}]
    users = [m for m in body["messages"] if m["role"] == "user"]
    if "messages" in at and users:
        last = users[-1]
        content = last["content"]
        blocks = (
            [{"type": "text", "text": content}] if isinstance(content, str) else [dict(b) for b in content]
        )
        last["content"] = [*blocks[:-1], {**blocks[-1], "cache_control": _control(ttl)}]


def _control(ttl: str) -> dict[str, str]:
    return {"type": "ephemeral", "ttl": ttl}  # a new dict each time: no YAML alias in the cassette


def count_wire(request: dict[str, Any], model: str) -> dict[str, Any]:
    """The count_tokens body: the input of :func:`wire` (no ``max_tokens``, no sampling, no stream)."""
    body = wire(request, model, stream=False)
    for key in ("max_tokens", "temperature", "top_p", "top_k", "stop_sequences", "metadata"):
        body.pop(key, None)
    return body
