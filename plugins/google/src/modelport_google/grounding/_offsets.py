"""UTF-8 byte offsets ⇄ character offsets of one text, in O(log k) per lookup for k non-ASCII characters."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

__all__ = ["ByteIndex", "utf8_length"]

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


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
    """Where each character of ``text`` starts in its UTF-8 encoding.

    Only non-ASCII characters are recorded (found by one C-level regex scan), so text that is
    mostly ASCII, as answers usually are, costs almost nothing; lookups are O(log k) for k
    non-ASCII characters.
    """

    __slots__ = ("_bytes", "_chars", "_widths", "nbytes", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        chars: list[int] = []  # character offset of each non-ASCII character
        starts: list[int] = []  # its byte offset
        widths: list[int] = []  # its UTF-8 length
        extra = 0
        if not text.isascii():
            for match in _NON_ASCII.finditer(text):
                width = utf8_length(match.group())
                chars.append(match.start())
                starts.append(match.start() + extra)
                widths.append(width)
                extra += width - 1
        self._chars, self._bytes, self._widths = chars, starts, widths
        self.nbytes = len(text) + extra

    def char_at(self, byte: int) -> int | None:
        """The character offset of byte offset ``byte``, or ``None`` when it is not a boundary."""
        if byte < 0 or byte > self.nbytes:
            return None
        k = bisect_right(self._bytes, byte) - 1  # last non-ASCII character starting at or before
        if k < 0:
            return byte
        start, width = self._bytes[k], self._widths[k]
        if byte == start:
            return self._chars[k]
        if byte < start + width:
            return None  # inside a multi-byte character
        return byte - (start - self._chars[k]) - (width - 1)

    def byte_at(self, char: int) -> int:
        """The byte offset of character offset ``char`` (0 ≤ char ≤ len(text))."""
        k = bisect_left(self._chars, char)  # non-ASCII characters before ``char``
        if k == 0:
            return char
        last = k - 1
        return char + (self._bytes[last] - self._chars[last]) + (self._widths[last] - 1)
