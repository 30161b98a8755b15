"""Gemini 3 function calls whose arguments stream in pieces (``partialArgs``) → one call.

With ``streamFunctionCallArguments`` (Vertex AI), a call arrives as several ``functionCall`` parts:
the first has the ``name`` (and ``id``), each carries ``partialArgs`` entries, and every part but the
last has ``willContinue: true``. An entry sets the value at its ``jsonPath`` (RFC 9535: ``$``, names
after ``.`` or in brackets, array indexes) from ``stringValue``, ``numberValue``, ``boolValue`` or
``nullValue``; an entry with ``willContinue: true`` is continued by the next entry for the same path
(string pieces append). The API ends each call with an empty ``{"functionCall": {}}`` part: a piece
that closes the open call (a call needs a name), never a call of its own. :class:`StreamedCall`
folds the parts into the arguments object and into JSON text fragments that concatenate to that
object, so the stream sends them as tool-call deltas; :meth:`StreamedCall.raw_part` is the whole
``functionCall`` part a later turn replays (the shape a non-streamed answer has).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from modelport.errors import ProviderResponseError

__all__ = ["StreamedCall", "is_closer", "is_fragment"]

Segment = str | int

_SEGMENT = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\[\"((?:[^\"\\]|\\.)*)\"\]")


def is_fragment(raw: Mapping[str, Any]) -> bool:
    """Whether a raw part is a piece of a function call whose arguments stream (a call with neither
    a name nor arguments, such as the empty part that ends each streamed call, is one too)."""
    call = raw.get("functionCall")
    if not isinstance(call, dict):
        return False
    return "partialArgs" in call or "willContinue" in call or not (call.get("name") or call.get("args"))


def is_closer(raw: Mapping[str, Any]) -> bool:
    """Whether a piece carries nothing but the end of a call (``{"functionCall": {}}``): with no call
    open, there is nothing to close and it is skipped."""
    call = raw["functionCall"]
    return not (call.get("name") or call.get("args") or call.get("partialArgs") or call.get("willContinue"))


def parse_path(path: object) -> list[Segment]:
    """``"$.a['b'][0]"`` → ``["a", "b", 0]``; anything else is malformed."""
    if not isinstance(path, str) or not path.startswith("$"):
        raise ProviderResponseError(  # typed here: merge_frames runs outside the kit's decoder guard
            f"partialArgs.jsonPath must be a JSON path starting with $, got {path!r}", provider="google"
        )
    segments: list[Segment] = []
    position = 1
    while position < len(path):
        match = _SEGMENT.match(path, position)
        if match is None:
            raise ProviderResponseError(
                f"partialArgs.jsonPath {path!r} is not a JSON path this SDK reads", provider="google"
            )
        name, index, single, double = match.groups()
        if index is not None:
            segments.append(int(index))
        else:
            quoted = single if single is not None else double
            segments.append(name if quoted is None else json.loads(f'"{quoted}"'))
        position = match.end()
    return segments


def _value(entry: dict[str, Any]) -> tuple[Any, bool]:
    """The entry's value, and whether it is a string (which may continue)."""
    if "stringValue" in entry:
        value = entry["stringValue"]
        if not isinstance(value, str):
            raise ProviderResponseError("partialArgs.stringValue must be a string", provider="google")
        return value, True
    if "numberValue" in entry:
        number = entry["numberValue"]
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise ProviderResponseError("partialArgs.numberValue must be a number", provider="google")
        return number, False
    if "boolValue" in entry:
        if not isinstance(entry["boolValue"], bool):
            raise ProviderResponseError("partialArgs.boolValue must be a boolean", provider="google")
        return entry["boolValue"], False
    if "nullValue" in entry:
        return None, False
    raise ProviderResponseError("a partialArgs entry has no value", provider="google")


class _Text:
    """JSON text of the arguments written as entries arrive (in document order, as sent)."""

    def __init__(self) -> None:
        self.containers: list[tuple[Segment | None, str, int]] = [(None, "}", 0)]  # key, closer, members
        self.open_string: list[Segment] | None = None
        self.started = False

    def _member(self, out: list[str], key: Segment) -> None:
        parent_key, closer, members = self.containers[-1]
        out.append("," if members else "")
        if closer == "}":
            out.append(json.dumps(str(key), ensure_ascii=False) + ":")
        self.containers[-1] = (parent_key, closer, members + 1)

    def write(self, path: list[Segment], value: Any, string: bool, continues: bool) -> str:
        out: list[str] = [] if self.started else ["{"]
        self.started = True
        if self.open_string is not None:
            if string and path == self.open_string:
                out.append(json.dumps(value, ensure_ascii=False)[1:-1])
                if not continues:
                    out.append('"')
                    self.open_string = None
                return "".join(out)
            out.append('"')
            self.open_string = None
        parent = path[:-1]
        current = [key for key, _, _ in self.containers[1:]]
        common = 0
        while common < min(len(current), len(parent)) and current[common] == parent[common]:
            common += 1
        while len(self.containers) > common + 1:
            out.append(self.containers.pop()[1])
        for depth in range(common, len(parent)):
            self._member(out, parent[depth])
            opener = "[" if isinstance(path[depth + 1], int) else "{"
            out.append(opener)
            self.containers.append((parent[depth], "]" if opener == "[" else "}", 0))
        self._member(out, path[-1])
        if string:
            out.append('"' + json.dumps(value, ensure_ascii=False)[1:-1] + ("" if continues else '"'))
            self.open_string = path if continues else None
        else:
            out.append(json.dumps(value, ensure_ascii=False))
        return "".join(out)

    def close(self) -> str:
        out = ['"'] if self.open_string is not None else [] if self.started else ["{"]
        self.started = True
        self.open_string = None
        while self.containers:
            out.append(self.containers.pop()[1])
        return "".join(out)


def _set(args: dict[str, Any], path: list[Segment], value: Any, append: bool) -> None:
    into: Any = args
    for depth, key in enumerate(path[:-1]):
        empty: Any = [] if isinstance(path[depth + 1], int) else {}
        if isinstance(into, list):
            assert isinstance(key, int)
            while len(into) <= key:
                into.append(None)
            if not isinstance(into[key], type(empty)):
                into[key] = empty
            into = into[key]
        else:
            if not isinstance(into.get(key), type(empty)):
                into[key] = empty
            into = into[key]
    leaf = path[-1]
    if isinstance(into, list):
        if not isinstance(leaf, int):
            raise ProviderResponseError("partialArgs.jsonPath names a field of an array", provider="google")
        while len(into) <= leaf:
            into.append(None)
        into[leaf] = into[leaf] + value if append and isinstance(into[leaf], str) else value
    else:
        if isinstance(leaf, int):
            raise ProviderResponseError("partialArgs.jsonPath indexes an object", provider="google")
        into[leaf] = into[leaf] + value if append and isinstance(into.get(leaf), str) else value


class StreamedCall:
    """One function call assembled from its ``functionCall`` pieces."""

    def __init__(self, first: Mapping[str, Any]) -> None:
        call = first["functionCall"]
        self.name = call.get("name") if isinstance(call.get("name"), str) else ""
        self.id = call.get("id") if isinstance(call.get("id"), str) else None
        self.extra = {k: v for k, v in first.items() if k != "functionCall"}  # e.g. thoughtSignature
        self.args: dict[str, Any] = {}
        self.done = False
        self._text = _Text()
        self._continuing: list[Segment] | None = None  # the path a string entry left open

    def add(self, raw: Mapping[str, Any]) -> str:
        """Fold one piece in; returns the JSON text it adds."""
        call = raw["functionCall"]
        for key, value in raw.items():
            if key != "functionCall":
                self.extra.setdefault(key, value)
        out: list[str] = []
        whole = call.get("args")
        if isinstance(whole, dict):
            for key, value in whole.items():
                out.append(self._entry([key], value, string=False, continues=False))
        entries = call.get("partialArgs") or []
        if not isinstance(entries, list):
            raise ProviderResponseError("functionCall.partialArgs must be a list", provider="google")
        for entry in entries:
            if not isinstance(entry, dict):
                raise ProviderResponseError("a partialArgs entry must be an object", provider="google")
            value, string = _value(entry)
            continues = string and entry.get("willContinue") is True
            out.append(self._entry(parse_path(entry.get("jsonPath")), value, string, continues))
        self.done = call.get("willContinue") is not True
        return "".join(out)

    def _entry(self, path: list[Segment], value: Any, string: bool, continues: bool) -> str:
        if not path:
            raise ProviderResponseError(
                "partialArgs.jsonPath must name a field of the arguments", provider="google"
            )
        append = string and self._continuing == path
        _set(self.args, path, value, append)
        self._continuing = path if continues else None
        return self._text.write(path, value, string, continues)

    def close(self) -> str:
        """The JSON text that closes the arguments."""
        self.done = True
        return self._text.close()

    def raw_part(self) -> dict[str, Any]:
        """The whole ``functionCall`` part, as a non-streamed answer carries it."""
        call: dict[str, Any] = {"name": self.name, "args": self.args}
        if self.id is not None:
            call = {"id": self.id, **call}
        return {"functionCall": call, **self.extra}
