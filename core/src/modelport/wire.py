"""Strict JSON for what the wire sends: UTF-8 only, finite numbers, no lone surrogates, bounded nesting.

Public so that every provider plugin decodes the same way (the core's HTTP kit uses it for every
response body and stream frame; a plugin calls :func:`loads` only for JSON nested inside JSON, such
as tool-call arguments sent as a string).

Python's ``json`` accepts more than JSON: ``NaN`` literals, lone ``\\ud800`` escapes and (from bytes)
UTF-8-encoded surrogates, and it reads a number too large for a double (``1e999``) as infinity.
Any of them would make a result that cannot be serialised again (C5: infinity is written as ``null``),
and deep nesting raises a bare ``RecursionError`` (or, from ~200 levels, a result pydantic cannot
serialise). Everything here raises ``ValueError`` instead.
"""

from __future__ import annotations

import json
import math
import re
from contextvars import ContextVar, Token
from itertools import chain, compress
from types import TracebackType
from typing import Any

__all__ = ["MAX_DEPTH", "REENCODED_RATIO", "decoding", "dumps", "loads", "source_bytes", "strict_loads"]

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")

#: Deepest nesting accepted. Real Gemini responses nest about 10 levels; function arguments a few
#: more. Deeper documents are rejected rather than producing results pydantic cannot serialise
#: (it fails from about 200 levels), which would break C5.
MAX_DEPTH = 128


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


_INFINITIES = (math.inf, -math.inf)


def _finite_float(literal: str) -> float:
    """A JSON number with a fraction or an exponent, refused when it overflows a double.

    Called only for such literals (integers stay exact ``int``): no cost for a document without
    them; about 1.5x the parse of one made of nothing else (768-float embeddings, measured).
    """
    value = float(literal)
    if value in _INFINITIES:
        raise ValueError("a number is too large for a double")  # never the literal: it may be huge
    return value


#: One decoder for every document: ``json.loads`` with a hook would build a new one per call.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
_RAW_DECODE = _DECODER.raw_decode


def loads(data: bytes | str) -> Any:
    """Parse one JSON document strictly; raises ``ValueError`` (incl. ``UnicodeError``) on anything else."""
    text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    try:
        # ``raw_decode`` first: a document with no whitespace before it (every SSE frame, most
        # bodies) parses without ``decode``'s whitespace scans and call; leading whitespace, extra
        # data or an error is ``decode``'s to judge, so results and messages are exactly its own.
        try:
            value, end = _RAW_DECODE(text)
        except ValueError:
            end = -1
        if end != len(text) and (end < 0 or text[end:].strip(" \t\n\r")):  # JSON's whitespace only
            value = _DECODER.decode(text)
    except RecursionError:
        raise ValueError("JSON is nested too deeply") from None
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        # Valid pairs were combined by the parser; a lone surrogate fails to encode.
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    # Only a document with more brackets than the limit can be nested that deep: counting is cheap.
    if text.count("[") + text.count("{") > MAX_DEPTH and _too_deep(value, MAX_DEPTH):
        raise ValueError(f"JSON is nested deeper than {MAX_DEPTH} levels")
    return value


#: Another name of :func:`loads`, the one the Google plugin used before the kit.
strict_loads = loads


#: One encoder for every body: ``json.dumps`` with options would build a new one per call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps(value: Any) -> bytes:
    """A request body as compact UTF-8 JSON; a value JSON cannot carry is an ``InvalidRequestError``.

    NaN and infinities, objects, bytes, sets and lone surrogates are rejected here, before any
    request, instead of escaping from the HTTP client as bare errors.
    """
    try:
        return _ENCODER.encode(value).encode("utf-8")
    except (TypeError, ValueError, RecursionError) as error:  # UnicodeEncodeError is a ValueError
        from .errors import InvalidRequestError

        reason = type(error).__name__ if isinstance(error, UnicodeError) else str(error)
        raise InvalidRequestError(f"the request contains a value that is not JSON: {reason}") from None


_IS_DICT = frozenset({dict}).__contains__
_IS_LIST = frozenset({list}).__contains__
_IS_CONTAINER = frozenset({dict, list}).__contains__


def _too_deep(value: Any, limit: int) -> bool:
    """Whether parsed JSON ``value`` nests objects and arrays deeper than ``limit``.

    Level by level, each level's children gathered and filtered by C iterators (``map``, ``chain``,
    ``compress``) rather than a Python step per child: a 12 KB grounded answer (more brackets than
    the limit, so walked) in about a third of a per-child loop's time.
    """
    level = [value] if _IS_CONTAINER(type(value)) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        kinds = list(map(type, level))
        dicts = compress(level, map(_IS_DICT, kinds))
        lists = compress(level, map(_IS_LIST, kinds))
        children = list(chain(chain.from_iterable(map(dict.values, dicts)), chain.from_iterable(lists)))
        level = list(compress(children, map(_IS_CONTAINER, map(type, children))))
    return False


# The size of the text being decoded ----------------------------------------------------------------

#: Any value inside data :func:`loads` parsed from ``n`` bytes re-encodes, as compact UTF-8 JSON
#: (``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``), to at most
#: ``REENCODED_RATIO * n`` bytes. Strings never grow (an escape the encoder writes is one the text
#: had to carry too: a control character, a quote, a backslash), whitespace goes, literals stay; only
#: a number can grow, at most 4.5 times (``1e15`` is written ``1000000000000000.0``).
REENCODED_RATIO = 5

_SOURCE_BYTES: ContextVar[int | None] = ContextVar("modelport_wire_source_bytes", default=None)


def source_bytes() -> int | None:
    """The size in bytes of the JSON text the data being decoded was parsed from, else ``None``.

    Set by the core while a plugin's ``decode_response`` runs on a response body it parsed with
    :func:`loads`. With :data:`REENCODED_RATIO` it bounds the encoded size of any part of that data
    without encoding it: a bound on a part (such as the Gemini grounding metadata's) need not be
    measured when ``REENCODED_RATIO * source_bytes()`` is within it.
    """
    return _SOURCE_BYTES.get()


class decoding:
    """``with decoding(n):`` makes :func:`source_bytes` return ``n`` inside the block."""

    __slots__ = ("_size", "_token")

    def __init__(self, size: int | None) -> None:
        self._size = size

    def __enter__(self) -> None:
        self._token: Token[int | None] = _SOURCE_BYTES.set(self._size)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        _SOURCE_BYTES.reset(self._token)
