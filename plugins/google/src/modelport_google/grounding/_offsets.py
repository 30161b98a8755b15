"""UTF-8 byte offsets ⇄ character offsets of one text, in O(log n) per lookup after one O(n) pass."""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate

__all__ = ["ByteIndex", "utf8_length"]


def utf8_length(char: str) -> int:
    """Bytes ``char`` takes in UTF-8 (a lone surrogate counts as the 3 bytes it would take)."""
    code = ord(char)
    if code < 0x80:
        return 1
    if code < 0x800:
        return 2
    if code < 0x10000:
        return 3
    return 4


class ByteIndex:
    """Where each character of ``text`` starts in its UTF-8 encoding."""

    __slots__ = ("_bounds", "nbytes", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # ASCII text needs no table: byte offsets are character offsets.
        self._bounds: list[int] | None = None
        if text.isascii():
            self.nbytes = len(text)
        else:
            self._bounds = [0, *accumulate(utf8_length(c) for c in text)]
            self.nbytes = self._bounds[-1]

    def char_at(self, byte: int) -> int | None:
        """The character offset of byte offset ``byte``, or ``None`` when it is not a boundary."""
        if byte < 0 or byte > self.nbytes:
            return None
        if self._bounds is None:
            return byte
        index = bisect_left(self._bounds, byte)
        return index if self._bounds[index] == byte else None

    def byte_at(self, char: int) -> int:
        """The byte offset of character offset ``char`` (0 ≤ char ≤ len(text))."""
        if self._bounds is None:
            return char
        return self._bounds[char]
