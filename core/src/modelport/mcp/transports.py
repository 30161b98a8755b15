"""Opening an MCP server: as a subprocess over stdio (:func:`stdio`) or over streamable HTTP
(:func:`http`). Nothing starts until the returned :class:`~modelport.mcp.McpServer` is opened."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from ..errors import InvalidRequestError
from .results import McpError
from .server import DEFAULT_TIMEOUT, McpServer

if TYPE_CHECKING:
    import httpx

__all__ = ["http", "stdio"]


def _sdk() -> None:
    """Check that the ``mcp`` SDK is installed (the ``modelport[mcp]`` extra)."""
    import importlib.util

    if importlib.util.find_spec("mcp") is None:
        from ..errors import ConfigurationError

        raise ConfigurationError("MCP servers need the mcp SDK: pip install 'modelport[mcp]'")


def stdio(
    command: str,
    args: Sequence[str] = (),
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    name: str | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    connect_timeout: float | None = DEFAULT_TIMEOUT,
) -> McpServer:
    """An MCP server run as a subprocess, spoken to over its stdin and stdout (nothing starts until
    the server is opened). ``connect_timeout`` bounds the start and the handshake, ``timeout`` every
    request after it. ``env`` replaces the SDK's default environment for the process."""
    _sdk()
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    if not isinstance(command, str) or not command:
        raise InvalidRequestError("stdio needs the command that starts the server")
    if isinstance(args, str):
        raise InvalidRequestError("args must be a list of arguments, not a string")
    parameters = StdioServerParameters(
        command=command, args=list(args), env=dict(env) if env is not None else None, cwd=cwd
    )
    shown = name or " ".join([os.path.basename(command), *args])
    return McpServer(
        lambda: stdio_client(parameters), name=shown, timeout=timeout, connect_timeout=connect_timeout
    )


def http(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    auth: httpx.Auth | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    name: str | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    connect_timeout: float | None = DEFAULT_TIMEOUT,
) -> McpServer:
    """An MCP server over streamable HTTP at ``url``, with extra ``headers`` (an API key) or an
    ``httpx.Auth`` (the SDK's OAuth provider is one), through an httpx ``transport`` of your own
    (a proxy, a test's ``httpx.MockTransport``). Header values are never shown in errors."""
    _sdk()
    import httpx

    if not isinstance(url, str) or httpx.URL(url).scheme not in ("http", "https"):
        raise InvalidRequestError(f"http needs an http:// or https:// URL, got {url!r}")
    given = dict(headers or {})

    def opened() -> AbstractAsyncContextManager[Any]:
        from mcp.client import streamable_http

        if hasattr(streamable_http, "streamable_http_client"):
            return _with_client(url, given, auth, transport)
        if transport is not None:
            raise McpError("transport= needs an mcp SDK with streamable_http_client")
        return streamable_http.streamablehttp_client(url, headers=given, auth=auth)  # older SDKs

    host = httpx.URL(url)
    shown = name or f"{host.host}{host.path}"
    # Every header value and query value may be a credential: none is shown in an error.
    secrets = [*given.values(), *(value for _, value in host.params.multi_items())]
    return McpServer(opened, name=shown, timeout=timeout, connect_timeout=connect_timeout, secrets=secrets)


@asynccontextmanager
async def _with_client(
    url: str, headers: dict[str, str], auth: httpx.Auth | None, transport: httpx.AsyncBaseTransport | None
) -> AsyncIterator[Any]:
    import httpx
    from mcp.client.streamable_http import streamable_http_client

    # The SDK's recommended timeouts: the read is long, the server streams its answers.
    timeout = httpx.Timeout(30.0, read=300.0)
    async with (
        httpx.AsyncClient(headers=headers, auth=auth, timeout=timeout, transport=transport) as client,
        streamable_http_client(url, http_client=client) as streams,
    ):
        yield streams
