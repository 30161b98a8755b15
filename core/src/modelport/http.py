"""The plugin kit for HTTP providers: a provider plugin is pure mapping; the core does the I/O.

Subclass :class:`HttpProvider` and supply four pure pieces; the core sends them, once for sync and
async, generate and stream::

    class AcmeProvider(HttpProvider):
        id = "acme"
        default_base_url = "https://api.acme.example/v1"
        api_key_env = ("ACME_API_KEY",)          # sent as "authorization: Bearer <key>"

        def build_request(self, model_name, request, *, stream):   # canonical Request → HttpRequest
            return HttpRequest("/chat", body={...}, stream=stream, warnings=[...])

        def decode_response(self, data, spec):                     # parsed JSON → Result
            ...

        def stream_decoder(self, spec):                            # frames → events
            return AcmeStreamDecoder()                              # .feed(frame), .finish()

        def error_from_response(self, status, headers, body):      # optional: the default reads
            ...                                                     # {"error": {"message", ...}}

What the core owns, for every provider alike: pooled clients (one async client per event loop,
closed with its loop), credentials (looked up, checked to be sendable, never in a message), strict
JSON both ways, SSE framing (:mod:`modelport.sse`: ``[DONE]``, comments, ``event: error``, in-stream
error objects, BOM, CRLF), size bounds (:class:`Limits`), a total deadline, redirects (none unless
asked, never across origins), retries, typed errors from transport failures, warnings on both the
result and the ``stream-start`` event, and scrubbing of every credential from every error.

Authentication plugs in as an :class:`httpx.Auth` (:meth:`HttpProvider.auth`), whose sync and async
flows let a token be fetched or refreshed without twin methods. A provider's other endpoints go
through the same I/O: :meth:`HttpProvider.call` / :meth:`HttpProvider.call_json` for one request,
and an :class:`Operation` (pure steps, run with ``.run()`` or awaited) for a flow of several, such as
a resumable upload or polling until a file is ready; token counting is the optional
``count_tokens_request``/``decode_token_count`` pair. A provider that does not speak HTTP
subclasses :class:`~modelport.provider.Provider` and implements ``generate``/``stream`` directly.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar, Union

import httpx

from . import _retry
from ._file_body import FileBody
from ._http_auth import HeaderAuth, check_header_value
from ._http_errors import (
    ERROR_TYPES,
    TRANSIENT_STATUSES,
    error_class,
    error_message,
    own_status,
    parse_retry_after,
    status_error,
    stream_error,
)
from .deadlines import Deadline
from .deadlines import current as current_deadline
from .errors import (
    ConfigurationError,
    MissingCredentialsError,
    ModelportError,
    ProviderError,
    ProviderResponseError,
)
from .provider import EmbedRequest, Provider, Secret, TokenCount
from .urls import check_base_url
from .wire import decoding, dumps

if TYPE_CHECKING:
    from ._transport import StreamSize
    from .events import StreamEvent
    from .types import CallWarning, EmbeddingResult, Request, Result

__all__ = [
    "FileBody",
    "HeaderAuth",
    "HttpProvider",
    "HttpRequest",
    "HttpResponse",
    "Operation",
    "Steps",
    "Wait",
    "Limits",
    "StreamDecoder",
    "check_header_value",
    "ERROR_TYPES",
    "TRANSIENT_STATUSES",
    "error_class",
    "error_message",
    "own_status",
    "parse_retry_after",
    "status_error",
    "stream_error",
]


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
    anything the decoder needs back (the plugin's own business). Immutable (a named tuple: one is
    built for every call, so it must be cheap).
    """

    url: str
    body: Any = None
    method: str = "POST"
    headers: Mapping[str, str] = {}
    stream: bool = False
    warnings: Sequence[CallWarning] = ()
    context: Any = None


class HttpResponse(NamedTuple):
    """What :meth:`HttpProvider.call` got back (a non-2xx status is raised as a typed error instead).

    ``headers`` have lowercase names and are scrubbed of credentials; ``data`` is the parsed JSON
    body (``None`` when the body is empty or not JSON); ``content`` is the raw body.
    """

    status: int
    headers: Mapping[str, str]
    data: Any
    content: bytes


@dataclass(frozen=True)
class Wait:
    """A step of an :class:`Operation` that pauses (e.g. between polls) for ``seconds``."""

    seconds: float


_T = TypeVar("_T")

#: The steps of an :class:`Operation`: a generator that yields requests (it is sent each one's
#: :class:`HttpResponse`) and waits (it is sent ``None``), and returns the operation's value.
Steps = Generator[Union[HttpRequest, Wait], Union[HttpResponse, None], _T]


class Operation(Generic[_T]):
    """A multi-step exchange with a provider (an upload, a poll until ready, paging) written once, as
    pure steps, and run by the kit either way: ``op.run()`` in sync code, ``await op`` in async code.

    ``steps`` makes a fresh :data:`Steps` generator for each run. Every request goes through
    :meth:`HttpProvider.call` (authentication, bounds, deadline, typed errors, scrubbing); waits use
    the same sleep as retries. Validation belongs in the function that builds the operation, so bad
    input is rejected before any request.
    """

    __slots__ = ("_provider", "_steps")

    def __init__(self, provider: HttpProvider, steps: Callable[[], Steps[_T]]) -> None:
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


class HttpProvider(Provider):
    """A provider that speaks JSON over HTTP; subclasses supply pure mapping (see the module doc).

    Class attributes beyond :class:`~modelport.provider.Provider`'s:

    - ``default_base_url``: where requests go unless ``base_url=`` (or ``base_url_env``) says otherwise;
      ``None`` makes ``base_url`` required.
    - ``base_url_env``: an environment variable that overrides the default base URL.
    - ``api_key_env``: environment variables searched for the key, in order.
    - ``api_key_header``: the header the key goes in; ``"authorization"`` sends ``Bearer <key>``.
    - ``api_key_required``: ``False`` for servers that need no key (a local server).
    """

    default_base_url: ClassVar[str | None] = None
    base_url_env: ClassVar[str | None] = None
    api_key_env: ClassVar[tuple[str, ...]] = ()
    api_key_header: ClassVar[str] = "authorization"
    api_key_required: ClassVar[bool] = True
    checks_on_send: ClassVar[bool] = True
    embed_retries_per_request: ClassVar[bool] = True

    # What a plugin supplies (pure) -----------------------------------------------------------

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        """The HTTP request for a canonical request; raise ``InvalidRequestError`` to reject it."""
        raise self._unsupported("generate")

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        """The :class:`Result` of a parsed JSON response (the request's warnings are added by the core)."""
        raise self._unsupported("generate")

    def stream_decoder(self, spec: HttpRequest) -> StreamDecoder:
        """A fresh :class:`StreamDecoder` for one stream."""
        raise self._unsupported("stream")

    def embed_requests(self, model_name: str, request: EmbedRequest) -> Sequence[HttpRequest]:
        """The HTTP requests (batches) for an embedding request, all built before any is sent."""
        raise self._unsupported("embed")

    def decode_embeddings(
        self, request: EmbedRequest, specs: Sequence[HttpRequest], responses: Sequence[Any]
    ) -> EmbeddingResult:
        """The embeddings of every response, in input order."""
        raise self._unsupported("embed")

    def count_tokens_request(self, model_name: str, request: Request) -> HttpRequest:
        """The HTTP request that counts a canonical request's input tokens (capability
        ``count_tokens``); raise ``InvalidRequestError`` to reject it."""
        raise self._unsupported("count_tokens")

    def decode_token_count(self, data: Any, spec: HttpRequest) -> TokenCount:
        """The :class:`~modelport.provider.TokenCount` of a parsed token-count response."""
        raise self._unsupported("count_tokens")

    def error_from_response(self, status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        """The typed error for a non-2xx response (or an in-stream error object that carries its own
        status, with ``headers={}``; one without a status is typed by the core, see ``stream_error``).

        ``body`` and ``headers`` are already scrubbed of credentials. The default reads the common
        ``{"error": {"message", "type"}}`` shape and classifies by status.
        """
        message, kind, error = error_message(body)
        code = error.get("code") if isinstance(error, dict) else None
        quota = "insufficient_quota" in (kind, code)
        return status_error(
            status, headers, body, provider=self.name, message=message, provider_status=kind, quota=quota
        )

    # Configuration (override when a provider differs) ----------------------------------------

    @property
    def name(self) -> str:
        """The provider's name in errors (the ``name`` option, else the provider id)."""
        return str(self.config.options.get("name") or self.id)

    @property
    def limits(self) -> Limits:
        """Size bounds (``limits=`` of ``get_model``, else the defaults)."""
        limits = self.config.limits
        return limits if isinstance(limits, Limits) else _DEFAULT_LIMITS

    def base_url(self) -> str:
        """``base_url=``, else ``base_url_env``, else ``default_base_url`` (without a trailing slash),
        checked by :func:`modelport.urls.check_base_url` wherever it came from."""
        if self.config.base_url:
            return check_base_url(self.config.base_url)
        from_env = os.environ.get(self.base_url_env) if self.base_url_env else None
        if from_env:
            return check_base_url(from_env, source=str(self.base_url_env))
        if not self.default_base_url:
            raise ConfigurationError(f"provider {self.id!r} needs base_url=... (the server's URL)")
        return check_base_url(self.default_base_url, source=f"{type(self).__name__}.default_base_url")

    def url(self, spec: HttpRequest) -> str:
        """The absolute URL of a request."""
        if "://" in spec.url:
            return spec.url
        return self.base_url() + ("" if spec.url.startswith("/") else "/") + spec.url

    def api_key(self) -> str | None:
        """The key from ``api_key=`` or ``api_key_env``, checked to be sendable; ``None`` if optional."""
        key = self.config.api_key.reveal() if isinstance(self.config.api_key, Secret) else None
        if not key:
            key = next((os.environ[n] for n in self.api_key_env if os.environ.get(n)), None)
        if not key:
            if self.api_key_required:
                raise MissingCredentialsError(self.id, self.api_key_env)
            return None
        return check_header_value(key, "API key")

    def secrets(self) -> list[str]:
        """Credential values to scrub from every message (the key; the core adds what auth sent)."""
        try:
            key = self.api_key()
        except ConfigurationError:
            return []
        return [key] if key else []

    def auth(self) -> httpx.Auth | None:
        """How requests are authenticated: the key in ``api_key_header`` by default."""
        key = self.api_key()
        if key is None:
            return None
        value = f"Bearer {key}" if self.api_key_header == "authorization" else key
        return HeaderAuth(self.api_key_header, value)

    def headers(self) -> Mapping[str, str]:
        """Extra headers for every request (e.g. an organization id)."""
        return {}

    # What the core does -----------------------------------------------------------------------

    def check_request(self, model_name: str, request: Request) -> None:
        """Build the request once: every mapping rule that can reject it does so before any I/O."""
        self.build_request(model_name, request, stream=False)

    def generate(self, model_name: str, request: Request) -> Result:
        from ._transport import receive_json

        spec = self.build_request(model_name, request, stream=False)
        return self._result(*receive_json(self, spec, model=model_name), spec)

    async def agenerate(self, model_name: str, request: Request) -> Result:
        from ._atransport import _abody

        spec = self.build_request(model_name, request, stream=False)
        exchange, reply, body = await _abody(self, spec, model_name)  # receive_json's async twin, inline
        return self._result(exchange.answer(reply, body), len(body), spec)

    def stream(self, model_name: str, request: Request) -> Iterator[StreamEvent]:
        # The call's deadline is read now: the generator runs later, between the caller's events.
        return self._stream(model_name, request, current_deadline())

    def _stream(self, model_name: str, request: Request, deadline: Deadline | None) -> Iterator[StreamEvent]:
        from ._transport import StreamSize, stream_frames

        spec = self.build_request(model_name, request, stream=True)
        decoder = self.stream_decoder(spec)
        feed = decoder.feed
        yield self._start(spec)
        size = StreamSize(self.limits.max_stream_bytes, self.name)
        try:
            for frame in stream_frames(
                self,
                spec,
                model=model_name,
                ended=getattr(decoder, "done", None),
                deadline=deadline,
                size=size,
            ):
                try:
                    events = _kept(feed(frame), size)
                except _DECODE_ERRORS as error:
                    raise self._decode_error(error) from error
                yield from events
        except ModelportError:
            yield from self._flushed(decoder)  # events a decoder held back are not lost
            raise
        yield from self._decoded(decoder.finish)

    def astream(self, model_name: str, request: Request) -> AsyncIterator[StreamEvent]:
        return self._astream(model_name, request, current_deadline())

    async def _astream(
        self, model_name: str, request: Request, deadline: Deadline | None
    ) -> AsyncIterator[StreamEvent]:
        from ._atransport import astream_frames
        from ._transport import StreamSize

        spec = self.build_request(model_name, request, stream=True)
        decoder = self.stream_decoder(spec)
        feed = decoder.feed
        yield self._start(spec)
        size = StreamSize(self.limits.max_stream_bytes, self.name)
        frames = astream_frames(
            self, spec, model=model_name, ended=getattr(decoder, "done", None), deadline=deadline, size=size
        )
        try:
            async for frame in frames:
                try:
                    events = _kept(feed(frame), size)
                except _DECODE_ERRORS as error:
                    raise self._decode_error(error) from error
                for event in events:
                    yield event
        except ModelportError:
            for event in self._flushed(decoder):
                yield event
            raise
        finally:
            await frames.aclose()
        for event in self._decoded(decoder.finish):
            yield event

    def embed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        from ._transport import send_json

        specs = self._embed_specs(model_name, request)
        policy = self._retry_policy()
        responses = [_retry.call(policy, partial(send_json, self, spec, model=model_name)) for spec in specs]
        return self._embeddings(request, specs, responses)

    async def aembed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        from ._atransport import asend_json

        specs = self._embed_specs(model_name, request)
        policy = self._retry_policy()
        responses = [
            await _retry.acall(policy, partial(asend_json, self, spec, model=model_name)) for spec in specs
        ]
        return self._embeddings(request, specs, responses)

    def count_tokens(self, model_name: str, request: Request) -> TokenCount:
        from ._transport import send_json

        spec = self.count_tokens_request(model_name, request)
        return self._count(send_json(self, spec, model=model_name), spec)

    async def acount_tokens(self, model_name: str, request: Request) -> TokenCount:
        from ._atransport import asend_json

        spec = self.count_tokens_request(model_name, request)
        return self._count(await asend_json(self, spec, model=model_name), spec)

    # Any other endpoint, through the same I/O ----------------------------------------------------

    def call_json(self, spec: HttpRequest, *, retry: bool = False) -> Any:
        """Send ``spec`` through the kit and return the parsed JSON answer (``None`` for an empty
        body): for a provider's other endpoints (token counting, files, caches...).

        Everything a generation gets applies: authentication, strict JSON, size bounds, the
        deadline, redirect rules, typed errors from :meth:`error_from_response`, scrubbing.
        ``retry=True`` retries retryable errors with the configured policy (leave it off for a
        request that must not be sent twice).
        """
        from ._transport import send_json

        spec = self._encoded(spec)
        if retry:
            return _retry.call(self._retry_policy(), partial(send_json, self, spec, allow_empty=True))
        return send_json(self, spec, allow_empty=True)

    async def acall_json(self, spec: HttpRequest, *, retry: bool = False) -> Any:
        """Async twin of :meth:`call_json`."""
        from ._atransport import asend_json

        spec = self._encoded(spec)
        if retry:
            return await _retry.acall(self._retry_policy(), partial(asend_json, self, spec, allow_empty=True))
        return await asend_json(self, spec, allow_empty=True)

    def call(self, spec: HttpRequest, *, retry: bool | None = None) -> HttpResponse:
        """Send ``spec`` through the kit and return status, headers and body (JSON parsed): for
        exchanges that need response headers (a resumable upload's session URL) or raw bytes.

        ``retry=None`` retries retryable errors for idempotent methods (GET, HEAD, PUT, DELETE)
        only; ``True``/``False`` decide explicitly. A body may be raw ``bytes`` (set its
        ``content-type`` in ``headers``).
        """
        from ._transport import send

        spec = self._encoded(spec)
        if _retried(spec, retry):
            return _retry.call(self._retry_policy(), partial(send, self, spec))
        return send(self, spec)

    async def acall(self, spec: HttpRequest, *, retry: bool | None = None) -> HttpResponse:
        """Async twin of :meth:`call`."""
        from ._atransport import asend

        spec = self._encoded(spec)
        if _retried(spec, retry):
            return await _retry.acall(self._retry_policy(), partial(asend, self, spec))
        return await asend(self, spec)

    def operation(self, steps: Callable[[], Steps[_T]]) -> Operation[_T]:
        """An :class:`Operation` of this provider's (run it with ``.run()`` or ``await`` it)."""
        return Operation(self, steps)

    # Helpers ------------------------------------------------------------------------------------

    def _encoded(self, spec: HttpRequest) -> HttpRequest:
        """``spec`` with its JSON body encoded (and so checked) once, before any attempt."""
        if spec.body is None or isinstance(spec.body, (bytes, FileBody)):
            return spec
        return _with_body(spec, dumps(spec.body))

    def _count(self, data: Any, spec: HttpRequest) -> TokenCount:
        count: TokenCount = self._guard(lambda: self.decode_token_count(data, spec))
        return count

    def _retry_policy(self) -> _retry.RetryPolicy:
        config = self.config
        return _retry.RetryPolicy(
            max_retries=config.max_retries, max_delay=config.max_retry_delay, deadline=config.deadline
        )

    def _embed_specs(self, model_name: str, request: EmbedRequest) -> list[HttpRequest]:
        specs = list(self.embed_requests(model_name, request))
        # Every body is encoded (and so checked) before the first is sent.
        return [
            s if s.body is None or isinstance(s.body, bytes) else _with_body(s, dumps(s.body)) for s in specs
        ]

    def _embeddings(
        self, request: EmbedRequest, specs: Sequence[HttpRequest], responses: Sequence[Any]
    ) -> EmbeddingResult:
        result: EmbeddingResult = self._guard(lambda: self.decode_embeddings(request, specs, responses))
        return result

    def _start(self, spec: HttpRequest) -> StreamEvent:
        from .events import StreamStartEvent

        return StreamStartEvent(warnings=list(spec.warnings))

    def _result(self, data: Any, size: int, spec: HttpRequest) -> Result:
        try:
            with decoding(size):
                result = self.decode_response(data, spec)
        except _DECODE_ERRORS as error:
            raise self._decode_error(error) from error
        if spec.warnings:
            result = result._with_warnings_first(list(spec.warnings))
        return result

    def _decoded(self, step: Any, *args: Any) -> list[StreamEvent]:
        return self._guard(lambda: list(step(*args)))  # type: ignore[no-any-return]

    def _guard(self, decode: Any) -> Any:
        """Run a plugin decoder; a bare Python error from malformed data becomes a typed error."""
        try:
            return decode()
        except _DECODE_ERRORS as error:
            raise self._decode_error(error) from error

    def _flushed(self, decoder: StreamDecoder) -> list[StreamEvent]:
        """Events a decoder held back when its stream broke (its optional ``flush()``)."""
        flush = getattr(decoder, "flush", None)
        if flush is None:
            return []
        try:
            return list(flush())
        except _DECODE_ERRORS:
            return []  # the stream's own error is the one to report

    def _decode_error(self, error: Exception) -> ProviderResponseError:
        return ProviderResponseError(
            f"the response could not be decoded: {type(error).__name__}: {error}", provider=self.name
        )


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


#: What a decoder raises on data it did not expect (a typed ``ModelportError`` passes through).
_DECODE_ERRORS = (TypeError, KeyError, AttributeError, IndexError, ValueError)
_DEFAULT_LIMITS = Limits()


_IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})


def _retried(spec: HttpRequest, retry: bool | None) -> bool:
    return spec.method.upper() in _IDEMPOTENT if retry is None else retry


def _with_body(spec: HttpRequest, body: bytes) -> HttpRequest:
    return spec._replace(body=body)
