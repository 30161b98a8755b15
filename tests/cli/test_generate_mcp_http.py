"""``modelport generate --mcp URL``: a real FastMCP server over streamable HTTP on 127.0.0.1
(:mod:`.mcp_servers`), with the headers of ``--mcp-header``, which are never printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from .mcp_servers import (  # noqa: E402
    MODEL,
    PROMPT,
    HttpServer,
    ToolServer,
    run,
    tool_content,
)


def test_an_http_servers_tool_is_called_with_the_headers_given(
    _command_home: Path, http_server: HttpServer, authorization: str
) -> None:
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", http_server.url,
                     "--mcp-header", f"Authorization: {authorization}", "--yes", "-v", PROMPT)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert tool_content(server) == "Sunny in San Francisco"
    assert result.output.splitlines()[1] == "modelport: weather gave: Sunny in San Francisco"
    assert http_server.seen and set(http_server.seen) == {authorization}
    assert authorization.split()[1] not in result.output
    (call,) = json.loads(run("logs", "list", "--json").output)
    assert call["options"] == {"mcp": ["127.0.0.1/mcp"]}


def test_an_http_server_refusing_the_headers_is_one_line_without_them(
    _command_home: Path, http_server: HttpServer, authorization: str
) -> None:
    wrong = authorization + "-wrong"
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", http_server.url + "?key=x1y2z3",
                     "--mcp-header", f"Authorization: {wrong}", "--yes", PROMPT)  # fmt: skip
    assert http_server.seen == [wrong]
    assert (result.exit_code, result.output) == (
        1,
        "error: could not connect to MCP server 127.0.0.1/mcp: HTTPStatusError: Client error '401 "
        f"Unauthorized' for url '{http_server.url}?key=[REDACTED]' For more information check: "
        "https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/401\n",
    )
    assert server.received == []
