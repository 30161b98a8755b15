"""A real FastMCP server over stdio (tests/mcp/server.py, a subprocess each test starts and stops):
its tools listed and called, results converted block by block, and every failure typed."""

from __future__ import annotations

import asyncio
import base64
import os
import sys

import pytest

from modelport import mcp
from modelport.deadlines import Deadline
from modelport.errors import InvalidRequestError
from modelport.tools.functions import ToolArgumentsError
from modelport.types import FilePart, FunctionTool, TextPart

from .conftest import SERVER, stdio_server
from .server import PIXEL

NAMES = [
    "lookup_population",
    "can_have_dragons",
    "multiply",
    "picture",
    "document",
    "census",
    "divide",
    "secret_population",
    "hang",
    "die",
    "grow",
]


def test_the_tools_are_listed_with_the_servers_schemas_as_function_tools() -> None:
    with stdio_server() as server:
        tools = server.tools()
    assert [t.name for t in tools] == NAMES
    lookup = tools[0]
    assert lookup.spec == FunctionTool(
        name="lookup_population",
        description="Returns the current population of the specified fictional country",
        parameters={
            "type": "object",
            "properties": {"country": {"title": "Country", "type": "string"}},
            "required": ["country"],
        },
    )
    assert repr(server) == f"<McpServer {os.path.basename(sys.executable)} {SERVER} (closed)>"


def test_names_choose_tools_and_a_prefix_renames_them_for_the_model_only() -> None:
    with stdio_server() as server:
        (tool,) = server.tools(["census"], prefix="dragons_")
        assert (tool.name, tool.mcp_name) == ("dragons_census", "census")
        assert tool.call(country="Crumpet") == {"dragons": 3, "people": 123124}
        with pytest.raises(mcp.UnknownMcpToolError, match=r"has no tool 'nope' \(it has: can_have_dragons, "):
            server.tools(["census", "nope"])


def test_results_are_converted_block_by_block() -> None:
    with stdio_server() as server:
        tools = {t.name: t for t in server.tools()}
        assert tools["lookup_population"].call(country="Crumpet") == "123124"
        assert tools["can_have_dragons"].call(population=123124) == "true"
        assert tools["census"].call(country="Crumpet") == {"dragons": 3, "people": 123124}
        pixel = base64.b64encode(PIXEL).decode("ascii")
        assert tools["picture"].call(caption="Smaug") == [
            {"type": "text", "text": "Smaug"},
            {"type": "image", "media_type": "image/png", "data": pixel},
        ]
        assert tools["document"].call() == [
            {
                "type": "resource",
                "uri": "file:///register.csv",
                "media_type": "text/csv",
                "data": base64.b64encode(b"name,wings\nSmaug,2\n").decode("ascii"),
            },
            {
                "type": "resource_link",
                "uri": "file:///index.md",
                "name": "index",
                "media_type": "text/markdown",
            },
        ]
        parts = mcp.content_parts(server.call_tool("picture", {"caption": "Smaug"}))
        assert parts == [TextPart(text="Smaug"), FilePart(media_type="image/png", data=PIXEL)]
        parts = mcp.content_parts(server.call_tool("document"))
        assert parts == [
            FilePart(media_type="text/csv", data=b"name,wings\nSmaug,2\n"),
            FilePart(media_type="text/markdown", uri="file:///index.md"),
        ]


def test_an_error_result_is_a_tool_error_and_bad_arguments_never_reach_the_server() -> None:
    with stdio_server() as server:
        tools = {t.name: t for t in server.tools()}
        with pytest.raises(mcp.McpToolError, match="^Error executing tool divide: cannot divide by zero$"):
            tools["divide"].call(a=1, b=0)
        with pytest.raises(
            ToolArgumentsError, match="^invalid arguments for tool 'divide': a: 'x' is not of type"
        ):
            tools["divide"].call(a="x", b=2)
        with pytest.raises(ToolArgumentsError, match="'b' is a required property"):
            tools["divide"].call(a=1)
        assert tools["divide"].call(a=1, b=4) == "0.25"


def test_a_server_that_never_answers_is_bounded_by_the_timeout_and_the_session_goes_on() -> None:
    with stdio_server(timeout=0.5) as server:
        (hang, census) = server.tools(["hang", "census"])
        with pytest.raises(mcp.McpTimeoutError, match=r"did not answer tools/call 'hang' within 0.5 s"):
            hang.call()
        assert census.call(country="Crumpet") == {"dragons": 3, "people": 123124}


def test_the_current_deadline_bounds_a_call_below_the_timeout() -> None:
    with stdio_server(timeout=60) as server:
        (hang,) = server.tools(["hang"])
        with Deadline.for_call(0.3).applied(), pytest.raises(mcp.McpTimeoutError, match=r"within 0.\d+ s"):
            hang.call()


def test_a_server_that_dies_mid_call_is_a_connection_error_and_the_block_still_closes() -> None:
    with stdio_server() as server:
        (die,) = server.tools(["die"])
        with pytest.raises(mcp.McpConnectionError, match="failed on tools/call 'die'"):
            die.call()
    assert repr(server).endswith("(closed)>")


def test_a_server_that_cannot_start_is_a_connection_error_when_opened() -> None:
    missing = mcp.stdio("/nonexistent/mcp-server")
    with pytest.raises(mcp.McpConnectionError, match="could not connect to MCP server mcp-server"):
        with missing:
            pass
    quits = mcp.stdio(sys.executable, ["-c", "import sys; sys.exit(0)"], timeout=5)
    with pytest.raises(mcp.McpConnectionError):
        with quits:
            pass


def test_a_closed_server_refuses_calls() -> None:
    with stdio_server() as server:
        (census,) = server.tools(["census"])
    with pytest.raises(mcp.McpError, match="is not open"):
        census.call(country="Crumpet")


def test_an_exception_in_the_block_closes_the_session_and_is_not_masked() -> None:
    with pytest.raises(KeyError, match="boom"), stdio_server() as server:
        server.tools()
        raise KeyError("boom")
    assert repr(server).endswith("(closed)>")


@pytest.mark.asyncio
async def test_async_with_serves_async_calls_and_cancellation_closes_the_session() -> None:
    async with stdio_server() as server:
        tools = {t.name: t for t in await server.atools()}
        assert await tools["census"].acall(country="Crumpet") == {"dragons": 3, "people": 123124}
        task = asyncio.ensure_future(tools["hang"].acall())
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await tools["lookup_population"].acall(country="Crumpet") == "123124"
        with pytest.raises(mcp.McpError, match="opened with 'async with'"):
            tools["census"].call(country="Crumpet")
    assert repr(server).endswith("(closed)>")


def test_bad_configuration_is_refused_before_anything_starts() -> None:
    with pytest.raises(InvalidRequestError, match="stdio needs the command"):
        mcp.stdio("")
    with pytest.raises(InvalidRequestError, match="args must be a list"):
        mcp.stdio("python", "server.py")  # type: ignore[arg-type]
    with pytest.raises(InvalidRequestError, match="^connect_timeout must be a positive number"):
        mcp.stdio("python", connect_timeout=0)
    with pytest.raises(InvalidRequestError, match="http needs an http:// or https:// URL"):
        mcp.http("ftp://example.com/mcp")


def test_a_tool_list_change_is_picked_up_by_the_next_listing() -> None:
    with stdio_server() as server:
        (grow,) = server.tools(["grow"])
        assert "hatch" not in [t.name for t in server.tools()]
        assert grow.call() == "grown"
        (hatch,) = server.tools(["hatch"])
        assert hatch.call(name="Smaug") == "Smaug hatched"


def test_an_http_server_that_is_not_there_is_a_connection_error() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, never listening: the connection is refused
        with pytest.raises(mcp.McpConnectionError, match=r"could not connect to MCP server 127.0.0.1/mcp"):
            with mcp.http(f"http://127.0.0.1:{port}/mcp", timeout=5, connect_timeout=5):
                pass


def test_without_the_sdk_opening_a_server_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from modelport.errors import ConfigurationError

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "mcp" else real(name, *a)
    )
    with pytest.raises(ConfigurationError, match=r"pip install 'modelport\[mcp\]'"):
        mcp.stdio("python", ["server.py"])
    with pytest.raises(ConfigurationError, match=r"pip install 'modelport\[mcp\]'"):
        mcp.http("http://127.0.0.1:1/mcp")
