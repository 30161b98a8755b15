"""A call's time budget: when it must be over, how much is left, and the error once it is spent.

``deadline=`` (of :func:`modelport.get_model`) bounds a whole call: every attempt, the waits between
them and the reads of the last one. The core starts a :class:`Deadline` when a call begins and makes
it the *current* one while the call's attempts are made; the HTTP I/O clamps each attempt's timeouts
to what is left and raises :class:`~modelport.errors.DeadlineExceededError` once nothing is.

Code that runs several calls as one (a tool loop, an agent step) bounds them all together::

    from modelport.deadlines import Deadline

    with Deadline.for_call(120).applied() as budget:   # every call made inside ends by then
        ...
        budget.remaining()       # seconds left (None: no deadline), e.g. to bound a tool

A call started inside keeps its own ``deadline=`` but never ends after the one it runs inside.
A provider that does its own I/O reads :func:`current` when a call starts (a stream: when it is
created, since the generator runs later).
"""

from __future__ import annotations

import time
from contextvars import ContextVar

from .errors import DeadlineExceededError

__all__ = ["Deadline", "current", "remaining"]

_CURRENT: ContextVar[Deadline | None] = ContextVar("modelport_deadline", default=None)


class Deadline:
    """When a call must be over (``at``, on :func:`time.monotonic`'s clock; ``None``: never), and the
    ``seconds`` it was given (what an error reports)."""

    __slots__ = ("at", "seconds")

    def __init__(self, seconds: float | None, *, now: float | None = None) -> None:
        self.seconds = seconds
        self.at = None if seconds is None else (time.monotonic() if now is None else now) + seconds

    @classmethod
    def for_call(cls, seconds: float | None) -> Deadline:
        """A new call's deadline: ``seconds`` from now, but never past the current one (the deadline
        of a call or a loop this call runs inside)."""
        own = cls(seconds)
        outer = _CURRENT.get()
        if outer is not None and outer.at is not None and (own.at is None or outer.at < own.at):
            return outer
        return own

    def remaining(self) -> float | None:
        """Seconds left (``0.0`` once passed), ``None`` without a deadline."""
        if self.at is None:
            return None
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def clamp(self, seconds: float | None) -> float | None:
        """``seconds`` (a timeout; ``None``: none) shortened to what is left of the deadline."""
        left = self.remaining()
        if left is None:
            return seconds
        return left if seconds is None or seconds > left else seconds

    def exceeded(self, provider: str) -> DeadlineExceededError:
        """The error of a call that ran out of time (the caller attaches any ``partial``)."""
        return DeadlineExceededError(
            f"the call did not complete within its deadline of {self.seconds:g} s", provider=provider
        )

    def applied(self) -> _Applied:
        """Make this the current deadline inside a ``with`` block (calls made there keep to it)."""
        return _Applied(self)

    def __repr__(self) -> str:
        left = self.remaining()
        return "Deadline(none)" if left is None else f"Deadline({left:.3g} s left of {self.seconds:g} s)"


class _Applied:
    """``with deadline.applied():`` (a class, not a generator: it wraps every call)."""

    __slots__ = ("_deadline", "_token")

    def __init__(self, deadline: Deadline) -> None:
        self._deadline = deadline

    def __enter__(self) -> Deadline:
        self._token = _CURRENT.set(self._deadline)
        return self._deadline

    def __exit__(self, *exc_info: object) -> None:
        _CURRENT.reset(self._token)


def current() -> Deadline | None:
    """The deadline of the call (or loop) running now, if any."""
    return _CURRENT.get()


def remaining() -> float | None:
    """Seconds left of the current deadline; ``None`` when none is running or it has no limit."""
    deadline = _CURRENT.get()
    return None if deadline is None else deadline.remaining()
