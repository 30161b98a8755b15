"""One connection to an MCP server, on the official ``mcp`` SDK: opened over stdio or streamable
HTTP, listing its tools and calling them, closed on every path.

A server is opened as a context manager, sync or async::

    with modelport.mcp.stdio("python", ["server.py"]) as server:        # sync code
        model.run(prompt=..., tools=server.tools())

    async with modelport.mcp.http("http://127.0.0.1:8000/mcp") as server:  # async code
        await model.arun(prompt=..., tools=await server.atools())

``async with`` runs the session on the caller's event loop; ``with`` runs it on an event loop of its
own in a helper thread (an anyio blocking portal), so its tools serve ``run``, ``run_stream`` and
``arun`` alike. Leaving the block closes the session and its transport (the server process is
stopped, the HTTP session deleted) whether the block ends normally, by an exception or by
cancellation.

Every request waits at most ``timeout`` seconds, and never past the current
:mod:`modelport.deadlines` deadline (the tool loop's step, a ``Deadline.applied()`` block); a server
that does not answer in time is an :class:`McpTimeoutError`. A server that cannot be started or
reached, or fails the ``initialize`` handshake, is an :class:`McpConnectionError` raised when the
block is entered, before any model call. A ``notifications/tools/list_changed`` from the server
makes the next :meth:`McpServer.tools` list the tools again.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from .. import deadlines
from ..errors import InvalidRequestError
from .results import McpError

if TYPE_CHECKING:
    from anyio.from_thread import BlockingPortal
    from mcp import ClientSession, types

    from .tool import McpTool

__all__ = ["McpConnectionError", "McpServer", "McpTimeoutError", "UnknownMcpToolError"]

#: Seconds a server has to start and finish the ``initialize`` handshake, and the default bound of
#: every request after it.
DEFAULT_TIMEOUT = 30.0


def _hangup_errors() -> tuple[type[BaseException], ...]:
    import anyio

    return (anyio.BrokenResourceError, anyio.ClosedResourceError)


Transport = Callable[[], AbstractAsyncContextManager[Any]]


class McpConnectionError(McpError):
    """The MCP server could not be started, reached or initialized, or its connection broke."""


class McpTimeoutError(McpError):
    """The MCP server did not answer a request within its time."""


class UnknownMcpToolError(McpError, InvalidRequestError):
    """A tool name the MCP server does not list."""


def _leaf(error: BaseException) -> BaseException:
    """The first error inside (nested) exception groups: the one worth naming."""
    while isinstance(getattr(error, "exceptions", None), tuple) and error.exceptions:  # type: ignore[attr-defined]
        error = error.exceptions[0]  # type: ignore[attr-defined]
    return error


def _describe(error: BaseException) -> str:
    leaf = _leaf(error)
    text = str(leaf)
    return f"{type(leaf).__name__}: {text}" if text else type(leaf).__name__


async def _close(stack: AsyncExitStack, *, quiet: bool = False) -> Exception | None:
    """Close the session and its transport. A server still writing while it is hung up on (the
    answer to a call given up on) breaks the SDK's reader: that is the close working, not an error.
    Any other error is raised, or, ``quiet`` (closing after a failure), returned."""
    try:
        await stack.aclose()
    except Exception as error:
        if all(isinstance(leaf, _hangup_errors()) for leaf in _leaves(error)):
            return None
        if quiet:
            return error
        raise
    return None


def _leaves(error: BaseException) -> list[BaseException]:
    inner = getattr(error, "exceptions", None)
    if isinstance(inner, tuple) and inner:
        return [leaf for item in inner for leaf in _leaves(item)]
    return [error]


class McpServer:
    """A connection to one MCP server; made by :func:`stdio` or :func:`http` (see the module)."""

    def __init__(
        self,
        transport: Transport,
        *,
        name: str,
        timeout: float | None = DEFAULT_TIMEOUT,
        connect_timeout: float | None = DEFAULT_TIMEOUT,
        secrets: Sequence[str] = (),
    ) -> None:
        for label, value in (("timeout", timeout), ("connect_timeout", connect_timeout)):
            if value is not None and (isinstance(value, bool) or not value > 0):
                raise InvalidRequestError(f"{label} must be a positive number of seconds, got {value!r}")
        self.name = name
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self._secrets = tuple(secret for secret in secrets if secret)
        self._transport = transport
        self._session: ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._portal: BlockingPortal | None = None
        self._portal_scope: Any = None
        self._scope: Any = None
        self._listed: list[types.Tool] | None = None

    def __repr__(self) -> str:
        state = "open" if self._session is not None else "closed"
        return f"<McpServer {self.name} ({state})>"

    # ------------------------------------------------------------------ opening and closing

    @asynccontextmanager
    async def _opened(self) -> AsyncIterator[McpServer]:
        from mcp import ClientSession

        if self._session is not None:
            raise McpError(f"MCP server {self.name} is already open")
        stack = AsyncExitStack()
        try:
            streams = await stack.enter_async_context(self._transport())
            session = ClientSession(streams[0], streams[1], message_handler=self._on_message)
            await stack.enter_async_context(session)
            request = session.initialize()
            await self._bounded(request, "initialize", self.connect_timeout, McpConnectionError)
        except BaseException as error:
            # The transport's own error, if it failed: its task group then cancelled this one, so a
            # cancellation with a broken transport is the transport's failure, not the caller's.
            broken = await _close(stack, quiet=True)
            if broken is None and (isinstance(error, McpConnectionError) or not isinstance(error, Exception)):
                raise
            text, cause = self._told(broken or error)
            raise McpConnectionError(f"could not connect to MCP server {self.name}: {text}") from cause
        self._session, self._loop, self._listed = session, asyncio.get_running_loop(), None
        try:
            yield self
        finally:
            self._session = self._loop = None
            await _close(stack)

    async def __aenter__(self) -> McpServer:
        scope = self._opened()
        server = await scope.__aenter__()
        self._scope = scope
        return server

    async def __aexit__(self, *exc_info: Any) -> None:
        scope, self._scope = self._scope, None
        if scope is not None:
            await scope.__aexit__(*exc_info)

    def __enter__(self) -> McpServer:
        from anyio.from_thread import start_blocking_portal

        portal_scope = start_blocking_portal()
        portal = portal_scope.__enter__()
        try:
            scope = portal.wrap_async_context_manager(self._opened())
            scope.__enter__()
        except BaseException as error:
            portal_scope.__exit__(type(error), error, error.__traceback__)
            raise
        self._portal, self._portal_scope, self._scope = portal, portal_scope, scope
        return self

    def __exit__(self, *exc_info: Any) -> None:
        scope, portal, portal_scope = self._scope, self._portal, self._portal_scope
        self._scope = self._portal = self._portal_scope = None
        try:
            if scope is not None:
                scope.__exit__(*exc_info)
        finally:
            if portal is not None:
                # A call still in flight (a tool loop's worker thread, given up on at a deadline or
                # a Ctrl-C) cannot be answered by the closed session: cancelled, not waited for.
                try:
                    portal.call(portal.stop, True)
                except RuntimeError:  # the portal already stopped
                    pass
            if portal_scope is not None:
                portal_scope.__exit__(None, None, None)

    async def _on_message(self, message: Any) -> None:
        from mcp import types

        if isinstance(message, types.ServerNotification) and isinstance(
            message.root, types.ToolListChangedNotification
        ):
            self._listed = None

    # ------------------------------------------------------------------ requests

    def _told(self, error: BaseException) -> tuple[str, BaseException | None]:
        """What an error says, credentials (the header values, anything shaped like a key)
        replaced; and the error to chain, unless its own text held one."""
        from ..errors import scrub

        raw = _describe(error)
        text = scrub(raw, self._secrets)
        return text, (_leaf(error) if text == raw else None)

    def _open(self) -> ClientSession:
        if self._session is None:
            raise McpError(f"MCP server {self.name} is not open (use it inside its with block)")
        return self._session

    def _time(self) -> float | None:
        """This request's time: ``timeout``, never past the current deadline."""
        deadline = deadlines.current()
        return self.timeout if deadline is None else deadline.clamp(self.timeout)

    async def _bounded(self, request: Any, what: str, seconds: float | None, error: type[McpError]) -> Any:
        import anyio

        if seconds is not None and seconds <= 0:
            request.close()
            raise McpTimeoutError(f"no time was left for {what} on MCP server {self.name}")
        try:
            with anyio.fail_after(seconds):
                return await request
        except TimeoutError:
            raise McpTimeoutError(
                f"MCP server {self.name} did not answer {what} within {seconds:g} s"
            ) from None
        except McpError:
            raise
        except Exception as failure:
            text, cause = self._told(failure)
            raise error(f"MCP server {self.name} failed on {what}: {text}") from cause

    async def _list(self, seconds: float | None) -> list[types.Tool]:
        session = self._open()
        if self._listed is None:
            listed: list[types.Tool] = []
            cursor: str | None = None
            while True:
                request = session.list_tools(cursor)
                page = await self._bounded(request, "tools/list", seconds, McpConnectionError)
                listed += page.tools
                cursor = page.nextCursor
                if not cursor:
                    break
            self._listed = listed
        return self._listed

    async def _call(
        self, name: str, arguments: dict[str, Any], seconds: float | None
    ) -> types.CallToolResult:
        session = self._open()
        # The SDK's own read timeout too, so that a response that never comes frees its slot.
        read = None if seconds is None else timedelta(seconds=seconds)
        request = session.call_tool(name, arguments, read_timeout_seconds=read)
        result: types.CallToolResult = await self._bounded(
            request, f"tools/call {name!r}", seconds, McpConnectionError
        )
        return result

    async def _run(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run ``function(*args)`` (a coroutine function) on the session's event loop, from any."""
        if self._portal is not None:
            future = self._portal.start_task_soon(function, *args)
            try:
                return await asyncio.wrap_future(future)
            except asyncio.CancelledError:
                future.cancel()
                raise
        self._open()
        if asyncio.get_running_loop() is not self._loop:
            raise McpError(
                f"MCP server {self.name} was opened with 'async with' on another event loop: use its"
                " tools from that loop (arun), or open it with 'with' for run and run_stream"
            )
        return await function(*args)

    def _sync(self, function: Callable[..., Any], *args: Any) -> Any:
        if self._portal is None:
            self._open()
            raise McpError(f"MCP server {self.name} was opened with 'async with': use its async methods")
        return self._portal.call(function, *args)

    # ------------------------------------------------------------------ the public face

    def list_tools(self) -> list[types.Tool]:
        """The server's tools as the SDK gives them (``tools/list``, every page)."""
        return list(self._sync(self._list, self._time()))

    async def alist_tools(self) -> list[types.Tool]:
        """Async twin of :meth:`list_tools`."""
        return list(await self._run(self._list, self._time()))

    def tools(self, names: Sequence[str] | None = None, *, prefix: str = "") -> list[McpTool]:
        """The server's tools as modelport tools, for ``tools=`` of ``generate``, ``stream`` and
        the tool loop: all of them, or those ``names`` (a name the server does not list is an
        :class:`UnknownMcpToolError`). ``prefix`` goes before each name the model sees (to tell
        apart the tools of several servers); the server is called with its own name."""
        return self._tools(self.list_tools(), names, prefix)

    async def atools(self, names: Sequence[str] | None = None, *, prefix: str = "") -> list[McpTool]:
        """Async twin of :meth:`tools`."""
        return self._tools(await self.alist_tools(), names, prefix)

    def _tools(self, listed: list[types.Tool], names: Sequence[str] | None, prefix: str) -> list[McpTool]:
        from .tool import McpTool

        by_name = {tool.name: tool for tool in listed}
        if names is None:
            chosen = listed
        else:
            if isinstance(names, str):
                raise InvalidRequestError("names must be a list of tool names, not a string")
            missing = [name for name in names if name not in by_name]
            if missing:
                raise UnknownMcpToolError(
                    f"MCP server {self.name} has no tool {', '.join(map(repr, missing))}"
                    f" (it has: {', '.join(sorted(by_name)) or 'none'})"
                )
            chosen = [by_name[name] for name in names]
        return [McpTool(self, tool, prefix=prefix) for tool in chosen]

    def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> types.CallToolResult:
        """Call tool ``name`` (its name on the server) with ``arguments``; the SDK's result."""
        return self._sync(self._call, name, dict(arguments or {}), self._time())  # type: ignore[no-any-return]

    async def acall_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> types.CallToolResult:
        """Async twin of :meth:`call_tool`."""
        return await self._run(self._call, name, dict(arguments or {}), self._time())  # type: ignore[no-any-return]
