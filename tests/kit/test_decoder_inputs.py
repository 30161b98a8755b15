"""What a plugin's stream decoder is given (docs/plugin-authors.md, "What a stream decoder sees").

The body follows the Anthropic Messages stream's shape (``event:`` names repeated as ``"type"`` in
the data), with a comment, a multi-line ``data:`` field, an ``id:`` field and the ``[DONE]`` marker
other protocols end with. MOCK: the values are invented; no recording mixes all of these.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import httpx

import modelport
from modelport import events as ev
from modelport.http import HttpProvider, HttpRequest
from modelport.provider import Capabilities
from modelport.types import Request

BODY = (
    b": keep-alive comment\n\n"
    b"event: message_start\n"
    b'data: {"type": "message_start", "message": {"id": "msg_1"}}\n\n'
    b"event: content_block_delta\n"
    b"id: 7\n"
    b'data: {"type": "content_block_delta",\n'
    b'data:  "delta": {"text": "Hi"}}\n\n'
    b"event: message_stop\n"
    b'data: {"type": "message_stop"}\n\n'
    b"data: [DONE]\n\n"
)


class Recorder:
    """A decoder that keeps what the core hands it."""

    def __init__(self, calls: list[Any]) -> None:
        self.calls = calls

    def feed(self, frame: Any) -> Iterator[ev.StreamEvent]:
        self.calls.append(("feed", frame))
        delta = frame.get("delta") or {}
        if delta.get("text"):
            yield ev.TextStartEvent(id="t")
            yield ev.TextDeltaEvent(id="t", delta=delta["text"])
            yield ev.TextEndEvent(id="t")

    def done(self) -> None:
        self.calls.append(("done",))

    def finish(self) -> Iterator[ev.StreamEvent]:
        self.calls.append(("finish",))
        yield ev.FinishEvent(finish_reason="stop")


class FramesProvider(HttpProvider):
    id: ClassVar[str] = "decoder-inputs"
    default_base_url: ClassVar[str | None] = "https://api.decoder-inputs.test"
    api_key_required: ClassVar[bool] = False
    capabilities: ClassVar[Capabilities] = Capabilities(generate=False, stream=True)
    calls: ClassVar[list[Any]] = []

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        return HttpRequest("/stream", {"model": model_name}, stream=stream)

    def stream_decoder(self, spec: HttpRequest) -> Recorder:
        return Recorder(self.calls)


class Plugin:
    @modelport.hookimpl
    def modelport_register_providers(self, register: Any) -> None:
        register(FramesProvider)


def test_the_decoder_gets_each_events_data_as_json_and_nothing_else(fresh_registry: None) -> None:
    modelport.register_plugin(Plugin(), name="decoder-inputs")
    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, content=BODY, headers={"content-type": "text/event-stream"})
    )
    model = modelport.get_model("decoder-inputs/m", transport=transport, max_retries=0)
    stream = model.stream(prompt="hi")
    assert [event.type for event in stream] == [
        "stream-start",
        "text-start",
        "text-delta",
        "text-end",
        "finish",
    ]
    assert stream.result().text == "Hi"
    assert FramesProvider.calls == [
        ("feed", {"type": "message_start", "message": {"id": "msg_1"}}),
        ("feed", {"type": "content_block_delta", "delta": {"text": "Hi"}}),
        ("feed", {"type": "message_stop"}),
        ("done",),
        ("finish",),
    ]
