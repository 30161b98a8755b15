"""The stored shape of a cassette's interaction, checked as it is loaded
(:func:`~modelport_conformance.cassette.load_cassette`): an ill-typed interaction (``request: [1]``,
a missing ``uri``, a status that is not a number) is a :class:`CassetteError` of one line naming
the cassette and the interaction, never a bare ``TypeError`` later in replay."""

from __future__ import annotations

from typing import Any

__all__ = ["CassetteError", "checked_interaction", "kind_of"]


class CassetteError(ValueError):
    """A cassette that cannot be replayed: its YAML expands too far (:mod:`.safe_yaml`), or an
    interaction is not of the stored shape. The message is one line naming the cassette and, for an
    interaction, its number (from 1); :attr:`problem` is the message without the cassette's name."""

    def __init__(self, cassette: str, problem: str = "") -> None:
        super().__init__(f"{cassette}: {problem}" if problem else cassette)
        self.problem = problem or cassette


def kind_of(value: Any) -> str:
    """What ``value`` is, for a message: ``null``, ``a list ('[1]')``, ``an int ('7')``."""
    if value is None:
        return "null"
    name = type(value).__name__
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} ({str(value)[:40]!r})"


def checked_interaction(item: Any, cassette: str, number: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The request and response of interaction ``number`` (from 1) of ``cassette``, their shape
    checked (what replay reads of them); a :class:`CassetteError` saying what is wrong otherwise."""
    where = f"interaction #{number}"
    if not isinstance(item, dict):
        raise CassetteError(
            cassette, f"{where} must be a mapping with 'request' and 'response', not {kind_of(item)}"
        )
    sides: dict[str, dict[str, Any]] = {}
    for side in ("request", "response"):
        value = item.get(side)
        if not isinstance(value, dict):
            raise CassetteError(cassette, f"{where}: '{side}' must be a mapping, not {kind_of(value)}")
        for key, ok, wanted in _FIELDS[side]:
            if not ok(value.get(key)):
                raise CassetteError(
                    cassette, f"{where}: {side} '{key}' must be {wanted}, not {kind_of(value.get(key))}"
                )
        sides[side] = dict(value)
    return sides["request"], sides["response"]


def _headers_ok(value: Any) -> bool:
    return value is None or (
        isinstance(value, dict)
        and all(
            isinstance(k, str)
            and (isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)))
            for k, v in value.items()
        )
    )


def _body_ok(value: Any) -> bool:
    if value is None or isinstance(value, str):
        return True
    if not isinstance(value, dict) or not set(value) <= {"json", "sse", "string", "newline", "base64"}:
        return False
    kinds = [k for k in ("json", "sse", "string", "base64") if k in value]
    sse = value.get("sse", [])
    return (
        len(kinds) == 1
        and isinstance(value.get("string", ""), str)
        and isinstance(value.get("base64", ""), str)
        and isinstance(value.get("newline", ""), str)
        and isinstance(sse, list)
        and all(isinstance(entry, dict) for entry in sse)
    )


def _status_ok(value: Any) -> bool:
    if value is None:
        return True
    code = value.get("code", 200) if isinstance(value, dict) else None
    return (
        isinstance(code, int)
        and not isinstance(code, bool)
        and 100 <= code <= 599
        and isinstance(value.get("message", ""), (str, type(None)))
    )


_BODY = "null, a string or a mapping with one of 'json', 'sse' (a list of mappings) or 'string'"
_HEADERS = "a mapping of names to lists of strings"
#: (key, check, what it must be) of each side of an interaction.
_FIELDS: dict[str, list[tuple[str, Any, str]]] = {
    "request": [
        ("method", lambda v: v is None or isinstance(v, str), "a string"),
        ("uri", lambda v: isinstance(v, str), "a string"),
        ("headers", _headers_ok, _HEADERS),
        ("body", _body_ok, _BODY),
    ],
    "response": [
        ("status", _status_ok, "a mapping with an integer 'code' (100-599) and a string 'message'"),
        ("headers", _headers_ok, _HEADERS),
        ("body", _body_ok, _BODY),
    ],
}
