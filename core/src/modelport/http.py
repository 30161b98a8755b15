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
flows let a token be fetched or refreshed without twin methods. A provider that does not speak HTTP
subclasses :class:`~modelport.provider.Provider` and implements ``generate``/``stream`` directly.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import httpx

from . import _retry
from .errors import (
    ConfigurationError,
    MissingCredentialsError,
    ProviderAuthError,
    ProviderError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
    ProviderResponseError,
)
from .provider import EmbedRequest, Provider, Secret

if TYPE_CHECKING:
    from .events import StreamEvent
    from .types import EmbeddingResult, Request, Result, Warning

__all__ = [
    "HeaderAuth",
    "HttpProvider",
    "HttpRequest",
    "Limits",
    "StreamDecoder",
    "check_header_value",
    "error_message",
    "parse_retry_after",
]


@dataclass(frozen=True)
class Limits:
    """Size bounds on what a provider may send back; each one exceeded is a ``ProviderResponseError``.

    Bytes are counted after decompression, so a small gzip body cannot inflate without bound. An
    error body is read only up to ``max_error_body_bytes`` (its excerpt is all an error keeps).
    """

    max_response_bytes: int = 64 * 1024 * 1024
    max_error_body_bytes: int = 64 * 1024
    max_frame_bytes: int = 16 * 1024 * 1024
    max_stream_bytes: int = 256 * 1024 * 1024

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ConfigurationError(f"Limits.{name} must be a positive integer, got {value!r}")


@dataclass(frozen=True)
class HttpRequest:
    """What a provider wants sent: built purely from a canonical request, before any I/O.

    ``url`` is absolute, or a path joined to the provider's base URL. ``body`` is a JSON value (the
    core encodes it strictly: NaN or a lone surrogate is an ``InvalidRequestError``) or raw bytes.
    ``warnings`` reach both ``Result.warnings`` and the ``stream-start`` event. ``context`` is
    anything the decoder needs back (the plugin's own business).
    """

    url: str
    body: Any = None
    method: str = "POST"
    headers: Mapping[str, str] = field(default_factory=dict)
    stream: bool = False
    warnings: Sequence[Warning] = ()
    context: Any = None


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


_HEADER_SAFE = re.compile(r"[\x21-\x7e]+(?: +[\x21-\x7e]+)*")


def check_header_value(value: str, what: str) -> str:
    """``value`` if it can be sent in an HTTP header, else a ``ConfigurationError`` that names the
    offending character and its position, never the value (copy-paste debris such as a non-breaking
    or zero-width space, or a newline, is the usual cause)."""
    if _HEADER_SAFE.fullmatch(value):
        return value
    for position, char in enumerate(value):
        if not ("\x21" <= char <= "\x7e" or (char == " " and 0 < position < len(value) - 1)):
            raise ConfigurationError(
                f"the {what} contains U+{ord(char):04X} at position {position}, which cannot be sent "
                "in an HTTP header (often copy-paste debris: a non-breaking or zero-width space, a newline)"
            )
    raise ConfigurationError(f"the {what} is empty")


class HeaderAuth(httpx.Auth):
    """Puts a credential in one header: ``authorization: Bearer <key>`` by default."""

    def __init__(self, header: str, value: str) -> None:
        self.header = header
        self.value = value

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers[self.header] = self.value
        yield request

    def __repr__(self) -> str:
        return f"HeaderAuth({self.header!r}, '**********')"


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (delta-seconds or an HTTP date)."""
    import email.utils
    import math
    import time

    milliseconds = headers.get("retry-after-ms")
    if milliseconds:
        try:
            value = float(milliseconds) / 1000
        except ValueError:
            value = math.nan
        if math.isfinite(value):
            return max(0.0, value)
    raw = (headers.get("retry-after") or "").strip()
    if not raw:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None or when.tzinfo is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)


def error_message(body: str) -> tuple[str | None, str | None, Any]:
    """``(message, status or type or code, the error object)`` of a JSON error body, as most
    providers shape it: ``{"error": {"message", "type"|"status"|"code"}}`` or ``{"message"}``."""
    from .wire import loads

    try:
        data = loads(body)
    except ValueError:
        return None, None, None
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    if not isinstance(data, dict):
        return None, None, None
    error = data.get("error", data)
    if isinstance(error, str):
        return error, None, data
    if not isinstance(error, dict):
        return None, None, data
    message = error.get("message")
    kind = next((error[k] for k in ("status", "type", "code") if isinstance(error.get(k), str)), None)
    return (message if isinstance(message, str) else None), kind, error


#: Statuses that mean "try again": the server failed or is overloaded (529 is Anthropic's).
TRANSIENT_STATUSES = frozenset({408, 500, 502, 503, 504, 529})


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

    def error_from_response(self, status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        """The typed error for a non-2xx response (or an in-stream error object, with ``headers={}``).

        ``body`` and ``headers`` are already scrubbed of credentials. The default reads the common
        ``{"error": {"message", "type"}}`` shape and classifies by status.
        """
        message, kind, error = error_message(body)
        common: dict[str, Any] = {
            "provider": self.name,
            "status_code": status,
            "provider_status": kind,
            "request_id": headers.get("x-request-id") or headers.get("request-id"),
            "body": body,
        }
        text = message or f"HTTP {status} error"
        if status in TRANSIENT_STATUSES:
            return ProviderOverloadedError(text, **common)
        if status == 429:
            code = error.get("code") if isinstance(error, dict) else None
            if kind == "insufficient_quota" or code == "insufficient_quota":
                return ProviderQuotaError(text, **common)
            return ProviderRateLimitError(text, retry_after=parse_retry_after(headers), **common)
        if status in (401, 403):
            return ProviderAuthError(text, **common)
        return ProviderRequestError(text, **common)

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
        """``base_url=``, else ``base_url_env``, else ``default_base_url`` (without a trailing slash)."""
        url = self.config.base_url or (os.environ.get(self.base_url_env) if self.base_url_env else None)
        url = url or self.default_base_url
        if not url:
            raise ConfigurationError(f"provider {self.id!r} needs base_url=... (the server's URL)")
        return url.rstrip("/")

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
        from ._transport import send_json

        spec = self.build_request(model_name, request, stream=False)
        return self._result(send_json(self, spec), spec)

    async def agenerate(self, model_name: str, request: Request) -> Result:
        from ._transport import asend_json

        spec = self.build_request(model_name, request, stream=False)
        return self._result(await asend_json(self, spec), spec)

    def stream(self, model_name: str, request: Request) -> Iterator[StreamEvent]:
        from ._transport import stream_frames

        spec = self.build_request(model_name, request, stream=True)
        decoder = self.stream_decoder(spec)
        feed = decoder.feed
        yield self._start(spec)
        for frame in stream_frames(self, spec):
            try:
                events = feed(frame)
            except _DECODE_ERRORS as error:
                raise self._decode_error(error) from error
            yield from events
        yield from self._decoded(decoder.finish)

    async def astream(self, model_name: str, request: Request) -> AsyncIterator[StreamEvent]:  # type: ignore[override]
        from ._transport import astream_frames

        spec = self.build_request(model_name, request, stream=True)
        decoder = self.stream_decoder(spec)
        feed = decoder.feed
        yield self._start(spec)
        frames = astream_frames(self, spec)
        try:
            async for frame in frames:
                try:
                    events = feed(frame)
                except _DECODE_ERRORS as error:
                    raise self._decode_error(error) from error
                for event in events:
                    yield event
        finally:
            await frames.aclose()
        for event in self._decoded(decoder.finish):
            yield event

    def embed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        from ._transport import send_json

        specs = self._embed_specs(model_name, request)
        policy = self._retry_policy()
        responses = [_retry.call(policy, partial(send_json, self, spec)) for spec in specs]
        return self._embeddings(request, specs, responses)

    async def aembed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        from ._transport import asend_json

        specs = self._embed_specs(model_name, request)
        policy = self._retry_policy()
        responses = [await _retry.acall(policy, partial(asend_json, self, spec)) for spec in specs]
        return self._embeddings(request, specs, responses)

    # Helpers ------------------------------------------------------------------------------------

    def _retry_policy(self) -> _retry.RetryPolicy:
        config = self.config
        return _retry.RetryPolicy(
            max_retries=config.max_retries, max_delay=config.max_retry_delay, deadline=config.deadline
        )

    def _embed_specs(self, model_name: str, request: EmbedRequest) -> list[HttpRequest]:
        from .wire import dumps

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

    def _result(self, data: Any, spec: HttpRequest) -> Result:
        try:
            result = self.decode_response(data, spec)
        except _DECODE_ERRORS as error:
            raise self._decode_error(error) from error
        if spec.warnings:
            result = result.model_copy(update={"warnings": [*spec.warnings, *result.warnings]})
        return result

    def _decoded(self, step: Any, *args: Any) -> list[StreamEvent]:
        return self._guard(lambda: list(step(*args)))  # type: ignore[no-any-return]

    def _guard(self, decode: Any) -> Any:
        """Run a plugin decoder; a bare Python error from malformed data becomes a typed error."""
        try:
            return decode()
        except _DECODE_ERRORS as error:
            raise self._decode_error(error) from error

    def _decode_error(self, error: Exception) -> ProviderResponseError:
        return ProviderResponseError(
            f"the response could not be decoded: {type(error).__name__}: {error}", provider=self.name
        )


#: What a decoder raises on data it did not expect (a typed ``ModelportError`` passes through).
_DECODE_ERRORS = (TypeError, KeyError, AttributeError, IndexError, ValueError)
_DEFAULT_LIMITS = Limits()


def _with_body(spec: HttpRequest, body: bytes) -> HttpRequest:
    from dataclasses import replace

    return replace(spec, body=body)
