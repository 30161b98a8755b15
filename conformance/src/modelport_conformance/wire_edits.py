"""The edits the metamorphic checks make at the places a plugin's wire map names, and what each
must move in the decoded result (see :mod:`modelport_conformance.metamorphic`).

Every edit keeps the recording valid and its lengths unchanged: a count grows by ``k`` (a
different power of two times 100 for each count, so two counts swapped or added together show), one
letter of a text fragment, a tool call's name or its arguments becomes :data:`MARK` (a letter
inside a JSON string of the arguments: never a key's quote, an escape or a ``true``), a raw finish
value becomes another one of the map's, a citation offset moves by one within its span.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from modelport.citations import cited_spans
from modelport.types import Result

__all__ = ["MARK", "View", "edit_letter", "one_letter_apart", "usage_step", "view"]

#: The letter an edit writes (``Z`` where the letter was already ``Q``).
MARK = "Q"
_LITERALS = ("true", "false", "null")


def usage_step(index: int) -> int:
    """How much the ``index``-th count of an edit grows: 100, 200, 400, … (sums stay distinct)."""
    return 100 * (1 << index)


def _mark_for(letter: str) -> str:
    return "Z" if letter == MARK else MARK


def edit_letter(text: str, *, json_text: bool = False) -> str | None:
    """``text`` with one ASCII letter replaced by :data:`MARK` (``None`` when it has none to edit).

    ``json_text``: ``text`` is JSON or a fragment of it (streamed arguments): only a letter of a
    run that cannot be part of ``true``/``false``/``null`` or of an escape is edited, so the edit
    lands inside a string and the JSON stays valid.
    """
    index = 0
    while index < len(text):
        if not (text[index].isascii() and text[index].isalpha()):
            index += 1
            continue
        end = index
        while end < len(text) and text[end].isascii() and text[end].isalpha():
            end += 1
        run = text[index:end]
        escaped = index > 0 and text[index - 1] == "\\"
        if escaped and json_text:
            # ``\n`` and the like take one letter: the rest of the run is the string's; ``\u`` four.
            run = run[1:] if run[0] in "bfnrt" else ""
        # An escape is inside a string; elsewhere a run no literal contains is (a key, a value).
        if not json_text or (run and (escaped or not any(run in word for word in _LITERALS))):
            at = end - 1 if json_text else index
            return text[:at] + _mark_for(text[at]) + text[at + 1 :]
        index = end
    return None


def one_letter_apart(before: str, after: str) -> bool:
    """Whether ``after`` is ``before`` with exactly one letter replaced by the edit's mark."""
    if len(before) != len(after):
        return False
    differing = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    return len(differing) == 1 and after[differing[0]] == _mark_for(before[differing[0]])


@dataclass(frozen=True)
class View:
    """What the wire map covers of a decoded answer: usage counts, finish reason, the content's
    text, tool-call names and arguments, citation spans (also in UTF-8 bytes of the text)."""

    usage: Mapping[str, Any]
    finish_reason: str | None
    raw_finish_reason: str | None
    content: tuple[tuple[str, str | None, str | None, str | None], ...]
    citations: tuple[tuple[int, int, tuple[int, ...]], ...]
    byte_starts: Mapping[tuple[int, int], tuple[int, int]]
    text: str
    #: How many tool calls the application runs (not provider-executed) the content has.
    function_calls: int = 0

    def tool_calls(self) -> list[int]:
        """Indices of the content's tool calls."""
        return [i for i, part in enumerate(self.content) if part[0] == "tool-call"]

    def others(self, covered: tuple[str, ...], *names: str) -> list[str]:
        """The values of ``covered`` (what the map covers of ``content``, ``usage``, ``finish``,
        ``citations``) other than ``names``, for "nothing else changed"."""
        return [n for n in covered if n not in names]

    def part(self, name: str) -> Any:
        """One covered value by name."""
        if name == "finish":
            return (self.finish_reason, self.raw_finish_reason)
        return dict(self.usage) if name == "usage" else getattr(self, name)


def _args_text(args: Any) -> str:
    return json.dumps(args, ensure_ascii=False)


def view(result: Result) -> View:
    """The :class:`View` of ``result``."""
    content: list[tuple[str, str | None, str | None, str | None]] = []
    for part in result.content:
        kind = part.type
        if kind in ("text", "reasoning"):
            content.append((kind, getattr(part, "text", None), None, None))
        elif kind == "tool-call":
            content.append((kind, None, getattr(part, "name", None), _args_text(getattr(part, "args", None))))
        else:
            content.append((kind, None, None, None))
    spans = {(s.start, s.end): (s.byte_start, s.byte_end) for s in cited_spans(result)}
    return View(
        usage=result.usage.model_dump(exclude={"cached_input_tokens"}),
        finish_reason=result.finish_reason,
        raw_finish_reason=result.raw_finish_reason,
        content=tuple(content),
        citations=tuple((c.start, c.end, tuple(c.sources)) for c in result.citations),
        byte_starts=spans,
        text=result.text,
        function_calls=sum(1 for p in result.content if p.type == "tool-call" and not p.provider_executed),
    )
