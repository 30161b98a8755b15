"""``modelport generate --mcp CMD_OR_URL``: the tools of real MCP servers (the ``mcp`` SDK's
FastMCP, a script each test writes) over stdio and over streamable HTTP on 127.0.0.1, run by the
tool loop with the approval of ``-T`` / ``--functions``.

The model is a loopback OpenAI-compatible server answering first with a recorded tool call (xAI,
vercel/ai fixture, REAL: ``weather`` for San Francisco), then with the recorded text answer; the MCP
server's ``weather`` tool answers that call, in the way each test asks (text, an image, an embedded
resource, an error, never, or by dying).
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("mcp")

from modelport.cli import main  # noqa: E402

from .openai_server import ANSWER  # noqa: E402
from .test_functions import ToolServer  # noqa: E402
from .test_terminal_sessions import Terminal  # noqa: E402

MODEL = "openai-compatible/x"
PROMPT = "Weather in SF?"
#: The bytes of a 1×1 PNG, as the server's ``image`` answer holds them.
PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
SERVER = '''
import base64
import os
import re
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
    # argv: the mode, then where to log each call ("-": nowhere), then anything (ignored)
    build(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "-" else None).run("stdio")
'''


@pytest.fixture
def script(tmp_path: Path) -> Path:
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


def test_a_stdio_servers_tool_is_called_and_its_result_passed_back(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    calls = tmp_path / "calls.log"
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, "text", calls),
                     "--yes", "-v", PROMPT)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert calls.read_text(encoding="utf-8") == "San Francisco\n"
    first, second = server.bodies()
    assert first["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "The weather at a location.",
                "parameters": {
                    "type": "object",
                    "properties": {"location": {"title": "Location", "type": "string"}},
                    "required": ["location"],
                },
            },
        }
    ]
    assert tool_content(server) == "Sunny in San Francisco"
    assert result.output.splitlines()[:3] == [
        'modelport: running weather({"location": "San Francisco"})',
        "modelport: weather gave: Sunny in San Francisco",
        ANSWER.splitlines()[0],
    ]
    (call,) = json.loads(run("logs", "list", "--json").output)
    assert call["options"] == {"mcp": [f"{os.path.basename(sys.executable)} {script} text {calls}"]}


def test_an_image_and_an_embedded_resource_are_passed_back_and_shown_by_size(
    _command_home: Path, script: Path
) -> None:
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, "image"),
                     "-y", "-v", PROMPT)  # fmt: skip
    assert result.exit_code == 0, result.output
    pixel = base64.b64encode(PIXEL).decode("ascii")
    assert json.loads(tool_content(server)) == [
        {"type": "text", "text": "The sky over San Francisco"},
        {"type": "image", "media_type": "image/png", "data": pixel},
    ]
    assert result.output.splitlines()[1] == (
        f"modelport: weather gave: The sky over San Francisco [image image/png {len(PIXEL)} bytes]"
    )
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, "resource"),
                     "-y", "-v", PROMPT)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(tool_content(server)) == [
        {
            "type": "resource",
            "uri": "file:///weather.csv",
            "media_type": "text/csv",
            "data": base64.b64encode(b"city,sky\nSF,sunny\n").decode("ascii"),
        },
        {"type": "resource_link", "uri": "file:///index.md", "name": "index"},
    ]
    assert result.output.splitlines()[1] == (
        "modelport: weather gave: [resource file:///weather.csv text/csv 18 bytes] [link file:///index.md]"
    )


@pytest.mark.parametrize(
    ("mode", "timeout", "error"),
    [
        ("error", "30", "McpToolError: Error executing tool weather: no weather for San Francisco"),
        ("hang", "5", "McpTimeoutError: MCP server {name} did not answer tools/call 'weather' within 5 s"),
        (
            "die",
            "30",
            "McpConnectionError: MCP server {name} failed on tools/call 'weather': McpError: Connection closed",
        ),
    ],
)
def test_a_failing_call_is_an_error_result_the_model_sees_and_one_line(
    _command_home: Path, script: Path, mode: str, timeout: str, error: str
) -> None:
    name = f"{os.path.basename(sys.executable)} {script} {mode}"
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, mode),
                     "--mcp-timeout", timeout, "--yes", "-v", PROMPT)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert tool_content(server) == error.format(name=name)
    assert result.output.splitlines()[:3] == [
        'modelport: running weather({"location": "San Francisco"})',
        f"modelport: weather failed: {error.format(name=name)}",
        ANSWER.splitlines()[0],
    ]


def test_a_server_that_cannot_start_is_one_line_and_the_model_is_never_called(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-server"
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", str(missing), "-y", PROMPT)
        slow = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, "slow-start"),
                   "--mcp-timeout", "0.5", "-y", PROMPT)  # fmt: skip
    assert (result.exit_code, result.output) == (
        1,
        f"error: could not connect to MCP server no-such-server: FileNotFoundError: [Errno 2] No such "
        f"file or directory: '{missing}'\n",
    )
    name = f"{os.path.basename(sys.executable)} {script} slow-start"
    assert (slow.exit_code, slow.output) == (
        1,
        f"error: could not connect to MCP server {name}: McpTimeoutError: MCP server {name} did not answer "
        "initialize within 0.5 s\n",
    )
    assert server.received == []


def test_without_a_terminal_or_yes_nothing_starts_and_nothing_is_sent(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    calls = tmp_path / "calls.log"
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, "text", calls),
                     PROMPT)  # fmt: skip
    assert (result.exit_code, result.output) == (
        2,
        "Error: --mcp runs the tools the model asks for: pass --yes to allow every call, or run on a "
        "terminal to be asked before each one\n",
    )
    assert server.received == [] and not calls.exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--mcp", "'unclosed"], "Error: --mcp 'unclosed: No closing quotation\n"),
        (["--mcp", " "], "Error: --mcp: an empty command\n"),
        (["--mcp", "ftp-server", "--mcp-header", "A: b"],
         "Error: --mcp-header is for MCP servers reached by URL: give one with --mcp URL\n"),
        (["--mcp", "http://127.0.0.1:9/mcp", "--mcp-header", "no colon here"],
         "Error: --mcp-header: expected 'Name: value', got a value without a colon\n"),
        (["--mcp", "http://127.0.0.1:9/mcp", "--mcp-header", "X Key: {secret}"],
         "Error: --mcp-header: expected 'Name: value', got 'X Key'\n"),
        (["--mcp", "http://127.0.0.1:9/mcp", "--mcp-header", "X-Key: {secret}", "--mcp-header", "x-key: 2"],
         "Error: --mcp-header x-key is given twice\n"),
    ],
)  # fmt: skip
def test_a_value_that_cannot_be_a_server_is_refused_before_anything_starts(
    _command_home: Path, args: list[str], expected: str
) -> None:
    secret = "-".join(["fake", "header", str(os.getpid())])
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, *(a.format(secret=secret) for a in args),
                     "-y", PROMPT)  # fmt: skip
    assert (result.exit_code, result.output) == (2, expected)
    assert server.received == []


def test_two_tools_of_one_name_are_refused(_command_home: Path, script: Path) -> None:
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, "text"),
                     "--mcp", command(script, "image"), "-y", PROMPT)  # fmt: skip
    name = f"{os.path.basename(sys.executable)} {script}"
    assert (result.exit_code, result.output) == (
        2,
        f"Error: two tools are named 'weather': of MCP server {name} text and of MCP server {name} image\n",
    )
    assert server.received == []


def test_functions_and_mcp_tools_mix_and_a_name_they_share_is_refused(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    functions = tmp_path / "tools.py"
    functions.write_text(
        'def weather(location: str) -> str:\n    """Weather."""\n    return location\n\n\n'
        'def clock() -> str:\n    """The time."""\n    return "noon"\n',
        encoding="utf-8",
    )
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--functions", str(functions),
                     "--mcp", command(script, "text"), PROMPT)  # fmt: skip
        assert (result.exit_code, result.output) == (
            2,
            "Error: -T / --functions / --mcp run code the model asks for: pass --yes to allow every "
            "call, or run on a terminal to be asked before each one\n",
        )
        result = run("generate", MODEL, "--base-url", server.base_url, "--functions", str(functions),
                     "--mcp", command(script, "text"), "-y", PROMPT)  # fmt: skip
    name = f"{os.path.basename(sys.executable)} {script} text"
    assert (result.exit_code, result.output) == (
        2,
        f"Error: two tools are named 'weather': of MCP server {name} and of a function\n",
    )
    assert server.received == []
    functions.write_text('def clock() -> str:\n    """The time."""\n    return "noon"\n', encoding="utf-8")
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--functions", str(functions),
                     "--mcp", command(script, "text"), "-y", PROMPT)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert [t["function"]["name"] for t in server.bodies()[0]["tools"]] == ["clock", "weather"]
    assert tool_content(server) == "Sunny in San Francisco"
    (call,) = json.loads(run("logs", "list", "--json").output)
    assert call["options"] == {"functions": ["clock"], "mcp": [name]}


class HttpServer:
    """The script's server over streamable HTTP on a 127.0.0.1 socket bound here (uvicorn in a
    thread), answering 401 to a request without the expected Authorization header."""

    def __init__(self, script: Path, authorization: str) -> None:
        import uvicorn

        spec = importlib.util.spec_from_file_location("mcp_weather_server", script)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        inner = module.build("text").streamable_http_app()
        self.seen: list[str | None] = []

        async def checking(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                given = dict(scope["headers"]).get(b"authorization")
                self.seen.append(given.decode() if given else None)
                if given != authorization.encode():
                    await send({"type": "http.response.start", "status": 401, "headers": []})
                    await send({"type": "http.response.body", "body": b"unauthorized"})
                    return
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


@pytest.fixture
def authorization() -> str:
    return "Bearer " + "-".join(["fake", "mcp", "token", str(os.getpid())])


@pytest.fixture
def http_server(script: Path, authorization: str) -> Iterator[HttpServer]:
    with HttpServer(script, authorization) as server:
        yield server


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


pty = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


@pty
@pytest.mark.parametrize(
    ("reply", "content"), [("y", "Sunny in San Francisco"), ("n", "the user refused the call")]
)
def test_on_a_terminal_each_call_is_asked_about(
    _command_home: Path, script: Path, tmp_path: Path, reply: str, content: str
) -> None:
    calls = tmp_path / "calls.log"
    mcp = command(script, "text", calls)
    with ToolServer() as server:
        terminal = Terminal("generate", MODEL, "--base-url", server.base_url, "--mcp", mcp, PROMPT)
        terminal.expect(
            f'Run weather({{"location": "San Francisco"}}) on MCP server {os.path.basename(sys.executable)} '
        )
        terminal.expect("? [y/N]: ")
        terminal.send(reply + "\r")
        terminal.expect(ANSWER.splitlines()[0])
        assert terminal.finish() == 0
    assert tool_content(server) == content
    assert calls.exists() == (reply == "y")


#: The server of docs/mcp.md's worked example, as the page gives it.
DRAGONS = '''
from mcp.server.fastmcp import FastMCP

app = FastMCP("dragons", log_level="WARNING")


@app.tool()
def lookup_population(country: str) -> int:
    """Returns the current population of the specified fictional country"""
    return 123124


@app.tool()
def can_have_dragons(population: int) -> bool:
    """Returns True if the specified population can have dragons, False otherwise"""
    return population > 10000


if __name__ == "__main__":
    app.run("stdio")
'''


def test_the_worked_example_of_the_mcp_page(_command_home: Path, tmp_path: Path) -> None:
    """simonw/llm's recorded gpt-4o-mini run (tests/corpus/openai/MANIFEST.md: lookup_population,
    then can_have_dragons, then "YES") replayed by a loopback server, the tools on the real server."""
    from tests.loopback import Loopback, Received, Reply
    from tests.mcp.conftest import CHAIN
    from tests.openai.corpus import cassette

    (tmp_path / "dragons.py").write_text(DRAGONS, encoding="utf-8")
    replies = iter(cassette(CHAIN))
    bodies: list[dict[str, Any]] = []

    def answer(received: Received) -> Reply:
        bodies.append(json.loads(received.body))
        recorded = next(replies)
        # The recorded body, whole: its chunked transfer encoding is not replayed.
        return Reply(recorded.status, {"content-type": recorded.headers["content-type"]}, recorded.body)

    key = "-".join(["sk", "fake", str(os.getpid())])
    with Loopback(answer) as server:
        result = run("generate", "openai/gpt-4o-mini", "--base-url", f"{server.url}/v1", "--key", key,
                     "--mcp", f"{sys.executable} {tmp_path / 'dragons.py'}", "--yes", "-v",
                     "Can the country of Crumpet have dragons?")  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:5] == [
        'modelport: running lookup_population({"country": "Crumpet"})',
        "modelport: lookup_population gave: 123124",
        'modelport: running can_have_dragons({"population": 123124})',
        "modelport: can_have_dragons gave: true",
        "YES",
    ]
    assert re.fullmatch(r"modelport: openai/gpt-4o-mini: answered after \d+ ms", lines[5])
    assert len(lines) == 6
    assert [[m["content"] for m in body["messages"] if m["role"] == "tool"] for body in bodies] == [
        [],
        ["123124"],
        ["123124", "true"],
    ]


@pytest.mark.parametrize(
    ("output", "is_error", "shown"),
    [
        ({"sky": "sunny", "wind": 3}, False, 'weather gave: {"sky": "sunny", "wind": 3}'),
        ([{"type": "structured", "content": {"sky": "sunny"}}], False, 'weather gave: {"sky": "sunny"}'),
        ([{"type": "audio", "media_type": "audio/wav", "data": "UklGRg=="}], False,
         "weather gave: [audio audio/wav 4 bytes]"),
        ([{"type": "image", "media_type": "image/png", "data": "not base64!"}], False,
         "weather gave: [image image/png 11 characters of data that is not base64]"),
        ([{"type": "resource", "uri": "file:///a.txt", "text": "héllo"}], False,
         "weather gave: [resource file:///a.txt 6 bytes]"),
        ("line one\nline\x1b[31m two", True, "weather failed: line one line two"),
        ("x" * 400, False, "weather gave: " + "x" * 300 + "..."),
    ],
)  # fmt: skip
def test_a_result_is_shown_on_one_bounded_line(output: Any, is_error: bool, shown: str) -> None:
    from modelport.cli._mcp import result_line
    from modelport.types import ToolResultPart

    part = ToolResultPart(call_id="call_1", name="weather", output=output, is_error=is_error)
    assert result_line(part) == shown


def test_a_credential_in_a_servers_command_is_neither_printed_nor_logged(
    _command_home: Path, script: Path
) -> None:
    token = "-".join(["fake", "mcp", "token", str(os.getpid())])
    mcp = f"{command(script, 'die')} - 'Bearer {token}'"
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", mcp, "--yes", "-v", PROMPT)
    assert result.exit_code == 0, result.output
    name = f"{os.path.basename(sys.executable)} {script} die - Bearer [REDACTED]"
    assert result.output.splitlines()[1] == (
        f"modelport: weather failed: McpConnectionError: MCP server {name} failed on tools/call 'weather': "
        "McpError: Connection closed"
    )
    (call,) = json.loads(run("logs", "list", "--json").output)
    assert call["options"] == {"mcp": [name]}
    assert token not in result.output and token not in json.dumps(call)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_during_a_call_stops_the_server_at_once(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    calls = tmp_path / "calls.log"
    with ToolServer() as server:
        process = subprocess.Popen(
            [sys.executable, "-m", "modelport.cli", "generate", MODEL, "--base-url", server.base_url,
             "--mcp", command(script, "hang", calls), "--mcp-timeout", "60", "--yes", "-v", PROMPT],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        try:
            assert process.stdout is not None
            first = process.stdout.readline()
            pid_file = Path(f"{calls}.pid")
            while not pid_file.exists() or not pid_file.read_text(encoding="utf-8"):
                assert process.poll() is None
                time.sleep(0.05)
            process.send_signal(signal.SIGINT)
            started = time.monotonic()
            rest = process.communicate(timeout=30)[0]
            seconds = time.monotonic() - started
        finally:
            if process.poll() is None:  # never left behind
                process.kill()
                process.communicate()
    assert (first, rest, process.returncode) == (
        'modelport: running weather({"location": "San Francisco"})\n',
        "\nAborted!\n",
        1,
    )
    # Not the 60 s of --mcp-timeout: the call is cancelled, the server stopped (the SDK gives a
    # server 2 s to leave after its input closes; this one is asleep in its tool).
    assert seconds < 15
    assert not running(int(pid_file.read_text(encoding="utf-8")))


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
