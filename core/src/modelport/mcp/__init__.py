"""Tools from Model Context Protocol servers, run locally (the ``modelport[mcp]`` extra).

Open a server over stdio (:func:`stdio`) or streamable HTTP (:func:`http`), take its tools with
:meth:`McpServer.tools`, and pass them as ``tools=`` to ``generate``, ``stream`` or the tool loop
(``run``, ``arun``, ``run_stream``, with ``approve=``) like :func:`modelport.tool` functions::

    import modelport
    from modelport import mcp

    with mcp.stdio("python", ["weather_server.py"]) as server:
        run = model.run(prompt="Weather in Paris?", tools=server.tools(), approve=ask_user)

The session is closed when the block ends, however it ends (:mod:`modelport.mcp.server`); a result
becomes the call's tool result block by block (:mod:`modelport.mcp.results`), an ``isError`` result
an error result the model sees. Errors are typed: :class:`McpConnectionError` (start, reach,
handshake or a broken connection), :class:`McpTimeoutError`, :class:`UnknownMcpToolError`,
:class:`McpToolError` (the tool failed), :class:`~modelport.tools.functions.ToolArgumentsError`
(arguments that do not fit the tool's schema, checked before the server is called), all
:class:`McpError` s except the last.
"""

from __future__ import annotations

from .results import McpError, McpToolError, content_parts, tool_output
from .server import McpConnectionError, McpServer, McpTimeoutError, UnknownMcpToolError
from .tool import McpTool
from .transports import http, stdio

__all__ = [
    "McpConnectionError",
    "McpError",
    "McpServer",
    "McpTimeoutError",
    "McpTool",
    "McpToolError",
    "UnknownMcpToolError",
    "content_parts",
    "http",
    "stdio",
    "tool_output",
]
