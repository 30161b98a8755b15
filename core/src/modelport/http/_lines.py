"""A JSON Lines body read as it arrives (a batch's results file): one strictly parsed value per
non-empty line, each line within ``Limits.max_frame_bytes``. It has the SSE parser's face (the
kit's stream readers drive either)."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import ProviderResponseError
from ..wire import loads

__all__ = ["BadLine", "JsonLinesParser"]


class BadLine(NamedTuple):
    """A line that is not JSON, in place of its value when the parser keeps going past it
    (``keep_bad=True``: a batch's results file, where one bad line is one request's error)."""

    number: int
    problem: str


class JsonLinesParser:
    """Chunks of any size in, parsed lines out; nothing but a partial last line is held. A line that
    is not JSON is a ``ProviderResponseError``, or with ``keep_bad=True`` a :class:`BadLine` in its
    place; a line over the bound always ends the body with an error."""

    def __init__(self, provider: str, max_line_bytes: int, *, keep_bad: bool = False) -> None:
        self._provider = provider
        self._limit = max_line_bytes
        self._held = bytearray()
        self._keep_bad = keep_bad
        self._lines = 0
        self.frames = 0
        self.done = False  # a JSON Lines body ends with the response

    def _frames(self, chunk: bytes) -> list[Any]:
        if b"\n" not in chunk:
            self._held += chunk
            self._check(len(self._held))
            return []
        head, _, tail = chunk.rpartition(b"\n")
        lines = (bytes(self._held) + head).split(b"\n")
        self._held = bytearray(tail)
        self._check(len(self._held))
        return [self._parse(line) for line in lines if line.strip()]

    def close(self) -> list[Any]:
        """The last line, when the body did not end with a newline."""
        rest, self._held = bytes(self._held), bytearray()
        return [self._parse(rest)] if rest.strip() else []

    def _parse(self, line: bytes) -> Any:
        self._check(len(line))
        self._lines += 1
        try:
            value = loads(line)
        except (ValueError, RecursionError) as error:
            problem = f"line {self._lines} of a JSON Lines body is not JSON: {error}"
            if self._keep_bad:
                return BadLine(self._lines, problem[:500])
            raise ProviderResponseError(problem, provider=self._provider) from None
        self.frames += 1
        return value

    def _check(self, size: int) -> None:
        if size > self._limit:
            raise ProviderResponseError(
                f"a JSON Lines body has a line over {self._limit} bytes (Limits.max_frame_bytes)",
                provider=self._provider,
            )
