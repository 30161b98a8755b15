"""A model of the ``anthropic`` provider whose transport answers with given responses (no network)."""

from __future__ import annotations

import json
from typing import Any

import httpx

import modelport
from modelport.errors import ProviderError

KEY = "sk-ant-test-0123456789abcdefghij"
SSE = {"content-type": "text/event-stream"}


class Replies:
    """Answers each request with the next response, keeping what was sent."""

    def __init__(self, replies: list[httpx.Response]) -> None:
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.replies.pop(0)

    def body(self, index: int = -1) -> Any:
        """The JSON body of a request sent."""
        return json.loads(self.requests[index].content)


def model(
    replies: list[httpx.Response], name: str = "claude-sonnet-4-5", **options: Any
) -> tuple[Any, Replies]:
    """The model and the replies behind its transport."""
    answers = Replies(replies)
    options.setdefault("max_retries", 0)
    built = modelport.get_model(
        f"anthropic/{name}", api_key=KEY, transport=httpx.MockTransport(answers), **options
    )
    return built, answers


def message(**fields: Any) -> dict[str, Any]:
    """A minimal ``message`` body (MOCK: for mapping rules; recorded shapes are in the corpus tests)."""
    body = {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 3, "output_tokens": 1},
    }
    body.update(fields)
    return body


def sse(frames: list[dict[str, Any]], *, error: dict[str, Any] | None = None) -> httpx.Response:
    """An SSE response with ``event:`` lines, and an ``event: error`` at the end when given."""
    text = "".join(f"event: {f['type']}\ndata: {json.dumps(f)}\n\n" for f in frames)
    if error is not None:
        text += f"event: error\ndata: {json.dumps(error)}\n\n"
    return httpx.Response(200, headers=SSE, content=text.encode())


def generate(m: Any, **request: Any) -> Any:
    """``generate``; a provider error is returned instead of raised."""
    try:
        return m.generate(**request)
    except ProviderError as error:
        return error
