"""Retry policy (C9): retry retryable errors with capped backoff that honours the server's delay."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from sys import modules as _modules
from typing import Any, TypeVar

from ..deadlines import Deadline
from ..errors import ModelportError, retry_reason

T = TypeVar("T")

_log = logging.getLogger("modelport")

#: Test seams: how retries wait (tests replace these to record delays instead of sleeping).
sleep: Callable[[float], None] = time.sleep


async def _asyncio_sleep(delay: float) -> None:
    import asyncio  # only async users pay for importing asyncio

    await asyncio.sleep(delay)


async_sleep: Callable[[float], Awaitable[None]] = _asyncio_sleep


@dataclass(frozen=True)
class RetryPolicy:
    """``max_retries`` extra attempts; delays from the server when given, else exponential backoff.

    A server delay longer than ``max_delay``, or one that would end past the call's deadline, is not
    waited for: the error is raised at once (with its ``retry_after``) rather than sleeping for as
    long as a hostile or confused server asks, or sleeping into a deadline that would then fail.
    """

    max_retries: int = 2
    base_delay: float = 0.5
    max_delay: float = 60.0
    #: Total seconds for the whole call (attempts, waits, reads); no retry is made that would end past it.
    deadline: float | None = None

    def delay(self, error: BaseException, attempt: int, deadline: Deadline | None = None) -> float | None:
        """Seconds to wait before retry number ``attempt`` (0-based), or ``None`` to give up
        (``deadline``: the call's, when a retry must also leave time before it)."""
        if not isinstance(error, ModelportError) or not type(error).retryable:
            return None
        if attempt >= self.max_retries:
            return None
        wait = self._wait(error, attempt)
        if wait is None:
            why = "the server asked for %.3g s, more than max_retry_delay"
            _log.info("not retried: " + why, getattr(error, "retry_after", None))
            return None
        left = None if deadline is None else deadline.remaining()
        if left is not None and wait >= left:
            _log.info("not retried: a wait of %.3g s would end past the deadline (%.3g s left)", wait, left)
            return None
        return wait

    def _wait(self, error: ModelportError, attempt: int) -> float | None:
        server_delay = getattr(error, "retry_after", None)
        if server_delay is not None:
            if server_delay > self.max_delay:
                return None
            return max(0.0, float(server_delay))
        backoff = self.base_delay * (2**attempt)
        return float(min(self.max_delay, backoff * (0.5 + random.random() / 2)))


def retrying(error: BaseException, delay: float, retry: int, traced: Any = None) -> None:
    """Report retry number ``retry`` (1-based) of ``error`` after ``delay`` seconds: an INFO line on the
    ``modelport`` logger and, when the call is traced, an event on its span (``traced``: a stream's
    call in :mod:`modelport.telemetry`; else the current span)."""
    why = retry_reason(error)
    _log.info(
        "retry %d in %.3g s after %s: %s",
        retry,
        delay,
        why,
        error,
        extra={"modelport_retry": retry, "modelport_delay": delay, "modelport_reason": why},
    )
    if "opentelemetry" in _modules:
        from . import otel as _otel

        if traced is not None or _otel.enabled():
            _otel.retried(error, delay, retry, traced)


def call(policy: RetryPolicy, attempt_once: Callable[[], T]) -> T:
    """Run ``attempt_once`` until it succeeds or :meth:`RetryPolicy.delay` says to give up, all of it
    within the call's deadline (the current one while the attempts run)."""
    deadline = Deadline.for_call(policy.deadline)
    attempt = 0
    with deadline.applied():
        while True:
            try:
                return attempt_once()
            except ModelportError as error:
                delay = policy.delay(error, attempt, deadline)
                if delay is None:
                    raise
                attempt += 1
                retrying(error, delay, attempt)
                sleep(delay)


async def acall(policy: RetryPolicy, attempt_once: Callable[[], Awaitable[T]]) -> T:
    """Async twin of :func:`call`."""
    deadline = Deadline.for_call(policy.deadline)
    with deadline.applied():
        try:
            return await attempt_once()
        except ModelportError as error:
            return await aretry(policy, attempt_once, error, deadline)


async def aretry(
    policy: RetryPolicy, attempt_once: Callable[[], Awaitable[T]], error: ModelportError, deadline: Deadline
) -> T:
    """:func:`acall` after its first attempt, made within ``deadline`` (current), failed with ``error``.

    A caller on the hot path makes the first attempt itself (no closure and no extra coroutine per
    call, P4) and hands a failure here.
    """
    attempt = 0
    while True:
        delay = policy.delay(error, attempt, deadline)
        if delay is None:
            raise error
        attempt += 1
        retrying(error, delay, attempt)
        await async_sleep(delay)
        try:
            return await attempt_once()
        except ModelportError as again:
            error = again
