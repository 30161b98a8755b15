"""A recording ``httpx.MockTransport`` and model factories for the Google tests (never the network)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import httpx

import modelport
from modelport._runtime import retry as _retry

KEY = "test-key-0123456789"
SSE = {"content-type": "text/event-stream"}
JSON = {"content-type": "application/json; charset=UTF-8"}


def response(
    status: int = 200, body: bytes | str | Any = b"", headers: dict[str, str] | None = None
) -> httpx.Response:
    """A canned response; dicts and lists are sent as JSON."""
    if not isinstance(body, (bytes, str)):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode("utf-8")
    return httpx.Response(status, content=body, headers=headers or JSON)


Reply = httpx.Response | Callable[[httpx.Request], httpx.Response]


class Recorder:
    """Answers requests with the given replies in order and keeps every request it saw."""

    def __init__(self, replies: Iterable[Reply]) -> None:
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if not self.replies:
            raise AssertionError(f"unexpected request {request.method} {request.url}")
        reply = self.replies.pop(0)
        return reply(request) if callable(reply) else reply

    def bodies(self) -> list[Any]:
        """The JSON bodies sent, in order."""
        return [json.loads(r.content) for r in self.requests]

    @property
    def body(self) -> Any:
        """The JSON body of the only (or last) request."""
        return json.loads(self.requests[-1].content)


def model(
    replies: Iterable[Reply] | Recorder,
    model_id: str = "google/gemini-2.5-flash",
    *,
    asynchronous: bool = False,
    **options: Any,
) -> tuple[modelport.Model, Recorder]:
    """A model whose HTTP goes to a :class:`Recorder`."""
    recorder = replies if isinstance(replies, Recorder) else Recorder(replies)
    options.setdefault("api_key", KEY)
    transport = httpx.MockTransport(recorder)
    if asynchronous:
        client = httpx.AsyncClient(transport=transport)
        return modelport.get_model(model_id, async_http_client=client, **options), recorder
    return modelport.get_model(model_id, http_client=httpx.Client(transport=transport), **options), recorder


def no_sleep(monkeypatch: Any) -> list[float]:
    """Record retry delays instead of sleeping."""
    delays: list[float] = []
    monkeypatch.setattr(_retry, "sleep", delays.append)

    async def asleep(delay: float) -> None:
        delays.append(delay)

    monkeypatch.setattr(_retry, "async_sleep", asleep)
    return delays
