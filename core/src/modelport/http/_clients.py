"""The HTTP clients a provider sends on: built lazily, shared, one async client per event loop.

:class:`HttpClients` is what :attr:`modelport.provider.Provider.http` holds. It knows the client
configuration (injected clients, a transport, timeouts, the async transport choice) and nothing of
providers or of the HTTP kit, which sends through it.
"""

from __future__ import annotations

import functools
import threading
import urllib.request
import weakref
from collections.abc import AsyncGenerator, Callable
from typing import Any, Protocol

import httpx

from ..errors import ConfigurationError, InvalidRequestError

__all__ = ["DEFAULT_TIMEOUT", "ClientConfig", "HttpClients", "check_async_transport"]

#: Default timeouts: connect quickly, allow long generations between bytes.
DEFAULT_TIMEOUT = httpx.Timeout(connect=10.0, read=120.0, write=30.0, pool=10.0)


class ClientConfig(Protocol):
    """What :class:`HttpClients` reads of a :class:`~modelport.provider.ProviderConfig`."""

    @property
    def http_client(self) -> httpx.Client | None: ...
    @property
    def async_http_client(self) -> httpx.AsyncClient | None: ...
    @property
    def transport(self) -> httpx.BaseTransport | httpx.AsyncBaseTransport | None: ...
    @property
    def timeout(self) -> float | httpx.Timeout | None: ...
    @property
    def async_transport(self) -> str: ...


#: The values of ``async_transport`` (``get_model``'s keyword, :attr:`ProviderConfig.async_transport`).
_ASYNC_TRANSPORTS = ("auto", "aiohttp", "httpx")


@functools.lru_cache(maxsize=1)
def _aiohttp_installed() -> bool:
    """Whether ``modelport[aiohttp]`` (``httpx-aiohttp`` and ``aiohttp``) is installed; imports neither."""
    import importlib.util

    try:
        return all(importlib.util.find_spec(name) is not None for name in ("aiohttp", "httpx_aiohttp"))
    except (ImportError, ValueError):
        return False


def _aiohttp_client(
    choice: str, timeout: httpx.Timeout
) -> tuple[httpx.AsyncClient, httpx.AsyncBaseTransport] | None:
    """A new aiohttp-backed client; ``None`` (use httpx's) when ``"auto"`` finds aiohttp broken."""
    try:
        from ._aiohttp import async_client  # imports aiohttp: only now, for the first async client
    except ImportError as error:
        if choice == "aiohttp":
            from ..errors import ConfigurationError

            raise ConfigurationError(
                f"async_transport='aiohttp' cannot import aiohttp ({error}); "
                "pip install 'modelport[aiohttp]', or pass async_transport='httpx'"
            ) from None
        import logging

        logging.getLogger("modelport").warning(
            "aiohttp is installed but cannot be imported (%s); async calls use httpx's transport", error
        )
        return None
    return async_client(timeout)


def _uses_aiohttp(choice: str) -> bool:
    """Whether an async client modelport builds runs on aiohttp (``choice``: ``async_transport``)."""
    if choice == "httpx":
        return False
    if choice == "aiohttp":
        return True
    return _aiohttp_installed()


#: ``asyncio.get_running_loop``, once the first async client is made (``import modelport`` does not
#: import asyncio).
_running_loop: Callable[[], Any] | None = None


class HttpClients:
    """Lazily built, shared httpx clients (thread- and task-safe first use).

    An injected client is used as is and never closed by us. Otherwise one pooled sync client is
    created on first use, and one async client per event loop: a pooled connection belongs to the
    loop that opened it. The async client runs on aiohttp when ``modelport[aiohttp]`` is installed
    (and neither ``async_transport="httpx"`` nor an async ``transport`` says otherwise). Each
    loop's client is closed when that loop shuts down (``asyncio.run`` finalises asynchronous
    generators before it closes the loop, and a sentinel generator of ours closes the client then),
    so neither the client, its sockets nor the loop outlive the loop.
    After :meth:`close`, every call raises a ``ConfigurationError``.
    """

    def __init__(self, config: ClientConfig) -> None:
        self._config = config
        self._lock = threading.Lock()
        self._sync: httpx.Client | None = config.http_client
        self._owns_sync = False
        self._async_by_loop: dict[int, tuple[httpx.AsyncClient, Any, Any]] = {}
        self._direct: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
        self.closed = False

    def _direct_for(self, client: Any, transport: Any) -> None:
        # Proxies from the environment mount transports per URL pattern; without any, every URL
        # goes to ``transport`` and the core may hand requests to it itself (see ``direct``).
        if not urllib.request.getproxies():
            self._direct[client] = transport

    def built(self, client: httpx.Client | httpx.AsyncClient) -> bool:
        """Whether ``client`` is one modelport built (not the caller's injected one)."""
        config = self._config
        return client is not config.http_client and client is not config.async_http_client

    def direct(self, client: httpx.Client | httpx.AsyncClient) -> Any:
        """The transport that serves every request of ``client``, when modelport built ``client``
        (no event hooks, no mounts, no proxies): the core sends through it directly, skipping the
        client's auth, redirect and hook machinery it does not use (P2, P4). ``None`` otherwise."""
        return self._direct.get(client)

    def _timeout(self) -> httpx.Timeout:
        timeout = self._config.timeout
        if timeout is None:
            return DEFAULT_TIMEOUT
        return timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)

    def _check_open(self) -> None:
        if self.closed:
            from ..errors import ConfigurationError

            raise ConfigurationError("this model was closed; create a new one with get_model()")

    def sync(self) -> httpx.Client:
        """The synchronous client."""
        self._check_open()
        client = self._sync
        if client is None:
            with self._lock:
                if self._sync is None:
                    transport = self._config.transport
                    if transport is not None and not isinstance(transport, httpx.BaseTransport):
                        raise InvalidRequestError("an async transport cannot serve sync calls")
                    transport = transport or httpx.HTTPTransport()  # what httpx.Client would make
                    self._sync = httpx.Client(transport=transport, timeout=self._timeout())
                    self._owns_sync = True
                    self._direct_for(self._sync, transport)
                client = self._sync
        return client

    def loop_client(self) -> httpx.AsyncClient | None:
        """The asynchronous client already made for the running event loop, else ``None`` (then
        :meth:`async_client` makes it): no coroutine per call once it exists (P4)."""
        if self.closed:
            return None
        injected = self._config.async_http_client
        if injected is not None:
            return injected
        if _running_loop is None:  # no async client made yet (asyncio is imported on first use)
            return None
        loop = _running_loop()
        entry = self._async_by_loop.get(id(loop))
        return entry[0] if entry is not None and entry[1] is loop else None

    async def async_client(self) -> httpx.AsyncClient:
        """The asynchronous client for the running event loop."""
        self._check_open()
        import asyncio

        global _running_loop
        _running_loop = asyncio.get_running_loop
        made = self.loop_client()  # the injected client, or this loop's, when there is one
        if made is not None:
            return made
        loop = _running_loop()
        transport = self._config.transport
        if transport is not None and not isinstance(transport, httpx.AsyncBaseTransport):
            raise InvalidRequestError("a sync transport cannot serve async calls")
        built = None
        if transport is None and _uses_aiohttp(self._config.async_transport):
            built = _aiohttp_client(self._config.async_transport, self._timeout())
        if built is None:
            transport = transport or httpx.AsyncHTTPTransport()  # what httpx.AsyncClient would make
            built = httpx.AsyncClient(transport=transport, timeout=self._timeout()), transport
        client = built[0]
        self._direct_for(client, built[1])
        sentinel = self._close_with_loop(id(loop), client)
        await sentinel.asend(None)  # started inside the loop: the loop will finalise it at shutdown
        with self._lock:
            self._async_by_loop[id(loop)] = (client, loop, sentinel)
        return client

    async def _close_with_loop(self, key: int, client: httpx.AsyncClient) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            with self._lock:
                entry = self._async_by_loop.get(key)
                if entry is not None and entry[0] is client:
                    del self._async_by_loop[key]
            await client.aclose()

    def close(self) -> None:
        """Close the sync client this object created; later calls raise ``ConfigurationError``."""
        self.closed = True
        if self._owns_sync and self._sync is not None:
            self._sync.close()

    async def aclose(self) -> None:
        """Close the clients this object created (the async one of the running loop)."""
        import asyncio

        self.close()
        entry = self._async_by_loop.pop(id(asyncio.get_running_loop()), None)
        if entry is not None:
            await entry[0].aclose()


def check_async_transport(choice: object, async_http_client: object, transport: object) -> None:
    """``async_transport`` is one of its values, installed when it must be, and not contradicted."""
    if not isinstance(choice, str) or choice not in _ASYNC_TRANSPORTS:
        import difflib

        if isinstance(choice, str):
            shown = (
                repr(choice) if len(choice) <= 40 else repr(choice[:40]) + f"... [{len(choice) - 40} more]"
            )
            match = difflib.get_close_matches(choice.strip().lower(), _ASYNC_TRANSPORTS, n=1, cutoff=0.6)
        else:
            shown, match = type(choice).__name__, []
        hint = f" (did you mean {match[0]!r}?)" if match else ""
        raise ConfigurationError(f"async_transport must be 'auto', 'aiohttp' or 'httpx', got {shown}{hint}")
    if choice == "auto":
        return
    if async_http_client is not None or isinstance(transport, httpx.AsyncBaseTransport):
        given = "async_http_client" if async_http_client is not None else "an async transport"
        raise ConfigurationError(
            f"async_transport={choice!r} has no effect with {given}, which async calls use as is; "
            "pass one or the other"
        )
    if choice == "aiohttp" and not _aiohttp_installed():
        raise ConfigurationError(
            "async_transport='aiohttp' needs aiohttp and httpx-aiohttp: pip install 'modelport[aiohttp]'"
        )
