"""The aiohttp-backed async client modelport builds by default when ``modelport[aiohttp]`` is installed.

Imported only when the first async client is created (never by ``import modelport`` or ``get_model``).
It is ``httpx-aiohttp``'s transport under an ordinary :class:`httpx.AsyncClient`, with three
guarantees of the core made explicit rather than left to the transport's defaults:

- the aiohttp session never decompresses (``auto_decompress=False``): the core inflates gzip and
  deflate itself, 64 KiB at a time, so a gzip bomb stops at the size limit;
- every aiohttp exception becomes the httpx exception httpx's own transport would raise for the
  same failure (a refused connection ``ConnectError``, a read stall ``ReadTimeout``, a malformed
  answer or a dropped connection ``RemoteProtocolError``...), so the core maps it to the same typed
  modelport error; ``httpx-aiohttp`` maps only some of them, some to a misleading class;
- redirects are never followed by aiohttp (the core judges them: never across origins).

Proxies from the environment work as with httpx: the client mounts a transport per proxy.

Without a proxy the core skips the httpx machinery on the hot path (P4a): it hands the request to
:meth:`_Transport.areply`, which sends it on the aiohttp session itself and returns aiohttp's
response as a :class:`Reply` (status, headers, ``read()`` chunk by chunk), with the same three
guarantees and the same exception mapping; the core judges it with the same ``Exchange`` methods.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from functools import lru_cache
from typing import Any, NoReturn

import aiohttp
import httpx
from httpx_aiohttp import AiohttpTransport
from httpx_aiohttp.transport import AiohttpResponseStream

__all__ = ["AiohttpClient", "async_client"]

# aiohttp's timeouts: ``ConnectionTimeoutError`` and ``SocketTimeoutError`` exist since 3.10.
_CONNECT_TIMEOUT = getattr(aiohttp, "ConnectionTimeoutError", None)
_READ_TIMEOUT = getattr(aiohttp, "SocketTimeoutError", None)
_BAD_URL = tuple(
    cls
    for cls in (
        aiohttp.InvalidURL,
        getattr(aiohttp, "NonHttpUrlClientError", None),
        getattr(aiohttp, "InvalidUrlClientError", None),
    )
    if cls is not None
)


def _httpx_error(error: BaseException, *, reading: bool) -> httpx.TransportError | None:
    """The httpx exception httpx's own transport raises for the failure behind ``error`` (an aiohttp
    exception, or httpx-aiohttp's mapping of one), else ``None`` (``reading``: the head has arrived)."""
    if isinstance(error, httpx.TransportError):
        cause = error.__cause__  # httpx-aiohttp's own mapping: judge the aiohttp exception again
        if not isinstance(cause, (aiohttp.ClientError, asyncio.TimeoutError)):
            return None
        error = cause
    if isinstance(error, ValueError) and not isinstance(error, aiohttp.ClientError):
        # aiohttp refuses to write the request (a header with a line break...): never sent.
        return None if reading else httpx.LocalProtocolError(str(error))
    if not isinstance(error, (aiohttp.ClientError, asyncio.TimeoutError)):
        return None
    message = str(error) or type(error).__name__
    kind: type[httpx.TransportError]
    if _BAD_URL and isinstance(error, _BAD_URL):
        kind = httpx.UnsupportedProtocol
    elif isinstance(error, (aiohttp.ClientProxyConnectionError, aiohttp.ClientHttpProxyError)):
        kind = httpx.ProxyError
    elif _CONNECT_TIMEOUT is not None and isinstance(error, _CONNECT_TIMEOUT):
        kind = httpx.ConnectTimeout
    elif isinstance(error, (aiohttp.ServerTimeoutError, asyncio.TimeoutError)):
        kind = httpx.ReadTimeout  # the socket read timeout (aiohttp's sock_read)
    elif isinstance(error, aiohttp.ClientConnectorError):
        kind = httpx.ConnectError
    elif isinstance(error, (aiohttp.ServerDisconnectedError, aiohttp.ClientResponseError)):
        kind = httpx.RemoteProtocolError  # no (complete) answer, or not HTTP
    elif isinstance(error, aiohttp.ClientPayloadError):
        kind = httpx.RemoteProtocolError  # the body ended early or is malformed (httpx says the same)
    elif reading:
        kind = httpx.ReadError
    elif isinstance(error, aiohttp.ClientOSError):
        kind = httpx.WriteError  # the connection broke while the request was sent
    elif isinstance(error, aiohttp.ClientConnectionError):
        kind = httpx.ConnectError
    else:
        kind = httpx.TransportError
    return kind(message)


_MAPPED = (httpx.TransportError, aiohttp.ClientError, asyncio.TimeoutError, ValueError)


def _raise_mapped(error: BaseException, *, reading: bool) -> NoReturn:
    """Raise the httpx exception for ``error`` (from it), or ``error`` itself when it has none."""
    mapped = _httpx_error(error, reading=reading)
    if mapped is None:
        raise error
    raise mapped from error


class _Body(httpx.AsyncByteStream):
    """The response body, with aiohttp's exceptions mapped like the head's."""

    __slots__ = ("_inner",)

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._inner:
                yield chunk
        except _MAPPED as error:
            _raise_mapped(error, reading=True)

    async def aclose(self) -> None:
        try:
            await self._inner.aclose()
        except _MAPPED as error:
            _raise_mapped(error, reading=True)


class Reply:
    """An aiohttp response as the core reads it, with no httpx object around it (P4a).

    ``status_code``, ``request`` (the one it answers) and ``headers`` (an :class:`httpx.Headers`,
    built only when asked: for an error, a redirect, a cookie or :func:`asend`'s answer) are what
    :class:`~modelport.http._exchange.Exchange` judges; ``raw`` is aiohttp's header view for the two
    lookups of every call. ``read()`` is the next chunk of the body as received (``b""`` at its
    end), with aiohttp's exceptions mapped like the transport's; the core sets ``inflater``.
    """

    __slots__ = ("_headers", "_request", "_response", "inflater", "raw", "status_code")

    def __init__(self, response: aiohttp.ClientResponse, request: httpx.Request | Any) -> None:
        self._response = response
        self._headers: httpx.Headers | None = None
        self._request = request  # an httpx.Request, or what builds one on use (the core's exchange)
        self.raw = response.headers
        self.status_code = response.status
        self.inflater: Any = None  # the core's bounded inflater, when the body is gzip or deflate

    @property
    def request(self) -> httpx.Request:
        request = self._request
        return request if isinstance(request, httpx.Request) else request.request  # type: ignore[no-any-return]

    @property
    def headers(self) -> httpx.Headers:
        if self._headers is None:
            self._headers = httpx.Headers(self._response.raw_headers)
        return self._headers

    async def read(self) -> bytes:
        try:
            return await self._response.content.readany()
        except _MAPPED as error:
            _raise_mapped(error, reading=True)

    async def aclose(self) -> None:
        """What ``async with`` does at the end of an aiohttp response (the connection goes back to
        the pool only when the body was read to its end)."""
        response = self._response
        try:
            response.release()
            await response.wait_for_close()
        except _MAPPED as error:
            _raise_mapped(error, reading=True)

    def as_httpx(self) -> httpx.Response:
        """The :class:`httpx.Response` the transport itself makes of this response (for a body in an
        encoding only httpx's decoders read: ``br``, ``zstd``, several...)."""
        response = self._response
        extensions = {"http_version": b"HTTP/1.1"}
        if response.reason:
            extensions["reason_phrase"] = response.reason.encode()
        return httpx.Response(
            status_code=response.status,
            headers=response.raw_headers,
            stream=_Body(AiohttpResponseStream(response)),
            request=self.request,
            extensions=extensions,
        )


@lru_cache(maxsize=64)
def _timeout(connect: float | None, read: float | None, pool: float | None) -> aiohttp.ClientTimeout:
    return aiohttp.ClientTimeout(sock_connect=connect, sock_read=read, connect=pool)


class _Transport(AiohttpTransport):
    """``httpx-aiohttp``'s transport on a session that never decompresses nor follows redirects."""

    async def areply(self, request: httpx.Request) -> Reply | None:
        """Send ``request`` on the session itself and return the answer's head as a :class:`Reply`
        (what :meth:`handle_async_request` sends, without building an :class:`httpx.Response`), or
        ``None`` when this transport goes through a proxy (then the core uses the httpx path)."""
        if self.proxy is not None:
            return None
        try:
            body = request.content or None
        except httpx.RequestNotRead:  # a streamed body: httpx-aiohttp's own path sends it
            return None
        extensions = request.extensions
        return await self._send(
            request.method,
            str(request.url),
            request.headers,
            body,
            extensions.get("timeout", {}),
            request,
            extensions.get("sni_hostname"),
        )

    def areply_lean(self, exchange: Any) -> Awaitable[Reply] | None:
        """:meth:`areply` for the core's exchange on a client modelport built, from its parts, as the
        awaitable that sends it (the core awaits it: no coroutine layer of ours in between), or
        ``None`` through a proxy. No :class:`httpx.Request` is built unless something asks the
        reply for it (a redirect, an error, a cookie)."""
        if self.proxy is not None:
            return None
        method, url, _, headers, body, timeout = exchange.lean
        return self._send(method, str(url), headers, body, timeout, exchange)

    async def _send(
        self,
        method: str,
        url: str,
        headers: Any,
        body: bytes | None,
        timeout: Any,
        request: Any,
        server_hostname: str | None = None,
    ) -> Reply:
        session = self.client
        if not isinstance(session, aiohttp.ClientSession):
            session = self.client = self._session()
        try:
            response = await session.request(
                method,
                url,
                headers=headers,
                data=body,
                allow_redirects=False,
                auto_decompress=False,
                compress=False,
                timeout=_timeout(timeout.get("connect"), timeout.get("read"), timeout.get("pool")),
                server_hostname=server_hostname,
            )
        except _MAPPED as error:
            _raise_mapped(error, reading=False)
        return Reply(response, request)

    def _session(self) -> aiohttp.ClientSession:
        limits = self.limits
        connector = aiohttp.TCPConnector(
            keepalive_timeout=limits.keepalive_expiry,
            ssl=self.ssl_context,
            local_addr=(self.local_address, 0) if self.local_address else None,
            limit=limits.max_connections or 0,
        )
        return aiohttp.ClientSession(connector=connector, auto_decompress=False)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if not isinstance(self.client, aiohttp.ClientSession):
            self.client = self._session()
        try:
            response = await super().handle_async_request(request)
        except _MAPPED as error:
            _raise_mapped(error, reading=False)
        response.stream = _Body(response.stream)
        return response


class AiohttpClient(httpx.AsyncClient):
    """An :class:`httpx.AsyncClient` whose transports (the direct one and any proxy's) run on aiohttp."""

    def _init_transport(
        self,
        verify: Any = True,
        cert: Any = None,
        trust_env: bool = True,
        http1: bool = True,
        http2: bool = False,
        limits: httpx.Limits = httpx._config.DEFAULT_LIMITS,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> httpx.AsyncBaseTransport:
        if transport is not None:
            return transport
        return _Transport(verify=verify, cert=cert, trust_env=trust_env, limits=limits)

    def _init_proxy_transport(
        self,
        proxy: httpx.Proxy,
        verify: Any = True,
        cert: Any = None,
        trust_env: bool = True,
        http1: bool = True,
        http2: bool = False,
        limits: httpx.Limits = httpx._config.DEFAULT_LIMITS,
    ) -> httpx.AsyncBaseTransport:
        return _Transport(verify=verify, cert=cert, trust_env=trust_env, limits=limits, proxy=proxy)


def async_client(timeout: httpx.Timeout) -> tuple[httpx.AsyncClient, httpx.AsyncBaseTransport]:
    """A new aiohttp-backed async client (one per event loop; the caller closes it with the loop),
    and its transport for URLs no proxy serves."""
    transport = _Transport()
    return AiohttpClient(transport=transport, timeout=timeout), transport
