"""``modelport chat --mcp CMD|URL``: the tools of real FastMCP servers (:mod:`.mcp_servers`, over
stdio and over streamable HTTP on 127.0.0.1) in every turn of a chat, the servers opened once for
the whole chat and closed however it ends (the end of input, Ctrl-C, an error); each call asked
about on the terminal unless ``--yes``; every failure one line.

The model is the loopback OpenAI-compatible server, scripted per turn (:class:`TurnServer`): a
request whose last message is the user's gets the recorded tool call (xAI, vercel/ai fixture, REAL:
``weather`` for San Francisco), any other the recorded text answer.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import main
from tests.loopback import Received, Reply

from .mcp_servers import MODEL, HttpServer, command, running
from .openai_server import ANSWER, OpenAIServer
from .test_functions import TOOL_CALL
from .test_terminal_sessions import Terminal

pytest.importorskip("mcp")

#: The recorded call, as the conversation sends it back.
CALLED = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {
            "id": "call_46427107",
            "type": "function",
            "function": {"name": "weather", "arguments": '{"location":"San Francisco"}'},
        }
    ],
}


class TurnServer(OpenAIServer):
    """Answers a request whose last message is the user's with the recorded tool call, any other
    with the recorded text."""

    def answer(self, received: Received) -> Reply:
        if received.path == "/v1/chat/completions":
            if json.loads(received.body)["messages"][-1]["role"] == "user":
                return Reply(
                    headers={"content-type": "application/json"}, body=json.dumps(TOOL_CALL).encode()
                )
        return super().answer(received)


def chat(server: OpenAIServer, *args: str, input: bytes | str = "") -> Any:
    return CliRunner().invoke(
        main, ["chat", MODEL, "--base-url", server.base_url, "--no-stream", *args], input=input
    )


def result(content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": "call_46427107", "content": content}


def started(calls: Path) -> list[int]:
    """The process ids of the server's starts, in order."""
    path = Path(f"{calls}.started")
    return [int(line) for line in path.read_text(encoding="utf-8").split()] if path.exists() else []


def test_every_turn_runs_the_tool_loop_on_one_server_started_once(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    calls = tmp_path / "calls.log"
    with TurnServer() as server:
        ran = chat(
            server, "--mcp", command(script, "text", calls), "--yes", "-v", input="Weather in SF?\nAnd now?\n"
        )
    assert ran.exit_code == 0, ran.output
    assert calls.read_text(encoding="utf-8") == "San Francisco\nSan Francisco\n"
    (pid,) = started(calls)  # one server for the whole chat, stopped when it ended
    assert not running(pid)
    bodies = server.bodies()
    assert len(bodies) == 4
    assert [t["function"]["name"] for t in bodies[0]["tools"]] == ["weather"]
    assert bodies[0]["tools"] == bodies[2]["tools"]
    first_turn = [{"role": "user", "content": "Weather in SF?"}, CALLED, result("Sunny in San Francisco")]
    assert bodies[1]["messages"] == first_turn
    # The second turn carries the first whole: its call, its result and its answer.
    assert bodies[3]["messages"] == [
        *first_turn,
        {"role": "assistant", "content": ANSWER},
        {"role": "user", "content": "And now?"},
        CALLED,
        result("Sunny in San Francisco"),
    ]
    shown = [
        line for line in ran.stderr.splitlines() if line.startswith("modelport: ") and "after" not in line
    ]
    assert (
        shown
        == [
            'modelport: running weather({"location": "San Francisco"})',
            "modelport: weather gave: Sunny in San Francisco",
        ]
        * 2
    )
    assert ran.stdout.count(ANSWER) == 2
    logged = json.loads(CliRunner().invoke(main, ["logs", "list", "--json"]).output)
    name = f"{os.path.basename(sys.executable)} {script} text {calls}"
    assert [(c["prompt"], c["options"], c["response"]) for c in logged] == [
        ("And now?", {"mcp": [name]}, ANSWER),
        ("Weather in SF?", {"mcp": [name]}, ANSWER),
    ]


def test_a_failing_call_is_the_turns_error_result_and_the_chat_goes_on(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    calls = tmp_path / "calls.log"
    name = f"{os.path.basename(sys.executable)} {script} die {calls}"
    died = (
        f"McpConnectionError: MCP server {name} failed on tools/call 'weather': McpError: Connection closed"
    )
    with TurnServer() as server:
        ran = chat(server, "--mcp", command(script, "die", calls), "--yes", "-v", input="one\ntwo\n")
    assert ran.exit_code == 0, ran.output
    bodies = server.bodies()
    assert len(bodies) == 4
    # The server died in the first call; the second turn's call finds it gone: one line each.
    assert bodies[1]["messages"][-1] == result(died)
    assert bodies[3]["messages"][-1]["content"].startswith(
        f"McpConnectionError: MCP server {name} failed on "
    )
    failures = [line for line in ran.stderr.splitlines() if line.startswith("modelport: weather failed: ")]
    assert failures[0] == f"modelport: weather failed: {died}"
    assert len(failures) == 2 and "\n" not in failures[1]
    assert ran.stdout.count(ANSWER) == 2


def test_a_server_that_cannot_start_ends_the_chat_before_any_turn(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-server"
    with TurnServer() as server:
        ran = chat(server, "--mcp", str(missing), "--yes", input="hi\n")
        slow = chat(
            server, "--mcp", command(script, "slow-start"), "--mcp-timeout", "0.5", "-y", input="hi\n"
        )
    assert (ran.exit_code, ran.output) == (
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


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--mcp", "python server.py"],
         "Error: --mcp runs the tools the model asks for: pass --yes to allow every call, or run on a "
         "terminal to be asked before each one\n"),
        (["--mcp", "'unclosed", "-y"], "Error: --mcp 'unclosed: No closing quotation\n"),
        (["--mcp-header", "A: b", "-y"],
         "Error: --mcp-header is for MCP servers reached by URL: give one with --mcp URL\n"),
        (["--mcp", "http://127.0.0.1:9/mcp", "--mcp-header", "X Key: {secret}", "-y"],
         "Error: --mcp-header: expected 'Name: value', got 'X Key'\n"),
    ],
)  # fmt: skip
def test_a_value_that_cannot_be_a_server_is_refused_before_anything_starts(
    _command_home: Path, args: list[str], expected: str
) -> None:
    secret = "-".join(["fake", "header", str(os.getpid())])
    with TurnServer() as server:
        ran = chat(server, *(a.format(secret=secret) for a in args), input="hi\n")
    assert (ran.exit_code, ran.output) == (2, expected)
    assert server.received == []


def test_input_that_is_not_text_ends_the_chat_and_stops_the_server(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    calls = tmp_path / "calls.log"
    with TurnServer() as server:
        ran = chat(
            server,
            "--mcp",
            command(script, "text", calls),
            "--yes",
            input=b"hi\n" + b" " * 9000 + b"\n\xff\n",
        )
    assert ran.exit_code == 1
    assert ran.stderr.splitlines()[-1] == "error: standard input is not UTF-8 text (byte 0xff)"
    assert len(server.bodies()) == 2  # the first turn was answered
    (pid,) = started(calls)
    assert not running(pid)


def test_an_http_server_is_one_session_for_the_whole_chat(
    _command_home: Path, http_server: HttpServer, authorization: str
) -> None:
    with TurnServer() as server:
        ran = chat(server, "--mcp", http_server.url, "--mcp-header", f"Authorization: {authorization}", "--yes",
                   input="one\ntwo\n")  # fmt: skip
    assert ran.exit_code == 0, ran.output
    bodies = server.bodies()
    assert [b["messages"][-1] for b in bodies[1::2]] == [result("Sunny in San Francisco")] * 2
    assert set(http_server.seen) == {authorization}
    assert authorization.split()[1] not in ran.output
    # One session: opened by the first request (no id yet), used by every other, deleted at the end.
    sessions = {session for _, session in http_server.requests[1:]}
    assert http_server.requests[0] == ("POST", None) and len(sessions) == 1 and None not in sessions
    assert http_server.requests[-1][0] == "DELETE"
    calls = [b for b in http_server.requests if b[0] == "POST"]
    assert len(calls) >= 4  # initialize, its notification, tools/list, two tools/call


pty = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


@pty
def test_on_a_terminal_each_call_of_each_turn_is_asked_about(
    _command_home: Path, script: Path, tmp_path: Path
) -> None:
    calls = tmp_path / "calls.log"
    with TurnServer() as server:
        terminal = Terminal(
            "chat", MODEL, "--base-url", server.base_url, "--mcp", command(script, "text", calls)
        )
        at = terminal.expect("> ")
        question = (
            f'Run weather({{"location": "San Francisco"}}) on MCP server {os.path.basename(sys.executable)} '
        )
        for turn, reply in (("Weather in SF?", "y"), ("And now?", "n")):
            terminal.send(turn + "\r")
            at = terminal.expect(question, start=at)
            at = terminal.expect("? [y/N]: ", start=at)
            terminal.send(reply + "\r")
            at = terminal.expect(ANSWER.splitlines()[0], start=at)
            at = terminal.expect("> ", start=at)
        terminal.send("\x04")  # Ctrl-D
        assert terminal.finish() == 0
    bodies = server.bodies()
    assert [b["messages"][-1] for b in bodies[1::2]] == [
        result("Sunny in San Francisco"),
        result("the user refused the call"),
    ]
    assert calls.read_text(encoding="utf-8") == "San Francisco\n"  # the refused call never ran
    (pid,) = started(calls)
    assert not running(pid)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_ends_the_chat_and_stops_the_server(_command_home: Path, script: Path, tmp_path: Path) -> None:
    calls = tmp_path / "calls.log"
    with TurnServer() as server:
        # Pipes, not a terminal: what the command prints as it ends is never lost with the terminal.
        process = subprocess.Popen(
            [sys.executable, "-m", "modelport.cli", "chat", MODEL, "--base-url", server.base_url,
             "--mcp", command(script, "text", calls), "--yes"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(b"Weather in SF?\n")
            process.stdin.flush()
            seen = b""
            while not seen.endswith(ANSWER.encode().splitlines()[-1] + b"\n> "):
                ready, _, _ = select.select([process.stdout], [], [], 30)
                assert ready, seen[-300:]
                chunk = os.read(process.stdout.fileno(), 65536)
                assert chunk, seen[-300:]
                seen += chunk
            (pid,) = started(calls)
            assert running(pid, within=0)
            process.send_signal(signal.SIGINT)  # waiting for the next turn
            rest = process.communicate(timeout=30)[0]
        finally:
            if process.poll() is None:  # never left behind
                process.kill()
                process.communicate()
    assert (rest, process.returncode) == (b"\nAborted!\n", 1)
    assert not running(pid)
