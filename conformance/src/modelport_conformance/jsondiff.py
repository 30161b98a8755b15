"""Structural comparison of JSON values, with differences named by JSON path (``$.a[1].b``).

Objects compare by key (order ignored), arrays by position, numbers by value (``1 == 1.0``, but a
boolean is never a number). Every difference is reported, so a message can show all of them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Difference", "diff_json", "format_differences", "json_path"]

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MISSING: Any = object()


@dataclass(frozen=True)
class Difference:
    """One difference: where it is, what it is, and both sides (``None`` when absent)."""

    path: str
    kind: Literal["changed", "missing", "unexpected"]
    expected: Any = None
    actual: Any = None

    def describe(self, limit: int = 160) -> str:
        """One readable line, e.g. ``$.contents[0].role: expected 'user', got 'model'``."""
        if self.kind == "missing":
            return f"{self.path}: missing (expected {_short(self.expected, limit)})"
        if self.kind == "unexpected":
            return f"{self.path}: unexpected (got {_short(self.actual, limit)})"
        return f"{self.path}: expected {_short(self.expected, limit)}, got {_short(self.actual, limit)}"


def json_path(parent: str, key: str | int) -> str:
    """Extend a JSON path with an object key or an array index."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if _IDENTIFIER.match(key):
        return f"{parent}.{key}"
    return f"{parent}[{json.dumps(key, ensure_ascii=False)}]"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def diff_json(expected: Any, actual: Any, path: str = "$") -> list[Difference]:
    """Every structural difference between ``expected`` and ``actual``, in document order."""
    out: list[Difference] = []
    _diff(expected, actual, path, out)
    return out


def _diff(expected: Any, actual: Any, path: str, out: list[Difference]) -> None:
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected:
            child = json_path(path, str(key))
            if key not in actual:
                out.append(Difference(child, "missing", expected=expected[key]))
            else:
                _diff(expected[key], actual[key], child, out)
        for key in actual:
            if key not in expected:
                out.append(Difference(json_path(path, str(key)), "unexpected", actual=actual[key]))
        return
    if isinstance(expected, list) and isinstance(actual, list):
        for index in range(max(len(expected), len(actual))):
            child = json_path(path, index)
            if index >= len(actual):
                out.append(Difference(child, "missing", expected=expected[index]))
            elif index >= len(expected):
                out.append(Difference(child, "unexpected", actual=actual[index]))
            else:
                _diff(expected[index], actual[index], child, out)
        return
    if _is_number(expected) and _is_number(actual):
        if expected != actual:
            out.append(Difference(path, "changed", expected, actual))
        return
    if type(expected) is not type(actual) or expected != actual:
        out.append(Difference(path, "changed", expected, actual))


def _short(value: Any, limit: int) -> str:
    text = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_differences(differences: list[Difference], *, limit: int = 20, indent: str = "  ") -> str:
    """The differences as indented lines, at most ``limit`` of them plus a count of the rest."""
    lines = [indent + d.describe() for d in differences[:limit]]
    if len(differences) > limit:
        lines.append(f"{indent}… and {len(differences) - limit} more differences")
    return "\n".join(lines)
