"""The steps of one stream that :func:`~._calls.stream` and :func:`~._calls.astream` share: the
start event, each frame's events under the stream's size bound and the decoder guard, what a broken
stream's decoder held back, the outcome a typed error carries, and the events of the stream's end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .._runtime.decode_guard import DECODE_ERRORS, decode_error
from ..errors import ModelportError, ProviderError
from ._exchange import StreamSize
from ._stream_end import EndWatch, StreamEnd

if TYPE_CHECKING:
    from ..events import StreamEvent
    from ._codec import Codec
    from ._types import HttpRequest, StreamDecoder

__all__ = ["StreamSteps"]


class StreamSteps:
    """The steps of a stream that :func:`stream` and :func:`astream` share, for one call: the start
    event, each frame's events (counted in the stream's size bound; a decoder's bare Python error
    made typed), what a decoder held back when the stream broke, and the events of its end. The two
    drivers only read the frames, sync or async, and hand them here.

    With the codec's :class:`~modelport.http.StreamEnd` (its ``stream_end``), every frame is watched
    too: no ``finish`` event of the decoder is let through before the stream is complete by that
    rule, and a stream that ends before is a ``StreamInterruptedError`` (:meth:`check_complete`)."""

    __slots__ = (
        "_codec",
        "_decoder",
        "_feed",
        "_finish",
        "_held_finish",
        "_on_done",
        "_watch",
        "ended",
        "endpoint",
        "size",
        "start",
    )

    def __init__(self, codec: Codec, spec: HttpRequest) -> None:
        self._codec = codec
        self._decoder = decoder = codec.stream_decoder(spec)
        self._feed = decoder.feed
        self.start = _start(spec)
        self.endpoint = endpoint = codec.endpoint()
        self.size = StreamSize(endpoint.limits.max_stream_bytes, endpoint.name)
        rule = getattr(codec, "stream_end", None)
        self._watch = EndWatch(rule) if isinstance(rule, StreamEnd) else None
        from ..events import FinishEvent  # here: resolving a model imports no event types

        self._finish = FinishEvent
        self._held_finish: StreamEvent | None = None
        #: The decoder's ``done()``, called when the body ended with ``[DONE]`` (or ``None``).
        self._on_done: Callable[[], object] | None = getattr(decoder, "done", None)
        self.ended: Callable[[], object] | None = self._on_done if self._watch is None else self._marker

    def _marker(self) -> None:
        assert self._watch is not None
        self._watch.marker()
        if self._on_done is not None:
            self._on_done()

    def events(self, frame: Any) -> Sequence[StreamEvent]:
        """The events of one parsed frame."""
        watch = self._watch
        try:
            if watch is None:
                return _kept(self._feed(frame), self.size)
            watch.frame(frame)
            events = _kept(self._feed(frame), self.size)
        except DECODE_ERRORS as error:
            raise decode_error(self._codec.name, error) from error
        finish = self._finish
        if watch.complete or not any(event.__class__ is finish for event in events):
            return events
        # A finish before the stream is complete waits for the end (and is dropped if it never comes).
        self._held_finish = next(event for event in events if event.__class__ is finish)
        return [event for event in events if event.__class__ is not finish]

    def flushed(self) -> list[StreamEvent]:
        """Events the decoder held back when the stream broke (its optional ``flush()``)."""
        return _flushed(self._decoder)

    def outcome(self, error: ModelportError) -> StreamEvent:
        """The ``finish`` event of the outcome a typed error carries (the codec's
        ``outcome_of_error``); ``error`` raised when it carries none."""
        outcome = self._codec.outcome_of_error(error) if isinstance(error, ProviderError) else None
        if outcome is None:
            raise error
        return self._finish(
            finish_reason=outcome.finish_reason,
            raw_finish_reason=outcome.raw_finish_reason,
            usage=outcome.usage,
            provider_metadata=outcome.provider_metadata,
            warnings=outcome.warnings,
        )

    def finished(self) -> list[StreamEvent]:
        """The events of the stream's end (the decoder's ``finish()``); without its ``finish``
        event when the stream is not complete by the codec's rule."""
        events = _decoded(self._codec, self._decoder.finish)
        watch = self._watch
        if watch is None:
            return events
        finish = self._finish
        if not watch.complete:
            return [event for event in events if event.__class__ is not finish]
        if self._held_finish is not None and not any(event.__class__ is finish for event in events):
            events.append(self._held_finish)
        return events

    def check_complete(self) -> None:
        """Raise ``StreamInterruptedError`` if the stream ended before its rule says it is complete."""
        if self._watch is not None and not self._watch.complete:
            raise self._watch.error(self._codec.name)


def _start(spec: HttpRequest) -> StreamEvent:
    from ..events import StreamStartEvent

    return StreamStartEvent(warnings=list(spec.warnings))


def _decoded(codec: Codec, step: Callable[[], Iterable[StreamEvent]]) -> list[StreamEvent]:
    try:
        return list(step())
    except DECODE_ERRORS as error:
        raise decode_error(codec.name, error) from error


def _flushed(decoder: StreamDecoder) -> list[StreamEvent]:
    """Events a decoder held back when its stream broke (its optional ``flush()``)."""
    flush = getattr(decoder, "flush", None)
    if flush is None:
        return []
    try:
        return list(flush())
    except DECODE_ERRORS:
        return []  # the stream's own error is the one to report


def _kept(events: Iterable[StreamEvent], size: StreamSize) -> Sequence[StreamEvent]:
    """``events`` (of one frame), their text, reasoning and tool arguments (what the stream's result
    keeps) counted in ``size``: a stream's cap bounds what it holds, not only what it reads. Kept
    text counts twice: it is held while the stream runs and copied once into the (partial) result."""
    if events.__class__ is not list:
        events = list(events)
    for event in events:
        delta = getattr(event, "delta", None)
        if delta.__class__ is str:
            size.add(2 * len(delta))  # type: ignore[arg-type]
    return events  # type: ignore[return-value]
