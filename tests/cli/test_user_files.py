"""Every path the command is given is bounded (issue 34): a regular file only (a FIFO would block
forever, ``/dev/zero`` would be read until memory runs out), at most a size limit, UTF-8 where text
is read, and JSON of bounded nesting, so each refusal is one line naming the file and the option,
before any network I/O. The blocking and unbounded cases run as a subprocess with a time limit (and
an address-space limit), so the test fails rather than hangs or eats the machine when they regress."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

import modelport
from modelport.cli import main
from modelport.cli._files import MAX_BATCH_FILE_BYTES, MAX_FILE_BYTES
from modelport.wire import MAX_DEPTH

GOOGLE = "google/gemini-2.5-flash"
KEY = "mp-user-files-test-key-5c2e"
DEEP = "[" * 100_000 + "]" * 100_000

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[httpx.Request]:
    """Every request a model would send, recorded and refused (none may be sent)."""
    sent: list[httpx.Request] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(500)

    real = modelport.get_model

    def get_model(model_id: str, **kwargs: Any) -> modelport.Model:
        kwargs.setdefault("transport", httpx.MockTransport(refuse))
        return real(model_id, **kwargs)

    monkeypatch.setenv("GOOGLE_API_KEY", KEY)
    monkeypatch.setattr(modelport, "get_model", get_model)
    return sent


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def last_line(result: Any) -> str:
    return str(result.output.rstrip("\n").rsplit("\n", 1)[-1])


def refused(result: Any, hint: str, text: str) -> None:
    """A usage error (exit 2) whose last line is click's one line for the option ``hint``."""
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2
    assert last_line(result) == f"Error: Invalid value for {hint}: {text}"


def subprocess_run(
    args: list[str], cwd: Path, stdin: Any = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """The command in a child Python, killed after 60 s, its address space limited to 2 GiB."""

    def limit_memory() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))

    env = {**os.environ, "GOOGLE_API_KEY": KEY}
    return subprocess.run(
        [sys.executable, "-m", "modelport.cli", *args],
        cwd=cwd,
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit_memory if sys.platform != "win32" else None,  # noqa: PLW1509
    )


# -a, --schema and --cassette: not a regular file ---------------------------------------------------


@needs_fifo
@pytest.mark.parametrize(
    ("option", "hint"),
    [("-a", "'-a' / '--attach'"), ("--schema", "'--schema'"), ("--cassette", "'--cassette'")],
)
def test_a_fifo_is_refused_at_once_not_read(tmp_path: Path, option: str, hint: str) -> None:
    os.mkfifo(tmp_path / "pipe")
    done = subprocess_run(["generate", GOOGLE, "hi", option, "pipe"], tmp_path)
    assert done.returncode == 2
    assert (
        done.stderr.splitlines()[-1] == f"Error: Invalid value for {hint}: pipe: a FIFO, not a regular file"
    )
    assert "Traceback" not in done.stderr


@needs_dev_zero
def test_dev_zero_is_refused_at_once_not_read_until_memory_runs_out(tmp_path: Path) -> None:
    done = subprocess_run(["generate", GOOGLE, "hi", "-a", "/dev/zero"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "Error: Invalid value for '-a' / '--attach': /dev/zero: a character device, not a regular file"
    )


@needs_dev_zero
def test_a_prompt_piped_from_dev_zero_stops_at_the_limit(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zeros:
        done = subprocess_run(["generate", GOOGLE, "-"], tmp_path, stdin=zeros)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "Error: Invalid value for 'PROMPT': standard input is larger than the limit of 32 MiB"
    )


def test_a_directory_is_refused(tmp_path: Path, no_network: list[httpx.Request]) -> None:
    refused(
        run("generate", GOOGLE, "hi", "-a", str(tmp_path)),
        "'-a' / '--attach'",
        f"{tmp_path}: a directory, not a regular file",
    )
    assert no_network == []


# the size limit ------------------------------------------------------------------------------------


def test_an_attachment_over_the_limit_is_refused_unread(
    tmp_path: Path, no_network: list[httpx.Request]
) -> None:
    big = tmp_path / "big.png"
    with big.open("wb") as file:  # sparse: nothing is written but its size
        file.truncate(MAX_FILE_BYTES + 1)
    refused(
        run("generate", GOOGLE, "hi", "-a", str(big)),
        "'-a' / '--attach'",
        f"{big}: larger than the limit of 32 MiB",
    )
    assert no_network == []


def test_an_attachment_at_the_limit_is_read(tmp_path: Path, no_network: list[httpx.Request]) -> None:
    from modelport.cli._request import attachment

    exact = tmp_path / "exact.png"
    exact.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * (MAX_FILE_BYTES - 8))
    part = attachment(str(exact))
    assert (part["media_type"], len(part["data"])) == ("image/png", MAX_FILE_BYTES)


def test_a_batch_file_over_its_limit_is_refused_unread(
    tmp_path: Path, no_network: list[httpx.Request]
) -> None:
    big = tmp_path / "requests.jsonl"
    with big.open("wb") as file:
        file.truncate(MAX_BATCH_FILE_BYTES + 1)
    refused(run("batch", "submit", GOOGLE, str(big)), "'FILE'", f"{big}: larger than the limit of 200 MiB")
    assert no_network == []


# nesting and encoding ------------------------------------------------------------------------------


def test_a_schema_nested_100000_deep_is_a_usage_error_not_a_recursion_error(
    tmp_path: Path, no_network: list[httpx.Request]
) -> None:
    schema = tmp_path / "deep.json"
    schema.write_text(DEEP, encoding="utf-8")
    refused(
        run("generate", GOOGLE, "hi", "--schema", str(schema)),
        "'--schema'",
        f"{schema}: not JSON: JSON is nested too deeply",
    )
    assert no_network == []


def test_a_schema_nested_past_the_cores_depth_is_a_usage_error(
    tmp_path: Path, no_network: list[httpx.Request]
) -> None:
    schema = tmp_path / "deep.json"
    schema.write_text('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), encoding="utf-8")
    result = run("generate", GOOGLE, "hi", "--schema", str(schema))
    refused(result, "'--schema'", f"{schema}: not JSON: JSON is nested deeper than {MAX_DEPTH} levels")


def test_a_batch_line_nested_100000_deep_is_a_usage_error_not_a_recursion_error(
    tmp_path: Path, no_network: list[httpx.Request]
) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_text('{"prompt": "hi"}\n' + DEEP + "\n", encoding="utf-8")
    refused(
        run("batch", "submit", GOOGLE, str(requests)),
        "'FILE'",
        "line 2 is not JSON: JSON is nested too deeply",
    )
    assert no_network == []


def test_a_batch_line_holding_a_line_separator_in_a_string_is_one_line(
    tmp_path: Path, no_network: list[httpx.Request]
) -> None:
    from modelport.cli._batch import _read_requests

    requests = tmp_path / "requests.jsonl"
    requests.write_text('{"prompt": "a\u2028b", "custom_id": "x"}\r\n\n{"prompt": "c"}\n', encoding="utf-8")
    assert _read_requests(requests) == [("x", {"prompt": "a\u2028b"}), ("1", {"prompt": "c"})]


@pytest.mark.parametrize(
    ("command", "hint", "name"),
    [
        (["generate", GOOGLE, "hi", "--schema"], "'--schema'", "schema.json"),
        (["batch", "submit", GOOGLE], "'FILE'", "requests.jsonl"),
    ],
    ids=["schema", "batch-submit"],
)
def test_a_file_that_is_not_utf8_is_a_usage_error_not_a_unicode_decode_error(
    tmp_path: Path, no_network: list[httpx.Request], command: list[str], hint: str, name: str
) -> None:
    path = tmp_path / name
    path.write_bytes(b'{"prompt": "caf\xe9"}\n')
    refused(run(*command, str(path)), hint, f"{path}: not UTF-8 text (byte 0xe9 at offset 15)")
    assert no_network == []


def test_a_text_attachment_that_is_not_utf8_is_refused(
    tmp_path: Path, no_network: list[httpx.Request]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"caf\xe9\n")
    refused(
        run("generate", GOOGLE, "hi", "-a", str(notes)),
        "'-a' / '--attach'",
        f"{notes}: not an image, a PDF or a UTF-8 text file (text/plain)",
    )


def test_a_missing_file_says_so_in_one_line(tmp_path: Path, no_network: list[httpx.Request]) -> None:
    missing = tmp_path / "missing.json"
    refused(
        run("generate", GOOGLE, "hi", "-a", str(missing)),
        "'-a' / '--attach'",
        f"{missing}: No such file or directory",
    )
