"""The streams of a wrapped model: the events the stream middleware yield, accumulated again.

The generators hold the accumulator and the inner streams, never the stream object (the stream holds
its generator; a cycle would leave an abandoned stream to the garbage collector, see
``modelport._model.streams``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import TYPE_CHECKING, Any

from .._model.streams import AsyncResultStream, ResultStream
from ..events import StreamAccumulator
from ..telemetry import _atraced, _traced
from ._chain import chain as _chain

if TYPE_CHECKING:
    from .._model import Model, ValidCall
    from ..events import StreamEvent

__all__ = ["AsyncWrappedStream", "TracedAsyncWrappedStream", "TracedWrappedStream", "WrappedStream"]


class WrappedStream(ResultStream):
    """A :class:`~modelport.ResultStream` of the events ``hooks`` (``wrap_stream`` of each
    middleware of ``model``, the first outermost) yield around the stream of ``inner``."""

    def __init__(self, model: Model, inner: Model, call: ValidCall, hooks: list[Any]) -> None:
        # Not ResultStream.__init__: the attempts are the inner stream's; this one only re-accumulates.
        self._model = model
        self._request = call.request
        self._output = call.output
        self.accumulator = StreamAccumulator(origin=model.origin, warnings=call.warnings)
        self._opened: list[ResultStream] = []
        opened, open_inner = self._opened, inner._stream

        def innermost(request: Any) -> Iterator[StreamEvent]:
            stream = open_inner(call if request is call.request else call._replace(request=request))
            opened.append(stream)
            return iter(stream)

        self._chain: Callable[[Any], Iterator[StreamEvent]] = _chain(hooks, innermost, model)

    def _run(self) -> Iterator[StreamEvent]:
        return _events(self._chain(self._request), self.accumulator)

    def close(self) -> None:
        """Stop the stream and every stream it opened (what arrived stays in ``accumulator``)."""
        super().close()
        for stream in self._opened:
            stream.close()


def _events(events: Iterator[StreamEvent], accumulator: StreamAccumulator) -> Iterator[StreamEvent]:
    try:
        for event in events:
            yield accumulator.add(event)
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()


class AsyncWrappedStream(AsyncResultStream):
    """Async twin of :class:`WrappedStream` (``wrap_astream`` hooks)."""

    def __init__(self, model: Model, inner: Model, call: ValidCall, hooks: list[Any]) -> None:
        self._model = model
        self._request = call.request
        self._output = call.output
        self.accumulator = StreamAccumulator(origin=model.origin, warnings=call.warnings)
        self._opened: list[AsyncResultStream] = []
        opened, open_inner = self._opened, inner._astream

        def innermost(request: Any) -> AsyncIterator[StreamEvent]:
            stream = open_inner(call if request is call.request else call._replace(request=request))
            opened.append(stream)
            return stream.__aiter__()

        self._chain: Callable[[Any], AsyncIterator[StreamEvent]] = _chain(hooks, innermost, model)

    def _run(self) -> AsyncIterator[StreamEvent]:
        return _aevents(self._chain(self._request), self.accumulator)

    async def aclose(self) -> None:
        """Stop the stream and every stream it opened (what arrived stays in ``accumulator``)."""
        await super().aclose()
        for stream in self._opened:
            await stream.aclose()


async def _aevents(
    events: AsyncIterator[StreamEvent], accumulator: StreamAccumulator
) -> AsyncIterator[StreamEvent]:
    try:
        async for event in events:
            yield accumulator.add(event)
    finally:
        aclose = getattr(events, "aclose", None)
        if aclose is not None:
            await aclose()


class _NoAttempts:
    """What a traced stream records retries on: the inner stream's own attempts are untraced."""

    telemetry: Any = None


class TracedWrappedStream(WrappedStream):
    """A :class:`WrappedStream` inside a ``chat`` span (telemetry outermost: the span sees the events
    and result as the middleware made them)."""

    _attempts: Any = _NoAttempts()

    def _run(self) -> Iterator[StreamEvent]:
        return _traced(self, super()._run())


class TracedAsyncWrappedStream(AsyncWrappedStream):
    """Async twin of :class:`TracedWrappedStream`."""

    _attempts: Any = _NoAttempts()

    def _run(self) -> AsyncIterator[StreamEvent]:
        return _atraced(self, super()._run())
