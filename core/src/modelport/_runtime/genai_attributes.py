"""The OpenTelemetry GenAI attributes of a call: pure functions from requests, results, usage and
errors to attribute mappings (the spans and metrics themselves are in :mod:`modelport.telemetry`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..errors import retry_reason

if TYPE_CHECKING:
    from ..types import Request, Result


FINISH_REASONS = {
    "stop": "stop",
    "length": "length",
    "tool-calls": "tool_call",
    "content-filter": "content_filter",
    "error": "error",
}

REQUEST_NUMBERS = (
    ("max_output_tokens", "gen_ai.request.max_tokens"),
    ("temperature", "gen_ai.request.temperature"),
    ("top_p", "gen_ai.request.top_p"),
    ("top_k", "gen_ai.request.top_k"),
    ("seed", "gen_ai.request.seed"),
    ("presence_penalty", "gen_ai.request.presence_penalty"),
    ("frequency_penalty", "gen_ai.request.frequency_penalty"),
)


def error_type(error: BaseException) -> str:
    return type(error).__qualname__


def retry_attributes(error: BaseException, delay: float, attempt: int) -> dict[str, Any]:
    return {
        "modelport.retry.attempt": attempt,
        "modelport.retry.delay": float(delay),
        "modelport.retry.reason": retry_reason(error),
        "error.type": error_type(error),
    }


def server(provider: Any) -> dict[str, Any]:
    base_url = getattr(provider, "base_url", None)
    if base_url is None:
        return {}
    try:
        url = base_url()
    except Exception:  # no base URL configured: the call itself will say so
        return {}
    return server_of(url) if isinstance(url, str) else {}


_SERVERS: dict[str, dict[str, Any]] = {}


def server_of(url: str) -> dict[str, Any]:
    found = _SERVERS.get(url)
    if found is None:
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(url)
            port = parts.port or {"https": 443, "http": 80}.get(parts.scheme)
        except ValueError:
            return {}
        found = {}
        if parts.hostname:
            found["server.address"] = parts.hostname
            if port is not None:
                found["server.port"] = port
        if len(_SERVERS) < 256:
            _SERVERS[url] = found
    return found


# Attributes ------------------------------------------------------------------------------------


def request_attributes(request: Request, *, stream: bool) -> dict[str, Any]:
    """The ``gen_ai.request.*`` attributes of a validated request (what was given of them)."""
    attributes: dict[str, Any] = {}
    for name, attribute in REQUEST_NUMBERS:
        value = getattr(request, name)
        if value is not None:
            attributes[attribute] = value
    if request.stop_sequences is not None:
        attributes["gen_ai.request.stop_sequences"] = list(request.stop_sequences)
    if request.response_format is not None:
        attributes["gen_ai.output.type"] = "text" if request.response_format.type == "text" else "json"
    if request.tools:
        from ..types import ProviderTool

        tools = [t.id for t in request.tools if isinstance(t, ProviderTool)]
        if tools:
            attributes["modelport.provider_tools"] = tools
    if stream:
        attributes["gen_ai.request.stream"] = True
    return attributes


def result_attributes(result: Result, *, content: bool) -> dict[str, Any]:
    attributes: dict[str, Any] = {
        "gen_ai.response.finish_reasons": [
            FINISH_REASONS.get(result.finish_reason)
            or (result.raw_finish_reason or result.finish_reason).lower()
        ]
    }
    if result.model_version:
        attributes["gen_ai.response.model"] = result.model_version
    if result.response_id:
        attributes["gen_ai.response.id"] = result.response_id
    attributes.update(usage_attributes(result.usage))
    if result.sources:
        attributes["modelport.sources"] = len(result.sources)
    if result.usage.server_tool_calls is not None:  # no GenAI attribute counts a provider's tool runs
        attributes["modelport.server_tool_calls"] = result.usage.server_tool_calls
    if content:
        attributes["gen_ai.output.messages"] = as_json(
            [
                {
                    "role": "assistant",
                    "parts": parts(result.content),
                    "finish_reason": attributes["gen_ai.response.finish_reasons"][0],
                }
            ]
        )
    return attributes


def usage_attributes(usage: Any) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    for name, attribute in (
        ("input_tokens", "gen_ai.usage.input_tokens"),
        ("output_tokens", "gen_ai.usage.output_tokens"),
        ("cache_read_input_tokens", "gen_ai.usage.cache_read.input_tokens"),
        ("cache_write_input_tokens", "gen_ai.usage.cache_creation.input_tokens"),
        ("reasoning_tokens", "gen_ai.usage.reasoning.output_tokens"),
    ):
        value = getattr(usage, name, None)
        if value is not None:
            attributes[attribute] = value
    return attributes


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))


def parts(content: Any) -> list[dict[str, Any]]:
    from ..types import FilePart, ReasoningPart, TextPart, ToolCallPart, ToolResultPart

    parts: list[dict[str, Any]] = []
    for part in content:
        if isinstance(part, TextPart):
            parts.append({"type": "text", "content": part.text})
        elif isinstance(part, ReasoningPart):
            parts.append({"type": "reasoning", "content": part.text})
        elif isinstance(part, ToolCallPart):
            parts.append({"type": "tool_call", "id": part.id, "name": part.name, "arguments": part.args})
        elif isinstance(part, ToolResultPart):
            parts.append({"type": "tool_call_response", "id": part.call_id, "response": part.output})
        elif isinstance(part, FilePart):
            if part.uri is not None:
                parts.append({"type": "uri", "mime_type": part.media_type, "uri": part.uri})
            else:  # the bytes themselves are never recorded
                parts.append({"type": "blob", "mime_type": part.media_type})
    return parts


def content_attributes(request: Request) -> dict[str, Any]:
    system = [p for m in request.messages if m.role == "system" for p in parts(m.content)]
    messages = [{"role": m.role, "parts": parts(m.content)} for m in request.messages if m.role != "system"]
    attributes = {"gen_ai.input.messages": as_json(messages)}
    if system:
        attributes["gen_ai.system_instructions"] = as_json(system)
    return attributes
