"""Result streams: iterate provider events, accumulate them, retry only before the first event."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .._runtime import retry as _retry
from .._runtime.decode_guard import DECODE_ERRORS, decode_error
from ..deadlines import Deadline
from ..errors import ModelportError, ProviderError, StreamInterruptedError
from ..events import (
    ErrorEvent,
    FinishEvent,
    StreamAccumulator,
    StreamEvent,
    StreamStartEvent,
    TextDeltaEvent,
)
from ..http import stream_error
from ..outputs import PartialObjects
from .dropped import log_dropped

if TYPE_CHECKING:
    from .._runtime.retry import RetryPolicy
    from ..outputs import OutputType
    from ..provider import Prepared, Provider
    from ..types import CallWarning, Origin, Result

__all__ = ["AsyncResultStream", "ResultStream", "StreamSource"]


class StreamSource(Protocol):
    """What a stream reads of the model it streams from (a :class:`~modelport.Model` is one): its
    provider and model name, its id for messages, the origin stamped on what arrives, its retries."""

    provider: Provider
    name: str
    retry_policy: RetryPolicy

    @property
    def id(self) -> str: ...

    @property
    def origin(self) -> Origin: ...


def _attach_partial(error: BaseException, acc: StreamAccumulator) -> BaseException:
    if isinstance(error, ProviderError) and error.partial is None and acc.events:
        error.partial = acc.snapshot()
    return error


def _unfinished(model: StreamSource, acc: StreamAccumulator) -> StreamInterruptedError:
    return StreamInterruptedError(
        "the stream ended without a finish event",
        provider=model.provider.id,
        partial=acc.snapshot(),
    )


class _Attempts:
    """What the sync and async streams share: hold back ``stream-start``, accumulate, decide retries.

    One instance serves every attempt of one stream. ``begin`` starts an attempt; ``feed`` returns
    the events to hand to the caller (and whether the stream is complete); ``failed`` returns the
    delay before a retry or raises the error with the partial result; ``ended`` handles a provider
    stream that stopped without a ``finish`` event.
    """

    def __init__(
        self,
        model: StreamSource,
        prepared: Prepared,
        output: OutputType | None,
        warnings: Sequence[CallWarning],
    ) -> None:
        self.model = model
        self.prepared = prepared  # built once: every attempt sends it
        self.partial = PartialObjects(output) if output is not None else None
        self.warnings = list(warnings)  # the request's: on the stream-start the caller is handed
        self.accumulator = StreamAccumulator(origin=model.origin, warnings=warnings)
        self.deadline: Deadline | None = None  # the call's, set when the stream starts
        self.attempt = 0
        self.held: StreamEvent | None = None
        self.yielded = False
        self.telemetry: Any = None  # a traced stream's call (modelport.telemetry), for retry events

    def begin(self) -> Deadline:
        """Start an attempt; the call's deadline (started by the first) is current while the provider
        creates its stream (it reads it then: the generator itself runs later, between events)."""
        self.held = None
        if self.deadline is None:
            self.deadline = Deadline.for_call(self.model.retry_policy.deadline)
        return self.deadline

    def feed(self, event: StreamEvent) -> tuple[list[StreamEvent], bool]:
        if not self.yielded and self.held is None and isinstance(event, StreamStartEvent):
            self.held = event  # a failure right after it can still be retried
            return [], False
        out: list[StreamEvent] = []
        if self.held is not None:
            held = self.held
            out.append(self._start(held))
            self.accumulator.add(held)
            self.held = None
            if isinstance(held, StreamStartEvent) and held.warnings:
                log_dropped(self.model.id, held.warnings)
        self.yielded = True
        if isinstance(event, ErrorEvent):
            raise self._error_event(event)
        if event.__class__ is FinishEvent and self.accumulator.open_parts:
            out += self.accumulator.close_open_parts()  # no part is left open by a lost end frame
        out.append(self.accumulator.add(event))  # a tool-call-end comes back with its whole call
        if self.partial is not None and (found := self.partial.feed(event)) is not None:
            out.append(found)  # the typed output so far, right after the text that changed it
        return out, isinstance(event, FinishEvent)

    def failed(self, error: ModelportError) -> float:
        delay = None if self.yielded else self.model.retry_policy.delay(error, self.attempt, self.deadline)
        if delay is None:
            if isinstance(error, StreamInterruptedError):
                self.ended()  # a stream that ended early keeps its start (and its warnings)
            raise _attach_partial(error, self.accumulator) from error.__cause__
        self.attempt += 1
        _retry.retrying(error, delay, self.attempt, self.telemetry)
        return delay

    def ended(self) -> list[StreamEvent]:
        """Events still held when the provider stopped early; the caller raises :meth:`unfinished`."""
        held, self.held = self.held, None
        if held is None:
            return []
        self.accumulator.add(held)
        return [self._start(held)]

    def _start(self, event: StreamEvent) -> StreamEvent:
        """The stream-start handed to the caller: the request's warnings first, then the provider's
        (the accumulator has the request's already), so events accumulated by the caller give the
        warnings :meth:`ResultStream.result` gives."""
        if not self.warnings or not isinstance(event, StreamStartEvent):
            return event
        return event.model_copy(update={"warnings": [*self.warnings, *event.warnings]})

    def undecodable(self, error: Exception) -> ProviderError:
        """The typed error of events the accumulator could not fold in (a delta for a part that
        never started, say), with the partial result so far: the same guard as the kit's decoders."""
        typed = decode_error(self.model.provider.id, error)
        typed.partial = self.accumulator.snapshot()
        return typed

    def unfinished(self) -> StreamInterruptedError:
        return _unfinished(self.model, self.accumulator)

    def _error_event(self, event: ErrorEvent) -> ProviderError:
        """A decoder's ``error`` event, typed by the same table as an error object in an SSE body."""
        provider = self.model.provider
        error = stream_error(event.error, provider=provider.id)
        secrets = getattr(provider, "secrets", None)  # an HTTP provider's keys, scrubbed by value
        if secrets is not None:
            error = error._scrubbed(secrets())
        error.partial = self.accumulator.snapshot()
        return error


class _Call:
    """What a sync and an async stream hold: the model, the request as the provider prepared it
    (built once, sent by every attempt), the output type, the attempts and the accumulator
    (``warnings``: the request's, first in the result)."""

    def __init__(
        self,
        model: StreamSource,
        prepared: Prepared,
        *,
        output: OutputType | None = None,
        warnings: Sequence[CallWarning] = (),
    ) -> None:
        self._model = model
        self._request = prepared.request
        self._output = output
        self._attempts = _Attempts(model, prepared, output, warnings)
        self.accumulator = self._attempts.accumulator


class ResultStream(_Call):
    """An iterator of :data:`~modelport.events.StreamEvent` that also accumulates the :class:`Result`.

    A retryable error is retried only while no event has been handed to the caller (the leading
    ``stream-start`` is held back until something else arrives). An error after that is raised
    with ``partial`` set to everything that had arrived.
    """

    _iterator: Iterator[StreamEvent] | None = None

    def __iter__(self) -> Iterator[StreamEvent]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    def _run(self) -> Iterator[StreamEvent]:
        """The stream's events, made at its first iteration (a traced stream wraps them in its span)."""
        return _events(self._attempts)

    def result(self) -> Result:
        """Consume what is left and return the accumulated result."""
        for _ in self:
            pass
        return self._final()

    def _final(self) -> Result:
        result = self.accumulator.result()
        if self._output is not None:
            result._parsed = self._output.parse(result)
        return result

    def close(self) -> None:
        """Stop the stream and release its connection (what arrived stays in ``accumulator``)."""
        if self._iterator is None:
            self._iterator = iter(())
            return
        close = getattr(self._iterator, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> ResultStream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncResultStream(_Call):
    """Async twin of :class:`ResultStream`."""

    _iterator: AsyncIterator[StreamEvent] | None = None

    def __aiter__(self) -> AsyncIterator[StreamEvent]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    def _run(self) -> AsyncIterator[StreamEvent]:
        """Async twin of :meth:`ResultStream._run`."""
        return _aevents(self._attempts)

    async def result(self) -> Result:
        """Consume what is left and return the accumulated result."""
        async for _ in self:
            pass
        result = self.accumulator.result()
        if self._output is not None:
            result._parsed = self._output.parse(result)
        return result

    async def aclose(self) -> None:
        """Stop the stream and release its connection (what arrived stays in ``accumulator``)."""
        if self._iterator is None:
            self._iterator = _empty()
            return
        aclose = getattr(self._iterator, "aclose", None)
        if aclose is not None:
            await aclose()

    async def __aenter__(self) -> AsyncResultStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


# The event generators hold the attempts, never the stream object: the stream holds its generator,
# and a cycle between them would leave an abandoned stream (``break`` out of ``async for``) to the
# garbage collector, which finalizes every generator of the cycle at once; on Python 3.11 the
# inner generators' own ``aclose`` tasks then ran while the outer one was closing them ("aclose():
# asynchronous generator is already running"). Without the cycle the outer generator is finalized
# first, alone, and closes the provider's stream itself.


def _events(attempts: _Attempts) -> Iterator[StreamEvent]:
    model, prepared = attempts.model, attempts.prepared
    while True:
        with attempts.begin().applied():
            events = model.provider.send_stream(model.name, prepared)
        add = attempts.accumulator.add
        try:
            for event in events:
                if type(event) is TextDeltaEvent and attempts.yielded and attempts.partial is None:
                    add(event)  # the hot path, once a frame: what attempts.feed does with it
                    yield event
                    continue
                out, done = attempts.feed(event)
                yield from out
                if done:
                    return
        except ModelportError as error:
            _retry.sleep(attempts.failed(error))
            continue
        except DECODE_ERRORS as error:  # the accumulator's (or a decoder's) bare error, typed
            raise attempts.undecodable(error) from error
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()  # the provider's generator releases its connection now, not at GC
        yield from attempts.ended()
        raise attempts.unfinished()


async def _aevents(attempts: _Attempts) -> AsyncIterator[StreamEvent]:
    model, prepared = attempts.model, attempts.prepared
    while True:
        with attempts.begin().applied():
            events = model.provider.asend_stream(model.name, prepared)
        try:
            async for event in events:
                out, done = attempts.feed(event)
                for item in out:
                    yield item
                if done:
                    return
        except ModelportError as error:
            await _retry.async_sleep(attempts.failed(error))
            continue
        except DECODE_ERRORS as error:
            raise attempts.undecodable(error) from error
        finally:
            aclose = getattr(events, "aclose", None)
            if aclose is not None:
                await aclose()  # closed in this task, not by the garbage collector later
        for item in attempts.ended():
            yield item
        raise attempts.unfinished()


async def _empty() -> AsyncIterator[StreamEvent]:
    return
    yield  # an async generator that yields nothing
