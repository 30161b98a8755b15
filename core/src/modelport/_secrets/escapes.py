"""Views of a text with its escapes decoded, for :mod:`modelport.secrets` to search a key behind them.

A server may write a key inside a JSON string with ``\\/`` or ``\\uXXXX`` escapes (some characters
or all, in a JSON document held in a JSON string several levels deep) or as HTML numeric character
references (``&#115;``, ``&#x73;``, with or without the ``;``). :func:`views` gives the text itself,
then each deeper level with one level of those escapes decoded, and each level maps a position back
into the level above, so a match found in a view is replaced at its place in the original text.
Memory grows with the number of escapes only.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import NamedTuple

__all__ = ["LEVELS", "Level", "views"]

_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|[\"\\/bfnrt])|&#(?:[0-9]{1,7}|[xX][0-9a-fA-F]{1,6});?")
_SIMPLE = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
#: How many levels of escapes (JSON in a JSON string, entities in either) are decoded.
LEVELS = 4


def _character(escape: str) -> str:
    if escape[0] == "\\":
        return chr(int(escape[2:], 16)) if escape[1] == "u" else _SIMPLE.get(escape[1], escape[1])
    digits = escape[2:].rstrip(";")
    code = int(digits[1:], 16) if digits[:1] in ("x", "X") else int(digits)
    return chr(code) if code <= 0x10FFFF else "\ufffd"


class Level(NamedTuple):
    """One level of escapes decoded: the text, and where its escapes were (to map back)."""

    text: str
    decoded_at: list[int]  # where each escape's character is in ``text``
    raw_at: list[int]  # where that escape starts in the level above
    shift: list[int]  # characters removed up to and including that escape

    def raw(self, position: int) -> int:
        """Where the character at ``position`` of ``text`` starts in the level above."""
        index = bisect.bisect_right(self.decoded_at, position) - 1
        if index < 0:
            return position
        if self.decoded_at[index] == position:
            return self.raw_at[index]
        return position + self.shift[index]


def _unescaped(text: str) -> Level:
    """``text`` with one level of escapes decoded (memory in proportion to the escapes only)."""
    pieces: list[str] = []
    decoded_at: list[int] = []
    raw_at: list[int] = []
    shift: list[int] = []
    position = removed = 0
    for match in _ESCAPE.finditer(text):
        escape = match.group()
        pieces += [text[position : match.start()], _character(escape)]
        decoded_at.append(match.start() - removed)
        raw_at.append(match.start())
        removed += len(escape) - 1
        shift.append(removed)
        position = match.end()
    pieces.append(text[position:])
    return Level("".join(pieces), decoded_at, raw_at, shift)


def views(text: str) -> Iterator[tuple[str, list[Level]]]:
    """``text`` itself, then each deeper level of its escapes decoded, with the levels that map a
    position back into ``text``."""
    yield text, []
    levels: list[Level] = []
    current = text
    for _ in range(LEVELS):
        if "\\" not in current and "&#" not in current:
            return
        level = _unescaped(current)
        if not level.decoded_at:
            return
        levels = [*levels, level]
        current = level.text
        yield current, levels
