"""Per-case bounds: a plugin under test cannot stop the run.

A hostile or broken plugin can hang (a decoder that never returns) or allocate without end. Each
case runs in a worker thread watched by the caller: past :data:`DEFAULT_CASE_TIMEOUT` seconds, or when
the process has grown by more than :data:`DEFAULT_CASE_MEMORY` bytes since the case started (read
from ``/proc/self/statm``, so on Linux only), the worker is interrupted: :class:`CaseInterrupted` is
raised inside it at its next Python instruction (CPython's ``PyThreadState_SetAsyncExc``). The case
becomes a failing row with a ``time-out`` (or ``memory``) check, and the run goes on with the next
case.

Limits of the mechanism: a worker stuck inside one C call (a single huge allocation, a blocking
system call) is interrupted only when that call returns; if it does not stop within
:data:`GRACE` seconds it is left behind as a daemon thread and the run goes on without it. Memory is
sampled every :data:`SAMPLE_INTERVAL` seconds, so a case can overshoot its bound by what it allocates
in one interval.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, TypeVar

from .outcomes import BOUND_CHECKS

if TYPE_CHECKING:
    from .cases import Case, Suite
    from .outcomes import CaseOutcome

__all__ = [
    "BOUND_CHECKS",
    "DEFAULT_CASE_MEMORY",
    "DEFAULT_CASE_TIMEOUT",
    "GRACE",
    "SAMPLE_INTERVAL",
    "CaseInterrupted",
    "Exceeded",
    "bounded",
    "bounded_case",
    "resident_bytes",
]

#: Seconds one case may run (every check of it) before it is interrupted. A replayed case takes
#: milliseconds; the bound is for a plugin that never returns.
DEFAULT_CASE_TIMEOUT = 60.0
#: Bytes the process may grow by while one case runs (Linux; elsewhere not measured).
DEFAULT_CASE_MEMORY = 2 * 1024**3
#: How often the watchdog samples the elapsed time and the process's memory, in seconds.
SAMPLE_INTERVAL = 0.02
#: Seconds an interrupted worker gets to unwind before it is left behind.
GRACE = 2.0


_T = TypeVar("_T")


class CaseInterrupted(BaseException):
    """Raised inside a case's worker when it passes a bound. A ``BaseException``, so that plugin code
    catching ``Exception`` does not swallow it."""


class Exceeded(Exception):
    """A case passed a bound: ``kind`` is ``"time-out"`` or ``"memory"``; ``message`` says which."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def resident_bytes() -> int | None:
    """The process's resident memory in bytes (``None`` where ``/proc/self/statm`` does not exist)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _interrupt(thread: threading.Thread) -> None:
    ident = thread.ident
    if ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(CaseInterrupted))


def bounded(
    work: Callable[[], _T],
    *,
    timeout: float | None = DEFAULT_CASE_TIMEOUT,
    memory: int | None = DEFAULT_CASE_MEMORY,
    name: str = "case",
) -> _T:
    """``work()`` run in a worker thread under the time and memory bounds (``None``: unbounded).

    Returns what ``work`` returns and raises what it raises; raises :class:`Exceeded` when a bound
    was passed (the worker is interrupted, see the module docstring).
    """
    outcome: list[_T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(work())
        except CaseInterrupted:
            pass
        except BaseException as error:  # handed to the caller as is
            failure.append(error)

    worker = threading.Thread(target=run, name=f"modelport-conformance-{name}", daemon=True)
    baseline = resident_bytes() if memory is not None else None
    started = time.monotonic()
    worker.start()
    exceeded: Exceeded | None = None
    while True:
        worker.join(SAMPLE_INTERVAL)
        if not worker.is_alive():
            break
        elapsed = time.monotonic() - started
        if timeout is not None and elapsed > timeout:
            exceeded = Exceeded("time-out", f"the case did not finish within {timeout:g} s; it was stopped")
            break
        if baseline is not None and memory is not None:
            now = resident_bytes()
            if now is not None and now - baseline > memory:
                grown, bound = (now - baseline) / 1024**2, memory / 1024**2
                why = f"the case grew the process by {grown:.0f} MiB, over its bound of {bound:.0f} MiB"
                exceeded = Exceeded("memory", why + "; it was stopped")
                break
    if exceeded is not None:
        _interrupt(worker)
        worker.join(GRACE)
        if worker.is_alive():
            exceeded.message += f" (it did not stop within {GRACE:g} s and was left running)"
            exceeded.args = (exceeded.message,)
        raise exceeded
    if failure:
        raise failure[0]
    return outcome[0]


def bounded_case(
    suite: Suite,
    case: Case,
    *,
    regenerate: bool = False,
    models: Collection[str] = (),
    timeout: float | None = DEFAULT_CASE_TIMEOUT,
    memory: int | None = DEFAULT_CASE_MEMORY,
) -> CaseOutcome:
    """:func:`~modelport_conformance.run_case` under the bounds; a case past one is a failing row
    whose one check is named ``time-out`` (or ``memory``)."""
    from .outcomes import CaseOutcome, CheckOutcome
    from .runner import run_case

    try:
        return bounded(
            lambda: run_case(suite, case, regenerate=regenerate, models=models),
            timeout=timeout,
            memory=memory,
            name=case.name,
        )
    except Exceeded as exceeded:
        return CaseOutcome(
            suite.provider_id,
            case.name,
            case.method,
            "fail",
            checks=[CheckOutcome(exceeded.kind, "fail", exceeded.message)],
            requirements=list(case.requirements),
            message=f"[{exceeded.kind}] {exceeded.message}",
        )
