"""The MCP servers the tests start and stop: the FastMCP server of ``server.py`` over stdio (a
subprocess per test) and over streamable HTTP (uvicorn in a thread, on a 127.0.0.1 socket the
fixture binds), and the recorded OpenAI run that calls its tools."""

from __future__ import annotations

import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("mcp")

import modelport  # noqa: E402
from modelport import mcp  # noqa: E402

from ..openai.corpus import cassette  # noqa: E402
from ..openai.fakes import Recorder  # noqa: E402

SERVER = str(Path(__file__).with_name("server.py"))
#: simonw/llm's recorded gpt-4o-mini run: lookup_population("Crumpet"), can_have_dragons(123124), "YES".
CHAIN = "simonw__llm/tests__cassettes__test_tools__test_tool_use_chain_of_two_calls.yaml"
#: Its streamed run: one ``multiply`` call (1231, 2331) over 12 argument deltas, then streamed text.
STREAMED = "simonw__llm/tests__cassettes__test_tools__test_tool_use_basic.yaml"
KEY = "sk-" + "mcp-test-" + "0" * 20


def stdio_server(**options: Any) -> mcp.McpServer:
    """The test server, run by this interpreter over stdio (its log lines kept out of the output)."""
    return mcp.stdio(sys.executable, [SERVER], env={"FASTMCP_LOG_LEVEL": "WARNING"}, **options)


def recorded(name: str = CHAIN, **options: Any) -> tuple[modelport.Model, Recorder]:
    replies = [httpx.Response(i.status, headers=i.headers, content=i.body) for i in cassette(name)]
    recorder = Recorder(replies)
    transport = httpx.MockTransport(recorder)
    model = modelport.get_model("openai/gpt-4o-mini", api_key=KEY, transport=transport, **options)
    return model, recorder


def tool_messages(recorder: Recorder) -> list[list[dict[str, Any]]]:
    """The ``role: tool`` messages of each request sent."""
    return [[m for m in body["messages"] if m["role"] == "tool"] for body in recorder.bodies()]


class HttpServer:
    """The test server over streamable HTTP on 127.0.0.1, and the headers of every request it saw."""

    def __init__(self) -> None:
        import uvicorn

        from .server import app

        self.headers: list[dict[str, str]] = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/mcp"
        inner = app.streamable_http_app()
        seen = self.headers

        async def recording(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                seen.append({k.decode(): v.decode() for k, v in scope["headers"]})
            await inner(scope, receive, send)

        config = uvicorn.Config(recording, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> HttpServer:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the MCP test server did not start")
            threading.Event().wait(0.01)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@pytest.fixture(scope="session")
def http_server() -> Iterator[HttpServer]:
    with HttpServer() as server:
        yield server
