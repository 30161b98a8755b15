"""Issue 30: on a real pseudo-terminal, ``generate`` streams by default (the first tokens show while
the server still holds the rest), and ``chat`` runs a conversation (a line, a ``!multi`` block,
Ctrl-D) logged as one conversation. The command runs as a process; the server is on loopback."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from .openai_server import CHUNKS, STREAMED, OpenAIServer

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

MODEL = "openai-compatible/x"
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
#: What the first 20 chunks of the recorded stream say (the server holds the rest until told).
FIRST_PART = "".join(
    (json.loads(line)["choices"] or [{}])[0].get("delta", {}).get("content") or "" for line in CHUNKS[:20]
)


class Terminal:
    """The ``modelport`` command on a pseudo-terminal: ``expect`` reads until text shows."""

    def __init__(self, *args: str) -> None:
        self.master, slave = os.openpty()
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "30"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "modelport.cli", *args], stdin=slave, stdout=slave, stderr=slave, env=env,
            close_fds=True,
        )  # fmt: skip
        os.close(slave)
        self.seen = ""

    @property
    def screen(self) -> str:
        """Everything shown so far, without control sequences and carriage returns."""
        return _ESCAPES.sub("", self.seen)

    def expect(self, text: str, timeout: float = 30.0, start: int = 0) -> int:
        """Read until ``text`` shows (after ``start`` in :attr:`screen`); where it ends."""
        end = time.monotonic() + timeout
        while text not in self.screen[start:]:
            left = end - time.monotonic()
            if left <= 0 or not self._read(left):
                pytest.fail(f"{text!r} did not show; the terminal shows:\n{self.screen}")
        return self.screen.index(text, start) + len(text)

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the process ended and the terminal closed
            return False
        self.seen += data.decode("utf-8", "replace")
        return bool(data)

    def send(self, text: str) -> None:
        os.write(self.master, text.encode())

    def finish(self, timeout: float = 30.0) -> int:
        """Read until the process ends; its exit code."""
        end = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < end:
            self._read(0.1)
        while self._read(0.1):
            pass
        os.close(self.master)
        return self.process.wait(timeout=5)


def test_generate_streams_by_default_on_a_terminal(_command_home: Path) -> None:
    hold = threading.Event()
    with OpenAIServer(hold=hold) as server:
        terminal = Terminal("generate", MODEL, "--base-url", server.base_url, "hi")
        try:
            terminal.expect(FIRST_PART)
            # The first part shows while the server still holds the rest of the answer.
            assert terminal.process.poll() is None
            assert STREAMED not in terminal.screen
        finally:
            hold.set()
        assert terminal.finish() == 0
    assert terminal.screen.endswith(STREAMED.replace("\r", "") + "\n")
    assert server.bodies()[0]["stream"] is True


def test_no_stream_waits_for_the_whole_answer_on_a_terminal() -> None:
    with OpenAIServer() as server:
        terminal = Terminal("generate", MODEL, "--base-url", server.base_url, "--no-stream", "hi")
        assert terminal.finish() == 0
    assert "stream" not in server.bodies()[0]


def test_chat_on_a_terminal_is_one_logged_conversation(_command_home: Path) -> None:
    with OpenAIServer() as server:
        terminal = Terminal("chat", MODEL, "--base-url", server.base_url)
        at = terminal.expect("> ")
        terminal.send("hi\r")
        at = terminal.expect(STREAMED[-40:], start=at)
        at = terminal.expect("> ", start=at)
        for line in ("!multi", "line one", "line two", "!end"):
            terminal.send(line + "\r")
        at = terminal.expect(STREAMED[-40:], start=at)
        terminal.expect("> ", start=at)
        terminal.send("\x04")  # Ctrl-D
        assert terminal.finish() == 0
    first, second = server.bodies()
    assert first["messages"] == [{"role": "user", "content": "hi"}]
    assert second["messages"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": STREAMED},
        {"role": "user", "content": "line one\nline two"},
    ]
    listed = subprocess.run(
        [sys.executable, "-m", "modelport.cli", "logs", "list", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    calls = json.loads(listed.stdout)
    assert [c["prompt"] for c in calls] == ["line one\nline two", "hi"]
    assert len({c["conversation_id"] for c in calls}) == 1
