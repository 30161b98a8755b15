"""An ``httpx.MockTransport`` that answers batch requests by URL path from given JSON values (a
value that is a list of lines is served as JSON Lines), and records every request it is sent."""

from __future__ import annotations

import json
from typing import Any

import httpx


class Served(httpx.MockTransport):
    """``answers`` maps a URL path to the JSON value (or the JSON Lines, given as ``Lines``) served."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.sent: list[httpx.Request] = []
        super().__init__(self._answer)

    def _answer(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        value = self.answers.get(request.url.path)
        if value is None:
            return httpx.Response(404, json={"error": {"type": "not_found_error", "message": "no"}})
        if isinstance(value, bytes):  # a body as is
            return httpx.Response(200, content=value, headers={"content-type": "application/x-jsonl"})
        if isinstance(value, Lines):
            body = b"".join(
                (line if isinstance(line, bytes) else json.dumps(line).encode()) + b"\n" for line in value
            )
            return httpx.Response(200, content=body, headers={"content-type": "application/x-jsonl"})
        # Escaped as a JSON server writes it: a lone surrogate in a value is "\ud800" on the wire,
        # which httpx's own ``json=`` (raw UTF-8) cannot encode at all.
        return httpx.Response(
            200, content=json.dumps(value).encode(), headers={"content-type": "application/json"}
        )

    @property
    def urls(self) -> list[str]:
        return [str(request.url) for request in self.sent]


class Lines(list):  # type: ignore[type-arg]
    """A JSON Lines body: each item a JSON value, or raw ``bytes`` for a line as is."""
