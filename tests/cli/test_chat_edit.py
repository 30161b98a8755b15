"""``!edit`` in ``modelport chat`` writes the turn in the user's editor (``$EDITOR``), as llm's chat
does: what the editor saves is the turn, line ends kept; an empty file sends nothing; an editor
that fails is one line of error and the chat goes on. The editor is a real process here (a shell
script the test writes), against the loopback OpenAI-compatible server."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import main

from .openai_server import ANSWER, OpenAIServer

MODEL = "openai-compatible/x"


def _editor(tmp_path: Path, body: str, name: str = "editor.sh") -> str:
    script = tmp_path / name
    script.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def chat(server: OpenAIServer, text: str) -> Any:
    args = ["chat", MODEL, "--base-url", server.base_url, "--no-stream"]
    return CliRunner().invoke(main, args, input=text)


@pytest.mark.skipif(os.name != "posix", reason="the editor is a shell script")
def test_the_editor_writes_the_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDITOR", _editor(tmp_path, "printf 'first line\\nsecond line\\n' > \"$1\"\n"))
    monkeypatch.delenv("VISUAL", raising=False)
    with OpenAIServer() as server:
        result = chat(server, "!edit\nplain turn\n")
    assert result.exit_code == 0, result.output
    user_turns = [body["messages"][-1]["content"] for body in server.bodies()]
    assert user_turns == ["first line\nsecond line", "plain turn"]
    assert result.stdout.count(ANSWER) == 2


@pytest.mark.skipif(os.name != "posix", reason="the editor is a shell script")
def test_an_empty_file_sends_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDITOR", _editor(tmp_path, ': > "$1"\n'))
    monkeypatch.delenv("VISUAL", raising=False)
    with OpenAIServer() as server:
        result = chat(server, "!edit\nhello\n")
    assert result.exit_code == 0, result.output
    assert [body["messages"][-1]["content"] for body in server.bodies()] == ["hello"]


@pytest.mark.skipif(os.name != "posix", reason="the editor is a shell script")
def test_a_failing_editor_is_one_line_and_the_chat_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", _editor(tmp_path, "exit 3\n"))
    monkeypatch.delenv("VISUAL", raising=False)
    with OpenAIServer() as server:
        result = chat(server, "!edit\nhello\n")
    assert result.exit_code == 0, result.output
    assert [line for line in result.stderr.splitlines() if line.startswith("error:")] == [
        "error: !edit: {}: Editing failed".format(_editor(tmp_path, "exit 3\n"))
    ]
    assert [body["messages"][-1]["content"] for body in server.bodies()] == ["hello"]
