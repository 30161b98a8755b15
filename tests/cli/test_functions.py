"""Issue 41: Python functions as tools from the command line (``-T MODULE:FUNC``, ``--functions
FILE.py``), run by the tool loop (``model.run``) with the approval hook: ``--yes`` allows every
call, a terminal asks before each (tests on a pseudo-terminal), and neither is refused before
anything is sent. The loopback server answers with a recorded tool call (xAI through an
OpenAI-compatible API, vercel/ai fixture, REAL), then with the recorded text answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import main
from tests.loopback import Received, Reply
from tests.recordings import openai

from .openai_server import ANSWER, COMPLETION, OpenAIServer
from .test_terminal_sessions import Terminal

MODEL = "openai-compatible/x"
TOOL_CALL: dict[str, Any] = json.loads(
    openai("vercel__ai/packages__openai-compatible__src__chat____fixtures____xai-tool-call.json").read_text(
        encoding="utf-8"
    )
)
FUNCTIONS = '''
import os as _os


def weather(location: str) -> str:
    """The weather at a location."""
    return f"Sunny in {location}"


def _helper() -> None:
    pass
'''


class ToolServer(OpenAIServer):
    """Answers the first chat completion with the recorded tool call, the next ones with text."""

    def answer(self, received: Received) -> Reply:
        if received.path == "/v1/chat/completions" and len(self.bodies()) == 1:
            return Reply(headers={"content-type": "application/json"}, body=json.dumps(TOOL_CALL).encode())
        return super().answer(received)


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture
def functions_file(tmp_path: Path) -> Path:
    path = tmp_path / "weather_tools.py"
    path.write_text(FUNCTIONS, encoding="utf-8")
    return path


def _tool_message(body: dict[str, Any]) -> dict[str, Any]:
    return body["messages"][-1]


def test_functions_run_through_the_tool_loop_with_yes(_command_home: Path, functions_file: Path) -> None:
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--functions", str(functions_file),
                     "--yes", "--usage", "Weather in SF?")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.startswith(ANSWER + "\n")
    first, second = server.bodies()
    assert [t["function"]["name"] for t in first["tools"]] == ["weather"]
    assert first["tools"][0]["function"]["parameters"]["properties"] == {"location": {"type": "string"}}
    assert _tool_message(second) == {
        "role": "tool",
        "tool_call_id": "call_46427107",
        "content": "Sunny in San Francisco",
    }
    # --usage sums both steps: 307 + the recorded text answer's input tokens.
    text_usage = COMPLETION["usage"]
    assert f"input {307 + text_usage['prompt_tokens']}," in result.output
    (call,) = json.loads(run("logs", "list", "--json").output)
    assert call["options"] == {"functions": ["weather"]}


def test_a_module_function_by_name(
    _command_home: Path, functions_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(functions_file.parent)
    monkeypatch.delitem(sys.modules, "weather_tools", raising=False)
    with ToolServer() as server:
        result = run(
            "generate", MODEL, "--base-url", server.base_url, "-T", "weather_tools:weather", "-y", "hi"
        )
    assert result.exit_code == 0, result.output
    assert _tool_message(server.bodies()[1])["content"] == "Sunny in San Francisco"


def test_without_a_terminal_or_yes_nothing_is_sent(_command_home: Path, functions_file: Path) -> None:
    with ToolServer() as server:
        result = run(
            "generate", MODEL, "--base-url", server.base_url, "--functions", str(functions_file), "hi"
        )
    assert (result.exit_code, result.output) == (
        2,
        "Error: -T / --functions run code the model asks for: pass --yes to allow every call, or run "
        "on a terminal to be asked before each one\n",
    )
    assert server.received == []


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-T", "nothing"], "Error: -T 'nothing': expected MODULE:FUNC (e.g. myapp.tools:get_weather)"),
        (["-T", "no_such_module_x:f"], "Error: -T no_such_module_x:f: ModuleNotFoundError: No module named"),
        (["-T", "json:nope"], "Error: -T json:nope: AttributeError: module 'json' has no attribute 'nope'"),
        (["-T", "json:__doc__"], "Error: -T json:__doc__ is a str, not a function"),
        (["--functions", "{bad}"], "Error: --functions {bad}: SyntaxError:"),
        (["--functions", "{empty}"], "Error: --functions {empty}: no public function in it"),
        (["--functions", "{good}", "--functions", "{good}"], "Error: two functions are named 'weather'"),
    ],
)
def test_a_function_that_cannot_be_loaded_is_one_line(
    _command_home: Path, functions_file: Path, tmp_path: Path, args: list[str], expected: str
) -> None:
    (tmp_path / "bad.py").write_text("def f(:\n", encoding="utf-8")
    (tmp_path / "empty.py").write_text("import os\nX = 1\n", encoding="utf-8")
    paths = {"bad": tmp_path / "bad.py", "empty": tmp_path / "empty.py", "good": functions_file}
    given = [a.format(**paths) for a in args]
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, *given, "--yes", "hi")
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and result.output.startswith(expected.format(**paths)), (
        result.output
    )
    assert server.received == []


pty = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


@pty
@pytest.mark.parametrize(
    ("reply", "content"), [("y", "Sunny in San Francisco"), ("n", "the user refused the call")]
)
def test_on_a_terminal_each_call_is_asked_about(
    _command_home: Path, functions_file: Path, reply: str, content: str
) -> None:
    with ToolServer() as server:
        terminal = Terminal("generate", MODEL, "--base-url", server.base_url, "--functions", str(functions_file),
                            "Weather in SF?")  # fmt: skip
        terminal.expect('Run weather({"location": "San Francisco"})? [y/N]: ')
        terminal.send(reply + "\r")
        terminal.expect(ANSWER.splitlines()[0])
        assert terminal.finish() == 0
    assert _tool_message(server.bodies()[1])["content"] == content
