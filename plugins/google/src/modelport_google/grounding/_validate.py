"""S5: shape, JSON-safety and size checks of ``groundingMetadata``.

Only the envelope (a JSON object) and the stable list fields are checked for shape; every other
field, known or not, passes through untouched so new provider fields are never lost. The whole
value must be JSON (string keys, valid UTF-8 strings, finite numbers, no bytes, sets, tuples or
other Python objects) and its compact UTF-8 JSON encoding at most :data:`MAX_METADATA_BYTES`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, TypeGuard

from modelport.errors import ProviderMetadataError
from modelport.wire import MAX_DEPTH as WIRE_MAX_DEPTH
from modelport.wire import REENCODED_RATIO

__all__ = [
    "LIST_FIELDS",
    "MAX_DEPTH",
    "MAX_METADATA_BYTES",
    "encoded_size",
    "ensure_json",
    "is_index",
    "validate_grounding_metadata",
]

#: Largest accepted size of the metadata, as compact UTF-8 JSON (S5, Q4).
MAX_METADATA_BYTES = 262_144

#: Deepest accepted nesting of objects and arrays (real metadata is about 5 deep): the wire
#: parser's bound, so metadata a response body could carry is never refused here. A unary answer's
#: metadata is only checked by that parser (``from_wire``) while every stream frame passes
#: :func:`ensure_json`: a lower bound here refused a streamed answer the same answer unary kept.
MAX_DEPTH = WIRE_MAX_DEPTH

#: The stable list fields: accumulated across stream frames, renumbered when merging.
LIST_FIELDS = ("groundingChunks", "groundingSupports", "webSearchQueries", "imageSearchQueries")


def _fail(provider: str, message: str) -> ProviderMetadataError:
    return ProviderMetadataError(f"invalid groundingMetadata: {message}", provider=provider)


def _check_string(value: str, where: str, provider: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _fail(provider, f"{where} is not valid UTF-8 (lone surrogate)") from None


def ensure_json(
    value: object, *, provider: str, what: str = "groundingMetadata", limit: int = MAX_DEPTH
) -> None:
    """Raise :class:`ProviderMetadataError` unless ``value`` is plain JSON data.

    Iterative (no recursion limit to hit), depth-bounded, and strict: ``dict`` with ``str`` keys,
    ``list``, ``str`` (valid UTF-8), ``int``, finite ``float``, ``bool`` and ``None`` only, nested
    at most ``limit`` levels.
    """
    stack: list[tuple[object, str, int]] = [(value, what, 0)]
    while stack:
        item, where, depth = stack.pop()
        if item is None or isinstance(item, (bool, int)):
            continue
        if isinstance(item, str):
            _check_string(item, where, provider)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise _fail(provider, f"{where} is {item!r}, which is not a JSON number")
        elif isinstance(item, dict):
            if depth >= limit:
                raise _fail(provider, f"nested deeper than {limit} levels")
            for key, child in item.items():
                if not isinstance(key, str):
                    raise _fail(provider, f"{where} has a non-string key ({type(key).__name__})")
                _check_string(key, f"a key of {where}", provider)
                stack.append((child, f"{where}.{key}", depth + 1))
        elif isinstance(item, list):
            if depth >= limit:
                raise _fail(provider, f"nested deeper than {limit} levels")
            stack.extend((child, f"{where}[{i}]", depth + 1) for i, child in enumerate(item))
        else:
            raise _fail(provider, f"{where} is a {type(item).__name__}, which is not a JSON value")


def encoded_size(value: object) -> int:
    """Size in bytes of ``value`` as compact UTF-8 JSON (call :func:`ensure_json` first)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return len(text.encode("utf-8"))


def check_size(value: object, *, provider: str) -> int:
    """The encoded size, or :class:`ProviderMetadataError` when it exceeds the bound."""
    try:
        size = encoded_size(value)
    except ValueError:  # inf from an overflowing number (e.g. 1e999) is not JSON
        raise _fail(provider, "a number is out of range (infinite)") from None
    if size > MAX_METADATA_BYTES:
        raise ProviderMetadataError(
            f"groundingMetadata is {size} bytes encoded, over the {MAX_METADATA_BYTES}-byte bound",
            provider=provider,
        )
    return size


def is_index(value: object) -> TypeGuard[int]:
    """A JSON non-negative integer (``bool`` excluded)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_optional(
    obj: dict[str, Any], key: str, test: Callable[[object], bool], kind: str, where: str, provider: str
) -> None:
    if key in obj and obj[key] is not None and not test(obj[key]):
        raise _fail(provider, f"{where}.{key} must be {kind}")


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _bad_str(obj: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    """The first of ``keys`` present with a non-string value."""
    for key in keys:
        value = obj.get(key)
        if value is not None and not isinstance(value, str):
            return key
    return None


_SOURCE_KINDS = ("web", "retrievedContext", "image", "maps")
_SOURCE_KEYS = ("uri", "title", "domain")
_SEGMENT_INDICES = ("startIndex", "endIndex", "partIndex")

# The checks below run on every grounded response (P6): they build no message unless one fails.


def _check_chunk(chunk: object, i: int, provider: str) -> None:
    if not isinstance(chunk, dict):
        raise _fail(provider, f"groundingChunks[{i}] must be an object")
    for kind in _SOURCE_KINDS:
        source = chunk.get(kind)
        if source is None:
            continue
        if not isinstance(source, dict):
            raise _fail(provider, f"groundingChunks[{i}].{kind} must be an object")
        bad = _bad_str(source, _SOURCE_KEYS)
        if bad is not None:
            raise _fail(provider, f"groundingChunks[{i}].{kind}.{bad} must be a string")


def _indices(values: object) -> bool:
    """A list of non-negative integers (the loop takes plain ints without a call: P2)."""
    if not isinstance(values, list):
        return False
    for value in values:  # noqa: SIM110 (a loop, not all() over a generator: P2)
        if (type(value) is not int or value < 0) and not is_index(value):
            return False
    return True


def _numbers(values: object) -> bool:
    if not isinstance(values, list):
        return False
    for value in values:  # noqa: SIM110
        if type(value) is not float and not _is_number(value):
            return False
    return True


def _check_support(support: object, i: int, provider: str) -> None:
    where = "groundingSupports[{}]"
    if not isinstance(support, dict):
        raise _fail(provider, f"{where.format(i)} must be an object")
    segment = support.get("segment")
    if segment is not None:
        if not isinstance(segment, dict):
            raise _fail(provider, f"{where.format(i)}.segment must be an object")
        for key in _SEGMENT_INDICES:
            value = segment.get(key)
            if value is not None and (type(value) is not int or value < 0) and not is_index(value):
                raise _fail(provider, f"{where.format(i)}.segment.{key} must be a non-negative integer")
        text = segment.get("text")
        if text is not None and not isinstance(text, str):
            raise _fail(provider, f"{where.format(i)}.segment.text must be a string")
    indices = support.get("groundingChunkIndices")
    if indices is not None and not _indices(indices):
        raise _fail(
            provider, f"{where.format(i)}.groundingChunkIndices must be a list of non-negative integers"
        )
    scores = support.get("confidenceScores")
    if scores is not None and not _numbers(scores):
        raise _fail(provider, f"{where.format(i)}.confidenceScores must be a list of numbers")


_SUPPORT_KEYS = frozenset({"segment", "groundingChunkIndices", "confidenceScores"})
_INFINITY = math.inf


def plainly_fine(supports: list[Any]) -> bool:
    """Whether every support is plainly well formed and plainly JSON: only the three known fields,
    as parsed JSON makes them (exact ``int``, ``str``, ``dict`` and ``list``, finite ``float``), in
    one loop with no call per value (P4).

    ``False`` only means "judge each one": :func:`_check_support` decides (int subclasses, ``None``
    values, unknown fields included) and says what is wrong. Never ``True`` for a support
    :func:`_check_support` would refuse, nor for one holding an infinity.
    """
    for support in supports:
        if type(support) is not dict or not support.keys() <= _SUPPORT_KEYS:
            return False
        segment = support.get("segment")
        if segment is not None:
            if type(segment) is not dict:
                return False
            for value in segment.values():  # indices (non-negative ints) and the text (a string)
                kind = type(value)
                if (kind is not int or value < 0) and kind is not str:
                    return False
            if type(segment.get("text", "")) is not str:
                return False
        indices = support.get("groundingChunkIndices")
        if indices is not None:
            if type(indices) is not list:
                return False
            for value in indices:
                if type(value) is not int or value < 0:
                    return False
        scores = support.get("confidenceScores")
        if scores is not None:
            if type(scores) is not list:
                return False
            for value in scores:
                if type(value) is not float or not -_INFINITY < value < _INFINITY:
                    return False
    return True


def _shape(metadata: object, provider: str) -> None:
    """:func:`check_shape`'s checks; supports found plainly well formed (:func:`plainly_fine`) are
    not judged one by one."""
    if not isinstance(metadata, dict):
        raise _fail(provider, f"expected a JSON object, got {type(metadata).__name__}")
    for key in LIST_FIELDS:
        value = metadata.get(key)
        if value is not None and not isinstance(value, list):
            raise _fail(provider, f"{key} must be a list")
    for i, chunk in enumerate(metadata.get("groundingChunks") or ()):
        _check_chunk(chunk, i, provider)
    supports = metadata.get("groundingSupports")
    if supports and not plainly_fine(supports):
        for i, support in enumerate(supports or ()):
            _check_support(support, i, provider)
    for key in ("webSearchQueries", "imageSearchQueries"):
        if not all(isinstance(q, str) for q in metadata.get(key) or ()):
            raise _fail(provider, f"{key} must be a list of strings")
    entry = metadata.get("searchEntryPoint")
    if entry is not None:
        if not isinstance(entry, dict):
            raise _fail(provider, "searchEntryPoint must be an object")
        # S12: provider HTML, kept as an opaque string and never interpreted.
        _check_optional(entry, "renderedContent", _is_str, "a string", "searchEntryPoint", provider)


def check_shape(metadata: object, *, provider: str) -> dict[str, Any]:
    """Shape of the envelope and of the stable list fields; returns ``metadata`` as a dict."""
    _shape(metadata, provider)
    return metadata  # type: ignore[return-value]  # _shape raised unless it is a dict


def validate_grounding_metadata(
    raw: object, *, provider: str, from_wire: bool = False, source_bytes: int | None = None
) -> dict[str, Any]:
    """Validate one candidate's ``groundingMetadata`` (S5) and return it unchanged.

    Checks the shape of the object and of ``groundingChunks``, ``groundingSupports``,
    ``webSearchQueries`` and ``imageSearchQueries``; unknown fields pass through untouched. The value
    must be JSON data and encode to at most :data:`MAX_METADATA_BYTES` bytes. Anything else raises
    :class:`~modelport.errors.ProviderMetadataError` carrying ``provider``.

    ``from_wire=True`` says the value was just parsed by the adapter's strict wire parser, which
    already guarantees JSON data (valid UTF-8, finite numbers, bounded nesting): the walk that
    proves it is skipped (P6); shape and size are still checked. ``source_bytes`` (with
    ``from_wire``) is the size of the JSON text the value was parsed from
    (:func:`modelport.wire.source_bytes`): when even :data:`~modelport.wire.REENCODED_RATIO` times
    it is within the bound, the size is not measured (P2).
    """
    _shape(raw, provider)
    metadata: dict[str, Any] = raw  # type: ignore[assignment]  # _shape raised unless it is a dict
    if not from_wire:
        ensure_json(metadata, provider=provider)
    elif source_bytes is not None and source_bytes * REENCODED_RATIO <= MAX_METADATA_BYTES:
        return metadata  # parsed from a text too small for its metadata to reach the bound (P2)
    check_size(metadata, provider=provider)
    return metadata
