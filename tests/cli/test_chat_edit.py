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


def test_fragment_sends_its_text_with_the_next_turn_and_logs_it_once(tmp_path: Path) -> None:
    """``!fragment X`` (as ``generate -f``): the text goes with the next turn only, before it; a
    bad one is one line and the chat goes on; the log keeps the text by its sha256."""
    import hashlib

    from modelport.cli._logs import log_store

    notes = tmp_path / "notes.md"
    notes.write_text("Notes: the sky.\n", encoding="utf-8")
    with OpenAIServer() as server:
        result = chat(server, f"!fragment {notes} {tmp_path / 'missing.md'}\nSummarise.\nAgain.\n")
    assert result.exit_code == 0, result.output
    bodies = server.bodies()
    assert bodies[0]["messages"][-1]["content"] == [
        {"type": "text", "text": "Notes: the sky.\n"},
        {"type": "text", "text": "Summarise."},
    ]
    assert bodies[1]["messages"][-1]["content"] == "Again."  # the next turn only
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "missing.md" in errors[0]
    digest = hashlib.sha256(b"Notes: the sky.\n").hexdigest()
    assert log_store().fragment(digest) == "Notes: the sky.\n"
    first = log_store().recent(2)[-1]
    assert first.options["fragments"] == [{"source": str(notes), "sha256": digest}]
