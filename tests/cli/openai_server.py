"""An OpenAI-compatible server on loopback for the command's tests (tests/loopback.py underneath).

``POST /v1/chat/completions`` answers with recorded OpenAI traffic (vercel/ai fixtures vendored in
tests/corpus/openai, REAL): the ``openai-text.json`` body, or the ``openai-text.chunks.txt`` stream
as SSE when the request asks for one. ``GET /v1/models`` answers :data:`MODELS`, which is MOCK: the
corpus holds no recorded model list, so it is written after the documented shape
(https://platform.openai.com/docs/api-reference/models/list).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

from tests.loopback import Loopback, Received, Reply
from tests.recordings import openai

COMPLETION: dict[str, Any] = json.loads(
    openai("vercel__ai/packages__openai__src__chat____fixtures____openai-text.json").read_text(
        encoding="utf-8"
    )
)
ANSWER: str = COMPLETION["choices"][0]["message"]["content"]
CHUNKS: list[str] = (
    openai("vercel__ai/packages__openai__src__chat____fixtures____openai-text.chunks.txt")
    .read_text(encoding="utf-8")
    .splitlines()
)
STREAMED: str = "".join(
    (json.loads(line)["choices"] or [{}])[0].get("delta", {}).get("content") or "" for line in CHUNKS
)

#: MOCK (see the module doc): two models of a local server.
MODELS = {
    "object": "list",
    "data": [
        {"id": "x", "object": "model", "created": 1733097600, "owned_by": "local"},
        {"id": "llama-3.2-1b", "object": "model", "created": 1733184000, "owned_by": "local"},
    ],
}


class OpenAIServer(Loopback):
    """``with OpenAIServer() as server:`` then ``server.base_url`` (``…/v1``) and ``server.received``.

    ``hold`` (a :class:`threading.Event`) makes a stream wait after its first 20 chunks until it is set.
    """

    def __init__(self, hold: threading.Event | None = None) -> None:
        self.hold = hold
        super().__init__(self.answer)

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def answer(self, received: Received) -> Reply:
        if received.method == "GET" and received.path == "/v1/models":
            return _json(MODELS)
        if received.method == "POST" and received.path == "/v1/chat/completions":
            if json.loads(received.body).get("stream"):
                return Reply(headers={"content-type": "text/event-stream"}, body=self._frames())
            return _json(COMPLETION)
        return _json({"error": {"message": f"no route {received.path}", "type": "not_found"}}, 404)

    def bodies(self) -> list[dict[str, Any]]:
        """The JSON bodies of the chat completion requests received, in order."""
        return [json.loads(r.body) for r in self.received if r.path == "/v1/chat/completions"]

    def _frames(self) -> Iterator[bytes]:
        for number, line in enumerate(CHUNKS):
            if number == 20 and self.hold is not None:
                self.hold.wait(30)
            yield f"data: {line}\n\n".encode()
        yield b"data: [DONE]\n\n"


def _json(payload: Any, status: int = 200) -> Reply:
    return Reply(status, {"content-type": "application/json"}, json.dumps(payload).encode())
