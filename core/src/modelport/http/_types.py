"""The data of the HTTP kit: what a plugin asks to send (:class:`HttpRequest`), what came back
(:class:`HttpResponse`), size bounds (:class:`Limits`), the steps of an :class:`~modelport.http.Operation`
and the stream decoder's protocol. Public through :mod:`modelport.http`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar, Union

from ..errors import ConfigurationError

if TYPE_CHECKING:
    from ..events import StreamEvent
    from ..types import CallWarning

__all__ = ["DEFAULT_LIMITS", "HttpRequest", "HttpResponse", "Limits", "Steps", "StreamDecoder", "Wait"]


@dataclass(frozen=True)
class Limits:
    """Size bounds on what a provider may send back (each one exceeded is a ``ProviderResponseError``)
    and on what an upload may send (``max_upload_bytes``).

    Bytes are counted after decompression, so a small gzip body cannot inflate without bound. An
    error body is read only up to ``max_error_body_bytes`` (its excerpt is all an error keeps).
    """

    max_response_bytes: int = 64 * 1024 * 1024
    max_error_body_bytes: int = 64 * 1024
    max_frame_bytes: int = 16 * 1024 * 1024
    max_stream_bytes: int = 256 * 1024 * 1024
    #: The largest file an upload sends (the Gemini Files API's own limit, 2 GiB); a larger one is an
    #: ``InvalidRequestError`` before any request. Uploads are streamed from the file, never held whole.
    max_upload_bytes: int = 2 * 1024 * 1024 * 1024

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ConfigurationError(f"Limits.{name} must be a positive integer, got {value!r}")


class HttpRequest(NamedTuple):
    """What a provider wants sent: built purely from a canonical request, before any I/O.

    ``url`` is absolute, or a path joined to the provider's base URL. ``body`` is a JSON value (the
    core encodes it strictly: NaN or a lone surrogate is an ``InvalidRequestError``), raw bytes, or a
    :class:`FileBody` (a file streamed as it is sent).
    ``warnings`` reach both ``Result.warnings`` and the ``stream-start`` event. ``context`` is
    anything the decoder needs back (the plugin's own business). ``secrets`` are credentials the
    body carries (an MCP server's headers): scrubbed, like the endpoint's key, from every error and
    kept answer. Immutable (a named tuple: one is built for every call, so it must be cheap).
    """

    url: str
    body: Any = None
    method: str = "POST"
    headers: Mapping[str, str] = {}
    stream: bool = False
    warnings: Sequence[CallWarning] = ()
    context: Any = None
    secrets: Sequence[str] = ()

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        text = f"HttpRequest({fields})"
        if not self.secrets:
            return text
        from ..secrets import redact

        return redact(text, self.secrets, shapes=False)


class HttpResponse(NamedTuple):
    """What :meth:`~modelport.http.HttpProvider.call` got back (a non-2xx status is raised as a
    typed error instead).

    ``headers`` have lowercase names and are scrubbed of credentials; ``data`` is the parsed JSON
    body (``None`` when the body is empty or not JSON); ``content`` is the raw body.
    """

    status: int
    headers: Mapping[str, str]
    data: Any
    content: bytes


@dataclass(frozen=True)
class Wait:
    """A step of an :class:`~modelport.http.Operation` that pauses (e.g. between polls) for ``seconds``."""

    seconds: float


_T = TypeVar("_T")

#: The steps of an :class:`~modelport.http.Operation`: a generator that yields requests (it is sent
#: each one's :class:`HttpResponse`) and waits (it is sent ``None``), and returns the operation's value.
Steps = Generator[Union[HttpRequest, Wait], Union[HttpResponse, None], _T]


class StreamDecoder(Protocol):
    """Turns a stream's parsed frames into events; one instance per stream.

    The core sends ``stream-start`` (with the request's warnings) itself; the decoder's events
    follow, and ``finish`` must end with a ``finish`` event (or raise a typed error).
    """

    def feed(self, frame: Any) -> Iterable[StreamEvent]:
        """Events for one frame."""
        ...

    def finish(self) -> Iterable[StreamEvent]:
        """Events at the end of the stream (close open parts, then ``finish``)."""
        ...

    # Optional: ``flush()`` returns events the decoder held back (e.g. until it knew whether a call
    # was answered by the server); the core calls it when the stream breaks, before raising, so the
    # error's ``partial`` keeps them.
    # Optional: ``done()`` is called when the body ended with the ``data: [DONE]`` marker, before
    # ``finish``: a decoder for a protocol that sends it can tell a complete stream from one the
    # server cut cleanly (whose ``finish`` then sends no ``finish`` event, so the core raises
    # ``StreamInterruptedError`` with what arrived).


DEFAULT_LIMITS = Limits()
