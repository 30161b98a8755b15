"""``--schema 'name, age int, bio: one sentence'``: a JSON schema written as a list of fields.

Fields are separated by commas or new lines; each is ``NAME [TYPE][: DESCRIPTION]``, where TYPE is
``str`` (the default), ``int``, ``float`` or ``bool`` (``string``, ``integer``, ``number`` and
``boolean`` too). Every field is required. The result is an object schema with no other properties,
which every provider's strict structured output accepts.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MAX_CONCISE_SCHEMA", "concise_schema", "looks_concise"]

#: The longest field list read, in characters; a longer one is refused, not truncated.
MAX_CONCISE_SCHEMA = 10_000

_TYPES = {
    "str": "string",
    "string": "string",
    "int": "integer",
    "integer": "integer",
    "float": "number",
    "number": "number",
    "bool": "boolean",
    "boolean": "boolean",
}
_FIELD = re.compile(
    r"\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\s+(?P<type>[A-Za-z]+))?\s*(?::(?P<doc>.*))?\Z", re.S
)
_MODULE_TYPE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*\Z")


def looks_concise(spec: str) -> bool:
    """Whether ``spec`` (not a file) is a field list rather than ``module:Type``."""
    return _MODULE_TYPE.match(spec) is None


def concise_schema(spec: str) -> dict[str, Any]:
    """The JSON schema ``spec`` describes; a :class:`ValueError` of one line naming the fault."""
    if len(spec) > MAX_CONCISE_SCHEMA:
        raise ValueError(f"a field list is at most {MAX_CONCISE_SCHEMA} characters")
    properties: dict[str, Any] = {}
    for raw in re.split(r"[,\n]", spec):
        if not raw.strip():
            continue
        found = _FIELD.match(raw)
        if found is None:
            shown = raw.strip()[:40]
            raise ValueError(f"{shown!r} is not NAME [TYPE][: DESCRIPTION] (e.g. 'age int: in years')")
        name, kind, doc = found["name"], (found["type"] or "str").lower(), found["doc"]
        if kind not in _TYPES:
            raise ValueError(f"field {name!r}: type {kind!r} is not one of str, int, float, bool")
        if name in properties:
            raise ValueError(f"field {name!r} is given twice")
        field: dict[str, Any] = {"type": _TYPES[kind]}
        if doc and doc.strip():
            field["description"] = doc.strip()
        properties[name] = field
    if not properties:
        raise ValueError("the field list names no field")
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
