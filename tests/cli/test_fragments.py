"""Issue 41: fragments (``generate -f PATH|URL|NAME``, ``modelport fragments``): each is a text part
before the prompt, hashed (sha256) in the log; files are bounded and UTF-8, URLs are fetched from a
loopback server the test starts (bounded, 2xx only); a bad one is one line, exit 2, nothing sent."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from modelport.cli import _fragments, main
from tests.loopback import Loopback, Received, Reply

from .openai_server import ANSWER, OpenAIServer

MODEL = "openai-compatible/x"


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


def ask(server: OpenAIServer, *args: str) -> Any:
    return run("generate", MODEL, "--base-url", server.base_url, "--key", "sk-" + "x" * 20, *args)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def pages(received: Received) -> Reply:
    """The web the fragments come from; each answer closes its connection (a client that stops
    reading a refused answer then leaves no reset for the server to report)."""
    close = {"connection": "close"}
    if received.path == "/notes.txt":
        return Reply(
            headers={**close, "content-type": "text/plain; charset=utf-8"}, body="Notes: café.\n".encode()
        )
    if received.path == "/latin1":
        latin = "caf\xe9".encode("latin-1")
        return Reply(headers={**close, "content-type": "text/plain; charset=iso-8859-1"}, body=latin)
    if received.path == "/moved":
        return Reply(status=302, headers={**close, "location": "/notes.txt"})
    if received.path == "/huge":
        return Reply(body=(b"x" * 1024**2 for _ in range(9)))
    return Reply(status=404, headers=close, body=b"not here")


def test_files_urls_and_stored_fragments_go_before_the_prompt(_command_home: Path, tmp_path: Path) -> None:
    (tmp_path / "code.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    (tmp_path / "style.md").write_text("Be terse.", encoding="utf-8")
    stored = run("fragments", "set", "style", str(tmp_path / "style.md"))
    assert (stored.exit_code, stored.output) == (
        0,
        f"Saved the fragment 'style' (9 bytes, sha256 {sha('Be terse.')[:12]}).\n",
    )
    with Loopback(pages) as web, OpenAIServer() as server:
        result = ask(
            server, "-f", str(tmp_path / "code.py"), "-f", f"{web.url}/moved", "-f", "style", "Explain."
        )
    assert (result.exit_code, result.output) == (0, ANSWER + "\n")
    (body,) = server.bodies()
    assert body["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "def f():\n    return 1\n"},
                {"type": "text", "text": "Notes: café.\n"},
                {"type": "text", "text": "Be terse."},
                {"type": "text", "text": "Explain."},
            ],
        }
    ]
    (call,) = json.loads(run("logs", "list", "--json").output)
    assert call["prompt"] == "Explain."
    assert call["options"]["fragments"] == [
        {"source": str(tmp_path / "code.py"), "sha256": sha("def f():\n    return 1\n")},
        {"source": f"{web.url}/moved", "sha256": sha("Notes: café.\n")},
        {"source": "style", "sha256": sha("Be terse.")},
    ]


def test_a_template_carries_fragments(_command_home: Path, tmp_path: Path) -> None:
    (tmp_path / "ctx.txt").write_text("Context.", encoding="utf-8")
    assert (
        run("templates", "save", "t", "-m", MODEL, "-f", str(tmp_path / "ctx.txt"), "Q: $input").exit_code
        == 0
    )
    with OpenAIServer() as server:
        result = run("generate", "-t", "t", "--base-url", server.base_url, "why")
    assert result.exit_code == 0, result.output
    assert server.bodies()[0]["messages"][0]["content"] == [
        {"type": "text", "text": "Context."},
        {"type": "text", "text": "Q: why"},
    ]


def test_list_show_delete(_command_home: Path, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("\nFirst line\nsecond\n", encoding="utf-8")
    assert run("fragments", "set", "a", str(tmp_path / "a.txt")).exit_code == 0
    assert run("fragments", "set", "b", "-", input="piped text").exit_code == 0
    listed = run("fragments", "list")
    assert listed.output == (
        f"a: 19 bytes, sha256 {sha(chr(10) + 'First line' + chr(10) + 'second' + chr(10))[:12]}: First line\n"
        f"b: 10 bytes, sha256 {sha('piped text')[:12]}: piped text\n"
    )
    assert run("fragments", "show", "b").output == "piped text"
    assert run("fragments", "delete", "b").output == "Deleted the fragment 'b'.\n"
    missing = run("fragments", "show", "b")
    assert (missing.exit_code, missing.output) == (
        2,
        "Error: no fragment 'b' (`modelport fragments list` lists them)\n",
    )


def _refused(result: Any, expected: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and result.output.startswith("Error: fragment "), result.output
    assert expected in result.output, result.output


def test_bad_fragments_are_one_line_and_nothing_is_sent(_command_home: Path, tmp_path: Path) -> None:
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9")
    (tmp_path / "big.txt").write_bytes(b"x" * (8 * 1024**2 + 1))
    with Loopback(pages) as web, OpenAIServer() as server:
        cases = {
            str(tmp_path / "latin.txt"): "not UTF-8 text (byte 0xe9 at offset 3)",
            str(tmp_path / "big.txt"): "larger than the limit of 8 MiB",
            str(tmp_path): "a directory, not a regular file",
            "no-such-name": "no such file or stored fragment",
            "../etc/passwd-not-here": "not a file, a URL or a stored fragment name",
            f"{web.url}/gone": "HTTP 404",
            f"{web.url}/huge": "larger than the limit of 8 MiB",
        }
        for value, expected in cases.items():
            _refused(ask(server, "-f", value, "hi"), expected)
        latin = ask(server, "-f", f"{web.url}/latin1", "hi")
    assert latin.exit_code == 0  # a declared charset is honoured
    assert server.bodies() == [
        {
            "model": "x",
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "café"}, {"type": "text", "text": "hi"}],
                }
            ],
        }
    ]


def test_a_url_that_times_out_or_fails_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def timeout(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    for handler, expected in (
        (timeout, "no answer within 20 s"),
        (refused, "ConnectError: connection refused"),
    ):
        with pytest.raises(_fragments.Refused) as caught:
            _fragments.fetch("http://example.invalid/x", transport=httpx.MockTransport(handler))
        assert caught.value.message == f"fragment http://example.invalid/x: {expected}"


def test_the_log_keeps_each_fragment_text_once(_command_home: Path, tmp_path: Path) -> None:
    """Two calls sending the same fragment (and one sending another) store two texts, not three,
    and ``logs show`` prints the text a call sent beside its source."""
    from modelport.cli._logs import log_store

    style, notes = tmp_path / "style.md", tmp_path / "notes.md"
    style.write_text("Be terse.\n", encoding="utf-8")
    notes.write_text("Notes: the sky.\n", encoding="utf-8")
    with OpenAIServer() as server:
        assert ask(server, "-f", str(style), "--no-stream", "one").exit_code == 0
        assert ask(server, "-f", str(style), "-f", str(notes), "--no-stream", "two").exit_code == 0
    store = log_store()
    assert store.fragment_count() == 2
    assert store.fragment(sha("Be terse.\n")) == "Be terse.\n"
    assert store.fragment(sha("Notes: the sky.\n")) == "Notes: the sky.\n"
    latest = store.recent(1)[0]
    shown = run("logs", "show", str(latest.id)).output
    assert f"  fragment {style} (sha256 {sha('Be terse.' + chr(10))[:12]}): Be terse." in shown
    assert f"  fragment {notes} (sha256 {sha('Notes: the sky.' + chr(10))[:12]}): Notes: the sky." in shown
