"""The MCP servers of the ``generate --mcp`` tests and their helpers: a FastMCP script (the ``mcp``
SDK) each test writes to its tmp_path, run over stdio as a subprocess or served over streamable HTTP
on a 127.0.0.1 socket bound here (uvicorn in a thread), stopped by the test.

The model is a loopback OpenAI-compatible server (:class:`ToolServer`) answering first with a
recorded tool call (xAI, vercel/ai fixture, REAL: ``weather`` for San Francisco), then with the
recorded text answer; the script's ``weather`` tool answers that call in the way its first argument
asks (text, an image, an embedded resource, an error, never, or by dying).
"""

from __future__ import annotations

import base64
import importlib.util
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import main

from .test_functions import ToolServer

MODEL = "openai-compatible/x"
PROMPT = "Weather in SF?"
#: The bytes of a 1×1 PNG, as the server's ``image`` answer holds them.
PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
SERVER = '''
import base64
import os
import sys
import time

from mcp.server.fastmcp import FastMCP
from mcp.types import BlobResourceContents, EmbeddedResource, ImageContent, ResourceLink, TextContent

PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def build(mode, calls=None):
    if mode == "slow-start":
        time.sleep(60)
    app = FastMCP("weather", log_level="WARNING")

    @app.tool(structured_output=False)
    def weather(location: str) -> list[TextContent | ImageContent | EmbeddedResource | ResourceLink]:
        """The weather at a location."""
        if calls:
            with open(calls, "a", encoding="utf-8") as log:
                log.write(location + "\\n")
        if mode == "image":
            return [TextContent(type="text", text="The sky over " + location),
                    ImageContent(type="image", data=PIXEL, mimeType="image/png")]
        if mode == "resource":
            blob = base64.b64encode(b"city,sky\\nSF,sunny\\n").decode("ascii")
            register = BlobResourceContents(uri="file:///weather.csv", mimeType="text/csv", blob=blob)
            link = ResourceLink(type="resource_link", uri="file:///index.md", name="index")
            return [EmbeddedResource(type="resource", resource=register), link]
        if mode == "error":
            raise ValueError("no weather for " + location)
        if mode == "hang":
            if calls:
                with open(calls + ".pid", "w", encoding="utf-8") as log:
                    log.write(str(os.getpid()))
            time.sleep(60)
        if mode == "die":
            sys.stdout.flush()
            os._exit(3)
        return [TextContent(type="text", text="Sunny in " + location)]

    return app


if __name__ == "__main__":
    # argv: the mode, then where to log each call ("-": nowhere), then anything (ignored); each
    # start is a line of the process id in the log's ".started" file
    calls = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "-" else None
    if calls:
        with open(calls + ".started", "a", encoding="utf-8") as log:
            log.write(str(os.getpid()) + "\\n")
    build(sys.argv[1], calls).run("stdio")
'''


def write_script(tmp_path: Path) -> Path:
    """The server script, written to ``tmp_path``."""
    path = tmp_path / "weather_server.py"
    path.write_text(SERVER, encoding="utf-8")
    return path


def command(script: Path, mode: str, calls: Path | None = None) -> str:
    """The ``--mcp`` value that starts the server over stdio, answering as ``mode`` asks."""
    return " ".join([sys.executable, str(script), mode, *([str(calls)] if calls else [])])


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def tool_content(server: ToolServer) -> Any:
    """What the second model request sent back as the result of the recorded call."""
    (message,) = [m for m in server.bodies()[1]["messages"] if m["role"] == "tool"]
    assert message["tool_call_id"] == "call_46427107"
    return message["content"]


class HttpServer:
    """The script's server over streamable HTTP on a 127.0.0.1 socket bound here (uvicorn in a
    thread), answering 401 to a request without the expected Authorization header; :attr:`requests`
    holds the method and ``mcp-session-id`` of each request it answered."""

    def __init__(self, script: Path, authorization: str) -> None:
        import uvicorn

        spec = importlib.util.spec_from_file_location("mcp_weather_server", script)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        inner = module.build("text").streamable_http_app()
        self.seen: list[str | None] = []
        self.requests: list[tuple[str, str | None]] = []

        async def checking(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                given = dict(scope["headers"]).get(b"authorization")
                self.seen.append(given.decode() if given else None)
                if given != authorization.encode():
                    await send({"type": "http.response.start", "status": 401, "headers": []})
                    await send({"type": "http.response.body", "body": b"unauthorized"})
                    return
                session = dict(scope["headers"]).get(b"mcp-session-id")
                self.requests.append((scope["method"], session.decode() if session else None))
            await inner(scope, receive, send)

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/mcp"
        self.server = uvicorn.Server(uvicorn.Config(checking, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> HttpServer:
        self.thread.start()
        while not self.server.started:
            assert self.thread.is_alive(), "the MCP test server did not start"
            threading.Event().wait(0.01)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def running(pid: int, within: float = 5.0) -> bool:
    """Whether process ``pid`` is still there after ``within`` seconds (an orphan's reaping by init
    may lag its end)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True


# The fixtures of the MCP tests (tests/cli/conftest.py makes them theirs) -------------------------


@pytest.fixture
def script(tmp_path: Path) -> Path:
    """The server script, in the test's ``tmp_path``."""
    return write_script(tmp_path)


@pytest.fixture
def authorization() -> str:
    """The Authorization header the HTTP server asks for (no key shape, built at run time)."""
    return "Bearer " + "-".join(["fake", "mcp", "token", str(os.getpid())])


@pytest.fixture
def http_server(script: Path, authorization: str) -> Iterator[HttpServer]:
    """The script served over streamable HTTP for the test, stopped after it."""
    with HttpServer(script, authorization) as server:
        yield server
