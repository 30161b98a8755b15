"""Readers for the recorded Anthropic corpus (tests/corpus/anthropic), the reverse mapping of a
recorded request to a canonical one, and the request oracle.

Each reader returns one recorded exchange as :class:`Exchange`: the request body the recording
tool sent (``None`` for body-only recordings), the response status, content type, body text and
the response headers a mapping reads (``request-id``, ``retry-after``). Containers (see the
MANIFEST): vcrpy YAML (``parsed_body`` or ``body.string``), go-vcr YAML, HAR 1.2, and raw bodies
(``*.json``; ``*.chunks.txt`` one SSE payload a line; ``*.sse`` raw SSE).

:func:`canonical` reads a recorded Messages body back into a canonical request (what the recording
meant); :func:`wire` is the request oracle: the body the API reference prescribes for a canonical
request, written independently of the adapter, so each cassette pins the adapter's request mapping.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import corpus_attribution

from modelport_conformance.containers import read_recording

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "anthropic"  # vendored, see its MANIFEST

SOURCES = {
    "pydantic__pydantic-ai": ("pydantic/pydantic-ai", "4fda38988f2939fa6ea9cdefcf120693e10ef491", "MIT"),
    "vercel__ai": ("vercel/ai", "ed857f50f112e23930b0c2dd8d532cc8bebbc911", "Apache-2.0"),
    "simonw__llm-anthropic": (
        "simonw/llm-anthropic",
        "3ae428f3b5143cc81da25af0271d8fa55bda3f05",
        "Apache-2.0",
    ),
    "charmbracelet__fantasy": (
        "charmbracelet/fantasy",
        "f6d4d1e3022229bd6e77717416336bf50e1693ad",
        "Apache-2.0",
    ),
    "prism-php__prism": ("prism-php/prism", "5d6cc65b80b19cf3f22744703ac0c727b68cdca8", "MIT"),
    "Mirascope__mirascope": ("Mirascope/mirascope", "41d433578653411dbff96c6eaca4fa869aafc931", "MIT"),
}

#: Top-level fields the canonical request has no field for, sent through ``extra_body``.
EXTRA_FIELDS = ("cache_control", "output_config", "mcp_servers", "container")
#: Server-tool versions (the ``type`` of their tool blocks) → the provider tool id.
SERVER_TOOLS = {
    "web_search": "anthropic.web_search",
    "web_fetch": "anthropic.web_fetch",
    "code_execution": "anthropic.code_execution",
}
#: The beta the MCP connector (``mcp_servers``) is sent with, as the API reference names it.
MCP_BETA = "mcp-client-2025-04-04"
#: The tool version a neutral tool (``modelport.tools``) is sent as: the provider tool's default.
NEUTRAL_VERSIONS = {
    "web_search": "web_search_20250305",
    "web_fetch": "web_fetch_20250910",
    "code_execution": "code_execution_20250825",
}
JSON_TYPE = "application/json"
SSE_TYPE = "text/event-stream"
#: Response headers a case keeps (what the error mapping reads).
KEPT_HEADERS = ("request-id", "retry-after")


@dataclass
class Exchange:
    """One recorded request and response."""

    request: dict[str, Any] | None
    status: int
    content_type: str
    body: str
    headers: dict[str, str] = field(default_factory=dict)
    url: str = ""


def attribution(saved: str, *, interaction: int | None = None, note: str = "") -> dict[str, Any]:
    """Where a recording came from: repository, commit, original path, license (from the MANIFEST)."""
    return corpus_attribution.attribution(SOURCES, saved, interaction=interaction, note=note)


def _json(text: Any) -> Any:
    if isinstance(text, (dict, list)):
        return text
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


def _headers(raw: Any) -> dict[str, str]:
    if isinstance(raw, list):  # HAR
        pairs = [(h["name"], h["value"]) for h in raw]
    else:
        pairs = [(k, v[0] if isinstance(v, list) else v) for k, v in (raw or {}).items()]
    return {k.lower(): str(v) for k, v in pairs}


def exchange(saved: str, index: int = 0) -> Exchange:
    """Interaction ``index`` of a cassette (vcrpy, go-vcr or HAR), read by the importer's container
    reader (:func:`modelport_conformance.containers.read_recording`, behind ``modelport conformance
    import``)."""
    recorded = read_recording(CORPUS / saved).exchanges[index]
    headers = {k.lower(): v[0] for k, v in recorded.response_headers.items() if v}
    content_type = headers.get("content-type", JSON_TYPE)
    return Exchange(
        _json(recorded.request_body),
        recorded.status,
        content_type if saved.endswith(".har") else content_type.split(";")[0],
        recorded.response_body,
        {k: headers[k] for k in KEPT_HEADERS if k in headers},
        recorded.uri,
    )


def raw_json(saved: str, status: int = 200) -> Exchange:
    """A body-only ``*.json`` recording."""
    return Exchange(None, status, JSON_TYPE, (CORPUS / saved).read_text(encoding="utf-8"))


def chunks(saved: str) -> Exchange:
    """A vercel ``*.chunks.txt`` (one SSE payload a line) as an SSE body with ``event:`` lines."""
    lines = [line for line in (CORPUS / saved).read_text(encoding="utf-8").splitlines() if line.strip()]
    text = "".join(f"event: {json.loads(line)['type']}\ndata: {line}\n\n" for line in lines)
    return Exchange(None, 200, SSE_TYPE, text)


def sse(saved: str) -> Exchange:
    """A raw ``*.sse`` body."""
    return Exchange(None, 200, SSE_TYPE, (CORPUS / saved).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- recorded → canonical


def _system(system: Any) -> list[dict[str, Any]]:
    if system is None:
        return []
    if isinstance(system, str):
        return [{"role": "system", "content": [{"type": "text", "text": system}]}]
    return [{"role": "system", "content": [{"type": "text", "text": b["text"]}]} for b in system]


def _file(block: dict[str, Any]) -> dict[str, Any]:
    source = block["source"]
    media = source.get("media_type") or ("application/pdf" if block["type"] == "document" else "image/jpeg")
    if source["type"] == "url":
        return {"type": "file", "media_type": media, "uri": source["url"]}
    return {"type": "file", "media_type": media, "data": source["data"]}


def _part(block: dict[str, Any], names: dict[str, str]) -> dict[str, Any] | None:
    kind = block["type"]
    if kind == "text":
        return {"type": "text", "text": block["text"]}
    if kind == "thinking":
        return {"type": "reasoning", "text": block["thinking"], "signature": block["signature"]}
    if kind == "redacted_thinking":
        return {
            "type": "reasoning",
            "text": "",
            "provider_metadata": {"anthropic": {"redacted_data": block["data"]}},
        }
    if kind == "tool_use":
        names[block["id"]] = block["name"]
        return {
            "type": "tool-call",
            "id": block["id"],
            "name": block["name"],
            "args": block.get("input") or {},
        }
    if kind in ("server_tool_use", "mcp_tool_use"):
        own = {
            "block_type": kind,
            **({"server_name": block["server_name"]} if "server_name" in block else {}),
        }
        return {
            "type": "tool-call",
            "id": block["id"],
            "name": block["name"],
            "args": block.get("input") or {},
            "provider_executed": True,
            "provider_metadata": {"anthropic": own},
        }
    if kind.endswith("_tool_result") and kind != "tool_result":
        return {
            "type": "tool-result",
            "call_id": block["tool_use_id"],
            "name": kind.removesuffix("_tool_result"),
            "output": block.get("content"),
            "provider_executed": True,
            "provider_metadata": {"anthropic": {"block_type": kind}},
        }
    if kind in ("image", "document"):
        return _file(block)
    if kind == "tool_result":
        content = block.get("content", "")
        if isinstance(content, list) and all(c.get("type") == "text" for c in content):
            content = "".join(c["text"] for c in content)
        part = {
            "type": "tool-result",
            "call_id": block["tool_use_id"],
            "name": names.get(block["tool_use_id"], "tool"),
        }
        part["output"] = content
        if block.get("is_error"):
            part["is_error"] = True
        return part
    raise ValueError(f"no canonical form for a {kind!r} block in a recorded request")


def _message(message: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    parts = [p for p in (_part(b, names) for b in blocks) if p is not None]
    return {"role": message["role"], "content": parts}


def canonical(body: dict[str, Any]) -> dict[str, Any]:
    """The canonical request a recorded Messages body means (server tools are not mapped)."""
    names: dict[str, str] = {}
    request: dict[str, Any] = {
        "messages": _system(body.get("system")) + [_message(m, names) for m in body["messages"]],
    }
    if "max_tokens" in body:
        request["max_output_tokens"] = body["max_tokens"]
    thinking = body.get("thinking") or {}
    for key in ("temperature", "top_p", "top_k", "stop_sequences"):
        if key in body and not (thinking.get("type") == "enabled" and key in ("temperature", "top_k")):
            request[key] = body[key]
    tools = [t for t in body.get("tools") or [] if "input_schema" in t]
    server = [
        {
            "type": "provider",
            "id": SERVER_TOOLS[t["name"]],
            "args": {
                "version": t["type"],
                **{k: v for k, v in t.items() if k not in ("type", "name") and v is not None},
            },
        }
        for t in body.get("tools") or []
        if t.get("name") in SERVER_TOOLS and "input_schema" not in t
    ]
    if tools or server:
        request["tools"] = server + [
            {
                "type": "function",
                "name": t["name"],
                **({"description": t["description"]} if "description" in t else {}),
                "parameters": t["input_schema"],
            }
            for t in tools
        ]
        choice = body.get("tool_choice") or {}
        kind = choice.get("type")
        if kind == "tool":
            request["tool_choice"] = {"type": "tool", "name": choice["name"]}
        elif kind in ("auto", "any", "none"):
            request["tool_choice"] = kind
        if "disable_parallel_tool_use" in choice:
            parallel = {"disable_parallel_tool_use": choice["disable_parallel_tool_use"]}
            request.setdefault("provider_options", {}).setdefault("anthropic", {}).update(parallel)
    if thinking.get("type") == "enabled":
        request["reasoning"] = {"budget_tokens": thinking["budget_tokens"]}
    elif thinking.get("type") == "disabled":
        request["reasoning"] = {"enabled": False}
    extra = {k: body[k] for k in EXTRA_FIELDS if k in body}
    if extra:  # set by hand through the escape hatch
        request.setdefault("provider_options", {}).setdefault("anthropic", {})["extra_body"] = extra
    if (body.get("metadata") or {}).get("user_id"):
        request["user_id"] = body["metadata"]["user_id"]
    return request


def as_neutral(request: dict[str, Any]) -> dict[str, Any]:
    """``request`` with each server tool sent at its neutral version asked for as the neutral tool
    (``{"type": "neutral", "name", "options"}``): the same body, reached through the neutral map."""
    tools = []
    for tool in request.get("tools") or []:
        name = tool["id"].split(".", 1)[1] if tool["type"] == "provider" else ""
        args = dict(tool.get("args") or {})
        if NEUTRAL_VERSIONS.get(name) == args.pop("version", None):
            tool = {"type": "neutral", "name": name, "options": args}
        tools.append(tool)
    request = {**request, "tools": tools}
    options = (request.get("provider_options") or {}).get("anthropic") or {}
    extra = dict(options.get("extra_body") or {})
    for server in extra.pop("mcp_servers", []):  # the MCP connector: the neutral mcp_server
        given = {"url": server["url"], "name": server["name"]}
        allowed = (server.get("tool_configuration") or {}).get("allowed_tools")
        if allowed is not None:
            given["allowed_tools"] = allowed
        tools.append({"type": "neutral", "name": "mcp_server", "options": given})
    if extra != (options.get("extra_body") or {}):
        rest = {k: v for k, v in options.items() if k != "extra_body"} | (
            {"extra_body": extra} if extra else {}
        )
        kept = {k: v for k, v in request["provider_options"].items() if k != "anthropic"}
        request["provider_options"] = kept | ({"anthropic": rest} if rest else {})
        if not request["provider_options"]:
            del request["provider_options"]
    if not any(t["type"] == "neutral" for t in tools):
        raise ValueError("the request has no server tool at a neutral tool's version")
    return request


# --------------------------------------------------------------------------- the request oracle
