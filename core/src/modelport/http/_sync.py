"""The sync I/O of the HTTP kit: send an :class:`~modelport.http.HttpRequest` to a model's
:class:`~modelport.http.Endpoint` and read the answer (whole, or as SSE frames), bounded by the
exchange's limits and deadline. Data in, data out: nothing here calls back into the provider.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import httpx

from ..deadlines import Deadline
from ._exchange import Body, Exchange, Head, StreamSize, log
from ._inflate import pieces
from ._kept import kept_content, kept_frames
from ._lines import JsonLinesParser
from ._types import HttpResponse

if TYPE_CHECKING:
    from ._endpoint import Endpoint
    from ._types import HttpRequest

__all__ = ["answer", "body_of", "receive_json", "send", "send_json", "stream_frames"]


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
    debug = log.isEnabledFor(logging.DEBUG)
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
    body = Body(exchange, limit, truncate=truncate)
    watchdog = _watched(exchange, response)
    try:
        for chunk in pieces(response):
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
    endpoint: Endpoint, spec: HttpRequest, *, allow_empty: bool = False, model: str | None = None
) -> Any:
    """Send ``spec`` and return the parsed JSON answer, or raise the typed error.

    ``allow_empty=True``: an empty (or all-whitespace) body is ``None`` rather than an error.
    """
    exchange, _, body = body_of(endpoint, spec, model)
    if allow_empty and not body.strip():
        return None
    return exchange.json(body)


def receive_json(endpoint: Endpoint, spec: HttpRequest, *, model: str | None = None) -> tuple[Any, int]:
    """:func:`send_json`, and the size in bytes of the body the answer was parsed from."""
    exchange, response, body = body_of(endpoint, spec, model)
    return exchange.answer(response, body), len(body)


def body_of(
    endpoint: Endpoint, spec: HttpRequest, model: str | None
) -> tuple[Exchange, httpx.Response, bytes]:
    """Send ``spec`` and read the whole answer: the exchange, the (closed) response and its body."""
    client = endpoint.clients.sync()
    exchange = Exchange(endpoint, spec, client, model)
    response = _open(exchange, client)
    try:
        return (
            exchange,
            response,
            _read(exchange, response, exchange.limits.max_response_bytes, truncate=False),
        )
    finally:
        response.close()


def send(endpoint: Endpoint, spec: HttpRequest, *, model: str | None = None) -> HttpResponse:
    """Send ``spec`` and return its status, headers (scrubbed) and body (parsed when it is JSON)."""
    return answer(*body_of(endpoint, spec, model))


def answer(exchange: Exchange, response: Head, body: bytes) -> HttpResponse:
    """What :func:`send` returns for an answered exchange."""
    headers = {k: exchange.scrub(v) for k, v in response.headers.items()}
    kind = headers.get("content-type", "").lower().partition(";")[0].strip()
    data = exchange.json(body) if body.strip() and (_is_json(kind) or not kind) else None
    return HttpResponse(response.status_code, headers, data, kept_content(exchange, body))


def _is_json(media_type: str) -> bool:
    """``application/json`` and ``+json`` types; JSON Lines (``jsonl``, ``x-ndjson``) are not one document."""
    return media_type.endswith("json") and not media_type.endswith(("ndjson", "/jsonl"))


def stream_frames(
    endpoint: Endpoint,
    spec: HttpRequest,
    *,
    model: str | None = None,
    ended: Callable[[], object] | None = None,
    deadline: Deadline | None = None,
    size: StreamSize | None = None,
    lines: bool = False,
    bad_lines: bool = False,
) -> Iterator[Any]:
    """Send ``spec`` and yield each parsed SSE frame (each JSON line with ``lines=True``); ``ended()``
    is called when ``[DONE]`` came.
    Within ``deadline`` (the call's); the bytes read counted in ``size``, which the caller shares to
    count what it keeps."""
    client = endpoint.clients.sync()
    exchange = Exchange(endpoint, spec, client, model, deadline)
    parser = (
        JsonLinesParser(exchange.name, exchange.limits.max_frame_bytes, keep_bad=bad_lines)
        if lines
        else exchange.parser()
    )
    response = _open(exchange, client)
    if size is None:
        size = StreamSize(exchange.limits.max_stream_bytes, exchange.name)
    counted, deadline_at = size.add, exchange.deadline_at
    # The kit reads its own parser through the fast entry; what it keeps is scrubbed (:mod:`._kept`).
    frames, rest = kept_frames(exchange, parser._frames, parser.close)
    watchdog = _watched(exchange, response)
    try:
        for chunk in pieces(response):
            if deadline_at is not None and time.monotonic() > deadline_at:
                exchange.check_time()
            counted(len(chunk))
            yield from frames(chunk)
            if parser.done:
                break
        else:
            if watchdog is not None:
                exchange.check_time()  # the watchdog may have ended the body early
            yield from rest()
        if parser.done and ended is not None:
            ended()
    except httpx.HTTPError as error:
        raise exchange.transport_error(error, received=parser.frames > 0) from None
    finally:
        if watchdog is not None:
            watchdog.stop()
        response.close()
