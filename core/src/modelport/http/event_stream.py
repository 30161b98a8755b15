"""AWS event streams → parsed JSON frames (the binary framing of ``application/vnd.amazon.eventstream``).

A framing of the kit beside SSE (:mod:`modelport.http.sse`) and JSON Lines: a provider chooses it
with :attr:`HttpProvider.stream_framing = "aws-event-stream" <modelport.http.HttpProvider.stream_framing>`.
The frames themselves (prelude, headers, payload, the two CRC32 checks) are read by botocore's
:class:`botocore.eventstream.EventStreamBuffer` (the ``aws`` extra: ``pip install modelport[aws]``);
this module only turns its messages into what a stream decoder reads, with the kit's rules:

- an ``event`` message is the frame ``{"event": <:event-type>, "data": <payload as JSON>}``;
- an ``exception`` or ``error`` message is the typed error the provider maps it to, through
  ``on_error(None, text)`` where ``text`` is ``{"type": <:exception-type or :error-code>,
  "message": ..., **payload}`` (``ThrottlingException`` is a rate limit by the core's table);
- a bad CRC, a malformed prelude or header, a payload that is not JSON, or a frame over
  ``max_frame_bytes`` is a :class:`~modelport.errors.ProviderResponseError`, raised after the frames
  before it came out;
- a body that ends inside a frame is a :class:`~modelport.errors.StreamInterruptedError` (the frames
  before it were already yielded, so the stream's partial result keeps them).

A second framing, ``"aws-event-stream-chunks"`` (:data:`CHUNKS`), is the one of Bedrock's
``InvokeModelWithResponseStream`` (and any AWS API that wraps a model's own stream the same way):
each ``chunk`` event carries ``{"bytes": <base64>}``, and the frame is the JSON those bytes hold
(the model's own stream event, e.g. Anthropic's ``{"type": "message_start", ...}``), so the model's
decoder reads it as it reads that model's SSE frames. A decoded frame ``{"type": "error", "error":
{...}}`` or ``{"error": {...}}`` is the provider's typed error, as in SSE; bytes that are not
base64 or not JSON are a :class:`~modelport.errors.ProviderResponseError`; an event of another type
(none is documented) is skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..errors import ConfigurationError, ProviderError, ProviderResponseError, StreamInterruptedError
from ..wire import dumps, loads

__all__ = ["CHUNKS", "CONTENT_TYPE", "EventStreamParser", "load_buffer"]

#: The media type of an AWS event-stream body.
CONTENT_TYPE = "application/vnd.amazon.eventstream"
#: The framing name of an event stream whose ``chunk`` events carry base64 ``bytes`` of JSON.
CHUNKS = "aws-event-stream-chunks"
_SKIP = object()


def _keep(text: str) -> str:
    return text


def load_buffer() -> Any:
    """A new :class:`botocore.eventstream.EventStreamBuffer`, or a ``ConfigurationError`` that says
    how to install botocore."""
    try:
        from botocore.eventstream import EventStreamBuffer
    except ImportError:  # pragma: no cover - the extra is installed wherever the tests run
        raise ConfigurationError("AWS event streams need botocore: pip install 'modelport[aws]'") from None
    return EventStreamBuffer()


class EventStreamParser:
    """Bytes of an AWS event-stream body, in chunks of any size → parsed JSON frames.

    The face of :class:`~modelport.http.sse.SseParser` (``feed``, ``close``, ``frames``, ``done``),
    so the kit's stream readers drive either. ``on_error(status, text)`` maps an exception message
    to a :class:`ProviderError`; ``scrub`` removes credentials from any text that goes into an error.
    ``chunks=True`` reads the :data:`CHUNKS` framing: a frame is the JSON of a ``chunk`` event's
    base64 ``bytes``.
    """

    def __init__(
        self,
        *,
        provider: str,
        on_error: Callable[[int | None, str], ProviderError],
        scrub: Callable[[str], str] = _keep,
        max_frame_bytes: int = 16 * 1024 * 1024,
        chunks: bool = False,
    ) -> None:
        from botocore.eventstream import ParserError

        self._parser_error = ParserError
        self._provider = provider
        self._on_error = on_error
        self._scrub = scrub
        self._max = max_frame_bytes
        self._chunks = chunks
        self._buffer = load_buffer()
        self._pending = 0  # bytes added to the buffer and not yet read as a message
        self.frames = 0
        self.done = False  # an event stream has no end marker: its last event says it ended

    def feed(self, chunk: bytes) -> Iterator[Any]:
        """Frames completed by ``chunk``, each yielded as soon as it is read."""
        if not chunk:
            return
        self._buffer.add_data(chunk)
        self._pending += len(chunk)
        while True:
            try:
                message = next(self._buffer, None)
            except self._parser_error as error:
                raise ProviderResponseError(
                    f"malformed AWS event-stream frame: {type(error).__name__}: {self._scrub(str(error))}",
                    provider=self._provider,
                ) from None
            if message is None:
                break
            self._pending -= message.prelude.total_length
            frame = self._frame(message.headers, message.payload)
            if frame is _SKIP:
                continue
            self.frames += 1
            yield frame
        if self._pending > self._max:
            raise ProviderResponseError(
                f"an AWS event-stream frame is larger than {self._max} bytes (Limits.max_frame_bytes)",
                provider=self._provider,
            )

    def _frames(self, chunk: bytes) -> Iterator[Any]:
        """:meth:`feed`, for the kit's stream readers (a generator: the frames before a bad one
        still come out)."""
        return self.feed(chunk)

    def close(self) -> list[Any]:
        """Nothing is held but a frame begun: a body that ends inside one was cut short."""
        if self._pending:
            pending, self._pending = self._pending, 0
            raise StreamInterruptedError(
                f"the AWS event stream ended inside a frame ({pending} bytes of it arrived)",
                provider=self._provider,
            )
        return []

    def _frame(self, headers: dict[str, Any], payload: bytes) -> Any:
        kind = headers.get(":message-type", "event")
        data = self._payload(payload)
        if kind == "event":
            if self._chunks:
                return self._chunk(headers.get(":event-type"), data)
            return {"event": headers.get(":event-type"), "data": data}
        error_type = headers.get(":exception-type") or headers.get(":error-code") or kind
        found = data if isinstance(data, dict) else {}
        message = found.get("message") or found.get("Message") or headers.get(":error-message")
        described: dict[str, Any] = {**found, "type": str(error_type)}
        if isinstance(message, str):
            described["message"] = message
        raise self._on_error(None, self._scrub(dumps(described).decode("utf-8")))

    def _chunk(self, event: object, data: Any) -> Any:
        """The JSON a ``chunk`` event's base64 ``bytes`` hold (:data:`CHUNKS`)."""
        if event != "chunk":
            return _SKIP
        encoded = data.get("bytes") if isinstance(data, dict) else None
        if not isinstance(encoded, str):
            raise ProviderResponseError(
                "an AWS event-stream chunk has no base64 'bytes'", provider=self._provider
            )
        import base64
        import binascii

        try:
            raw = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise ProviderResponseError(
                "an AWS event-stream chunk's 'bytes' is not base64", provider=self._provider
            ) from None
        frame = self._payload(raw)
        if isinstance(frame, dict) and isinstance(frame.get("error"), dict):
            from ._errors import own_status

            raise self._on_error(own_status(frame["error"]), self._scrub(raw.decode("utf-8", "replace")))
        return frame

    def _payload(self, payload: bytes) -> Any:
        if not payload.strip():
            return {}
        try:
            return loads(payload)
        except (ValueError, RecursionError) as error:
            raise ProviderResponseError(
                f"an AWS event-stream payload is not JSON: {error}",
                provider=self._provider,
                body=self._scrub(payload[:2000].decode("utf-8", errors="replace")),
            ) from None
