"""``-o KEY=VALUE``: request options from the command line (``generate``, ``chat``, ``templates save``)."""

from __future__ import annotations

import json
from typing import Any

import click

__all__ = ["parse_options"]

#: Request keywords that have their own option or argument.
_OWN_OPTIONS = {
    "prompt": "the PROMPT argument",
    "messages": "the PROMPT argument",
    "system": "--system",
    "tools": "--tool",
}


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``key=value`` pairs as request keywords: a value that parses as JSON is that JSON value
    (``0.2``, ``100``, ``true``, ``["a"]``, ``{"google": {...}}``), anything else is the string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise click.BadParameter(f"expected key=value, got {pair!r}", param_hint="'-o' / '--option'")
        if key in _OWN_OPTIONS:
            raise click.BadParameter(f"use {_OWN_OPTIONS[key]} for {key!r}", param_hint="'-o' / '--option'")
        if key in options:
            raise click.BadParameter(f"{key!r} is given twice", param_hint="'-o' / '--option'")
        options[key] = _option_value(key, raw)
    return options


def _option_value(key: str, raw: str) -> Any:
    """The JSON value of ``raw``, else ``raw``; JSON nested deeper than the core accepts (or than
    Python's parser can read) is a usage error, not a ``RecursionError``."""
    from modelport.wire import MAX_DEPTH, _too_deep

    try:
        value = json.loads(raw)
    except RecursionError:
        value = too_deep = True
    except ValueError:
        return raw
    else:
        too_deep = raw.count("[") + raw.count("{") > MAX_DEPTH and _too_deep(value, MAX_DEPTH)
    if too_deep:
        raise click.BadParameter(
            f"the value of {key!r} is JSON nested deeper than {MAX_DEPTH} levels",
            param_hint="'-o' / '--option'",
        )
    return value
