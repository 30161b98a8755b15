"""Acme: a provider for a server that speaks OpenAI's Chat Completions protocol, on modelport's kit.

Everything here is pure mapping; modelport's core sends the requests, parses the event stream,
retries, bounds sizes, maps transport failures and scrubs the key from every message.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from modelport import events as ev
from modelport.http import HttpProvider, HttpRequest, StreamEnd
from modelport.provider import Capabilities
from modelport.types import (
    FunctionTool,
    Message,
    Request,
    Result,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    Usage,
)
from modelport.wire import dumps, loads

from .wire_map import FINISH, WIRE_MAP


def wire_message(message: Message) -> list[dict[str, Any]]:
    """One canonical message → Chat Completions messages (each tool result is a message of its own)."""
    results = [p for p in message.content if isinstance(p, ToolResultPart)]
    if results:
        return [
            {"role": "tool", "tool_call_id": p.call_id, "content": dumps(p.output).decode()} for p in results
        ]
    out: dict[str, Any] = {"role": message.role, "content": message.text or None}
    calls = [p for p in message.content if isinstance(p, ToolCallPart)]
    if calls:
        out["tool_calls"] = [
            wire_call(c.id, {"name": c.name, "arguments": dumps(c.args).decode()}) for c in calls
        ]
    return [out]


def wire_call(call_id: str, function: dict[str, Any]) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": function}


def usage(raw: dict[str, Any] | None) -> Usage:
    get = (raw or {}).get
    return Usage(
        input_tokens=get("prompt_tokens"),
        output_tokens=get("completion_tokens"),
        total_tokens=get("total_tokens"),
    )


class AcmeStream:
    """Chunks → events: text deltas, and tool calls whose arguments arrive in fragments."""

    def __init__(self) -> None:
        self.text_open = False
        self.calls: dict[int, str] = {}  # the call's index in the chunk → the event id
        self.reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self.response_id: str | None = None

    def feed(self, chunk: dict[str, Any]) -> Iterator[ev.StreamEvent]:
        if chunk.get("id") and self.response_id is None:
            self.response_id = chunk["id"]
            yield ev.ResponseMetadataEvent(response_id=chunk["id"], model_version=chunk.get("model"))
        self.usage = chunk.get("usage") or self.usage
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                if not self.text_open:
                    self.text_open = True
                    yield ev.TextStartEvent(id="text")
                yield ev.TextDeltaEvent(id="text", delta=delta["content"])
            for call in delta.get("tool_calls") or []:
                yield from self._call(call)
            self.reason = choice.get("finish_reason") or self.reason

    def _call(self, call: dict[str, Any]) -> Iterator[ev.StreamEvent]:
        index, function = call.get("index", 0), call.get("function") or {}
        if index not in self.calls:
            self.calls[index] = f"call-{index}"
            yield ev.ToolCallStartEvent(id=self.calls[index], call_id=call["id"], name=function["name"])
        if function.get("arguments"):
            yield ev.ToolCallDeltaEvent(id=self.calls[index], delta=function["arguments"])

    def finish(self) -> Iterator[ev.StreamEvent]:
        if self.text_open:
            yield ev.TextEndEvent(id="text")
        for ident in self.calls.values():
            yield ev.ToolCallEndEvent(id=ident)
        if self.reason is not None:  # the kit's stream_end also waits for data: [DONE]
            reason: Any = FINISH.get(self.reason, "other")
            yield ev.FinishEvent(finish_reason=reason, raw_finish_reason=self.reason, usage=usage(self.usage))


class AcmeProvider(HttpProvider):
    """Chat Completions at ``https://api.acme.test/v1`` (or any ``base_url``), key in ``ACME_API_KEY``."""

    id: ClassVar[str] = "acme"
    display_name: ClassVar[str] = "Acme"
    default_base_url: ClassVar[str | None] = "https://api.acme.test/v1"
    api_key_env: ClassVar[tuple[str, ...]] = ("ACME_API_KEY",)
    capabilities: ClassVar[Capabilities] = Capabilities(generate=True, stream=True, function_tools=True)
    #: How a stream ends: a chunk with a ``finish_reason``, then ``data: [DONE]``. Until both have
    #: arrived the kit lets no ``finish`` event through, so a cut stream is never complete.
    stream_end = StreamEnd(kind=None, status=("choices.*.finish_reason",), done=True)
    wire_map = WIRE_MAP  # where the wire carries what is decoded: wire_map.py

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        messages = [w for m in request.messages for w in wire_message(m)]
        body: dict[str, Any] = {"model": model_name, "messages": messages}
        if request.max_output_tokens is not None:
            body["max_tokens"] = request.max_output_tokens
        if request.temperature is not None:
            body["temperature"] = request.temperature
        tools = [t for t in request.tools or [] if isinstance(t, FunctionTool)]
        if tools:
            body["tools"] = [{"type": "function", "function": t.model_dump(exclude={"type"})} for t in tools]
        if stream:
            body.update(stream=True, stream_options={"include_usage": True})
        return HttpRequest("/chat/completions", body, stream=stream)

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        message = data["choices"][0]["message"]
        content: list[Any] = [TextPart(text=message["content"])] if message.get("content") else []
        for call in message.get("tool_calls") or []:
            name, arguments = call["function"]["name"], call["function"]["arguments"]
            content.append(ToolCallPart(id=call["id"], name=name, args=loads(arguments)))
        reason = data["choices"][0].get("finish_reason")
        return Result(
            content=content,
            finish_reason=FINISH.get(reason, "other"),  # type: ignore[arg-type]
            raw_finish_reason=reason,
            usage=usage(data.get("usage")),
            response_id=data.get("id"),
            model_version=data.get("model"),
        )

    def stream_decoder(self, spec: HttpRequest) -> AcmeStream:
        return AcmeStream()
