"""Replays a recorded batch exchange (create, polls, results) in order through an httpx mock
transport: each request must be the recorded one (method and URL), and gets the recorded answer.

The batch recordings are Ruby VCR cassettes from crmne/ruby_llm (tests/corpus/batch/MANIFEST.md);
some bodies are Ruby ``!binary`` scalars (base64), decoded here.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

from tests import recordings


class _RubyLoader(yaml.SafeLoader):
    pass


_RubyLoader.add_constructor("!binary", lambda loader, node: base64.b64decode(loader.construct_scalar(node)))


@dataclass
class Exchange:
    method: str
    url: str
    sent: bytes
    status: int
    content_type: str
    answer: bytes

    def sent_json(self) -> Any:
        return json.loads(self.sent)

    def answer_json(self) -> Any:
        return json.loads(self.answer)


def _bytes(value: Any) -> bytes:
    if value is None:
        return b""
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


def load_interactions(relative: str) -> list[dict[str, Any]]:
    """The VCR interactions of ``tests/corpus/batch/<relative>`` as recorded (``!binary`` bodies
    decoded), in recorded order."""
    path: Path = recordings.recording("batch", relative)
    cassette = yaml.load(path.read_text(encoding="utf-8"), Loader=_RubyLoader)  # noqa: S506 (safe loader)
    interactions: list[dict[str, Any]] = cassette["http_interactions"]
    return interactions


def exchanges(relative: str) -> list[Exchange]:
    """The interactions of ``tests/corpus/batch/<relative>``, in recorded order."""
    found = []
    for interaction in load_interactions(relative):
        request, response = interaction["request"], interaction["response"]
        headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
        content_type = (headers.get("content-type") or ["application/json"])[0]
        found.append(
            Exchange(
                method=request["method"].upper(),
                url=request["uri"],
                sent=_bytes(request["body"].get("string")),
                status=int(response["status"]["code"]),
                content_type=content_type,
                answer=_bytes(response["body"].get("string")),
            )
        )
    return found


@dataclass
class Player:
    """The mock transport's handler: serves the recorded exchanges in order, keeping what was sent."""

    recorded: list[Exchange]
    sent: list[httpx.Request] = field(default_factory=list)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        index = len(self.sent)
        self.sent.append(request)
        assert index < len(self.recorded), (
            f"request {index + 1} was not recorded: {request.method} {request.url}"
        )
        expected = self.recorded[index]
        assert (request.method, str(request.url)) == (expected.method, expected.url), f"request {index + 1}"
        request.read()
        return httpx.Response(
            expected.status, headers={"content-type": expected.content_type}, content=expected.answer
        )

    @property
    def left(self) -> int:
        return len(self.recorded) - len(self.sent)


def transport(relative: str, first: int = 0, last: int | None = None) -> tuple[httpx.MockTransport, Player]:
    """A transport replaying exchanges ``first`` to ``last`` (exclusive) of a recording."""
    player = Player(exchanges(relative)[first:last])
    return httpx.MockTransport(player), player
