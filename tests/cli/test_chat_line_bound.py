"""Lines typed into ``modelport chat`` are bounded like the files the command reads (issue 34,
CLI bounds): ``input()`` read a piped line whole, so a single line of hundreds of MB (or
``< /dev/zero``) was held in memory and sent. A turn is now at most 32 MiB: piped input is read at
most that much at a time, a longer line or ``!multi`` block is read on to its end and dropped, the
refusal is one line of text, and the chat goes on with the next line. Against an OpenAI-compatible
server on loopback.
"""

from __future__ import annotations

import io
import sys
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import _chat, main

from .openai_server import OpenAIServer

KEY = "sk-loopback-chat-bound-0123456789"
MODEL = "openai-compatible/x"


def chat(server: OpenAIServer, text: str | bytes) -> Any:
    args = ["chat", MODEL, "--base-url", server.base_url, "--key", KEY, "--no-stream"]
    return CliRunner().invoke(main, args, input=text)


def sent(server: OpenAIServer) -> list[str]:
    """The last user message of each request the server received."""
    return [body["messages"][-1]["content"] for body in server.bodies()]


def errors(result: Any) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


def test_a_line_over_32_mib_is_refused_in_one_line_and_the_chat_goes_on() -> None:
    with OpenAIServer() as server:
        result = chat(server, "x" * (32 * 1024**2 + 1) + "\nAfter.\n")
    assert result.exit_code == 0
    assert errors(result) == ["error: the line is larger than the limit of 32 MiB; it is not sent"]
    assert sent(server) == ["After."]


def test_a_line_of_exactly_the_bound_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_chat, "MAX_TURN_CHARS", 1000)
    with OpenAIServer() as server:
        result = chat(server, "y" * 1000 + "\n" + "z" * 1001 + "\nok\n")
    assert result.exit_code == 0
    assert errors(result) == ["error: the line is larger than the limit of 1000 bytes; it is not sent"]
    assert sent(server) == ["y" * 1000, "ok"]


def test_a_multi_block_over_the_bound_is_refused_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_chat, "MAX_TURN_CHARS", 100)
    block = "!multi\n" + ("a" * 60 + "\n") * 2 + "!end\n"
    long_line = "!multi\n" + "b" * 101 + "\nc\n!end\n"
    with OpenAIServer() as server:
        result = chat(server, block + long_line + "!multi\nd\ne\n!end\n")
    assert result.exit_code == 0
    assert errors(result) == [
        "error: the block is larger than the limit of 100 bytes; it is not sent",
        "error: the block is larger than the limit of 100 bytes; it is not sent",
    ]
    assert sent(server) == ["d\ne"]


class Recording(io.StringIO):
    """Standard input that records how much each read handed back."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.reads: list[int] = []

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline(-1 if size is None else size)
        self.reads.append(len(line))
        return line

    def isatty(self) -> bool:
        return False


def test_no_read_of_a_long_line_returns_more_than_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_chat, "MAX_TURN_CHARS", 1000)
    stdin = Recording("w" * 1_000_000 + "\nnext\n")
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    with pytest.raises(_chat.LineRefused):
        _chat._read_turn("> ")
    assert max(stdin.reads) == 64 * 1024
    assert stdin.reads[0] == 1001
    assert _chat._read_turn("> ") == "next"
    assert _chat._read_turn("> ") is None


def test_input_that_is_not_utf_8_ends_the_chat_in_one_line() -> None:
    with OpenAIServer() as server:
        result = chat(server, b"\xff\xfe bad\nnever\n")
    assert result.exit_code == 1
    assert errors(result) == ["error: standard input is not UTF-8 text (byte 0xff)"]
    assert "Traceback" not in result.output
    assert sent(server) == []
