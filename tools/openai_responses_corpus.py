"""Readers for the recorded Responses API corpus (tests/corpus/openai-responses) and the request oracle.

The readers return a recorded response as ``(status, content type, body text)``; the oracle
:func:`wire` writes the ``POST /v1/responses`` body the API reference prescribes for a canonical case
request, independently of the adapter (the cassette holds it; the replay compares the adapter's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import corpus_attribution

from modelport_conformance.containers import read_recording

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "openai-responses"  # see its MANIFEST

SOURCES = {
    "pydantic__pydantic-ai": ("pydantic/pydantic-ai", "4fda38988f2939fa6ea9cdefcf120693e10ef491", "MIT"),
    "vercel__ai": ("vercel/ai", "ed857f50f112e23930b0c2dd8d532cc8bebbc911", "Apache-2.0"),
    "Mirascope__mirascope": ("Mirascope/mirascope", "41d433578653411dbff96c6eaca4fa869aafc931", "MIT"),
    "charmbracelet__fantasy": (
        "charmbracelet/fantasy",
        "f6d4d1e3022229bd6e77717416336bf50e1693ad",
        "Apache-2.0",
    ),
}

Recorded = tuple[int, str, str]
JSON_TYPE = "application/json"
SSE_TYPE = "text/event-stream"
REASONING_PREFIXES = ("o1", "o3", "o4", "gpt-5")
_TERMINAL = ("response.completed", "response.incomplete", "response.failed")


def attribution(saved: str, *, interaction: int | None = None, note: str = "") -> dict[str, Any]:
    """Where a recording came from: repository, commit, original path, license (from the MANIFEST)."""
    return corpus_attribution.attribution(SOURCES, saved, interaction=interaction, note=note)


def vcr(saved: str, index: int = 0) -> Recorded:
    """The recorded response of a vcrpy or go-vcr cassette's interaction, read by the importer's
    container reader (:func:`modelport_conformance.containers.read_recording`)."""
    recorded = read_recording(CORPUS / saved).exchanges[index]
    headers = {k.lower(): v for k, v in recorded.response_headers.items()}
    content_type = (headers.get("content-type") or [JSON_TYPE])[0]
    return recorded.status, content_type, recorded.response_body


def raw_json(saved: str, status: int = 200) -> Recorded:
    """A raw JSON body (vercel ``*.json``)."""
    data = json.loads((CORPUS / saved).read_text(encoding="utf-8"))
    return status, JSON_TYPE, json.dumps(data, ensure_ascii=False)


def chunks(saved: str, stream: int = 0) -> Recorded:
    """A vercel ``*.chunks.txt`` as an SSE body; a file of several streams is split after each
    terminal event, and ``stream`` picks one."""
    lines = [line for line in (CORPUS / saved).read_text(encoding="utf-8").splitlines() if line.strip()]
    parts: list[list[str]] = [[]]
    for line in lines:
        parts[-1].append(line)
        if json.loads(line).get("type") in _TERMINAL:
            parts.append([])
    return 200, SSE_TYPE, "".join(f"data: {line}\n\n" for line in parts[stream])


# --------------------------------------------------------------------------- the request oracle


def _file(part: dict[str, Any]) -> dict[str, Any]:
    """A user's file: an image by file id or URL, a PDF inline as a data URL (the API reference's
    ``input_image`` / ``input_file``)."""
    media, uri = part["media_type"], part.get("uri")
    if media.startswith("image/"):
        if uri is not None and uri.startswith("file-"):
            return {"type": "input_image", "file_id": uri}
        return {"type": "input_image", "image_url": uri or f"data:{media};base64,{part['data']}"}
    if "data" in part:
        data = f"data:{media};base64,{part['data']}"
        return {"type": "input_file", "filename": "document.pdf", "file_data": data}
    return {"type": "input_file", ("file_id" if uri.startswith("file-") else "file_url"): uri}


def _content(part: dict[str, Any], role: str) -> dict[str, Any]:
    if part["type"] == "file":
        return _file(part)
    if role == "assistant" and ((part.get("provider_metadata") or {}).get("modelport") or {}).get("refusal"):
        return {"type": "refusal", "refusal": part["text"]}  # a refusal goes back as one
    if role == "assistant":
        return {"type": "output_text", "text": part["text"], "annotations": []}
    return {"type": "input_text", "text": part["text"]}


#: A built-in tool's call left out of an unstored turn (its findings are in the text that goes back).
_LEFT_OUT: dict[str, Any] = {"type": "left-out"}


def _assistant(message: dict[str, Any], stored: bool = False) -> list[dict[str, Any]]:
    """An assistant turn as output items, grouped back by their recorded item ids (``stored``: each
    item under its id, a reasoning item without ``encrypted_content`` by its id alone)."""
    items: list[dict[str, Any]] = []
    owners: list[str | None] = []  # each item's recorded id (only reasoning items send theirs)
    for part in message["content"]:
        ident = ((part.get("provider_metadata") or {}).get("openai-responses") or {}).get("item_id")
        last = items[-1] if items else None
        same = last is not None and ident is not None and owners[-1] == ident
        if not same:
            owners.append(ident)
        if part["type"] == "reasoning":
            if same and last is not None:
                if part["text"]:
                    last["summary"].append({"type": "summary_text", "text": part["text"]})
                last["encrypted_content"] = part.get("signature") or last["encrypted_content"]
                continue
            summary = [{"type": "summary_text", "text": part["text"]}] if part["text"] else []
            items.append(
                {
                    "type": "reasoning",
                    "id": ident,
                    "summary": summary,
                    "encrypted_content": part.get("signature"),
                }
            )
        elif part["type"] == "text":
            if same and last is not None:
                last["content"].append(_content(part, "assistant"))
                continue
            # store is off: an unstored msg_ / fc_ id would be refused ("Item with id ... not found")
            items.append({"type": "message", "role": "assistant", "content": [_content(part, "assistant")]})
            items[-1] |= {"id": ident} if stored and ident else {}
        elif part["type"] == "tool-call" and part.get("approval") == "requested":
            # an MCP call OpenAI asked approval for: sent back whole (nothing is stored)
            server = ((part.get("provider_metadata") or {}).get("openai-responses") or {}).get("server_label")
            request = {"type": "mcp_approval_request", "id": ident, "name": part["name"]}
            request |= {"server_label": server} if server else {}
            args = json.dumps(part.get("args") or {}, separators=(",", ":"), ensure_ascii=False)
            items.append({**request, "arguments": args})
        elif part["type"] == "tool-call" and part.get("provider_executed"):
            # a built-in tool's call: only a stored item could stand for it, left out unstored
            items.append({"type": "item_reference", "id": ident} if stored and ident else _LEFT_OUT)
        elif part["type"] == "tool-call":
            call = {
                "type": "function_call",
                "call_id": part["id"],
                "name": part["name"],
                "arguments": json.dumps(part.get("args") or {}, separators=(",", ":"), ensure_ascii=False),
            }
            items.append(call | ({"id": ident} if stored and ident else {}))
    # a reasoning item goes only with the item after it, and with its state
    items = [
        item
        for at, item in enumerate(items)
        if item["type"] != "reasoning"
        or (
            next((i for i in items[at + 1 :] if i["type"] != "reasoning"), _LEFT_OUT) is not _LEFT_OUT
            and (item["encrypted_content"] or (stored and item["id"]))
        )
    ]
    items = [item for item in items if item is not _LEFT_OUT]
    if stored:  # kept at OpenAI: a reasoning item's id stands for its state
        items = [{k: v for k, v in i.items() if k != "encrypted_content" or v} for i in items]
    return items


def _input(request: dict[str, Any], developer: bool, stored: bool = False) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if request.get("system"):
        out.append({"role": "developer" if developer else "system", "content": request["system"]})
    messages = request.get("messages") or [{"role": "user", "content": request["prompt"]}]
    asked = {
        p["id"]
        for m in messages
        if isinstance(m["content"], list)
        for p in m["content"]
        if p.get("type") == "tool-call" and p.get("approval") == "requested"
    }
    for message in messages:
        role, content = message["role"], message["content"]
        if role == "assistant":
            out += _assistant(message, stored)
        elif role == "tool":
            for part in content:
                if part["call_id"] in asked:  # the decision on an approval request
                    answer = {"type": "mcp_approval_response", "approval_request_id": part["call_id"]}
                    answer["approve"] = not part.get("is_error", False)
                    out.append(answer | ({"reason": part["output"]} if part.get("is_error") else {}))
                    continue
                output = part["output"]
                text = output if isinstance(output, str) else json.dumps(output, separators=(",", ":"))
                out.append({"type": "function_call_output", "call_id": part["call_id"], "output": text})
        elif isinstance(content, str):
            out.append({"role": "developer" if role == "system" and developer else role, "content": content})
        elif len(content) == 1 and content[0]["type"] == "text":
            out.append({"role": role, "content": content[0]["text"]})
        else:
            out.append({"role": role, "content": [_content(p, role) for p in content]})
    return out


def _neutral(tool: dict[str, Any]) -> dict[str, Any]:
    """A neutral tool (``modelport.tools``) as the built-in tool it is on the Responses API: web
    search with its domains as ``filters``, location and context size; code execution as
    ``code_interpreter`` in an automatic container; a remote MCP server as the ``mcp`` tool."""
    options = tool.get("options") or {}
    if tool["name"] == "code_execution":
        return {"type": "code_interpreter", "container": {"type": "auto"}}
    if tool["name"] == "mcp_server":  # the mcp tool: a label and a URL, the rest by the API's names
        mcp: dict[str, Any] = {"type": "mcp", "server_label": options["name"], "server_url": options["url"]}
        if "description" in options:
            mcp["server_description"] = options["description"]
        mcp |= {k: options[k] for k in ("allowed_tools", "headers", "require_approval") if k in options}
        return mcp
    args: dict[str, Any] = {"type": "web_search"}
    if "allowed_domains" in options:
        args["filters"] = {"allowed_domains": options["allowed_domains"]}
    if "user_location" in options:
        args["user_location"] = {"type": "approximate", **options["user_location"]}
    if "context_size" in options:
        args["search_context_size"] = options["context_size"]
    return args


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    if tool.get("type") == "neutral":
        return _neutral(tool)
    if tool.get("type") == "provider":  # a built-in tool: its type, then its arguments
        args = tool.get("args") or {}
        if tool["id"] == "openai.code_interpreter":
            args = {"container": {"type": "auto"}, **args}
        return {"type": tool["id"].removeprefix("openai."), **args}
    return {
        "type": "function",
        "name": tool["name"],
        **({"description": tool["description"]} if "description" in tool else {}),
        "parameters": tool["parameters"],
        "strict": False,
    }


_MAX = {"gpt-5.1-codex-max": "xhigh"}


def wire(request: dict[str, Any], model: str, *, stream: bool) -> dict[str, Any]:
    """The Responses body for a canonical case request to ``model`` (the API reference's shape)."""
    reasoning_model = model.startswith(REASONING_PREFIXES)
    options = (request.get("provider_options") or {}).get("openai-responses") or {}
    stored = options.get("store", options.get("previous_response_id") is not None)
    body: dict[str, Any] = {"model": model, "input": _input(request, reasoning_model, stored)}
    if "max_output_tokens" in request:
        body["max_output_tokens"] = request["max_output_tokens"]
    # gpt-5.4-nano (or a dated snapshot) takes a temperature while it does not reason: ellmer's
    # batch sent it 0 and each answer echoes it (tests/corpus/batch/tidyverse__ellmer)
    # (reasoning switched off asks for none; the reasoning_effort option, when given, decides)
    reasoning = request.get("reasoning")
    reasons = bool(reasoning) and reasoning.get("enabled") is not False
    reasons = options["reasoning_effort"] != "none" if "reasoning_effort" in options else reasons
    sampling = model.startswith("gpt-5.4-nano") and not reasons
    if "temperature" in request and (sampling or not reasoning_model):
        body["temperature"] = request["temperature"]
    fmt = request.get("response_format")
    if fmt and fmt["type"] == "json_schema":
        text = {"type": "json_schema", "name": fmt.get("name") or "response", "schema": fmt["schema"]}
        if "description" in fmt:
            text["description"] = fmt["description"]
        if "strict" in fmt:
            text["strict"] = fmt["strict"]
        body["text"] = {"format": text}
    elif fmt and fmt["type"] == "json":  # JSON without a schema
        body["text"] = {"format": {"type": "json_object"}}
    if "verbosity" in options:  # the text's verbosity, beside its format
        body.setdefault("text", {})["verbosity"] = options["verbosity"]
    if request.get("tools"):
        body["tools"] = [_tool(t) for t in request["tools"]]
        choice = request.get("tool_choice")
        if isinstance(choice, dict) and choice.get("type") == "tools":  # a subset that must be called
            allowed = [{"type": "function", "name": name} for name in choice["names"]]
            body["tool_choice"] = {"type": "allowed_tools", "mode": "required", "tools": allowed}
        elif isinstance(choice, dict) and choice.get("type") == "tool":  # one function, by name
            body["tool_choice"] = {"type": "function", "name": choice["name"]}
        elif choice is not None:
            body["tool_choice"] = "required" if choice == "any" else choice
    if reasoning and reasoning_model and reasoning.get("enabled") is not False:
        effort = reasoning.get("effort")
        # "max" is the model's highest level: xhigh from gpt-5.1-codex-max on, high for gpt-5
        wire_effort = _MAX.get(model[:17], "high") if effort == "max" else effort
        body["reasoning"] = {"effort": wire_effort} if effort is not None else {}
        body["reasoning"]["summary"] = options.get("reasoning_summary", "auto")
    for option, field in (("reasoning_effort", "effort"), ("reasoning_summary", "summary")):
        if option in options:  # the options set the reasoning object's fields, given or not
            body.setdefault("reasoning", {})[field] = options[option]
    if "user_id" in request:  # the end user, as the API's ``user`` field
        body["user"] = request["user_id"]
    if request.get("request_labels"):  # the API's ``metadata``: string pairs kept with the answer
        body["metadata"] = dict(request["request_labels"])
    cache = request.get("prompt_cache")
    if cache:  # caching is automatic: a key, and the 24h retention for any ttl over 5 minutes
        body |= {"prompt_cache_key": cache["key"]} if cache.get("key") else {}
        body |= {"prompt_cache_retention": "24h"} if cache.get("ttl", "5m") != "5m" else {}
    previous = options.get("previous_response_id")
    if previous is not None:  # stateful: continue a stored answer, store this one too
        body["previous_response_id"] = previous
    body["store"] = options.get("store", previous is not None)
    include = ["reasoning.encrypted_content"] if reasoning_model and not body["store"] else []
    include += options.get("include") or []
    if include:
        body["include"] = include
    body.update(options.get("extra_body") or {})  # raw fields, sent as given
    if stream:
        body["stream"] = True
    return body


def count_wire(request: dict[str, Any], model: str) -> dict[str, Any]:
    """The ``/v1/responses/input_tokens`` body: the input-side fields of :func:`wire`."""
    body = wire(request, model, stream=False)
    return {k: body[k] for k in ("model", "input", "tools", "tool_choice", "text", "reasoning") if k in body}
