"""Where a provider's wire protocol carries what modelport decodes, declared as plain data.

A plugin declares a :class:`WireMap` on its provider class (``wire_map``, see
:class:`modelport.Provider`): where in a whole answer (:attr:`WireMap.response`) and in each
stream frame (:attr:`WireMap.stream`) the usage counts, the finish reason, text fragments, tool-call
names and arguments and citation offsets live, which raw finish value means which finish reason,
and where a request's system instruction and prompt text go in the body it sends
(:attr:`WireMap.request`). Nothing in the core reads it: the conformance suite edits a recording at
each mapped place and checks that the decoded result moves exactly there (its ``metamorphic`` and
``request-edits`` checks, docs/conformance.md), so a plugin that swaps, drops or shifts a field fails
without any golden, and a map that says something the plugin does not do fails too.

A path is JSON-pointer-like: ``/usage/input_tokens``, ``/choices/*/delta/content``. A segment is an
object key, a list index (``0``; ``-1`` is the last item) or ``*`` (every item of a list, every
value of an object). ``~1`` and ``~0`` stand for ``/`` and ``~`` in a key, as in JSON Pointer. A
path may start with conditions on the document it is applied to (a frame, a body), each
``[/pointer=value]``: ``[/type=content_block_delta]/delta/text`` reads ``/delta/text`` only of frames
whose ``type`` is ``content_block_delta``. A condition's value is compared as text with the value
there (a string as it is, anything else as JSON).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

__all__ = [
    "BodyMap",
    "Count",
    "Paths",
    "Pointer",
    "RequestMap",
    "Span",
    "WireMap",
    "WirePath",
    "as_paths",
    "get",
    "locate",
    "replaced",
]

#: A concrete place in a document: the keys and indices from its root.
Pointer = tuple[str | int, ...]
#: One path, or several (the value is wherever any of them reaches).
Paths = str | tuple[str, ...]

_USAGE_FIELDS = frozenset(
    {
        "input_tokens",
        "output_tokens",
        "total_tokens",
        "cache_read_input_tokens",
        "cache_write_input_tokens",
        "reasoning_tokens",
        "tool_use_prompt_tokens",
        "server_tool_calls",
    }
)


def _unescape(segment: str) -> str:
    return segment.replace("~1", "/").replace("~0", "~")


@dataclass(frozen=True)
class WirePath:
    """A parsed path: its conditions (pointer, value) and its segments (see the module)."""

    text: str
    conditions: tuple[tuple[tuple[str, ...], str], ...]
    segments: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> WirePath:
        """Parse ``text``; a path that is not one is a ``ValueError`` naming it (parsed once)."""
        return _parse(text)

    @classmethod
    def _parse(cls, text: str) -> WirePath:
        rest, conditions = text, []
        while rest.startswith("["):
            end = rest.find("]")
            pointer, sep, value = rest[1:end].partition("=") if end > 0 else ("", "", "")
            if not sep or not pointer.startswith("/"):
                raise ValueError(f"wire path {text!r}: a condition is [/pointer=value]")
            conditions.append((tuple(_unescape(s) for s in pointer[1:].split("/")), value))
            rest = rest[end + 1 :]
        if not rest.startswith("/"):
            raise ValueError(f"wire path {text!r} does not start with '/' (after its conditions)")
        segments = tuple(_unescape(s) for s in rest[1:].split("/")) if rest != "/" else ()
        if any(s == "" for s in segments):
            raise ValueError(f"wire path {text!r} has an empty segment")
        return cls(text, tuple(conditions), segments)

    def holds(self, document: Any) -> bool:
        """Whether every condition of the path holds on ``document``."""
        for pointer, wanted in self.conditions:
            found = list(_walk(document, pointer, ()))
            if not found:
                return False
            value = get(document, found[0][0])
            if (value if isinstance(value, str) else json.dumps(value)) != wanted:
                return False
        return True

    def locate(self, document: Any) -> list[tuple[Pointer, Pointer]]:
        """Every place the path reaches in ``document``: ``(pointer, wildcards)`` pairs, ``wildcards``
        being the keys or indices each ``*`` took (how two paths' places are paired: :class:`Span`)."""
        if not self.holds(document):
            return []
        return list(_walk(document, self.segments, ()))


@lru_cache(maxsize=4096)
def _parse(text: str) -> WirePath:
    return WirePath._parse(text)


def _walk(node: Any, segments: tuple[str, ...], bound: Pointer) -> Iterator[tuple[Pointer, Pointer]]:
    if not segments:
        yield (), bound
        return
    head, rest = segments[0], segments[1:]
    if head == "*":
        items: list[tuple[str | int, Any]] = (
            list(enumerate(node))
            if isinstance(node, list)
            else list(node.items())
            if isinstance(node, dict)
            else []
        )
        for key, child in items:
            for pointer, wild in _walk(child, rest, (*bound, key)):
                yield (key, *pointer), wild
        return
    if isinstance(node, dict):
        if head in node:
            for pointer, wild in _walk(node[head], rest, bound):
                yield (head, *pointer), wild
        return
    if isinstance(node, list):
        try:
            index = int(head)
        except ValueError:
            return
        if -len(node) <= index < len(node):
            index %= len(node)
            for pointer, wild in _walk(node[index], rest, bound):
                yield (index, *pointer), wild


def as_paths(value: Paths) -> tuple[str, ...]:
    """``value`` as a tuple of paths, each checked (a ``ValueError`` names one that is no path)."""
    paths = (value,) if isinstance(value, str) else tuple(value)
    for path in paths:
        WirePath.parse(path)
    return paths


def locate(paths: Paths, document: Any) -> list[tuple[Pointer, Pointer]]:
    """Every place any of ``paths`` reaches in ``document``, in the order of the paths, once each."""
    seen: dict[Pointer, Pointer] = {}
    for path in as_paths(paths):
        for pointer, wild in WirePath.parse(path).locate(document):
            seen.setdefault(pointer, wild)
    return list(seen.items())


def get(document: Any, pointer: Pointer) -> Any:
    """The value at ``pointer`` in ``document`` (a ``KeyError``/``IndexError`` if there is none)."""
    for key in pointer:
        document = document[key]
    return document


def replaced(document: Any, pointer: Pointer, value: Any) -> Any:
    """A copy of ``document`` with ``value`` at ``pointer`` (the parts on the way copied, the rest
    shared)."""
    if not pointer:
        return value
    head, rest = pointer[0], pointer[1:]
    copy: Any = dict(document) if isinstance(document, dict) else list(document)
    copy[head] = replaced(document[head], rest, value)
    return copy


@dataclass(frozen=True)
class Count:
    """A token count of the wire: the :class:`~modelport.types.Usage` field it is, where it lives,
    and the other fields that include it (``also``: Anthropic's cache reads are in ``input_tokens``
    too; a ``total_tokens`` the plugin computes moves with each count it adds)."""

    field: str
    paths: Paths
    also: str | tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "paths", as_paths(self.paths))
        object.__setattr__(self, "also", (self.also,) if isinstance(self.also, str) else tuple(self.also))
        for name in (self.field, *self.also):
            if name not in _USAGE_FIELDS:
                raise ValueError(f"wire map: {name!r} is not a Usage count")


@dataclass(frozen=True)
class Span:
    """Where a citation's start and end offsets live: two paths with the same wildcards (each start
    is paired with the end its ``*`` segments reach too)."""

    start: str
    end: str

    def __post_init__(self) -> None:
        starts, ends = (WirePath.parse(p) for p in (self.start, self.end))
        if starts.segments.count("*") != ends.segments.count("*"):
            raise ValueError(f"wire map: span {self.start!r}, {self.end!r} has different wildcards")


def _span_tuple(value: Any) -> tuple[Span, ...]:
    return (value,) if isinstance(value, Span) else tuple(value)


@dataclass(frozen=True)
class BodyMap:
    """Where one kind of document (a whole answer, or one stream frame) carries each decoded value.

    Every field holds paths (a string is one path): ``text`` the text fragments, ``tool_name`` and
    ``tool_arguments`` a tool call's name and its arguments (an object, or JSON text, whole or a
    fragment), ``finish_reason`` the raw finish value, ``citations`` the :class:`Span` of each
    citation, ``usage`` the :class:`Count` of each token count.
    """

    usage: Count | tuple[Count, ...] = ()
    finish_reason: Paths = ()
    text: Paths = ()
    tool_name: Paths = ()
    tool_arguments: Paths = ()
    citations: Span | tuple[Span, ...] = ()

    def __post_init__(self) -> None:
        for name in ("finish_reason", "text", "tool_name", "tool_arguments"):
            object.__setattr__(self, name, as_paths(getattr(self, name)))
        object.__setattr__(
            self, "usage", (self.usage,) if isinstance(self.usage, Count) else tuple(self.usage)
        )
        object.__setattr__(self, "citations", _span_tuple(self.citations))

    @property
    def counts(self) -> tuple[Count, ...]:
        """:attr:`usage` as a tuple."""
        return (self.usage,) if isinstance(self.usage, Count) else tuple(self.usage)

    @property
    def spans(self) -> tuple[Span, ...]:
        """:attr:`citations` as a tuple."""
        return _span_tuple(self.citations)


@dataclass(frozen=True)
class RequestMap:
    """Where the body a request sends carries the system instruction (``system``) and the text of
    the prompt, the last user message (``prompt``)."""

    system: Paths = ()
    prompt: Paths = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "system", as_paths(self.system))
        object.__setattr__(self, "prompt", as_paths(self.prompt))


@dataclass(frozen=True)
class WireMap:
    """A provider's wire map (see the module).

    ``finish_reasons`` maps raw finish values to the finish reasons they decode to (only the
    values whose meaning does not depend on anything else in the answer); ``citation_units`` says
    what the wire's citation offsets count: ``"characters"`` (code points of the answer's text) or
    ``"utf8-bytes"``.
    """

    response: BodyMap = field(default_factory=BodyMap)
    stream: BodyMap = field(default_factory=BodyMap)
    request: RequestMap = field(default_factory=RequestMap)
    finish_reasons: Mapping[str, str] = field(default_factory=dict)
    citation_units: Literal["characters", "utf8-bytes"] = "characters"

    def __post_init__(self) -> None:
        if self.citation_units not in ("characters", "utf8-bytes"):
            raise ValueError(
                f"wire map: citation_units must be 'characters' or 'utf8-bytes', not {self.citation_units!r}"
            )
        object.__setattr__(self, "finish_reasons", dict(self.finish_reasons))
