"""The I/O every HTTP provider shares: send, bounded reads, SSE frames, typed errors, scrubbing.

This module holds every decision (status, size bounds, deadline, redirects, error mapping, what to
scrub: :class:`Exchange`, :class:`_Body`, :class:`_Inflater`) and the sync functions; the async ones,
which differ only in the lines that touch the client, are in :mod:`modelport._atransport`.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol
from urllib.parse import urljoin

import httpx

from ._file_body import FileBody
from ._http_errors import error_message, own_status, stream_error
from .deadlines import Deadline
from .deadlines import current as current_deadline
from .errors import (
    ConfigurationError,
    ProviderError,
    ProviderOverloadedError,
    ProviderRequestError,
    ProviderResponseError,
    StreamInterruptedError,
    scrub,
)
from .http import HeaderAuth
from .secrets import CREDENTIAL_HEADERS
from .sse import SseParser
from .wire import dumps, loads

if TYPE_CHECKING:
    from .http import HttpProvider, HttpRequest, HttpResponse

__all__ = ["Exchange", "StreamSize", "receive_json", "send", "send_json", "stream_frames"]

_MAX_REDIRECTS = 5

_log = logging.getLogger("modelport")
_DEBUG = logging.DEBUG


@lru_cache(maxsize=256)
def _url(url: str) -> httpx.URL:
    """The parsed URL (parsing is a good part of building a request; a model calls one or two)."""
    return httpx.URL(url)


_DEFAULTS: weakref.WeakKeyDictionary[Any, dict[tuple[tuple[str, str], ...], Any]] = (
    weakref.WeakKeyDictionary()
)


class _Merged(NamedTuple):
    """The client's headers merged with a call's: as httpx keeps them, and as the raw pairs
    :func:`_assembled` starts from (``None`` when they hold a header httpx would add itself)."""

    headers: httpx.Headers
    raw: list[tuple[bytes, bytes]] | None


def _client_defaults(
    client: httpx.Client | httpx.AsyncClient, headers: dict[str, str]
) -> tuple[_Merged, dict[str, Any], dict[str, str]]:
    """The client's headers merged with ``headers`` (as :class:`_Merged` and as a plain dict),
    and its timeout, as ``build_request`` makes them.

    Only for the clients modelport creates (nobody else changes their headers or timeout); a few
    entries per client (one per distinct header set: generate, stream, a changed key).
    """
    key = tuple(headers.items())
    per_client = _DEFAULTS.get(client)
    if per_client is None:
        per_client = _DEFAULTS.setdefault(client, {})
    cached = per_client.get(key)
    if cached is None:
        merged = httpx.Headers(client.headers)
        merged.update(headers)
        if len(per_client) >= 16:
            per_client.clear()
        raw = None if _AUTO_HEADERS.intersection(merged.keys()) else merged.raw
        cached = per_client[key] = (_Merged(merged, raw), client.timeout.as_dict(), dict(merged.items()))
    return cached  # type: ignore[no-any-return]


#: Headers ``httpx.Request`` fills in itself (or leaves out) when they are given: a request with any
#: of them is built by httpx's own constructor, not by :func:`_assembled`.
_AUTO_HEADERS = frozenset({"host", "content-length", "transfer-encoding"})
_BODY_METHODS = ("POST", "PUT", "PATCH")


def _assembled(
    method: str, url: httpx.URL, merged: _Merged, body: bytes | None, timeout: Any
) -> httpx.Request:
    """``httpx.Request(method, url, content=body, headers=merged.headers, extensions=...)``, the same
    request (headers in the same order), with the headers httpx would add given up front (a third
    of the time: P2, P4).

    httpx adds ``Content-Length`` (at the end, or ``0`` at the front for a body method without a
    body) and ``Host`` (first); given a stream, it adds nothing, and ``read()`` loads the body as
    ``content=`` does. Headers that change what httpx adds take httpx's own constructor.
    """
    if merged.raw is None or not url.host:
        return httpx.Request(
            method, url, content=body, headers=merged.headers, extensions={"timeout": timeout}
        )
    front = [(b"Host", url.netloc)]
    if not body and method in _BODY_METHODS:
        front.append((b"Content-Length", b"0"))
    raw = front + merged.raw
    if body:
        raw.append((b"Content-Length", str(len(body)).encode("ascii")))
    request = httpx.Request(
        method, url, headers=raw, extensions={"timeout": timeout}, stream=httpx.ByteStream(body or b"")
    )
    request.read()
    return request


#: How early a timeout may fire (timer granularity) and still be the deadline's, in seconds.
_DEADLINE_SLACK = 0.01


class _Head(Protocol):
    """What :class:`Exchange` judges of a response: an :class:`httpx.Response`, or the core's lighter
    view of an aiohttp one (``modelport._aiohttp.Reply``)."""

    @property
    def status_code(self) -> int: ...
    @property
    def headers(self) -> httpx.Headers: ...
    @property
    def request(self) -> httpx.Request: ...


class Exchange:
    """One HTTP exchange: the request to send and everything needed to judge the response."""

    __slots__ = (
        "_request",
        "_secrets",
        "auth",
        "deadline",
        "deadline_at",
        "direct",
        "follow",
        "lean",
        "limits",
        "model",
        "provider",
        "sent_request",
        "spec",
        "tight",
    )

    def __init__(
        self,
        provider: HttpProvider,
        spec: HttpRequest,
        client: httpx.Client | httpx.AsyncClient,
        model: str | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        config = provider.config
        self.provider = provider
        self.model = model
        self.spec = spec
        self.limits = provider.limits
        self.follow = config.follow_redirects
        # The call's deadline (one for all its attempts), else this exchange's own.
        self.deadline = deadline = deadline or current_deadline() or Deadline(config.deadline)
        self.deadline_at = deadline.at
        left = deadline.remaining()
        if left is not None and left <= 0:
            raise deadline.exceeded(provider.name)  # spent before anything is sent
        #: The deadline ends before a read timeout would: each read of the body is bounded by it too.
        self.tight = False
        self._secrets: list[str] | None = None  # computed only when a message needs scrubbing
        self.sent_request: httpx.Request | None = None
        auth = provider.auth()
        given = spec.body
        streamed = given if isinstance(given, FileBody) else None
        body = None if given is None or streamed else given if isinstance(given, bytes) else dumps(given)
        headers = {"content-type": "application/json", **provider.headers(), **spec.headers}
        if isinstance(auth, HeaderAuth):  # a fixed header needs no auth flow (cheaper per call)
            headers[auth.header] = auth.value
            auth = None
        self.auth: Any = auth if auth is not None else httpx.USE_CLIENT_DEFAULT
        if spec.stream:
            headers.setdefault("accept", "text/event-stream")
        url = _url(provider.url(spec))
        injected = client is config.http_client or client is config.async_http_client
        # Requests go straight to the transport of a client modelport built, unless an auth flow runs.
        self.direct = None if injected or auth is not None else provider.http.direct(client)
        self._request: httpx.Request | None = None
        #: ``(method, url, headers, plain headers, body, timeout)`` of a request on a client modelport
        #: built: what ``build_request`` would make, from cached client defaults (P2), for a
        #: transport that sends it without an :class:`httpx.Request` (aiohttp's session, P4a).
        self.lean: tuple[str, httpx.URL, _Merged, dict[str, str], bytes | None, Any] | None = None
        if streamed is not None:  # read from the file as it is sent; the length is known up front
            headers["content-length"] = str(streamed.size)
            built = client.build_request(spec.method, url, headers=headers)
            self._request = httpx.Request(
                built.method, built.url, headers=built.headers, stream=streamed, extensions=built.extensions
            )
        elif injected or client.cookies or client.params:
            self._request = client.build_request(spec.method, url, content=body, headers=headers)
        else:
            merged, timeout, plain = _client_defaults(client, headers)
            if left is not None:
                timeout = self._clamped(timeout, left)
            self.lean = (spec.method, url, merged, plain, body, timeout)
        if self._request is not None and left is not None:
            extensions = self._request.extensions
            extensions["timeout"] = self._clamped(extensions["timeout"], left)

    def _clamped(self, timeout: dict[str, Any], left: float) -> dict[str, Any]:
        """httpx's timeout dict (connect, read, write, pool) with every value shortened to ``left``
        seconds, so no wait outlasts the call's deadline (the same dict when none would)."""
        for value in timeout.values():
            if value is None or value > left:
                read = timeout.get("read")
                self.tight = read is None or read > left
                return {name: left if v is None or v > left else v for name, v in timeout.items()}
        return timeout

    @property
    def request(self) -> httpx.Request:
        """The request as httpx sends it (built on first use: aiohttp's session needs none)."""
        request = self._request
        if request is None:
            assert self.lean is not None
            method, url, merged, _, body, timeout = self.lean
            request = self._request = _assembled(method, url, merged, body, timeout)
        return request

    @property
    def name(self) -> str:
        return self.provider.name

    def scrub(self, text: str) -> str:
        return scrub(text, self.secrets())

    def secrets(self) -> list[str]:
        """The provider's credentials plus those the auth flow put on the request that was sent."""
        if self._secrets is None:
            secrets = list(self.provider.secrets())
            request = self.sent_request or self.request
            for header in CREDENTIAL_HEADERS | self.provider.credential_headers:
                value = request.headers.get(header)
                if value:
                    secrets.append(value)
                    scheme, _, token = value.partition(" ")
                    if token and scheme.lower() in ("bearer", "basic", "token"):
                        secrets.append(token)
            self._secrets = secrets
        return self._secrets

    def sent(self, request: httpx.Request) -> None:
        """Remember the request as sent: its credential headers are scrubbed from any message."""
        self.sent_request = request
        self._secrets = None

    # Judging a response ------------------------------------------------------------------------

    def check_time(self) -> None:
        if self.deadline_at is not None and time.monotonic() > self.deadline_at:
            raise self.deadline.exceeded(self.name)

    def redirect(self, response: _Head, hops: int) -> httpx.Request | None:
        """The request to follow a redirect with, or ``None`` when ``response`` is no redirect."""
        if not (httpx.codes.is_redirect(response.status_code) and "location" in response.headers):
            return None
        location = response.headers.get("location", "")
        target = httpx.URL(urljoin(str(response.request.url), location))
        same_origin = (target.scheme, target.host, target.port) == (
            response.request.url.scheme,
            response.request.url.host,
            response.request.url.port,
        )
        where = f"{target.scheme}://{target.host}" + (f":{target.port}" if target.port else "")
        if not self.follow or not same_origin or hops >= _MAX_REDIRECTS:
            why = (
                "redirects are not followed (follow_redirects=True allows same-origin ones)"
                if not self.follow
                else "a redirect to another origin is never followed with credentials"
                if not same_origin
                else f"more than {_MAX_REDIRECTS} redirects"
            )
            raise ProviderRequestError(
                f"HTTP {response.status_code} redirect to {self.scrub(where)} refused: {why}",
                provider=self.name,
                status_code=response.status_code,
            )
        request = response.request
        if isinstance(request.stream, FileBody):  # read again from the file
            return httpx.Request(
                request.method,
                target,
                headers=request.headers,
                stream=request.stream,
                extensions=request.extensions,
            )
        return httpx.Request(
            request.method,
            target,
            headers=request.headers,
            content=request.content,
            extensions=request.extensions,  # the timeouts
        )

    def error(self, response: _Head, body: bytes) -> ProviderError:
        text = self.scrub(body.decode("utf-8", errors="replace"))
        headers = {k: self.scrub(v) for k, v in response.headers.items()}
        # The plugin decodes the body; what it decoded is scrubbed again by value (a key the server
        # echoed in an encoding the raw text did not show).
        return self.provider.error_from_response(response.status_code, headers, text)._scrubbed(
            self.secrets()
        )

    def stream_error(self, status: int | None, text: str) -> ProviderError:
        """An error object inside the stream: the provider maps one that carries its own status; one
        without is typed by its error type through the core's table (docs/errors.md), status ``None``.
        Either way what was decoded is scrubbed again by value."""
        if status is not None:
            return self.provider.error_from_response(status, {}, text)._scrubbed(self.secrets())
        _, _, found = error_message(text)
        error = stream_error(found if isinstance(found, dict) else {}, provider=self.name, body=text)
        return error._scrubbed(self.secrets())

    def answer(self, response: _Head, body: bytes) -> Any:
        """A generation's parsed 2xx answer. One whose top level is an ``error`` object (a gateway's
        content filter answering HTTP 200) raises that error, mapped as one inside a stream is: the
        provider maps one that carries its own status (:func:`own_status`), the core's table one
        without (status ``None``)."""
        data = self.json(body)
        error = data.get("error") if isinstance(data, dict) else None
        if not isinstance(error, dict):
            return data
        text = self.scrub(body.decode("utf-8", errors="replace"))
        status = own_status(error)
        if status is None:
            raise self.stream_error(None, text)
        headers = {k: self.scrub(v) for k, v in response.headers.items()}
        raise self.provider.error_from_response(status, headers, text)

    def transport_error(self, error: Exception, received: bool) -> ProviderError | ConfigurationError:
        """A typed error for what httpx raised; only failures before any data are retryable."""
        if (
            isinstance(error, httpx.TransportError)
            and self.deadline_at is not None
            and time.monotonic() >= self.deadline_at - _DEADLINE_SLACK
        ):
            # A timeout clamped to the deadline's rest, or a read the deadline's watchdog ended.
            return self.deadline.exceeded(self.name)
        described = f"{type(error).__name__}: {self.scrub(str(error))}"
        if isinstance(error, (httpx.UnsupportedProtocol, httpx.InvalidURL, httpx.LocalProtocolError)):
            return ConfigurationError(f"{self.name}: the request cannot be sent: {described}")
        if isinstance(error, httpx.DecodingError):
            return ProviderResponseError(f"the response cannot be decoded: {described}", provider=self.name)
        if received:
            return StreamInterruptedError(f"the stream broke: {described}", provider=self.name)
        return ProviderOverloadedError(f"request failed: {described}", provider=self.name)

    def json(self, body: bytes) -> Any:
        try:
            return loads(body)
        except ValueError as error:
            # A JSONDecodeError's text is its reason and position, never the document itself.
            raise ProviderResponseError(
                f"the response body is not valid JSON: {error}",
                provider=self.name,
                body=self.scrub(body[:2000].decode("utf-8", errors="replace")),
            ) from None

    def too_large(self, what: str, limit: int) -> ProviderResponseError:
        return ProviderResponseError(
            f"{what} is larger than {limit} bytes (raise the limit with limits=Limits(...))",
            provider=self.name,
        )

    def logged(
        self, request: httpx.Request, status: int | None, started: float, error: Exception | None
    ) -> None:
        """The DEBUG line of one request sent: provider, model, method, status and duration (never the
        URL, a header or a body, so never a credential)."""
        elapsed = (time.perf_counter() - started) * 1e3
        outcome = str(status) if error is None else type(error).__name__
        _log.debug(
            "request provider=%s model=%s method=%s status=%s duration_ms=%.1f",
            self.name,
            self.model or "-",
            request.method,
            outcome,
            elapsed,
            extra={
                "modelport_provider": self.name,
                "modelport_model": self.model,
                "modelport_method": request.method,
                "modelport_status": status,
                "modelport_duration_ms": elapsed,
            },
        )

    def parser(self) -> SseParser:
        return SseParser(
            provider=self.name,
            on_error=self.stream_error,
            scrub=self.scrub,
            max_frame_bytes=self.limits.max_frame_bytes,
        )


class StreamSize:
    """What one stream costs against ``Limits.max_stream_bytes``: every byte read (after
    decompression) plus twice every character of text, reasoning and tool arguments kept for the
    result (held while the stream runs, copied once into the result or the error's ``partial``).

    Counting the bytes read alone let a stream of large text grow the process by about twice the
    cap before it tripped; counting what is kept as well, the cap bounds the growth.
    """

    __slots__ = ("limit", "provider", "size")

    def __init__(self, limit: int, provider: str) -> None:
        self.limit, self.provider, self.size = limit, provider, 0

    def add(self, size: int) -> None:
        self.size += size
        if self.size > self.limit:
            raise ProviderResponseError(
                f"the event stream is larger than {self.limit} bytes, counting the bytes read and the "
                "text kept (raise the limit with limits=Limits(max_stream_bytes=...))",
                provider=self.provider,
            )


class _Inflater:
    """Decodes a body's content-encoding in bounded pieces.

    httpx inflates each network chunk in one go, so a 64 KiB gzip chunk can become gigabytes before
    any size check sees it; here gzip and deflate are inflated at most 64 KiB at a time, so a bound
    stops a bomb after inflating just past it. Other encodings (br, zstd) are left to httpx.
    """

    __slots__ = ("_zlib",)

    def __init__(self, encoding: str) -> None:
        import zlib

        wbits = 16 + zlib.MAX_WBITS if encoding in ("gzip", "x-gzip") else zlib.MAX_WBITS
        self._zlib = zlib.decompressobj(wbits)

    def feed(self, data: bytes) -> Iterator[bytes]:
        import zlib

        try:
            piece = self._zlib.decompress(data, _PIECE)
            yield piece
            while self._zlib.unconsumed_tail:
                yield self._zlib.decompress(self._zlib.unconsumed_tail, _PIECE)
        except zlib.error as error:
            raise httpx.DecodingError(str(error)) from None


_PIECE = 64 * 1024


def _encoding(response: httpx.Response) -> str | None:
    """The content-encoding we inflate ourselves (``gzip``/``deflate``), else ``None``."""
    return _inflated_encoding(response.headers.get("content-encoding", ""))


def _inflated_encoding(value: str) -> str | None:
    encoding = value.strip().lower()
    return encoding if encoding in ("gzip", "x-gzip", "deflate") else None


def _pieces(response: httpx.Response) -> Iterator[bytes]:
    # A body already in memory (mock transports) has nothing left to inflate. A body with no
    # content-encoding is its raw chunks (no decoder and chunker layer a chunk); other encodings
    # than gzip and deflate are httpx's to decode.
    if response.is_stream_consumed:
        return response.iter_bytes()
    if "content-encoding" not in response.headers:
        return response.iter_raw()
    encoding = _encoding(response)
    if encoding is None:
        return response.iter_bytes()
    return _inflated(response, _Inflater(encoding))


def _inflated(response: httpx.Response, inflater: _Inflater) -> Iterator[bytes]:
    for raw in response.iter_raw():
        yield from inflater.feed(raw)


class _Body:
    """Collects a body up to ``limit`` bytes, checking the deadline at every chunk."""

    __slots__ = ("chunks", "deadline_at", "exchange", "limit", "size", "truncate")

    def __init__(self, exchange: Exchange, limit: int, *, truncate: bool) -> None:
        self.exchange, self.limit, self.truncate = exchange, limit, truncate
        self.deadline_at = exchange.deadline_at
        self.chunks: list[bytes] = []
        self.size = 0

    def add(self, chunk: bytes) -> bool:
        """Add a chunk; ``False`` once a truncated body is full (stop reading)."""
        if self.deadline_at is not None and time.monotonic() > self.deadline_at:
            self.exchange.check_time()
        self.size += len(chunk)
        if self.size > self.limit:
            if not self.truncate:
                raise self.exchange.too_large("the response body", self.limit)
            self.chunks.append(chunk[: len(chunk) - (self.size - self.limit)])
            return False
        self.chunks.append(chunk)
        return True

    def bytes(self) -> bytes:
        return self.chunks[0] if len(self.chunks) == 1 else b"".join(self.chunks)


# Sync ------------------------------------------------------------------------------------------


class _Watchdog:
    """Ends the reads of a sync response at the call's deadline, for an exchange whose read timeout
    would outlast it (``tight``): a read timeout bounds each read, not the sum of a trickle of them.

    A timer shuts the connection's socket down at the deadline, so a blocked read returns at once;
    the reader then finds the deadline passed. Stopped (under a lock, so it never touches a socket
    that went back to the pool) as soon as the response is done with.
    """

    __slots__ = ("_lock", "_socket", "_timer")

    def __init__(self, exchange: Exchange, response: httpx.Response) -> None:
        import threading

        self._timer: Any = None
        left = exchange.deadline.remaining()
        stream = response.extensions.get("network_stream")
        self._socket = None if stream is None else stream.get_extra_info("socket")
        if self._socket is None or left is None:
            return
        self._lock = threading.Lock()
        self._timer = threading.Timer(left, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        import socket

        with self._lock:
            if self._socket is not None:
                try:
                    self._socket.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def stop(self) -> None:
        if self._timer is not None:
            with self._lock:
                self._socket = None
            self._timer.cancel()


def _watched(exchange: Exchange, response: httpx.Response) -> _Watchdog | None:
    return _Watchdog(exchange, response) if exchange.tight else None


def _send(exchange: Exchange, client: httpx.Client, request: httpx.Request) -> httpx.Response:
    """``client.send(request, stream=True)``; straight to the client's transport when it allows.

    ``Client.send`` runs auth flows, redirects and event hooks, and keeps cookies; on a client
    modelport built with no auth flow to run, only the cookies are left to do: a client that holds
    some sends through ``Client.send``, and a response that sets one is kept in the client's jar.
    """
    direct = exchange.direct
    if direct is None or client.cookies:
        return client.send(request, stream=True, auth=exchange.auth, follow_redirects=False)
    response: httpx.Response = direct.handle_request(request)
    response.request = request
    if "set-cookie" in response.headers:
        client.cookies.extract_cookies(response)
    return response


def _open(exchange: Exchange, client: httpx.Client) -> httpx.Response:
    request, hops = exchange.request, 0
    debug = _log.isEnabledFor(_DEBUG)
    while True:
        started = time.perf_counter() if debug else 0.0
        try:
            response = _send(exchange, client, request)
        except httpx.HTTPError as error:
            exchange.sent(request)
            if debug:
                exchange.logged(request, None, started, error)
            raise exchange.transport_error(error, received=False) from None
        except httpx.InvalidURL as error:
            raise exchange.transport_error(error, received=False) from None
        exchange.sent(response.request)
        if debug:
            exchange.logged(response.request, response.status_code, started, None)
        try:
            follow = exchange.redirect(response, hops)
            if follow is None and response.status_code >= 300:
                raise exchange.error(
                    response, _read(exchange, response, exchange.limits.max_error_body_bytes)
                )
        except BaseException:
            response.close()
            raise
        if follow is None:
            return response
        response.close()
        request, hops = follow, hops + 1


def _read(exchange: Exchange, response: httpx.Response, limit: int, *, truncate: bool = True) -> bytes:
    body = _Body(exchange, limit, truncate=truncate)
    watchdog = _watched(exchange, response)
    try:
        for chunk in _pieces(response):
            if not body.add(chunk):
                break
    except httpx.HTTPError as error:
        raise exchange.transport_error(error, received=False) from None
    finally:
        if watchdog is not None:
            watchdog.stop()
    if watchdog is not None:
        exchange.check_time()  # the watchdog may have ended the body early
    return body.bytes()


def send_json(
    provider: HttpProvider, spec: HttpRequest, *, allow_empty: bool = False, model: str | None = None
) -> Any:
    """Send ``spec`` and return the parsed JSON answer, or raise the typed error.

    ``allow_empty=True``: an empty (or all-whitespace) body is ``None`` rather than an error.
    """
    exchange, _, body = _body(provider, spec, model)
    if allow_empty and not body.strip():
        return None
    return exchange.json(body)


def receive_json(provider: HttpProvider, spec: HttpRequest, *, model: str | None = None) -> tuple[Any, int]:
    """:func:`send_json`, and the size in bytes of the body the answer was parsed from."""
    exchange, response, body = _body(provider, spec, model)
    return exchange.answer(response, body), len(body)


def _body(
    provider: HttpProvider, spec: HttpRequest, model: str | None
) -> tuple[Exchange, httpx.Response, bytes]:
    """Send ``spec`` and read the whole answer: the exchange, the (closed) response and its body."""
    client = provider.http.sync()
    exchange = Exchange(provider, spec, client, model)
    response = _open(exchange, client)
    try:
        return (
            exchange,
            response,
            _read(exchange, response, exchange.limits.max_response_bytes, truncate=False),
        )
    finally:
        response.close()


def send(provider: HttpProvider, spec: HttpRequest, *, model: str | None = None) -> HttpResponse:
    """Send ``spec`` and return its status, headers (scrubbed) and body (parsed when it is JSON)."""
    return _answer(*_body(provider, spec, model))


def _answer(exchange: Exchange, response: _Head, body: bytes) -> HttpResponse:
    from .http import HttpResponse

    headers = {k: exchange.scrub(v) for k, v in response.headers.items()}
    kind = headers.get("content-type", "").lower()
    data = exchange.json(body) if body.strip() and ("json" in kind or not kind) else None
    return HttpResponse(response.status_code, headers, data, body)


def stream_frames(
    provider: HttpProvider,
    spec: HttpRequest,
    *,
    model: str | None = None,
    ended: Callable[[], object] | None = None,
    deadline: Deadline | None = None,
    size: StreamSize | None = None,
) -> Iterator[Any]:
    """Send ``spec`` and yield each parsed SSE frame; ``ended()`` is called when ``[DONE]`` came.
    Within ``deadline`` (the call's); the bytes read counted in ``size``, which the caller shares to
    count what it keeps."""
    client = provider.http.sync()
    exchange = Exchange(provider, spec, client, model, deadline)
    parser = exchange.parser()
    response = _open(exchange, client)
    if size is None:
        size = StreamSize(exchange.limits.max_stream_bytes, exchange.name)
    counted, deadline_at = size.add, exchange.deadline_at
    frames = parser._frames  # the kit reads its own parser through the fast entry
    watchdog = _watched(exchange, response)
    try:
        for chunk in _pieces(response):
            if deadline_at is not None and time.monotonic() > deadline_at:
                exchange.check_time()
            counted(len(chunk))
            yield from frames(chunk)
            if parser.done:
                break
        else:
            if watchdog is not None:
                exchange.check_time()  # the watchdog may have ended the body early
            yield from parser.close()
        if parser.done and ended is not None:
            ended()
    except httpx.HTTPError as error:
        raise exchange.transport_error(error, received=parser.frames > 0) from None
    finally:
        if watchdog is not None:
            watchdog.stop()
        response.close()
