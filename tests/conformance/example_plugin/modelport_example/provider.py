"""The "Example API": ``POST /v1/generate`` (JSON) and ``POST /v1/stream`` (server-sent events).

Request: ``{"model", "messages": [{"role", "text"}], "max_tokens"?, "temperature"?}``.
Response: ``{"id", "output": [{"type": "text", "text"}], "stop_reason", "usage": {"input", "output"}}``.
Stream frames: ``{"id"}``, then ``{"delta": "..."}`` ..., then ``{"stop_reason", "usage"}``.

Built on the core's HTTP kit: everything here is pure mapping.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from modelport.events import (
    FinishEvent,
    ResponseMetadataEvent,
    StreamEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
)
from modelport.http import HttpProvider, HttpRequest
from modelport.provider import Capabilities
from modelport.types import Request, Result, TextPart, Usage

BASE_URL = "https://api.example.test/v1"
_STOP = {"end": "stop", "max_tokens": "length"}


def request_body(model_name: str, request: Request) -> dict[str, Any]:
    """Canonical request → wire JSON."""
    body: dict[str, Any] = {
        "model": model_name,
        "messages": [{"role": m.role, "text": m.text} for m in request.messages],
    }
    if request.max_output_tokens is not None:
        body["max_tokens"] = request.max_output_tokens
    if request.temperature is not None:
        body["temperature"] = request.temperature
    return body


def usage(raw: dict[str, Any]) -> Usage:
    """Wire usage → canonical usage."""
    return Usage(input_tokens=raw.get("input"), output_tokens=raw.get("output"))


def decode(body: dict[str, Any]) -> Result:
    """Wire JSON → canonical result."""
    reason = body.get("stop_reason")
    return Result(
        content=[TextPart(text=o["text"]) for o in body.get("output", []) if o.get("type") == "text"],
        finish_reason=_STOP.get(reason, "other"),  # type: ignore[arg-type]
        raw_finish_reason=reason,
        usage=usage(body.get("usage", {})),
        response_id=body.get("id"),
    )


def merge_frames(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Stream frames → the body ``/v1/generate`` would have returned (for the merged-decode check)."""
    merged: dict[str, Any] = {"output": [{"type": "text", "text": ""}]}
    for frame in frames:
        if "id" in frame:
            merged["id"] = frame["id"]
        merged["output"][0]["text"] += frame.get("delta", "")
        for key in ("stop_reason", "usage"):
            if key in frame:
                merged[key] = frame[key]
    return merged


class ExampleStream:
    """Stream frames → events."""

    def __init__(self) -> None:
        self.started = False

    def feed(self, frame: dict[str, Any]) -> Iterator[StreamEvent]:
        if "id" in frame:
            yield ResponseMetadataEvent(response_id=frame["id"])
        if "delta" in frame:
            if not self.started:
                self.started = True
                yield TextStartEvent(id="0")
            yield TextDeltaEvent(id="0", delta=frame["delta"])
        if "stop_reason" in frame:
            if self.started:
                yield TextEndEvent(id="0")
            reason = frame["stop_reason"]
            yield FinishEvent(
                finish_reason=_STOP.get(reason, "other"),  # type: ignore[arg-type]
                raw_finish_reason=reason,
                usage=usage(frame.get("usage", {})),
            )

    def finish(self) -> list[StreamEvent]:
        return []


class ExampleProvider(HttpProvider):
    """The Example API adapter."""

    id: ClassVar[str] = "example"
    display_name: ClassVar[str] = "Example"
    capabilities: ClassVar[Capabilities] = Capabilities(generate=True, stream=True)
    default_base_url: ClassVar[str | None] = BASE_URL
    api_key_env: ClassVar[tuple[str, ...]] = ("EXAMPLE_API_KEY",)

    def request_body(self, model_name: str, request: Request) -> dict[str, Any]:
        return request_body(model_name, request)

    def decode(self, body: dict[str, Any]) -> Result:
        return decode(body)

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        body = self.request_body(model_name, request)
        return (
            HttpRequest("/stream", {**body, "stream": True}, stream=True)
            if stream
            else HttpRequest("/generate", body)
        )

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        return self.decode(data)

    def stream_decoder(self, spec: HttpRequest) -> ExampleStream:
        return ExampleStream()
