"""Q5 / C6: a key a server echoes in a *successful* answer reaches no result, event or log.

Error bodies were scrubbed; a 200 answer was kept verbatim, so a server (or a gateway in front of
it) echoing the key in the text, the response id or a header put it in ``Result``, every stream
event, ``HttpResponse.content`` and, through httpcore's own DEBUG header logging, the root logger's
output. Each answer here is a real recording (tests/corpus) with the key planted: upper-cased in the
response id, whole at the end of the text, and in a stream split across two frames (the end of one
text delta and the start of the next). The key is built at run time and has no shape any pattern
knows: only scrubbing by value can find it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import modelport
from modelport.http import HttpRequest
from tests import recordings
from tests.loopback import Loopback, Received, Reply

KEY = "mp-" + "echoed" + "Credential" + "4f7a9c2b1e" + "zq8"
HALF = len(KEY) // 2

_OPENAI = "vercel__ai/packages__openai__src__chat____fixtures____openai-text"
_GEMINI_UNARY = "vercel__ai/packages__google__src____fixtures____google-reasoning-gemini3.json"
_GEMINI_STREAM = "vercel__ai/packages__google__src____fixtures____google-text.chunks.txt"
_ANTHROPIC = "vercel__ai/packages__anthropic__src____fixtures____anthropic-text"

MODELS = {
    "google": "google/gemini-2.5-flash",
    "openai": "openai/gpt-4o-mini",
    "anthropic": "anthropic/claude-sonnet-4-5",
}


def _lines(path: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _unary(provider: str) -> dict[str, Any]:
    """The recorded answer, its id the upper-cased key and the key at the end of its text."""
    if provider == "openai":
        body = json.loads(recordings.openai(_OPENAI + ".json").read_text(encoding="utf-8"))
        body["id"] = "chatcmpl-" + KEY.upper()
        body["choices"][0]["message"]["content"] += " " + KEY
    elif provider == "google":
        body = json.loads(recordings.gemini(_GEMINI_UNARY).read_text(encoding="utf-8"))
        body["responseId"] = KEY.upper()
        body["candidates"][0]["content"]["parts"][0]["text"] += " " + KEY
    else:
        body = json.loads(recordings.anthropic(_ANTHROPIC + ".json").read_text(encoding="utf-8"))
        body["id"] = "msg_" + KEY.upper()
        body["content"][0]["text"] += " " + KEY
    return body


def _split_into(texts: list[dict[str, Any]], field: str) -> None:
    """The key cut in two: the end of the first text and the start of the second."""
    texts[0][field] += " " + KEY[:HALF]
    texts[1][field] = KEY[HALF:] + " " + texts[1][field]


def _stream(provider: str) -> bytes:
    """The recorded stream, its ids the upper-cased key and the key split across two text deltas."""
    if provider == "openai":
        frames = _lines(recordings.openai(_OPENAI + ".chunks.txt"))
        for frame in frames:
            frame["id"] = "chatcmpl-" + KEY.upper()
        deltas = [
            f["choices"][0]["delta"]
            for f in frames
            if f["choices"] and f["choices"][0]["delta"].get("content")
        ]
        _split_into(deltas, "content")
        return "".join(f"data: {json.dumps(f)}\n\n" for f in frames).encode() + b"data: [DONE]\n\n"
    if provider == "google":
        frames = _lines(recordings.gemini(_GEMINI_STREAM))
        for frame in frames:
            frame["responseId"] = KEY.upper()
        parts = [
            f["candidates"][0]["content"]["parts"][0]
            for f in frames
            if f["candidates"][0]["content"]["parts"][0].get("text")
        ]
        _split_into(parts, "text")
        return "".join(f"data: {json.dumps(f)}\r\n\r\n" for f in frames).encode()
    frames = _lines(recordings.anthropic(_ANTHROPIC + ".chunks.txt"))
    frames[0]["message"]["id"] = "msg_" + KEY.upper()
    _split_into([f["delta"] for f in frames if f["type"] == "content_block_delta"], "text")
    return "".join(f"event: {f['type']}\ndata: {json.dumps(f)}\n\n" for f in frames).encode()


def _answer(request: httpx.Request) -> httpx.Response:
    provider = next(
        p for p in MODELS if p in request.url.host or (p == "google" and "googleapis" in request.url.host)
    )
    streamed = request.url.path.endswith(":streamGenerateContent") or json.loads(request.content).get(
        "stream"
    )
    if streamed:
        return httpx.Response(200, content=_stream(provider), headers={"content-type": "text/event-stream"})
    return httpx.Response(200, json=_unary(provider), headers={"x-request-id": KEY})


def _model(provider: str) -> modelport.Model:
    return modelport.get_model(
        MODELS[provider], api_key=KEY, transport=httpx.MockTransport(_answer), max_retries=0
    )


def _run(model: modelport.Model, entry: str) -> str:
    """Everything the call gave back, as JSON text."""

    async def events() -> list[Any]:
        return [event async for event in model.astream(prompt="hi")]

    if entry == "generate":
        outcome: Any = model.generate(prompt="hi")
    elif entry == "agenerate":
        outcome = asyncio.run(model.agenerate(prompt="hi"))
    elif entry == "stream":
        outcome = list(model.stream(prompt="hi"))
    else:
        outcome = asyncio.run(events())
    if isinstance(outcome, list):
        return json.dumps([event.model_dump(mode="json") for event in outcome]) + repr(outcome)
    return outcome.model_dump_json() + repr(outcome)


def _pieces(text: str) -> list[str]:
    """Any piece of the key left, whatever its case."""
    lowered = text.lower()
    return [piece for piece in (KEY, KEY[:HALF], KEY[HALF:]) if piece.lower() in lowered]


@pytest.mark.parametrize("entry", ["generate", "agenerate", "stream", "astream"])
@pytest.mark.parametrize("provider", list(MODELS))
def test_an_answer_echoing_the_key_keeps_none_of_it(provider: str, entry: str) -> None:
    with _model(provider) as model:
        shown = _run(model, entry)
    assert _pieces(shown) == []
    assert "[REDACTED]" in shown
    # The rest of the answer is kept as recorded.
    recorded = {"openai": "Holiday", "google": "strawberry", "anthropic": "How are you doing today?"}
    assert recorded[provider] in shown


def test_the_text_around_the_key_is_kept_exactly() -> None:
    with _model("openai") as model:
        result = model.generate(prompt="hi")
        events = list(model.stream(prompt="hi"))
    assert result.text.endswith("inspiring individuals to look up and dream beyond our world. [REDACTED]")
    assert result.response_id == "chatcmpl-[REDACTED]"
    deltas = [e.delta for e in events if e.type == "text-delta"]
    assert deltas[:3] == ["** [REDACTED]", "[REDACTED] Holiday", " Name"]


def test_a_raw_answer_from_call_is_scrubbed_too() -> None:
    """``HttpProvider.call``: the parsed body, the raw bytes and the headers."""

    def models(request: httpx.Request) -> httpx.Response:
        body = {"models": [{"name": "models/x", "description": f"owned by {KEY.lower()}"}]}
        return httpx.Response(200, json=body, headers={"x-request-id": KEY.upper()})

    with modelport.get_model(
        MODELS["google"], api_key=KEY, transport=httpx.MockTransport(models), max_retries=0
    ) as model:
        response = model.provider.call(HttpRequest("/models", method="GET"))
        data = model.provider.call_json(HttpRequest("/models", method="GET"))
    assert response.data == data == {"models": [{"name": "models/x", "description": "owned by [REDACTED]"}]}
    assert json.loads(response.content) == response.data
    assert response.headers["x-request-id"] == "[REDACTED]"


# --------------------------------------------------------------------------- the HTTP libraries' logs


def _echoing(provider: str) -> Callable[[Received], Reply]:
    """A loopback server's answer: the recorded body, the key echoed in two response headers."""

    def reply(received: Received) -> Reply:
        sent = received.headers.get("x-goog-api-key") or received.headers.get("x-api-key") or ""
        sent = sent or received.headers.get("authorization", "").removeprefix("Bearer ")
        headers = {"content-type": "application/json", "x-request-id": sent, "x-trace": sent.upper()}
        return Reply(200, headers, json.dumps(_unary(provider)).encode())

    return reply


@pytest.mark.parametrize("provider", list(MODELS))
def test_httpcore_debug_logs_of_a_header_echo_hold_no_key(
    provider: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Found here: httpcore logs every response header at DEBUG; a server echoing the key in
    ``x-request-id`` put it in the root logger's output, on every provider."""
    caplog.set_level(logging.DEBUG)
    with Loopback(_echoing(provider)) as server:
        base = server.url + ("/v1beta" if provider == "google" else "/v1")
        with modelport.get_model(MODELS[provider], api_key=KEY, base_url=base, max_retries=0) as model:
            result = model.generate(prompt="hi")
    assert server.received, "the request was really sent"
    assert result.response_id is not None and "[REDACTED]" in result.response_id
    headers = [r for r in caplog.records if r.name == "httpcore.http11" and "x-request-id" in r.getMessage()]
    assert headers and all("b'x-request-id', b'[REDACTED]'" in r.getMessage() for r in headers)
    logged = caplog.text + "\n".join(repr(r.__dict__) for r in caplog.records)
    assert _pieces(logged) == []


class _Trickle(httpx.SyncByteStream):
    """A body delivered ``size`` bytes at a time: the key is cut between chunks, in every place."""

    def __init__(self, data: bytes, size: int) -> None:
        self.data, self.size = data, size

    def __iter__(self) -> Any:
        for start in range(0, len(self.data), self.size):
            yield self.data[start : start + self.size]


@pytest.mark.parametrize("size", [1, 7, 50])
@pytest.mark.parametrize("provider", list(MODELS))
def test_a_key_cut_between_chunks_is_found_too(provider: str, size: int) -> None:
    def trickled(request: httpx.Request) -> httpx.Response:
        stream = _Trickle(_stream(provider), size)
        return httpx.Response(200, stream=stream, headers={"content-type": "text/event-stream"})

    with modelport.get_model(
        MODELS[provider], api_key=KEY, transport=httpx.MockTransport(trickled), max_retries=0
    ) as model:
        events = list(model.stream(prompt="hi"))
    shown = json.dumps([event.model_dump(mode="json") for event in events])
    assert _pieces(shown) == [] and "[REDACTED]" in shown
