"""``modelport generate --mcp COMMAND``: the tools of a real FastMCP server over stdio (a script each
test writes, :mod:`.mcp_servers`), run by the tool loop with the approval of ``-T`` /
``--functions``; every failure one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from .mcp_servers import (  # noqa: E402
    MODEL,
    PROMPT,
    ToolServer,
    command,
    run,
    running,
    tool_content,
)
from .openai_server import ANSWER  # noqa: E402
from .test_terminal_sessions import Terminal  # noqa: E402


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


def test_stream_asked_for_still_prints_the_loops_answer(_command_home: Path, script: Path) -> None:
    # The tool loop's answer arrives whole: printed whole, not left out as a streamed one would be.
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, "text"),
                     "--yes", "--stream", PROMPT)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout == ANSWER + "\n"
    assert "stream" not in server.bodies()[0]
