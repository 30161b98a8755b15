"""A JSON Lines body read as it arrives (a batch's results file): one strictly parsed value per
non-empty line, each line within ``Limits.max_frame_bytes``. It has the SSE parser's face (the
kit's stream readers drive either)."""

from __future__ import annotations

from typing import Any

from ..errors import ProviderResponseError
from ..wire import loads

__all__ = ["JsonLinesParser"]


class JsonLinesParser:
    """Chunks of any size in, parsed lines out; nothing but a partial last line is held."""

    def __init__(self, provider: str, max_line_bytes: int) -> None:
        self._provider = provider
        self._limit = max_line_bytes
        self._held = bytearray()
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
        try:
            value = loads(line)
        except ValueError as error:
            raise ProviderResponseError(
                f"line {self.frames + 1} of a JSON Lines body is not JSON: {error}", provider=self._provider
            ) from None
        self.frames += 1
        return value

    def _check(self, size: int) -> None:
        if size > self._limit:
            raise ProviderResponseError(
                f"a JSON Lines body has a line over {self._limit} bytes (Limits.max_frame_bytes)",
                provider=self._provider,
            )
