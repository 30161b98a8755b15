"""The async half of the core's HTTP I/O (the decisions are the exchange's, :mod:`._exchange`).

A response is read through a small reply object: httpx's response (:class:`_HttpxReply`), or, on
modelport's aiohttp transport, aiohttp's own (``_aiohttp.Reply``) with no httpx response built; the
body is read with plain ``await read()`` loops, no generator layer per chunk of our own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from ._exchange import Body, Exchange, Head, StreamSize, log
from ._inflate import Inflater, encoding_of, inflated_encoding
from ._kept import kept_frames
from ._lines import JsonLinesParser
from ._sync import answer

if TYPE_CHECKING:
    from ..deadlines import Deadline
    from ._endpoint import Endpoint
    from ._types import HttpRequest, HttpResponse

__all__ = ["abody_of", "asend", "asend_json", "astream_frames"]


class _AReply(Head, Protocol):
    """A response as the async functions read it: its head, and its body chunk by chunk."""

    #: The core's bounded inflater for a gzip or deflate body (``read`` gives it the raw chunks).
    inflater: Inflater | None

    async def read(self) -> bytes:
        """The next chunk of the body, ``b""`` at its end."""

    async def aclose(self) -> None: ...


class _HttpxReply:
    """An :class:`httpx.Response` as the async functions read it (see ``_aiohttp.Reply`` for aiohttp's).

    ``read()`` takes each chunk from ``aiter_raw`` when the core inflates the body or it has no
    content-encoding (as the sync ``stream_frames`` does), from ``aiter_bytes`` otherwise (an
    encoding only httpx decodes, or a body a mock transport already holds): one generator layer
    per chunk fewer than ``aiter_bytes``, and none of our own.
    """

    __slots__ = ("_next", "_source", "headers", "inflater", "request", "response", "status_code")

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.status_code = response.status_code
        self.headers = response.headers
        self.request = response.request
        consumed = response.is_stream_consumed
        encoding = None if consumed else encoding_of(response)
        self.inflater = None if encoding is None else Inflater(encoding)
        raw = encoding is not None or (not consumed and "content-encoding" not in response.headers)
        self._source = response.aiter_raw() if raw else response.aiter_bytes()
        self._next = self._source.__anext__

    async def read(self) -> bytes:
        try:
            return await self._next()
        except StopAsyncIteration:
            return b""

    async def aclose(self) -> None:
        await self._source.aclose()  # type: ignore[attr-defined]  # httpx's are async generators
        await self.response.aclose()


def _lean_send(exchange: Exchange, client: httpx.AsyncClient) -> Awaitable[Any] | None:
    """The first hop sent on modelport's aiohttp transport from the exchange's parts (no
    :class:`httpx.Request` built, no coroutine of ours around the transport's: P4a), as the
    transport's awaitable; ``None`` where :func:`_asend` must send it."""
    direct = exchange.direct
    if direct is None or exchange.lean is None or client.cookies:
        return None
    areply_lean = getattr(direct, "areply_lean", None)
    return None if areply_lean is None else areply_lean(exchange)  # type: ignore[no-any-return]


async def _asend(exchange: Exchange, client: httpx.AsyncClient, request: httpx.Request | None) -> _AReply:
    """Async twin of :func:`_send`, returning the response as the async functions read it
    (``request`` ``None``: the exchange's own request, on the first hop).

    On modelport's aiohttp transport the request goes to its aiohttp session itself and the answer
    is read from aiohttp's response, with no httpx request/response machinery around it (P4a).
    """
    direct = exchange.direct
    request = request or exchange.request
    if direct is None or client.cookies:
        response = await client.send(request, stream=True, auth=exchange.auth, follow_redirects=False)
        return _HttpxReply(response)
    reply = await direct.areply(request) if hasattr(direct, "areply") else None
    if reply is None:
        response = await direct.handle_async_request(request)
        response.request = request
        if "set-cookie" in response.headers:
            client.cookies.extract_cookies(response)
        return _HttpxReply(response)
    return _read_as_sent(reply, client)


def _read_as_sent(reply: Any, client: httpx.AsyncClient) -> _AReply:
    """An aiohttp reply (``_aiohttp.Reply``) as the core reads it: its cookies kept in the client's
    jar, and its body inflated by the core, or read through httpx for an encoding only httpx reads."""
    raw = reply.raw
    if "set-cookie" in raw:
        head = httpx.Response(reply.status_code, headers=reply.headers, request=reply.request)
        client.cookies.extract_cookies(head)
    coding = raw.get("content-encoding")
    if coding is not None:
        encoding = inflated_encoding(coding) if len(raw.getall("content-encoding")) == 1 else None
        if encoding is None:  # an encoding only httpx's decoders read: read it through httpx
            return _HttpxReply(reply.as_httpx())
        reply.inflater = Inflater(encoding)
    return reply  # type: ignore[no-any-return]


async def _aopen(exchange: Exchange, client: httpx.AsyncClient) -> _AReply:
    request: httpx.Request | None = None  # the exchange's own, built only where httpx needs it
    hops = 0
    debug = log.isEnabledFor(logging.DEBUG)
    while True:
        started = time.perf_counter() if debug else 0.0
        try:
            lean = _lean_send(exchange, client) if request is None else None
            if lean is not None:
                reply = _read_as_sent(await lean, client)
            else:
                reply = await _asend(exchange, client, request)
        except httpx.HTTPError as error:
            exchange.sent(request or exchange.request)
            if debug:
                exchange.logged(request or exchange.request, None, started, error)
            raise exchange.transport_error(error, received=False) from None
        except httpx.InvalidURL as error:
            raise exchange.transport_error(error, received=False) from None
        if exchange.direct is None:  # an auth flow may have changed what was sent
            exchange.sent(reply.request)
        if debug:
            exchange.logged(reply.request, reply.status_code, started, None)
        if reply.status_code < 300:  # neither a redirect nor an error
            return reply
        try:
            follow = exchange.redirect(reply, hops)
            if follow is None:
                body = await _aread(exchange, reply, exchange.limits.max_error_body_bytes)
                raise exchange.error(reply, body)
        except BaseException:
            await reply.aclose()
            raise
        await reply.aclose()
        request, hops = follow, hops + 1


def _reader(exchange: Exchange, reply: _AReply) -> Callable[[], Awaitable[bytes]]:
    """``reply.read``; for an exchange whose read timeout would outlast the call's deadline
    (``tight``), each read bounded by what is left of it (a timeout bounds one read, not a trickle)."""
    read = reply.read
    if not exchange.tight:
        return read
    deadline = exchange.deadline

    async def bounded() -> bytes:
        import asyncio

        try:
            return await asyncio.wait_for(read(), deadline.remaining())
        except asyncio.TimeoutError:
            raise httpx.ReadTimeout("the call's deadline passed during a read") from None

    return bounded


async def _aread(exchange: Exchange, reply: _AReply, limit: int, *, truncate: bool = True) -> bytes:
    body = Body(exchange, limit, truncate=truncate)
    read, inflater, add = _reader(exchange, reply), reply.inflater, body.add
    try:
        if inflater is None:
            while chunk := await read():
                if not add(chunk):
                    break
        else:
            while chunk := await read():
                if not all(map(add, inflater.feed(chunk))):
                    break
    except httpx.HTTPError as error:
        raise exchange.transport_error(error, received=False) from None
    return body.bytes()


async def asend_json(
    endpoint: Endpoint, spec: HttpRequest, *, allow_empty: bool = False, model: str | None = None
) -> Any:
    """Async twin of :func:`send_json`."""
    exchange, _, body = await abody_of(endpoint, spec, model)
    if allow_empty and not body.strip():
        return None
    return exchange.json(body)


async def abody_of(
    endpoint: Endpoint, spec: HttpRequest, model: str | None
) -> tuple[Exchange, _AReply, bytes]:
    """Async twin of ``body_of``: the exchange, the (closed) reply and the whole body."""
    clients = endpoint.clients
    client = clients.loop_client() or await clients.async_client()
    exchange = Exchange(endpoint, spec, client, model)
    reply = await _aopen(exchange, client)
    try:
        return (
            exchange,
            reply,
            await _aread(exchange, reply, exchange.limits.max_response_bytes, truncate=False),
        )
    finally:
        await reply.aclose()


async def asend(endpoint: Endpoint, spec: HttpRequest, *, model: str | None = None) -> HttpResponse:
    """Async twin of :func:`send`."""
    return answer(*await abody_of(endpoint, spec, model))


async def astream_frames(
    endpoint: Endpoint,
    spec: HttpRequest,
    *,
    model: str | None = None,
    ended: Callable[[], object] | None = None,
    deadline: Deadline | None = None,
    size: StreamSize | None = None,
    lines: bool = False,
    bad_lines: bool = False,
) -> AsyncGenerator[Any, None]:
    """Async twin of :func:`stream_frames`."""
    client = await endpoint.clients.async_client()
    exchange = Exchange(endpoint, spec, client, model, deadline)
    parser = (
        JsonLinesParser(exchange.name, exchange.limits.max_frame_bytes, keep_bad=bad_lines)
        if lines
        else exchange.parser()
    )
    reply = await _aopen(exchange, client)
    if size is None:
        size = StreamSize(exchange.limits.max_stream_bytes, exchange.name)
    counted, deadline_at = size.add, exchange.deadline_at
    read, inflater = _reader(exchange, reply), reply.inflater
    # The kit reads its own parser through the fast entry; what it keeps is scrubbed (:mod:`._kept`).
    frames, rest = kept_frames(exchange, parser._frames, parser.close)
    try:
        while chunk := await read():
            for piece in (chunk,) if inflater is None else inflater.feed(chunk):
                if deadline_at is not None and time.monotonic() > deadline_at:
                    exchange.check_time()
                counted(len(piece))
                for frame in frames(piece):
                    yield frame
                if parser.done:
                    break
            if parser.done:
                break
        else:
            for frame in rest():
                yield frame
        if parser.done and ended is not None:
            ended()
    except httpx.HTTPError as error:
        raise exchange.transport_error(error, received=parser.frames > 0) from None
    finally:
        await reply.aclose()
