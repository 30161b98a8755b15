"""A multi-step exchange with a provider, written once as pure steps and run either way
(:class:`Operation`, public through :mod:`modelport.http`)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Generic, Protocol, TypeVar

from .._runtime import retry as _retry
from ._types import HttpRequest, HttpResponse, Steps, Wait

__all__ = ["Caller", "Operation"]

_T = TypeVar("_T")


class Caller(Protocol):
    """What runs an operation's requests: :class:`~modelport.http.HttpProvider` (its
    :meth:`~modelport.http.HttpProvider.call` and ``acall``)."""

    @property
    def name(self) -> str: ...

    def call(self, spec: HttpRequest, *, retry: bool | None = None) -> HttpResponse: ...

    async def acall(self, spec: HttpRequest, *, retry: bool | None = None) -> HttpResponse: ...


class Operation(Generic[_T]):
    """A multi-step exchange with a provider (an upload, a poll until ready, paging) written once, as
    pure steps, and run by the kit either way: ``op.run()`` in sync code, ``await op`` in async code.

    ``steps`` makes a fresh :data:`Steps` generator for each run. Every request goes through
    :meth:`HttpProvider.call` (authentication, bounds, deadline, typed errors, scrubbing); waits use
    the same sleep as retries. Validation belongs in the function that builds the operation, so bad
    input is rejected before any request.
    """

    __slots__ = ("_provider", "_steps")

    def __init__(self, provider: Caller, steps: Callable[[], Steps[_T]]) -> None:
        self._provider = provider
        self._steps = steps

    def run(self) -> _T:
        """Run the operation with the provider's sync client."""
        steps = self._steps()
        reply: HttpResponse | None = None
        try:
            while True:
                step = steps.send(reply)
                if isinstance(step, Wait):
                    _retry.sleep(step.seconds)
                    reply = None
                else:
                    reply = self._provider.call(step)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        finally:
            steps.close()

    async def arun(self) -> _T:
        """Run the operation with the provider's async client (``await op`` does the same)."""
        steps = self._steps()
        reply: HttpResponse | None = None
        try:
            while True:
                step = steps.send(reply)
                if isinstance(step, Wait):
                    await _retry.async_sleep(step.seconds)
                    reply = None
                else:
                    reply = await self._provider.acall(step)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        finally:
            steps.close()

    def __await__(self) -> Generator[Any, None, _T]:
        return self.arun().__await__()

    def __repr__(self) -> str:
        return f"<Operation on {self._provider.name!r}: .run() or await it>"
