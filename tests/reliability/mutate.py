"""Hypothesis strategies that mutate real JSON documents and their bytes (Q1).

Structural mutations pick any node of a document (an object member or a list item) and drop it,
retype it, duplicate it, truncate it, empty it, replace it with hostile text, or blow a list up;
the ``PLAUSIBLE`` subset only leaves fields out, repeats list items and cuts lists and objects short.
Byte mutations truncate, splice random or invalid UTF-8 bytes in, delete or flip bytes, and put deep
nesting or ``NaN``/``Infinity`` where a value starts. Everything is drawn from hypothesis, so
failures shrink and replay.
"""

from __future__ import annotations

import json
import re
from itertools import compress, repeat
from typing import Any

from hypothesis import strategies as st

#: Replacement values of every JSON type (and some shapes Google never sends).
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, -1, 1, 2**53, 2**64, 1e308, -0.0, 0.5]),
    st.text(max_size=20),
    st.sampled_from(
        ["", "STOP", "MAX_TOKENS", "SAFETY", "OUTCOME_FAILED", "model", "user", "𝄞", "\u202e", "\x00"]
    ),
)
#: Lone surrogates: a valid JSON escape (``"\\ud800"``) that is not Unicode text.
LONE_SURROGATES = ["\ud800", "a\udfffb"]
HOSTILE_TEXT = st.sampled_from(
    [
        *LONE_SURROGATES,
        "",
        "é" * 50,
        "字" * 50,
        "👩‍👩‍👧" * 20,
        "\x00\x01\x1f",
        "\u202eevil",
        "x" * 10_000,
    ]
)
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=6,
)
OPERATIONS = ("drop", "retype", "duplicate", "truncate", "hostile", "huge", "empty")
#: Mutations a real server or proxy plausibly produces: fields left out, list items repeated, lists
#: and objects cut short. Nothing is retyped or emptied, so every value keeps the type Google gives it.
PLAUSIBLE = ("drop", "repeat", "cut")


def _slots(node: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every ``(container, key)`` in ``node`` (the root is not a slot), each container's slots
    listed and its child containers found by C iterators: after a 5,000-item blow-up a document has
    some 10^5 slots, and this walk runs once per mutation."""
    stack = [node] if type(node) is dict or type(node) is list else []
    pop, extend, push_all = stack.pop, out.extend, stack.extend
    while stack:
        container = pop()
        if type(container) is dict:
            extend(zip(repeat(container), container))
            children: Any = container.values()
        else:
            extend(zip(repeat(container), range(len(container))))
            children = container
        push_all(compress(children, map(_IS_CONTAINER, map(type, children))))
    return out


_IS_CONTAINER = frozenset({dict, list}).__contains__


def _copy(document: Any) -> Any:
    """A deep copy of a JSON document, through the C encoder and decoder (several times faster than
    ``copy.deepcopy``; exact for every value the mutations hold: big integers, ``-0.0``, lone
    surrogates, which ``json`` escapes and restores)."""
    return json.loads(json.dumps(document))


def _copies(value: Any, count: int) -> list[Any]:
    """``count`` independent deep copies of ``value``, decoded in one call."""
    text = json.dumps(value)
    return json.loads("[" + ",".join([text] * count) + "]")  # type: ignore[no-any-return]


@st.composite
def mutated_json(
    draw: st.DrawFn, document: Any, max_mutations: int = 4, operations: tuple[str, ...] = OPERATIONS
) -> Any:
    """``document`` (deep-copied) with 1..max_mutations structural mutations applied."""
    doc = _copy(document)
    huge_done = False
    for _ in range(draw(st.integers(1, max_mutations))):
        slots = _slots(doc, [])
        if not slots:
            return draw(VALUES)
        container, key = draw(st.sampled_from(slots))
        value = container[key]
        op = draw(st.sampled_from(operations))
        if op == "drop":
            if isinstance(container, dict):
                del container[key]
            else:
                container.pop(key)
        elif op == "cut":  # a list or an object cut short
            if isinstance(value, list):
                container[key] = value[: draw(st.integers(0, max(0, len(value) - 1)))]
            elif isinstance(value, dict):
                container[key] = dict(list(value.items())[: draw(st.integers(0, max(0, len(value) - 1)))])
        elif op == "repeat":  # a list item sent twice
            if isinstance(container, list):
                container.insert(key, _copy(value))
        elif op == "retype":
            container[key] = draw(VALUES)
        elif op == "duplicate":
            if len(json.dumps(value, default=str)) > 200_000:
                continue
            if isinstance(container, list):
                container.insert(key, _copy(value))
            elif isinstance(value, list):
                container[key] = value + _copy(value)
            else:
                container[key] = [value, _copy(value)]
        elif op == "truncate":
            if isinstance(value, (str, list)):
                container[key] = value[: draw(st.integers(0, max(0, len(value) - 1)))]
            elif isinstance(value, dict):
                keep = draw(st.integers(0, max(0, len(value) - 1)))
                container[key] = dict(list(value.items())[:keep])
            else:
                container[key] = None
        elif op == "hostile":
            if isinstance(value, str) and len(value) * 2 > 20_000:
                continue
            container[key] = draw(HOSTILE_TEXT)
        elif op == "huge":
            # At most one blow-up per document, of a small value, so inputs stay under a few MB.
            if huge_done or len(json.dumps(value)) > 2_000:
                continue
            huge_done = True
            count = draw(st.sampled_from([100, 1_000, 5_000]))
            container[key] = _copies(value, count)
        else:  # empty
            container[key] = {} if isinstance(value, dict) else [] if isinstance(value, list) else ""
    return doc


#: Depths of the "nest" byte mutation: under and over the adapter's 128-level bound, around
#: pydantic's limits (~200 to read, ~255 to write), and past Python's recursion limit.
NESTING_DEPTHS = [50, 120, 150, 300, 500, 1_000, 100_000]

INVALID_UTF8 = st.sampled_from(
    [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xe2\x82", b"\x80"]
)


@st.composite
def mutated_bytes(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with one byte-level mutation: truncation, splice, invalid UTF-8 or a flipped byte."""
    data = bytearray(data)
    op = draw(st.sampled_from(("truncate", "splice", "utf8", "flip", "delete", "nest", "constant")))
    at = draw(st.integers(0, len(data)))
    if op in ("nest", "constant"):
        # Put the payload where a member's value starts, keeping the document valid JSON:
        # ``"key": <payload>, "_fuzz": <old value>``.
        starts = [m.end() for m in re.finditer(rb'":\s*', data)]
        if starts:
            at = draw(st.sampled_from(starts))
        if op == "nest":  # deep nesting: past any recursion limit
            depth = draw(st.sampled_from(NESTING_DEPTHS))
            payload = b"[" * depth + b"1" + b"]" * depth
        else:  # JSON's non-standard constants, which Python's json accepts by default
            payload = draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity"]))
        return bytes(data[:at] + payload + (b', "_fuzz": ' if starts else b"") + data[at:])
    if op == "truncate":
        return bytes(data[:at])
    if op == "splice":
        return bytes(data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at:])
    if op == "utf8":
        return bytes(data[:at] + draw(INVALID_UTF8) + data[at:])
    if op == "delete":
        end = draw(st.integers(at, min(len(data), at + 32)))
        return bytes(data[:at] + data[end:])
    if data:
        index = min(at, len(data) - 1)
        data[index] ^= draw(st.integers(1, 255))
    return bytes(data)


def dumps(value: Any, *, ascii: bool) -> bytes:
    """JSON bytes of ``value``: escaped (lone surrogates as ``\\ud800``) or raw UTF-8 (surrogates
    encoded as invalid UTF-8 bytes, as a broken server would)."""
    return json.dumps(value, ensure_ascii=ascii).encode("utf-8", errors="surrogatepass")


@st.composite
def chunked(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """``data`` split at random points (how a network delivers it)."""
    if not data:
        return []
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(data) - 1)), max_size=6))))
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:]) if b > a]
