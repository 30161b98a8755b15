"""Every command ends on one line of error text, exit status non-zero, never a traceback (issue 34):
the log database damaged or newer than the code, the model list cache damaged (and a cache stamped
in the future is stale, not fresh forever), the keys or settings file not JSON, and any exception a
command did not expect, through the group's own handler."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from modelport.cli import main
from modelport.cli._logstore import MIGRATIONS, Call, LogStore

from .openai_server import OpenAIServer


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def one_error_line(result: Any, text: str) -> None:
    """The command failed with exit status 1 and printed exactly ``error: text``, one line, on
    standard error (no traceback: the exception the runner saw is the exit itself)."""
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"error: {text}\n")


# the log database ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [["logs", "list"], ["logs"], ["logs", "search", "x"], ["logs", "show", "1"]]
)
def test_a_damaged_log_database_is_one_line(_command_home: Path, command: list[str]) -> None:
    database = _command_home / "logs.db"
    database.write_bytes(b"this is not a database\n" * 100)
    one_error_line(
        run(*command),
        f"the log database {database} cannot be read: file is not a database (move it away to start a new one)",
    )


def test_a_newer_log_database_is_one_line(_command_home: Path) -> None:
    database = _command_home / "logs.db"
    with sqlite3.connect(database) as connection:
        connection.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    one_error_line(
        run("logs", "list"),
        f"{database} has schema version {len(MIGRATIONS) + 1}, newer than this modelport reads ({len(MIGRATIONS)})",
    )


def test_a_log_database_without_its_tables_is_one_line(_command_home: Path) -> None:
    database = _command_home / "logs.db"
    with sqlite3.connect(database) as connection:
        connection.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")  # stamped, but empty
    one_error_line(
        run("logs", "list"),
        f"the log database {database} cannot be read: no such table: responses (move it away to start a new one)",
    )


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("options", "{not json"),
        ("options", "[1, 2]"),
        ("usage", "[]"),
        ("attachments", '{"a": 1}'),
        ("prompt", b"\x00\xff"),
    ],
)
def test_a_damaged_row_is_one_line_naming_it(_command_home: Path, column: str, value: Any) -> None:
    database = _command_home / "logs.db"
    call_id = LogStore(database).add(Call(conversation_id="c", model="google/g", prompt="hi"))
    with sqlite3.connect(database) as connection:
        connection.execute(f"UPDATE responses SET {column} = ? WHERE id = ?", (value, call_id))
    one_error_line(
        run("logs", "list"),
        f"the log database {database} is damaged: call #{call_id} has an unreadable {column} column",
    )


def test_continuing_from_a_damaged_log_database_is_one_line(_command_home: Path) -> None:
    database = _command_home / "logs.db"
    database.write_bytes(b"\0" * 4096)
    result = run("generate", "-c", "openai-compatible/x", "again")
    assert isinstance(result.exception, SystemExit) and result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: the log database {database} cannot be read: file is not a database (move it away to start a new one)"
    ]


# the model list cache ------------------------------------------------------------------------------


def _cache_file(home: Path) -> Path:
    (path,) = (home / "cache").glob("models-*.json")
    return path


@pytest.mark.parametrize(
    "cached",
    [
        {"fetched": "yesterday", "models": []},
        {"fetched": True, "models": []},
        {"fetched": "now", "models": "x"},
        {"fetched": "now", "models": ["x"]},
        {"fetched": "now", "models": [{"display_name": "no id"}]},
        [],
    ],
    ids=["stamp-text", "stamp-bool", "models-text", "model-text", "model-without-id", "a-list"],
)
def test_a_damaged_model_cache_is_one_line_and_refresh_replaces_it(_command_home: Path, cached: Any) -> None:
    with OpenAIServer() as server:
        assert run("models", "openai-compatible", "--base-url", server.base_url).exit_code == 0
        cache = _cache_file(_command_home)
        if isinstance(cached, dict):
            cached = {**cached, "fetched": time.time()} if cached["fetched"] == "now" else cached
        cache.write_text(json.dumps(cached), encoding="utf-8")
        damaged = run("models", "openai-compatible", "--base-url", server.base_url)
        refreshed = run("models", "openai-compatible", "--base-url", server.base_url, "--refresh")
    why = (
        f"{cache} does not hold a JSON object"
        if isinstance(cached, list)
        else f"{cache} does not hold a stamped list of models"
    )
    one_error_line(damaged, f"the model list cache is damaged: {why} (--refresh replaces it)")
    assert (refreshed.exit_code, refreshed.stdout) == (
        0,
        "openai-compatible/x\nopenai-compatible/llama-3.2-1b\n",
    )
    assert len(server.received) == 2  # the first listing and the refresh


def test_a_model_cache_that_is_not_json_is_one_line(_command_home: Path) -> None:
    with OpenAIServer() as server:
        run("models", "openai-compatible", "--base-url", server.base_url)
        cache = _cache_file(_command_home)
        cache.write_bytes(b"{\xff")
        result = run("models", "openai-compatible", "--base-url", server.base_url)
    one_error_line(
        result,
        f"the model list cache is damaged: {cache} cannot be read: not UTF-8 text (byte 0xff at offset 1) "
        "(--refresh replaces it)",
    )


@pytest.mark.parametrize("stamp", [3600.0, 1e300], ids=["an-hour-ahead", "far-future"])
def test_a_model_cache_stamped_in_the_future_is_stale(_command_home: Path, stamp: float) -> None:
    with OpenAIServer() as server:
        run("models", "openai-compatible", "--base-url", server.base_url)
        cache = _cache_file(_command_home)
        data = json.loads(cache.read_text(encoding="utf-8"))
        data["fetched"] = time.time() + stamp
        data["models"] = [{"id": "served-forever"}]
        cache.write_text(json.dumps(data), encoding="utf-8")
        again = run("models", "openai-compatible", "--base-url", server.base_url)
    assert (again.exit_code, again.stdout) == (0, "openai-compatible/x\nopenai-compatible/llama-3.2-1b\n")
    assert len(server.received) == 2  # asked again, not served from the future
    assert time.time() - json.loads(cache.read_text(encoding="utf-8"))["fetched"] < 60


def test_a_fresh_model_cache_is_still_served(_command_home: Path) -> None:
    with OpenAIServer() as server:
        run("models", "openai-compatible", "--base-url", server.base_url)
        again = run("models", "openai-compatible", "--base-url", server.base_url)
    assert again.exit_code == 0 and len(server.received) == 1


# the keys and settings files -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [["keys", "list"], ["keys", "get", "openai"], ["keys", "remove", "openai"]]
)
def test_a_keys_file_that_is_not_json_is_one_line(
    _command_home: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.setenv("MODELPORT_KEYRING", "0")
    keys = _command_home / "keys.json"
    keys.write_text("openai=sk-not-json", encoding="utf-8")
    one_error_line(
        run(*command), f"{keys} cannot be read: not JSON: Expecting value: line 1 column 1 (char 0)"
    )


def test_a_keys_file_that_is_a_fifo_is_one_line(_command_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    monkeypatch.setenv("MODELPORT_KEYRING", "0")
    os.mkfifo(_command_home / "keys.json")
    one_error_line(
        run("keys", "list"), f"{_command_home / 'keys.json'} cannot be read: a FIFO, not a regular file"
    )


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[1", "cannot be read: not JSON: Expecting ',' delimiter: line 1 column 3 (char 2)"),
        (
            '{"aliases": ["flash"]}',
            ": 'aliases' must be an object, 'default_model' and 'default_base_url' strings",
        ),
    ],
    ids=["not-json", "aliases-a-list"],
)
def test_a_damaged_settings_file_is_one_line(_command_home: Path, text: str, why: str) -> None:
    settings = _command_home / "settings.json"
    settings.write_text(text, encoding="utf-8")
    for command in (["generate", "google/g", "hi"], ["aliases"], ["default-model"], ["logs", "off"]):
        one_error_line(run(*command), f"{settings}{'' if why.startswith(':') else ' '}{why}")


# anything else a command raises --------------------------------------------------------------------


def test_an_unexpected_exception_is_one_line_scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    key = "sk-proj-" + "Q" * 40

    def broken() -> None:
        raise TypeError(f"a bug\nover two lines, holding {key}\x1b[2J")

    monkeypatch.setitem(main.commands, "broken", click.Command("broken", callback=broken))
    one_error_line(run("broken"), "TypeError: a bug over two lines, holding [REDACTED]")


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (
            RecursionError("maximum recursion depth exceeded"),
            "RecursionError: maximum recursion depth exceeded",
        ),
        (
            UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
            "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
        ),
        (PermissionError(13, "Permission denied", "/x/keys.json"), "/x/keys.json: Permission denied"),
        (sqlite3.OperationalError("database is locked"), "OperationalError: database is locked"),
        (MemoryError(), "MemoryError"),
    ],
    ids=["recursion", "unicode", "os", "sqlite", "memory"],
)
def test_every_kind_of_exception_ends_on_one_line(
    monkeypatch: pytest.MonkeyPatch, error: Exception, text: str
) -> None:
    def broken() -> None:
        raise error

    monkeypatch.setitem(main.commands, "broken", click.Command("broken", callback=broken))
    one_error_line(run("broken"), text)


def test_click_usage_errors_and_exits_are_still_clicks_own(monkeypatch: pytest.MonkeyPatch) -> None:
    def exits() -> None:
        raise SystemExit(3)

    monkeypatch.setitem(main.commands, "exits", click.Command("exits", callback=exits))
    assert run("exits").exit_code == 3
    usage = run("generate", "google/g", "hi", "-o", "no-equals")
    assert usage.exit_code == 2
    assert (
        usage.stderr.splitlines()[-1]
        == "Error: Invalid value for '-o' / '--option': expected key=value, got 'no-equals'"
    )
