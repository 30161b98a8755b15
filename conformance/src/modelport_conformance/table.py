"""A plain-text table that fits a width: columns keep their natural width while the table fits;
when it does not, the last column (free text) gives way first, then the widest, and their cells
wrap onto more lines (a long word is split across lines): nothing is cut."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from collections.abc import Sequence
from itertools import zip_longest

__all__ = ["GAP", "MIN_COLUMN", "UNWRAPPED", "fit_table", "terminal_width", "wrap_lines"]

#: Spaces between columns.
GAP = 2
#: The narrowest a column becomes (or its header's width, when that is wider).
MIN_COLUMN = 8


#: The width of a table written to a pipe or a file: no line is wrapped there (a log, ``grep``).
UNWRAPPED = 1_000_000


def terminal_width() -> int:
    """The width a table may take: ``COLUMNS`` when set, else the terminal's, less one column so
    that a full line never makes the terminal wrap it; written to a pipe or a file, no limit
    (:data:`UNWRAPPED`), so a case name stays whole for ``grep``."""
    if not os.environ.get("COLUMNS") and not _is_terminal(sys.stdout):
        return UNWRAPPED
    return max(shutil.get_terminal_size((80, 24)).columns - 1, MIN_COLUMN)


def _is_terminal(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):  # no such method, or closed
        return False


def _widths(header: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[int]:
    """Natural widths, narrowed to fit ``width``: the last column (free text) first, down to its
    floor, then the widest of the others, one character at a time, down to theirs."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    floors = [min(w, max(MIN_COLUMN, len(h))) for w, h in zip(widths, header, strict=True)]
    excess = sum(widths) + GAP * (len(widths) - 1) - width
    last = len(widths) - 1
    step = min(max(excess, 0), widths[last] - floors[last])
    widths[last] -= step
    excess -= step
    while excess > 0:
        shrinkable = [i for i in range(last) if widths[i] > floors[i]]
        if not shrinkable:
            break  # narrower than every column's floor: the lines run over, still whole
        widths[max(shrinkable, key=lambda i: (widths[i], i))] -= 1
        excess -= 1
    return widths


def _cell_lines(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


def fit_table(header: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[str]:
    """The lines of the table (header, rule, rows), each at most ``width`` characters when the
    columns' floors allow it; a cell too long for its column wraps within it."""
    widths = _widths(header, rows, width)
    lines = []
    for number, row in enumerate([header, *rows]):
        cells = [_cell_lines(str(cell), w) for cell, w in zip(row, widths, strict=True)]
        for parts in zip_longest(*cells, fillvalue=""):
            lines.append("  ".join(p.ljust(w) for p, w in zip(parts, widths, strict=True)).rstrip())
        if number == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def wrap_lines(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` (lines) wrapped to ``width``, continuation lines indented like their first line
    plus ``indent``; blank lines kept."""
    wrapped: list[str] = []
    for line in text.splitlines() or [""]:
        lead = line[: len(line) - len(line.lstrip())]
        wrapped += textwrap.wrap(
            line, max(width, len(lead) + MIN_COLUMN), subsequent_indent=lead + indent,
            break_long_words=True, break_on_hyphens=False,
        ) or [""]  # fmt: skip
    return wrapped
