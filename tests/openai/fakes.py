"""A recording ``httpx.MockTransport`` and model factories for the OpenAI tests (never the network)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import httpx

import modelport
from modelport._runtime import retry as _retry

KEY = "sk-test-0123456789abcdef"
SSE = {"content-type": "text/event-stream"}
JSON = {"content-type": "application/json"}

Reply = httpx.Response | Callable[[httpx.Request], httpx.Response]


def response(status: int = 200, body: Any = b"", headers: dict[str, str] | None = None) -> httpx.Response:
    """A canned response; dicts and lists are sent as JSON."""
    if not isinstance(body, (bytes, str)):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode("utf-8")
    return httpx.Response(status, content=body, headers=headers or JSON)


def sse(frames: Iterable[Any], *, done: bool = True) -> httpx.Response:
    """An event-stream response of JSON frames (and ``[DONE]``)."""
    body = "".join(f"data: {json.dumps(f)}\n\n" for f in frames) + ("data: [DONE]\n\n" if done else "")
    return httpx.Response(200, content=body.encode(), headers=SSE)


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
        """The JSON body of the last request."""
        return json.loads(self.requests[-1].content)


def model(
    replies: Iterable[Reply] | Recorder = (), model_id: str = "openai/gpt-4o-mini", **options: Any
) -> tuple[modelport.Model, Recorder]:
    """A model whose HTTP goes to a :class:`Recorder` (sync and async through one transport)."""
    recorder = replies if isinstance(replies, Recorder) else Recorder(replies)
    options.setdefault("api_key", KEY)
    return modelport.get_model(model_id, transport=httpx.MockTransport(recorder), **options), recorder


def no_sleep(monkeypatch: Any) -> list[float]:
    """Record retry delays instead of sleeping."""
    delays: list[float] = []
    monkeypatch.setattr(_retry, "sleep", delays.append)

    async def asleep(delay: float) -> None:
        delays.append(delay)

    monkeypatch.setattr(_retry, "async_sleep", asleep)
    return delays


def completion(content: str | None = "Hi", **message: Any) -> dict[str, Any]:
    """A minimal ``chat.completion`` body (for request-side tests; decoding is tested on recordings)."""
    return {
        "id": "chatcmpl-1",
        "model": "gpt-4o-mini",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, **message},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def chunk(delta: dict[str, Any], finish: str | None = None, model: str = "gpt-4o-mini") -> dict[str, Any]:
    """One ``chat.completion.chunk`` frame of a stream (first choice)."""
    return {
        "id": "chatcmpl-stream",
        "object": "chat.completion.chunk",
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
