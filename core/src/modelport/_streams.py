"""Result streams: iterate provider events, accumulate them, retry only before the first event."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

from . import _retry
from .errors import ModelportError, ProviderError, StreamInterruptedError
from .events import ErrorEvent, FinishEvent, StreamAccumulator, StreamEvent, StreamStartEvent

if TYPE_CHECKING:
    from ._model import Model
    from .types import Request, Result

__all__ = ["AsyncResultStream", "ResultStream"]


def _attach_partial(error: BaseException, acc: StreamAccumulator) -> BaseException:
    if isinstance(error, ProviderError) and error.partial is None and acc.events:
        error.partial = acc.snapshot()
    return error


def _unfinished(model: Model, acc: StreamAccumulator) -> StreamInterruptedError:
    return StreamInterruptedError(
        "the stream ended without a finish event",
        provider=model.provider.id,
        partial=acc.snapshot(),
    )


class ResultStream:
    """An iterator of :data:`~modelport.events.StreamEvent` that also accumulates the :class:`Result`.

    A retryable error is retried only while no event has been handed to the caller (the leading
    ``stream-start`` is held back until something else arrives). An error after that is raised
    with ``partial`` set to everything that had arrived.
    """

    def __init__(self, model: Model, request: Request) -> None:
        self._model = model
        self._request = request
        self.accumulator = StreamAccumulator()
        self._iterator: Iterator[StreamEvent] | None = None

    def __iter__(self) -> Iterator[StreamEvent]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    def _run(self) -> Iterator[StreamEvent]:
        model, acc = self._model, self.accumulator
        attempt = 0
        while True:
            held: StreamEvent | None = None
            yielded = False
            try:
                for event in model.provider.stream(model.name, self._request):
                    if not yielded and held is None and isinstance(event, StreamStartEvent):
                        held = event
                        continue
                    if held is not None:
                        acc.add(held)
                        yield held
                        held = None
                    yielded = True
                    if isinstance(event, ErrorEvent):
                        continue
                    acc.add(event)
                    yield event
                    if isinstance(event, FinishEvent):
                        return
            except ModelportError as error:
                delay = None if yielded else model.retry_policy.delay(error, attempt)
                if delay is None:
                    raise _attach_partial(error, acc) from error.__cause__
                attempt += 1
                _retry.sleep(delay)
                continue
            if held is not None:
                acc.add(held)
                yield held
            raise _unfinished(model, acc)

    def result(self) -> Result:
        """Consume what is left and return the accumulated result."""
        for _ in self:
            pass
        return self.accumulator.result()


class AsyncResultStream:
    """Async twin of :class:`ResultStream`."""

    def __init__(self, model: Model, request: Request) -> None:
        self._model = model
        self._request = request
        self.accumulator = StreamAccumulator()
        self._iterator: AsyncIterator[StreamEvent] | None = None

    def __aiter__(self) -> AsyncIterator[StreamEvent]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    async def _run(self) -> AsyncIterator[StreamEvent]:
        model, acc = self._model, self.accumulator
        attempt = 0
        while True:
            held: StreamEvent | None = None
            yielded = False
            try:
                async for event in model.provider.astream(model.name, self._request):
                    if not yielded and held is None and isinstance(event, StreamStartEvent):
                        held = event
                        continue
                    if held is not None:
                        acc.add(held)
                        yield held
                        held = None
                    yielded = True
                    if isinstance(event, ErrorEvent):
                        continue
                    acc.add(event)
                    yield event
                    if isinstance(event, FinishEvent):
                        return
            except ModelportError as error:
                delay = None if yielded else model.retry_policy.delay(error, attempt)
                if delay is None:
                    raise _attach_partial(error, acc) from error.__cause__
                attempt += 1
                await _retry.async_sleep(delay)
                continue
            if held is not None:
                acc.add(held)
                yield held
            raise _unfinished(model, acc)

    async def result(self) -> Result:
        """Consume what is left and return the accumulated result."""
        async for _ in self:
            pass
        return self.accumulator.result()
