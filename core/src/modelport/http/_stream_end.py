"""How a stream ends: the rule each plugin declares as data (:class:`StreamEnd`, on
:attr:`HttpProvider.stream_end <modelport.http.HttpProvider.stream_end>`) and the kit's watch over it
(:class:`EndWatch`), so that no provider can report a cut stream as complete.

A stream is complete only once its terminal frame has arrived (after the frames it requires), and,
for a protocol that ends its body with ``data: [DONE]``, that marker too. Until then the kit accepts
no ``finish`` event from the plugin's decoder: a body that ends early is a
:class:`~modelport.errors.StreamInterruptedError`, whose ``partial`` holds what arrived.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigurationError, StreamInterruptedError

__all__ = ["EndWatch", "StreamEnd"]

#: A step of a status path that stands for every item of a list.
ANY_ITEM = "*"


@dataclass(frozen=True)
class StreamEnd:
    """When a provider's stream is complete, as data the kit checks on every stream.

    - ``kind``: the frame key naming a frame's kind (``"type"``); ``None`` if frames carry none.
    - ``terminal``: the kinds that mark a complete stream (``{"message_stop"}``).
    - ``required``: kinds that must have arrived before the terminal one (``{"message_delta"}``).
    - ``status``: dotted paths into a frame (``"*"`` steps into every item of a list) to the value
      that says how it ended. A terminal frame must carry a non-empty string at one of them; for
      frames without a kind, a frame that carries one is the terminal frame (Gemini:
      ``"candidates.*.finishReason"`` or ``"promptFeedback.blockReason"``).
    - ``complete``: the ``status`` values of a complete stream; empty means any value
      (Responses: ``response.completed`` must carry ``response.status`` ``"completed"``).
    - ``done``: the body must also end with the ``data: [DONE]`` marker (Chat Completions).

    The three sets may be given as any set of strings (``terminal={"stop"}``); each is kept as a
    ``frozenset``.
    """

    kind: str | None
    terminal: AbstractSet[str] = frozenset()
    required: AbstractSet[str] = frozenset()
    status: tuple[str, ...] = ()
    complete: AbstractSet[str] = frozenset()
    done: bool = False
    _paths: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind is not None and (not isinstance(self.kind, str) or not self.kind):
            raise ConfigurationError(f"StreamEnd.kind must be a frame key or None, got {self.kind!r}")
        for name in ("terminal", "required", "complete"):
            value = getattr(self, name)
            words = frozenset(_words(value, f"StreamEnd.{name}"))
            object.__setattr__(self, name, words)
        status = self.status
        status = (status,) if isinstance(status, str) else tuple(_words(status, "StreamEnd.status"))
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "_paths", tuple(tuple(path.split(".")) for path in status))
        if not isinstance(self.done, bool):
            raise ConfigurationError(f"StreamEnd.done must be a bool, got {self.done!r}")
        if self.kind is None:
            if self.terminal or self.required:
                raise ConfigurationError("StreamEnd without a kind has no terminal or required kinds")
            if not (self.status or self.done):
                raise ConfigurationError("StreamEnd without a kind needs a status path or done=True")
        elif not self.terminal:
            raise ConfigurationError("StreamEnd.terminal must name at least one frame kind")
        if self.complete and not self.status:
            raise ConfigurationError("StreamEnd.complete needs the status path its values are read at")

    def ends(self, frame: Any) -> bool:
        """Whether ``frame`` carries a status that ends the stream (any status: ``True``)."""
        if not self._paths:
            return True
        complete = self.complete
        for path in self._paths:
            for value in _values(frame, path):
                if value.__class__ is str and value and (not complete or value in complete):
                    return True
        return False

    def describe(self) -> str:
        """The rule in words (for the error of a stream that broke it)."""
        if self.kind is not None:
            what = "a " + " or ".join(sorted(self.terminal)) + " frame"
            if self.required:
                what += " after " + " and ".join(sorted(self.required))
        else:
            what = "a frame with " + " or ".join(self.status) if self.status else ""
        if self.complete:
            what += " whose status is " + " or ".join(sorted(self.complete))
        if self.done:
            what = f"{what} and data: [DONE]" if what else "data: [DONE]"
        return what


def _words(value: object, name: str) -> Iterable[str]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ConfigurationError(f"{name} must be a set of strings, got {value!r}")
    words = list(value)
    if not all(isinstance(word, str) and word for word in words):
        raise ConfigurationError(f"{name} must hold non-empty strings, got {value!r}")
    return words


def _values(value: Any, path: tuple[str, ...]) -> Iterable[Any]:
    """The values at ``path`` inside ``value`` (several where a step is ``*``)."""
    found = [value]
    for step in path:
        if step == ANY_ITEM:
            found = [item for node in found if node.__class__ is list for item in node]
        else:
            found = [node[step] for node in found if node.__class__ is dict and step in node]
        if not found:
            return ()
    return found


class EndWatch:
    """One stream's watch over its :class:`StreamEnd`: fed every frame (and the ``[DONE]`` marker),
    it says whether the stream is complete."""

    __slots__ = ("_done", "_ended", "_seen", "rule")

    def __init__(self, rule: StreamEnd) -> None:
        self.rule = rule
        self._seen: set[str] = set()
        self._ended = False
        self._done = False

    def frame(self, frame: Any) -> None:
        """Note one parsed frame."""
        rule = self.rule
        if frame.__class__ is not dict:
            return
        if rule.kind is None:
            if not self._ended and rule.ends(frame):
                self._ended = True
            return
        kind = frame.get(rule.kind)
        if kind.__class__ is not str:
            return
        if kind in rule.terminal:
            if rule.required <= self._seen and rule.ends(frame):
                self._ended = True
        elif kind in rule.required:
            self._seen.add(kind)

    def marker(self) -> None:
        """The body ended with ``data: [DONE]``."""
        self._done = True

    @property
    def complete(self) -> bool:
        """Whether the stream has ended as its rule says a complete stream ends."""
        rule = self.rule
        ended = self._ended or (rule.kind is None and not rule.status)
        return ended and (self._done or not rule.done)

    def error(self, provider: str) -> StreamInterruptedError:
        """The error of a stream that ended before it was complete."""
        return StreamInterruptedError(
            f"the stream ended before it was complete (a complete stream ends with {self.rule.describe()})",
            provider=provider,
        )
