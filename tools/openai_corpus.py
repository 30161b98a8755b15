"""Readers for the recorded OpenAI corpus (tests/corpus/openai) and the request oracle.

Each reader returns the recorded response as ``(status, content_type, body_text)``, unwrapping the
corpus containers described in its MANIFEST: vcrpy YAML (``parsed_body`` JSON or ``body.string``,
gzip ``!!binary`` included) and vercel raw bodies (``*.json``; ``*.chunks.txt`` with one SSE payload
a line). :func:`wire` is the request oracle: the Chat Completions body the public API reference
prescribes for a canonical request, written independently of the adapter so that each cassette
really pins the adapter's request mapping.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import corpus_attribution

from modelport_conformance.containers import read_recording

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "openai"  # vendored, see its MANIFEST

SOURCES = {
    "pydantic__pydantic-ai": ("pydantic/pydantic-ai", "4fda38988f2939fa6ea9cdefcf120693e10ef491", "MIT"),
    "vercel__ai": ("vercel/ai", "ed857f50f112e23930b0c2dd8d532cc8bebbc911", "Apache-2.0"),
    "simonw__llm": ("simonw/llm", "f3f4f29c6e5e623c3776cbf6455dda2345638214", "Apache-2.0"),
    "open-telemetry__opentelemetry-python-contrib": (
        "open-telemetry/opentelemetry-python-contrib",
        "466ae4c00de77d1f54f77a9600f1d08eba2306b5",
        "Apache-2.0",
    ),
    "traceloop__openllmetry": (
        "traceloop/openllmetry",
        "93429cfb9767e6b51db6cb35f6b70f758117669a",
        "Apache-2.0",
    ),
    "Future-House__ldp": ("Future-House/ldp", "f0a29f1f3e6313b44e131bb394a13e64920cec73", "Apache-2.0"),
}

Recorded = tuple[int, str, str]
JSON_TYPE = "application/json"
SSE_TYPE = "text/event-stream"
REASONING_PREFIXES = ("o1", "o3", "o4", "gpt-5")


def attribution(
    saved: str, *, commit: str | None = None, interaction: int | None = None, note: str = ""
) -> dict[str, Any]:
    """Where a recording came from: repository, commit, original path, license (from the MANIFEST)."""
    return corpus_attribution.attribution(SOURCES, saved, commit=commit, interaction=interaction, note=note)


def vcr(saved: str, index: int = 0) -> Recorded:
    """The recorded response of a vcrpy cassette's interaction (gzip bodies decompressed), read by
    the importer's container reader (:func:`modelport_conformance.containers.read_recording`)."""
    recorded = read_recording(CORPUS / saved, "vcrpy").exchanges[index]
    headers = {k.lower(): v for k, v in recorded.response_headers.items()}
    content_type = (headers.get("content-type") or [JSON_TYPE])[0]
    return recorded.status, content_type, recorded.response_body


def raw_json(saved: str, status: int = 200, capture: int | None = None) -> Recorded:
    """A raw JSON body (``capture``: one of the wrapped ``capturedResponses``)."""
    data = json.loads((CORPUS / saved).read_text(encoding="utf-8"))
    if capture is not None:
        item = data["capturedResponses"][capture]
        return int(item["status"]), JSON_TYPE, json.dumps(item["body"], ensure_ascii=False)
    return status, JSON_TYPE, json.dumps(data, ensure_ascii=False)


def chunks(saved: str, stream: int = 0) -> Recorded:
    """A vercel ``*.chunks.txt`` as an SSE body. The file keeps each ``data:`` payload but not the
    closing ``data: [DONE]``, which vercel's own tests append to every one (e.g.
    ``packages/openai/src/chat/openai-chat-language-model.test.ts``, ``chunks.push('data:
    [DONE]\\n\\n')``); so does this. A file that holds two streams concatenated is split where the
    response id changes; ``stream`` picks one."""
    lines = [line for line in (CORPUS / saved).read_text(encoding="utf-8").splitlines() if line.strip()]
    parts: list[list[str]] = []
    current = None
    for line in lines:
        ident = json.loads(line).get("id") or None
        if not parts or (ident and current and ident != current):
            parts.append([])
        current = ident or current
        parts[-1].append(line)
    return 200, SSE_TYPE, "".join(f"data: {line}\n\n" for line in parts[stream]) + "data: [DONE]\n\n"


# --------------------------------------------------------------------------- the request oracle


def _messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    messages = list(request.get("messages") or [])
    if "prompt" in request:
        messages = [{"role": "user", "content": request["prompt"]}]
    if "system" in request:
        messages = [{"role": "system", "content": request["system"]}, *messages]
    return messages


def _user(content: Any) -> Any:
    if isinstance(content, str):
        return content
    if len(content) == 1 and content[0]["type"] == "text":
        return content[0]["text"]
    out = []
    for part in content:
        if part["type"] == "text":
            out.append({"type": "text", "text": part["text"]})
        elif part["type"] == "reasoning":  # the API has no reasoning content part: left out
            continue
        elif part["media_type"] == "application/pdf" and "data" not in part:  # an uploaded file, by id
            out.append({"type": "file", "file": {"file_id": part["uri"]}})
        elif part["media_type"] == "application/pdf":  # a PDF inline (a file part; the name is optional)
            data = f"data:application/pdf;base64,{part['data']}"
            out.append({"type": "file", "file": {"filename": "document.pdf", "file_data": data}})
        elif part["media_type"].startswith("audio/"):  # audio, inline only: input_audio with its format
            fmt = "mp3" if part["media_type"] in ("audio/mpeg", "audio/mp3") else "wav"
            out.append({"type": "input_audio", "input_audio": {"data": part["data"], "format": fmt}})
        else:  # an image, by URL or inline
            url = part.get("uri") or f"data:{part['media_type']};base64,{part['data']}"
            out.append({"type": "image_url", "image_url": {"url": url}})
    return out


#: Models whose highest ``reasoning_effort`` is ``xhigh`` (the API reference's list); the others'
#: is ``high``. The canonical ``max`` is the model's highest level.
XHIGH_MODELS = ("gpt-5.1-codex-max", "gpt-5.2", "gpt-5.3", "gpt-5.4", "gpt-5.5", "gpt-5.6")


#: OpenAI models that take ``temperature`` and ``top_p`` while they do not reason (the API
#: reference's note on gpt-5.4-nano); a dated snapshot is the same model.
SAMPLING_MODELS = ("gpt-5.4-nano",)


def _samples(model: str, request: dict[str, Any], quirks: dict[str, Any]) -> bool:
    """Whether ``model`` takes the sampling settings in ``request``: one of :data:`SAMPLING_MODELS`
    on OpenAI, with no reasoning asked for."""
    reasoning = request.get("reasoning") or {}
    asked = reasoning.get("enabled") or reasoning.get("effort")
    base = re.sub(r"-\d{4}-\d{2}-\d{2}$", "", model)
    return quirks.get("id") == "openai" and base in SAMPLING_MODELS and not asked


#: The string formats strict mode takes (the Structured Outputs guide's "Supported properties");
#: another is not sent.
STRICT_FORMATS = ("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")


def _strict(schema: Any) -> Any:
    """A JSON schema in the strict mode's dialect: every object closed (``additionalProperties:
    false``, which the API reference requires of each object in strict mode)."""
    if isinstance(schema, list):
        return [_strict(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _strict(v) for k, v in schema.items() if k != "format" or v in STRICT_FORMATS}
    if out.get("type") == "object" and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def _wire_message(message: dict[str, Any], developer: bool) -> list[dict[str, Any]]:
    role, content = message["role"], message["content"]
    if role == "system":
        return [{"role": "developer" if developer else "system", "content": content}]
    if role == "user":
        return [{"role": "user", "content": _user(content)}]
    if role == "tool":
        return [
            {
                "role": "tool",
                "tool_call_id": p["call_id"],
                "content": p["output"]
                if isinstance(p["output"], str)
                else json.dumps(p["output"], separators=(",", ":"), ensure_ascii=False),
            }
            for p in content
        ]
    parts = [{"type": "text", "text": content}] if isinstance(content, str) else content
    text = "".join(p["text"] for p in parts if p["type"] == "text")
    out: dict[str, Any] = {"role": "assistant", "content": text or None}
    calls = [p for p in parts if p["type"] == "tool-call"]
    if calls:
        out["tool_calls"] = [
            {
                "id": c["id"],
                "type": "function",
                "function": {
                    "name": c["name"],
                    "arguments": json.dumps(c.get("args", {}), separators=(",", ":"), ensure_ascii=False),
                },
            }
            for c in calls
        ]
    return [out]


def wire(
    request: dict[str, Any], model: str, *, stream: bool, quirks: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The Chat Completions body for a canonical request to ``model`` (the API reference's shape)."""
    quirks = quirks or {}
    reasoning = model.startswith(quirks.get("reasoning_prefixes", ()))
    body: dict[str, Any] = {
        "model": model,
        "messages": [w for m in _messages(request) for w in _wire_message(m, reasoning)],
    }
    if "max_output_tokens" in request:
        body["max_completion_tokens" if reasoning else "max_tokens"] = request["max_output_tokens"]
    for key in ("temperature", "top_p"):
        if key in request and (not reasoning or _samples(model, request, quirks)):
            body[key] = request[key]
    if "top_k" in request and quirks.get("top_k"):
        body["top_k"] = request["top_k"]
    for key in ("presence_penalty", "frequency_penalty"):
        if key in request:
            body[key] = request[key]
    if "stop_sequences" in request:
        body["stop"] = request["stop_sequences"]
    if "seed" in request:
        body[quirks.get("seed_field", "seed")] = request["seed"]
    fmt = request.get("response_format")
    if fmt == "json" or (isinstance(fmt, dict) and fmt.get("type") == "json"):
        body["response_format"] = {"type": "json_object"}
    elif isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        wire_schema = _strict(fmt["schema"]) if fmt.get("strict") else fmt["schema"]
        schema = {"name": fmt.get("name", "response"), "schema": wire_schema}
        if "description" in fmt:
            schema["description"] = fmt["description"]
        if "strict" in fmt:
            schema["strict"] = fmt["strict"]
        body["response_format"] = {"type": "json_schema", "json_schema": schema}
    tools = request.get("tools") or []
    if tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t["name"],
                    **({"description": t["description"]} if "description" in t else {}),
                    "parameters": t.get("parameters", {"type": "object", "properties": {}}),
                },
            }
            for t in tools
        ]
    choice = request.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "tools":  # a subset: only those tools are sent
        body["tools"] = [t for t in body["tools"] if t["function"]["name"] in choice["names"]]
        choice = {"type": "tool", "name": choice["names"][0]} if len(choice["names"]) == 1 else "required"
    if isinstance(choice, dict):  # one tool, by name
        body["tool_choice"] = {"type": "function", "function": {"name": choice["name"]}}
    elif choice is not None:
        body["tool_choice"] = "required" if choice == "any" else choice
    effort = (request.get("reasoning") or {}).get("effort")
    if effort and quirks.get("effort", "reasoning_effort") == "reasoning_effort" and reasoning:
        top = "xhigh" if quirks.get("id") == "openai" and model.startswith(XHIGH_MODELS) else "high"
        body["reasoning_effort"] = top if effort == "max" else effort
    if effort and quirks.get("effort") == "reasoning":
        body["reasoning"] = {"effort": effort}
    if "user_id" in request:
        body["user"] = request["user_id"]
    if request.get("request_labels") and quirks.get("metadata"):  # labels as metadata, where it is taken
        body["metadata"] = request["request_labels"]
    cache = request.get("prompt_cache") or {}
    if cache.get("key") is not None:  # caching is automatic: a key routes, a ttl over 5m retains
        body["prompt_cache_key"] = cache["key"]
    if cache and cache.get("ttl", "5m") != "5m":
        body["prompt_cache_retention"] = "24h"
    options = dict((request.get("provider_options") or {}).get(quirks.get("id", "openai"), {}))
    extra = options.pop("extra_body", {})
    body.update(options)
    body.update(extra)
    if stream:
        body["stream"] = True
        if quirks.get("stream_usage", True):
            body["stream_options"] = {"include_usage": True}
    return body


def embed_wire(request: dict[str, Any], model: str, provider: str = "openai") -> dict[str, Any]:
    """The embeddings body: one string, or a list of them; ``dimensions``; ``encoding_format`` for a
    base64 ``embedding_type``; the provider options."""
    body: dict[str, Any] = {"model": model, "input": request["values"]}
    if "output_dimensionality" in request:
        body["dimensions"] = request["output_dimensionality"]
    if request.get("embedding_type") == "base64":
        body["encoding_format"] = "base64"
    options = dict((request.get("provider_options") or {}).get(provider, {}))
    extra = options.pop("extra_body", {})  # the escape hatch: its fields top-level, merged last
    body.update(options)
    body.update(extra)
    return body


def data_uri(data: bytes) -> str:
    """Base64 text of ``data`` (for inline file parts in a case's request)."""
    return base64.b64encode(data).decode("ascii")
