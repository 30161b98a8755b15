"""Strict JSON decoding of what the wire sends: UTF-8 only, no NaN/Infinity, no lone surrogates.

Python's ``json`` accepts more than JSON: ``NaN`` literals, lone ``\\ud800`` escapes and (from bytes)
UTF-8-encoded surrogates. Any of them would make a result that cannot be serialised again (C5),
and deep nesting raises a bare ``RecursionError``. Everything here raises ``ValueError`` instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["strict_loads"]

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def strict_loads(data: bytes | str) -> Any:
    """Parse one JSON document strictly; raises ``ValueError`` (incl. ``UnicodeError``) on anything else."""
    text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("JSON is nested too deeply") from None
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        # Valid pairs were combined by the parser; a lone surrogate fails to encode.
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    return value
