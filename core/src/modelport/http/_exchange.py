"""One HTTP exchange and every decision about it: status, size bounds, deadline, redirects, error
mapping, what to scrub (:class:`Exchange`, :class:`Body`, :class:`StreamSize`).

An exchange is made of data only (the model's :class:`~modelport.http.Endpoint` and the request);
the sync and async functions that drive it are in :mod:`._sync` and :mod:`._async`.
"""

from __future__ import annotations

import functools
import logging
import time
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urljoin

import httpx

from ..deadlines import Deadline
from ..deadlines import current as current_deadline
from ..errors import (
    ConfigurationError,
    ProviderConnectionError,
    ProviderError,
    ProviderOverloadedError,
    ProviderRequestError,
    ProviderResponseError,
    ProviderTimeoutError,
    StreamInterruptedError,
    scrub,
)
from ..wire import dumps, loads
from ._errors import error_message, own_status, stream_error
from ._fast import Lean, assembled, parsed, prepare
from ._file_body import FileBody
from ._kept import kept_data
from .sse import SseParser

if TYPE_CHECKING:
    from ._endpoint import Endpoint
    from ._types import HttpRequest
    from .event_stream import EventStreamParser

__all__ = ["Body", "Exchange", "Head", "StreamSize", "log"]

_MAX_REDIRECTS = 5

log = logging.getLogger("modelport")


_DEFAULT_PORTS = {"http": 80, "https": 443}
#: What each of httpx's time-outs was waiting for.
_TIMEOUT_PHASES: dict[type[Exception], str] = {
    httpx.ConnectTimeout: "connecting to",
    httpx.WriteTimeout: "sending the request to",
    httpx.ReadTimeout: "waiting for the answer of",
    httpx.PoolTimeout: "waiting for a free connection to",
}

#: How early a timeout may fire (timer granularity) and still be the deadline's, in seconds.
_DEADLINE_SLACK = 0.01


class Head(Protocol):
    """What :class:`Exchange` judges of a response: an :class:`httpx.Response`, or the core's lighter
    view of an aiohttp one (``modelport.http._aiohttp.Reply``)."""

    @property
    def status_code(self) -> int: ...
    @property
    def headers(self) -> httpx.Headers: ...
    @property
    def request(self) -> httpx.Request: ...


@functools.lru_cache(maxsize=32)
def _byte_names(names: frozenset[str]) -> frozenset[bytes]:
    return frozenset(name.encode("ascii", "ignore") for name in names)


class Exchange:
    """One HTTP exchange: the request to send and everything needed to judge the response."""

    __slots__ = (
        "_request",
        "_secrets",
        "auth",
        "deadline",
        "deadline_at",
        "direct",
        "endpoint",
        "follow",
        "lean",
        "limits",
        "model",
        "name",
        "sent_request",
        "spec",
        "tight",
    )

    def __init__(
        self,
        endpoint: Endpoint,
        spec: HttpRequest,
        client: httpx.Client | httpx.AsyncClient,
        model: str | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.name = endpoint.name
        self.model = model
        self.spec = spec
        self.limits = endpoint.limits
        self.follow = endpoint.follow_redirects
        # The call's deadline (one for all its attempts), else this exchange's own.
        self.deadline = deadline = deadline or current_deadline() or Deadline(endpoint.deadline)
        self.deadline_at = deadline.at
        left = deadline.remaining()
        if left is not None and left <= 0:
            raise deadline.exceeded(endpoint.name)  # spent before anything is sent
        #: The deadline ends before a read timeout would: each read of the body is bounded by it too.
        self.tight = False
        self._secrets: list[str] | None = None  # computed only when a message needs scrubbing
        self.sent_request: httpx.Request | None = None
        given = spec.body
        streamed = given if isinstance(given, FileBody) else None
        body = None if given is None or streamed else given if isinstance(given, bytes) else dumps(given)
        headers = {**endpoint.headers, **spec.headers} if spec.headers else dict(endpoint.headers)
        credential = endpoint.credential
        if credential is not None:  # a fixed header needs no auth flow (cheaper per call)
            headers[credential[0]] = credential[1]
        auth = endpoint.auth
        self.auth: Any = auth if auth is not None else httpx.USE_CLIENT_DEFAULT
        if spec.stream:
            headers.setdefault("accept", "text/event-stream")
        url = parsed(endpoint.url(spec.url))
        # Requests go straight to the transport of a client modelport built, unless an auth flow runs.
        plan = prepare(endpoint.clients, client, spec.method, url, headers, body, streamed, auth is not None)
        self.direct = plan.direct
        self._request = request = plan.request
        #: The request as parts, on a client modelport built (see :class:`~._fast.Lean`).
        self.lean = lean = plan.lean
        if left is not None:
            if request is not None:
                extensions = request.extensions
                extensions["timeout"] = self._clamped(extensions["timeout"], left)
            elif lean is not None:
                timeout = self._clamped(lean.timeout, left)
                if timeout is not lean.timeout:
                    self.lean = lean._replace(timeout=timeout)

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
            lean: Lean | None = self.lean
            assert lean is not None
            request = self._request = assembled(lean.method, lean.url, lean.merged, lean.body, lean.timeout)
        return request

    def scrub(self, text: str) -> str:
        return scrub(text, self.secrets())

    def secrets(self) -> list[str]:
        """The endpoint's credentials plus those the auth flow put on the request that was sent."""
        if self._secrets is None:
            self._secrets = self._credentials((self.sent_request or self.request).headers)
        return self._secrets

    def kept_secrets(self) -> list[str]:
        """:meth:`secrets`, without building the :class:`httpx.Request` of a request sent from its
        parts (aiohttp's session needs none): what an answered call scrubs from what it keeps."""
        lean = self.lean
        if self._secrets is None and self.sent_request is None and self._request is None and lean:
            return self._credentials(lean.merged.headers)
        return self.secrets()

    def _credentials(self, headers: httpx.Headers) -> list[str]:
        """The endpoint's credentials and the values of ``headers`` that are credentials (one pass
        over the raw pairs: ``Headers.get`` scans them all for each name)."""
        secrets = [*self.endpoint.secrets, *self.spec.secrets]
        names = _byte_names(self.endpoint.credential_headers)
        for name, value in headers.raw:
            if not value or name.lower() not in names:
                continue
            text = value.decode(headers.encoding)
            secrets.append(text)
            scheme, _, token = text.partition(" ")
            if token and scheme.lower() in ("bearer", "basic", "token"):
                secrets.append(token)
        return secrets

    def sent(self, request: httpx.Request) -> None:
        """Remember the request as sent: its credential headers are scrubbed from any message."""
        self.sent_request = request
        self._secrets = None

    # Judging a response ------------------------------------------------------------------------

    def check_time(self) -> None:
        if self.deadline_at is not None and time.monotonic() > self.deadline_at:
            raise self.deadline.exceeded(self.name)

    def redirect(self, response: Head, hops: int) -> httpx.Request | None:
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

    def error(self, response: Head, body: bytes) -> ProviderError:
        text = self.scrub(body.decode("utf-8", errors="replace"))
        headers = {k: self.scrub(v) for k, v in response.headers.items()}
        # The plugin decodes the body; what it decoded is scrubbed again by value (a key the server
        # echoed in an encoding the raw text did not show).
        return self.endpoint.error_from_response(response.status_code, headers, text)._scrubbed(
            self.secrets()
        )

    def stream_error(self, status: int | None, text: str) -> ProviderError:
        """An error object inside the stream: the provider maps one that carries its own status; one
        without is typed by its error type through the core's table (docs/errors.md), status ``None``.
        Either way what was decoded is scrubbed again by value."""
        if status is not None:
            return self.endpoint.error_from_response(status, {}, text)._scrubbed(self.secrets())
        _, _, found = error_message(text)
        error = stream_error(found if isinstance(found, dict) else {}, provider=self.name, body=text)
        return error._scrubbed(self.secrets())

    def answer(self, response: Head, body: bytes) -> Any:
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
        raise self.endpoint.error_from_response(status, headers, text)

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
        if isinstance(error, (httpx.ConnectError, httpx.TimeoutException)):
            return self._unreached(error, described)
        return ProviderOverloadedError(f"request failed: {described}", provider=self.name)

    def _unreached(self, error: Exception, described: str) -> ProviderError:
        """A refused (or unresolvable) connection or a time-out, naming the server's host and port
        (never the path, query or user info of the URL)."""
        url = (self.sent_request or self.request).url
        host = self.scrub(url.host)
        port = url.port or _DEFAULT_PORTS.get(url.scheme)
        where = (f"[{host}]" if ":" in host else host) + (f":{port}" if port is not None else "")
        if isinstance(error, httpx.ConnectError):
            return ProviderConnectionError(
                f"cannot connect to {where}: {described}", provider=self.name, host=host, port=port
            )
        phase = _TIMEOUT_PHASES.get(type(error), "waiting for")
        return ProviderTimeoutError(
            f"timed out {phase} {where}: {described}", provider=self.name, host=host, port=port
        )

    def json(self, body: bytes) -> Any:
        """The parsed body, scrubbed of the exchange's credentials (:mod:`._kept`)."""
        try:
            return kept_data(self, loads(body), body)
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
        log.debug(
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

    def parser(self) -> SseParser | EventStreamParser:
        """The parser of a stream's body, by the endpoint's framing."""
        if self.endpoint.framing.startswith("aws-event-stream"):
            from .event_stream import CHUNKS, EventStreamParser

            return EventStreamParser(
                provider=self.name,
                on_error=self.stream_error,
                scrub=self.scrub,
                max_frame_bytes=self.limits.max_frame_bytes,
                chunks=self.endpoint.framing == CHUNKS,
            )
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


class Body:
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
