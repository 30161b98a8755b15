"""Replaying a cassette through an ``httpx.MockTransport``: strict matching, each interaction once.

A request matches an interaction when the method, the URL (scheme, host, path, and query without
credential parameters) and the body are equal, JSON bodies compared structurally (a
``multipart/form-data`` upload field by field, each side read with its own boundary, JSON Lines
line by line: :mod:`.multipart`), and it carries (with a non-empty value) every credential
header the recording holds as ``<credential>``: an adapter that stops authenticating fails its
cases; and it sends every version header the recording holds
(:data:`~modelport_conformance.cassette.PINNED_REQUEST_HEADERS`) with the recorded value. Matching
takes the first unplayed interaction that matches; a request that matches none is recorded as a
:class:`Mismatch` whose message names every differing JSON path, and answered with a 599 so the
adapter fails fast. :meth:`CassettePlayer.unplayed` lists what was never requested. Response bodies
can be delivered in chunks of ``chunk_size`` bytes (or of random sizes up to it, ``chunk_seed``), to
prove that stream decoding does not depend on how the bytes arrive.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from .cassette import Cassette, Interaction, body_bytes, credential_header_names, pinned_headers
from .credentials import CREDENTIAL_PLACEHOLDER, CREDENTIAL_QUERY_PARAMS
from .jsondiff import Difference, diff_json, format_differences
from .multipart import form_fields, is_multipart_form

__all__ = ["CassettePlayer", "ChunkedStream", "Mismatch"]


@dataclass(frozen=True)
class Mismatch:
    """A request the cassette did not expect, and how it differs from the closest interaction."""

    method: str
    url: str
    differences: list[Difference]
    interaction: int | None

    def describe(self) -> str:
        """A readable report: which request, against which interaction, and every differing path."""
        if self.interaction is None:
            return (
                f"unexpected request {self.method} {self.url}: the cassette has no unplayed interaction left"
            )
        head = (
            f"request {self.method} {self.url} does not match recorded interaction #{self.interaction + 1}:"
        )
        text = head + "\n" + format_differences(self.differences)
        if any(d.path.startswith(_HEADER) and d.expected == CREDENTIAL_PLACEHOLDER for d in self.differences):
            text += "\n  the recording sent a credential in that header; this request sends none"
        return text


class ChunkedStream(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A response body delivered ``size`` bytes at a time (sync and async); with ``seed``, in chunks
    of random sizes from 1 to ``size`` bytes, the same for the same seed."""

    def __init__(self, data: bytes, size: int, seed: int | None = None) -> None:
        self._data = data
        self._size = max(1, size)
        self._seed = seed

    def _pieces(self) -> list[bytes]:
        if self._seed is None:
            return [self._data[i : i + self._size] for i in range(0, len(self._data), self._size)]
        sizes, start, pieces = random.Random(self._seed), 0, []
        while start < len(self._data):
            step = sizes.randint(1, self._size)
            pieces.append(self._data[start : start + step])
            start += step
        return pieces

    def __iter__(self) -> Iterator[bytes]:
        yield from self._pieces()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self._pieces():
            yield piece


def _url_key(url: str) -> tuple[str, str, str, list[tuple[str, str]]]:
    parts = urlsplit(url)
    query = sorted(
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if k.lower() not in CREDENTIAL_QUERY_PARAMS
    )
    return parts.scheme.lower(), parts.netloc.lower(), parts.path, query


def _decode(raw: bytes) -> tuple[bool, Any]:
    if not raw:
        return True, None
    try:
        return True, json.loads(raw)
    except ValueError:
        return False, raw.decode("utf-8", "replace")


_ENDPOINT = frozenset({"method", "url", "url query"})
_HEADER = "header "


class CassettePlayer:
    """Answers requests from a cassette; use :attr:`transport` as the provider's HTTP transport."""

    def __init__(
        self,
        cassette: Cassette,
        *,
        chunk_size: int | None = None,
        match_body: bool = True,
        chunk_seed: int | None = None,
    ) -> None:
        self.cassette = cassette
        self.chunk_size = chunk_size
        self.chunk_seed = chunk_seed
        self.match_body = match_body
        self.played: list[int] = []
        self.mismatches: list[Mismatch] = []
        self._lock = threading.Lock()
        self.transport = httpx.MockTransport(self.handle)

    def _differences(self, interaction: Interaction, request: httpx.Request) -> list[Difference]:
        differences: list[Difference] = []
        if interaction.method != request.method.upper():
            differences.append(Difference("method", "changed", interaction.method, request.method))
        recorded, actual = _url_key(interaction.uri), _url_key(str(request.url))
        if recorded[:3] != actual[:3]:
            differences.append(Difference("url", "changed", interaction.uri, str(request.url)))
        if recorded[3] != actual[3]:
            differences.append(Difference("url query", "changed", dict(recorded[3]), dict(actual[3])))
        for name in credential_header_names(interaction.request):
            if not request.headers.get(name, "").strip():
                differences.append(Difference(_HEADER + name, "missing", CREDENTIAL_PLACEHOLDER))
        for name, value in pinned_headers(interaction.request).items():
            sent = request.headers.get(name)
            if sent != value:
                differences.append(
                    Difference(_HEADER + name, "missing" if sent is None else "changed", value, sent)
                )
        if self.match_body:
            differences.extend(self._body_differences(interaction, request))
        return differences

    @staticmethod
    def _body_differences(interaction: Interaction, request: httpx.Request) -> list[Difference]:
        stored = interaction.request.get("body")
        recorded_type = _header(interaction.request, "content-type")
        sent_type = request.headers.get("content-type")
        if is_multipart_form(recorded_type) and is_multipart_form(sent_type):
            # Each side read with its own boundary: the parts compare, not the random separators.
            return diff_json(
                form_fields(str(recorded_type), body_bytes(stored)),
                form_fields(str(sent_type), request.content),
                "$form",
            )
        expected_ok, expected = _decode(body_bytes(stored))
        actual_ok, actual = _decode(request.content)
        if expected_ok and actual_ok:
            return diff_json(expected, actual, "$")
        if expected != actual:
            return [Difference("body", "changed", expected, actual)]
        return []

    def handle(self, request: httpx.Request) -> httpx.Response:
        """The mock transport's handler."""
        request.read()
        with self._lock:
            unplayed = [i for i in range(len(self.cassette.interactions)) if i not in self.played]
            candidates = [(i, self._differences(self.cassette.interactions[i], request)) for i in unplayed]
            for index, differences in candidates:
                if not differences:
                    self.played.append(index)
                    return self._response(self.cassette.interactions[index])
            # Report against the first unplayed interaction of the same endpoint, else the first one.
            same = [c for c in candidates if not any(d.path in _ENDPOINT for d in c[1])]
            closest = (same or candidates)[0] if candidates else None
            mismatch = Mismatch(
                method=request.method,
                url=_safe_url(str(request.url)),
                differences=closest[1] if closest else [],
                interaction=closest[0] if closest else None,
            )
            self.mismatches.append(mismatch)
        return httpx.Response(
            599, json={"error": {"message": "conformance: request did not match the cassette"}}
        )

    def _response(self, interaction: Interaction) -> httpx.Response:
        response = interaction.response
        headers = [
            (name, value) for name, values in (response.get("headers") or {}).items() for value in values
        ]
        data = body_bytes(response.get("body"))
        status = interaction.status
        if self.chunk_size is None:
            return httpx.Response(status, headers=headers, content=data)
        stream = ChunkedStream(data, self.chunk_size, self.chunk_seed)
        return httpx.Response(status, headers=headers, stream=stream)

    def unplayed(self) -> list[int]:
        """Indices of interactions no request has matched."""
        return [i for i in range(len(self.cassette.interactions)) if i not in self.played]

    def problems(self) -> list[str]:
        """Mismatches, then interactions never played, as readable messages (empty when all is well)."""
        messages = [m.describe() for m in self.mismatches]
        for index in self.unplayed():
            interaction = self.cassette.interactions[index]
            messages.append(
                f"recorded interaction #{index + 1} ({interaction.method} {interaction.uri}) was never played"
            )
        return messages


def _header(stored: dict[str, Any], name: str) -> str | None:
    for key, values in (stored.get("headers") or {}).items():
        if key.lower() == name:
            return str(values[0]) if isinstance(values, list) and values else str(values)
    return None


def _safe_url(url: str) -> str:
    parts = urlsplit(url)
    query = [
        (k, "REDACTED" if k.lower() in CREDENTIAL_QUERY_PARAMS else v) for k, v in parse_qsl(parts.query)
    ]
    suffix = "?" + "&".join(f"{k}={v}" for k, v in query) if query else ""
    return f"{parts.scheme}://{parts.netloc}{parts.path}{suffix}"
