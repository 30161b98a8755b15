"""Readers for the recorded Gemini corpus (tests/corpus/gemini) and the request oracle.

Each reader returns the recorded response as ``(status, content_type, body_text)``, unwrapping the
corpus container formats described in its MANIFEST: pydantic-ai vcrpy YAML (``parsed_body`` or
``body.string``), llm-gemini vcrpy YAML (gzip ``!!binary``), vercel ``*.chunks.txt`` (one SSE
payload per line) and raw ``.json``/``.txt`` bodies. :func:`wire` is the request oracle: the
Gemini body the SPEC (G3-G12, S1, S2) prescribes for a canonical request, written independently
of the adapter so the cassette really pins the adapter's request mapping; :func:`count_wire` is
the ``:countTokens`` body the REST references prescribe for the same request.

Where the corpus has no recording of some traffic (``:countTokens``, Maps and enterprise web
grounding), a case is a MOCK: :func:`mock_json`/:func:`mock_sse` wrap a response body written for
the case in Google's documented REST shape, and :func:`documented` is its ``source`` (the reference
pages the shape follows, instead of a recording).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import corpus_attribution
import yaml

from modelport_conformance.containers import read_recording

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "gemini"  # vendored, see its MANIFEST

SOURCES = {
    "pydantic__pydantic-ai": ("pydantic/pydantic-ai", "4fda38988f2939fa6ea9cdefcf120693e10ef491", "MIT"),
    "vercel__ai": ("vercel/ai", "ed857f50f112e23930b0c2dd8d532cc8bebbc911", "Apache-2.0"),
    "FirebaseExtended__vertexai-sdk-test-data": (
        "FirebaseExtended/vertexai-sdk-test-data",
        "2d6adfde6a9ab79867347fd1f9dfeaccf1c9e3d9",
        "Apache-2.0",
    ),
    "simonw__llm-gemini": ("simonw/llm-gemini", "2a8c855abf701766555b866efe7c80f9a7e27bcf", "Apache-2.0"),
}

Recorded = tuple[int, str, str]
JSON_TYPE = "application/json; charset=UTF-8"
SSE_TYPE = "text/event-stream"


def attribution(
    saved: str, *, commit: str | None = None, interaction: int | None = None, note: str = ""
) -> dict[str, Any]:
    """Where a recording came from: repository, commit, original path, license (from the MANIFEST)."""
    return corpus_attribution.attribution(SOURCES, saved, commit=commit, interaction=interaction, note=note)


def _yaml(saved: str) -> dict[str, Any]:
    return dict(yaml.safe_load((CORPUS / saved).read_text(encoding="utf-8")))


def vcr_interaction(saved: str, index: int) -> tuple[dict[str, Any], Recorded]:
    """The original request body and the recorded response of a vcrpy cassette's interaction, read
    by the importer's container reader (:func:`modelport_conformance.containers.read_recording`)."""
    recorded = read_recording(CORPUS / saved, "vcrpy").exchanges[index]
    body = json.loads(recorded.request_body) if recorded.request_body else None
    content_type = (recorded.response_headers.get("content-type") or [JSON_TYPE])[0]
    return body or {}, (recorded.status, content_type, recorded.response_body)


def raw_json(saved: str, status: int | None = None) -> Recorded:
    """A raw JSON body; an error body's status comes from ``error.code`` unless given."""
    text = (CORPUS / saved).read_text(encoding="utf-8")
    if status is None:
        status = int(json.loads(text).get("error", {}).get("code", 200))
    return status, JSON_TYPE, text


def raw_sse(saved: str) -> Recorded:
    """A raw event-stream body."""
    return 200, SSE_TYPE, (CORPUS / saved).read_text(encoding="utf-8")


def captured(saved: str, key: str) -> Recorded:
    """One capture of a ``{key: {status, body}}`` map (vercel's multi-level fixtures)."""
    item = json.loads((CORPUS / saved).read_text(encoding="utf-8"))[key]
    return int(item["status"]), JSON_TYPE, json.dumps(item["body"], ensure_ascii=False)


def chunks(saved: str) -> Recorded:
    """A vercel ``*.chunks.txt``: one SSE payload per line, rebuilt as ``data:`` events."""
    lines = [line for line in (CORPUS / saved).read_text(encoding="utf-8").splitlines() if line.strip()]
    return 200, SSE_TYPE, "".join(f"data: {line}\r\n\r\n" for line in lines)


def mock_json(body: dict[str, Any], status: int = 200) -> Recorded:
    """A MOCK JSON response body (no recording: written for the case in the documented shape)."""
    return status, JSON_TYPE, json.dumps(body, ensure_ascii=False)


def mock_sse(frames: list[dict[str, Any]]) -> Recorded:
    """A MOCK event stream: one ``data:`` event per frame, as ``alt=sse`` sends them."""
    return 200, SSE_TYPE, "".join(f"data: {json.dumps(f, ensure_ascii=False)}\r\n\r\n" for f in frames)


def documented(note: str, docs: list[str]) -> dict[str, Any]:
    """The ``source`` of a MOCK case: no recording, the reference pages its response shape follows."""
    return {"mock": True, "docs": list(docs), "note": f"MOCK: {note}"}


# --------------------------------------------------------------------------- the request oracle

_CONFIG = {
    "max_output_tokens": "maxOutputTokens",
    "temperature": "temperature",
    "top_p": "topP",
    "top_k": "topK",
    "stop_sequences": "stopSequences",
    "seed": "seed",
}
_EFFORT = {"low": 512, "medium": 2048, "high": 8192, "max": -1}
_LEVEL = {"low": "LOW", "medium": "MEDIUM", "high": "HIGH", "max": "HIGH"}  # Gemini 3: thinkingLevel
_TOOL_KEY = {
    "google_search": "googleSearch",
    "code_execution": "codeExecution",
    "url_context": "urlContext",
    "file_search": "fileSearch",
    "google_maps": "googleMaps",
    "enterprise_web_search": "enterpriseWebSearch",
}
#: The Google tool each neutral tool (``modelport.tools``) is on the Gemini API.
_NEUTRAL = {"web_search": "google_search", "web_fetch": "url_context", "code_execution": "code_execution"}


def _neutral_args(options: dict[str, Any]) -> dict[str, Any]:
    """A neutral web search's options as ``googleSearch`` arguments: only its time range is
    expressible on the Gemini API (``timeRangeFilter``)."""
    window = options.get("time_range")
    return {"timeRangeFilter": {"startTime": window["start"], "endTime": window["end"]}} if window else {}


#: Tool arguments that the REST API takes in ``toolConfig.retrievalConfig``, not in the tool entry.
_RETRIEVAL_ARGS = {"google_maps": ("latLng", "languageCode")}
#: What ``:countTokens`` accepts of a generation body: the Gemini API's ``GenerateContentRequest``
#: (which has no ``labels``), and Vertex AI's ``CountTokensRequest`` (no ``toolConfig`` either).
_COUNT_KEYS = (
    "contents",
    "systemInstruction",
    "tools",
    "toolConfig",
    "generationConfig",
    "safetySettings",
    "cachedContent",
)
_VERTEX_COUNT_KEYS = ("contents", "systemInstruction", "tools", "generationConfig")


def _messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    messages = list(request.get("messages") or [])
    if "prompt" in request:
        messages = [{"role": "user", "content": request["prompt"]}]
    if "system" in request:
        messages = [{"role": "system", "content": request["system"]}, *messages]
    return messages


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(p["text"] for p in content if p.get("type") == "text")


def _user_parts(content: Any) -> list[dict[str, Any]]:
    """A user turn's parts: its text as one part, or, with files in it, one part per content part
    (a file inline as ``inlineData`` with its base64 text, by reference as ``fileData``)."""
    if isinstance(content, str) or not any(p.get("type") == "file" for p in content):
        return [{"text": _text(content)}]
    parts: list[dict[str, Any]] = []
    for p in content:
        if p["type"] == "text":
            parts.append({"text": p["text"]})
        elif "data" in p:
            parts.append({"inlineData": {"mimeType": p["media_type"], "data": p["data"]}})
        else:
            parts.append({"fileData": {"mimeType": p["media_type"], "fileUri": p["uri"]}})
    return parts


def wire(request: dict[str, Any], model: str = "") -> dict[str, Any]:
    """The Gemini request body for a canonical request to ``model``, as the SPEC prescribes."""
    contents: list[dict[str, Any]] = []
    system: list[dict[str, Any]] = []
    for message in _messages(request):
        role = message["role"]
        if role == "system":
            system.append({"text": _text(message["content"])})
        elif role == "user":
            contents.append({"role": "user", "parts": _user_parts(message["content"])})
        elif role == "assistant":
            raw = message["provider_metadata"]["google"]["parts"]  # exact replay (G5)
            contents.append({"role": "model", "parts": raw})
        else:
            parts = [
                {"functionResponse": {"name": p["name"], "response": p["output"]}}
                for p in message["content"]
                if p["type"] == "tool-result"
            ]
            contents.append({"role": "user", "parts": parts})
    body: dict[str, Any] = {"contents": contents}
    if system:
        body["systemInstruction"] = {"parts": system}
    config = {wire_key: request[key] for key, wire_key in _CONFIG.items() if key in request}
    reasoning = request.get("reasoning") or {}
    if "budget_tokens" not in reasoning and "effort" in reasoning and model.startswith("gemini-3"):
        config["thinkingConfig"] = {"thinkingLevel": _LEVEL[reasoning["effort"]], "includeThoughts": True}
    elif "budget_tokens" in reasoning or "effort" in reasoning:
        budget = reasoning.get("budget_tokens", _EFFORT.get(reasoning.get("effort", ""), 0))
        config["thinkingConfig"] = {"thinkingBudget": budget, "includeThoughts": True}
    response_format = request.get("response_format") or {}
    if response_format.get("type") in ("json", "json_schema"):
        config["responseMimeType"] = "application/json"
    if response_format.get("type") == "json_schema":
        config["responseJsonSchema"] = response_format["schema"]
    if config:
        body["generationConfig"] = config
    tools = request.get("tools") or []
    wire_tools: list[dict[str, Any]] = []
    retrieval: dict[str, Any] = {}
    for t in tools:
        if t["type"] == "neutral":
            name, args = _NEUTRAL[t["name"]], _neutral_args(t.get("options") or {})
        elif t["type"] != "provider":
            continue
        else:
            name, args = t["id"].split(".", 1)[1], dict(t.get("args") or {})
        for key in _RETRIEVAL_ARGS.get(name, ()):  # the Maps location goes to toolConfig
            if key in args:
                retrieval[key] = args.pop(key)
        wire_tools.append({_TOOL_KEY[name]: args})
    functions = [
        {
            "name": t["name"],
            **({"description": t["description"]} if t.get("description") else {}),
            "parametersJsonSchema": t.get("parameters", {"type": "object", "properties": {}}),
        }
        for t in tools
        if t["type"] == "function"
    ]
    if functions:
        wire_tools.append({"functionDeclarations": functions})
    if wire_tools:
        body["tools"] = wire_tools
    choice = request.get("tool_choice")
    if choice is not None:
        calling: dict[str, Any]
        if isinstance(choice, str):
            calling = {"mode": {"auto": "AUTO", "any": "ANY", "required": "ANY", "none": "NONE"}[choice]}
        elif choice["type"] == "tool":
            calling = {"mode": "ANY", "allowedFunctionNames": [choice["name"]]}
        else:
            calling = {"mode": "ANY", "allowedFunctionNames": list(choice["names"])}
        body["toolConfig"] = {"functionCallingConfig": calling}
    if retrieval:
        body["toolConfig"] = {**body.get("toolConfig", {}), "retrievalConfig": retrieval}
    labels = dict(request.get("request_labels") or {})
    if not labels and request.get("user_id"):
        labels = {"user_id": request["user_id"]}
    if labels:
        body["labels"] = labels
    google = dict((request.get("provider_options") or {}).get("google") or {})
    for option, key in (("thinking_level", "thinkingLevel"), ("thinking_budget", "thinkingBudget")):
        if option in google:  # explicit thinking options go into thinkingConfig, not the top level
            config.setdefault("thinkingConfig", {})[key] = google.pop(option)
            body["generationConfig"] = config
    for option, key in (("response_logprobs", "responseLogprobs"), ("logprobs", "logprobs")):
        if option in google:  # the log-probability options are GenerationConfig fields
            config[key] = google.pop(option)
            body["generationConfig"] = config
    renames = {
        "cached_content": "cachedContent",
        "safety_settings": "safetySettings",
        "generation_config": "generationConfig",
        "tool_config": "toolConfig",
        "system_instruction": "systemInstruction",
    }
    for key, value in google.items():  # G9: merged after the standard fields, replacing them
        body[renames.get(key, key)] = value
    if "generation_config" in google:  # G8: the structured-output keys survive an override
        structured = {k: config[k] for k in ("responseMimeType", "responseJsonSchema") if k in config}
        body["generationConfig"] = {**google["generation_config"], **structured}
    return body


def count_wire(request: dict[str, Any], model: str, *, vertex: bool = False) -> dict[str, Any]:
    """The ``:countTokens`` body for a canonical request: the Gemini API wraps the generation
    request (``generateContentRequest``, with its ``model``); Vertex AI takes the countable fields
    at the top level. Fields the request type does not have (``labels``; on Vertex ``toolConfig``)
    are not sent."""
    body = wire(request, model)
    if vertex:
        return {key: body[key] for key in _VERTEX_COUNT_KEYS if key in body}
    counted = {key: body[key] for key in _COUNT_KEYS if key in body}
    return {"generateContentRequest": {"model": f"models/{model}", **counted}}
