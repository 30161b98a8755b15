"""Shared pieces of the reliability and security tests (SPEC Q1-Q6).

Every test talks to the Google adapter through the public API with a recognisable fake key
(:data:`CANARY`) and an ``httpx.MockTransport``; nothing reaches the network.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any

import httpx
import pytest

import modelport
from modelport import _model
from modelport._runtime import retry as _retry

#: A fake Gemini API key: shaped like a real one (``AIza`` + 35 characters), easy to grep for.
CANARY = "AIzaSyCANARY" + "0123456789abcdefghijklmnopq"
assert len(CANARY) == 39
#: A fake credential with no recognisable shape, so only exact scrubbing can hide it.
CANARY_PLAIN = "mp-canary-credential-7f3b9c2e1d"

MODEL_ID = "google/gemini-2.5-flash"
SSE_HEADERS = {"content-type": "text/event-stream"}
JSON_HEADERS = {"content-type": "application/json; charset=UTF-8"}

Handler = Callable[[httpx.Request], httpx.Response]


class Counting(httpx.MockTransport):
    """A mock transport that records every request it is asked to send."""

    def __init__(self, handler: Handler | None = None) -> None:
        self.requests: list[httpx.Request] = []

        def handle(request: httpx.Request) -> httpx.Response:
            self.requests.append(request)
            if handler is None:
                return httpx.Response(500, json={"error": {"code": 500, "message": "unexpected request"}})
            return handler(request)

        super().__init__(handle)


def google(
    handler: Handler | httpx.MockTransport, *, api_key: str = CANARY, max_retries: int = 0, **options: Any
) -> modelport.Model:
    """``google/gemini-2.5-flash`` whose HTTP goes to ``handler`` (a callable or a mock transport)."""
    transport = handler if isinstance(handler, httpx.MockTransport) else httpx.MockTransport(handler)
    return modelport.get_model(
        MODEL_ID, api_key=api_key, transport=transport, max_retries=max_retries, **options
    )


def is_stream(request: httpx.Request) -> bool:
    return request.url.path.endswith(":streamGenerateContent")


class Chunks(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A response body sent as ``chunks``; then, optionally, a transport error is raised.

    An entry that is an exception instance is raised when reached (a reset or a stall mid-stream).
    """

    def __init__(self, chunks: Iterable[bytes | BaseException]) -> None:
        self.chunks = list(chunks)
        self.sent = 0

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.chunks:
            if isinstance(chunk, BaseException):
                raise chunk
            self.sent += 1
            yield chunk

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            await asyncio.sleep(0)
            if isinstance(chunk, BaseException):
                raise chunk
            self.sent += 1
            yield chunk


def sse_response(chunks: Iterable[bytes | BaseException], status: int = 200) -> httpx.Response:
    return httpx.Response(status, stream=Chunks(chunks), headers=SSE_HEADERS)


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    return httpx.Response(status, content=content, headers={**JSON_HEADERS, **(headers or {})})


def frame(data: Any) -> bytes:
    """One SSE event carrying ``data`` as JSON."""
    return b"data: " + json.dumps(data, ensure_ascii=False).encode("utf-8") + b"\r\n\r\n"


def text_frame(
    text: str, *, finish: str | None = None, usage: dict[str, int] | None = None
) -> dict[str, Any]:
    """A Gemini stream frame with one text chunk (and a finish reason / usage when given)."""
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": [{"text": text}]}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    data: dict[str, Any] = {
        "candidates": [candidate],
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r-1",
    }
    if usage:
        data["usageMetadata"] = usage
    return data


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record retry delays instead of sleeping (sync and async)."""
    recorded: list[float] = []

    async def fake_async_sleep(delay: float) -> None:
        recorded.append(delay)

    # The seam is ``modelport._runtime.retry.sleep`` (older cores had it on ``modelport._model``).
    for module in (_retry, _model):
        if hasattr(module, "sleep"):
            monkeypatch.setattr(module, "sleep", recorded.append)
        if hasattr(module, "async_sleep"):
            monkeypatch.setattr(module, "async_sleep", fake_async_sleep)
    return recorded


def vertex(transport: Counting) -> modelport.Model:
    """``google-vertex/gemini-2.5-flash`` (a token, project ``p``) whose HTTP goes to ``transport``."""
    return modelport.get_model(
        "google-vertex/gemini-2.5-flash", token="tok", project="p", transport=transport, max_retries=0
    )


ENTRY_POINTS = ["generate", "stream", "agenerate", "astream"]


def call(model: modelport.Model, entry: str, kwargs: dict[str, Any]) -> None:
    """Run one entry point to completion (streams are consumed)."""
    if entry == "generate":
        model.generate(**kwargs)
    elif entry == "stream":
        list(model.stream(**kwargs))
    elif entry == "agenerate":
        asyncio.run(model.agenerate(**kwargs))
    else:

        async def consume() -> None:
            async for _ in model.astream(**kwargs):
                pass

        asyncio.run(consume())


def rejected(model_factory: Any, kwargs: dict[str, Any], entry: str, kind: type[Exception]) -> BaseException:
    """The ``kind`` error that ``entry`` raises for ``kwargs``, after checking nothing was sent."""
    transport = Counting()
    model = model_factory(transport)
    with pytest.raises(kind) as info:
        call(model, entry, kwargs)
    assert transport.requests == []
    return info.value
