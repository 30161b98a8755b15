"""``modelport logs``: full-text search through an FTS5 index (trigram: any text of three characters
or more, anywhere in a word, any case), kept in step with the log by triggers and built for the
rows of an older database; ``-m MODEL`` (an alias too) and ``-r`` (the latest answer alone)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import main
from modelport.cli._logstore import MIGRATIONS, Call, LogStore

FLASH = "google/gemini-2.5-flash"
LOCAL = "openai-compatible/x"


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _store(path: Path) -> LogStore:
    store = LogStore(path)
    store.add(
        Call(
            conversation_id="c1", model=FLASH, prompt="Why is the sky blue?", response="Rayleigh scattering."
        )
    )
    store.add(
        Call(
            conversation_id="c1",
            model=FLASH,
            prompt="And sunsets?",
            system="Be brief.",
            response="Longer path.",
        )
    )
    store.add(Call(conversation_id="c2", model=LOCAL, prompt='Say "hi" OR NEAR(x)', response="Hello there"))
    return store


def _prompts(calls: list[Call]) -> list[str]:
    return [call.prompt for call in calls]


def test_search_finds_text_inside_words_in_any_case_through_the_index(tmp_path: Path) -> None:
    store = _store(tmp_path / "logs.db")
    assert store.indexed()
    assert _prompts(store.search("AYLEIGH")) == ["Why is the sky blue?"]
    assert _prompts(store.search("brie")) == ["And sunsets?"]  # the system instruction
    assert _prompts(store.search("path")) == ["And sunsets?"]
    assert _prompts(store.search("sky blue")) == ["Why is the sky blue?"]
    assert _prompts(store.search("s")) == _prompts(store.recent())  # short: LIKE, all three match


def test_fts5_query_syntax_in_the_text_is_searched_for_literally(tmp_path: Path) -> None:
    store = _store(tmp_path / "logs.db")
    assert _prompts(store.search('"hi" OR NEAR(')) == ['Say "hi" OR NEAR(x)']
    assert store.search("blue OR path") == []
    assert store.search('sky"') == []


def test_search_reads_the_index_not_the_rows(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    store = _store(path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO responses_search (responses_search) VALUES ('delete-all')")
    assert store.search("Rayleigh") == []  # the rows still hold it; LIKE would find it
    assert len(store.search("Ra")) == 1  # under three characters: LIKE over the rows


def test_the_index_follows_updates_and_deletes(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    store = _store(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE responses SET response = 'Mie scattering.' WHERE prompt = 'Why is the sky blue?'")
        db.execute("DELETE FROM responses WHERE model = ?", (LOCAL,))
    assert store.search("Rayleigh") == []
    assert _prompts(store.search("mie sc")) == ["Why is the sky blue?"]
    assert store.search("Hello") == []


def test_an_older_database_gets_the_index_with_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    with sqlite3.connect(path) as db:
        for step in MIGRATIONS[:2]:
            assert isinstance(step, str)
            db.executescript(step)
        db.execute("PRAGMA user_version = 2")
        db.execute(f"INSERT INTO conversations VALUES ('c0', '{FLASH}', '2026-01-01T00:00:00+00:00')")
        db.execute(
            "INSERT INTO responses (conversation_id, model, prompt, response, created) "
            f"VALUES ('c0', '{FLASH}', 'old prompt', 'an answer from before', '2026-01-01T00:00:00+00:00')"
        )
    store = LogStore(path)
    assert _prompts(store.search("FROM BEF")) == ["old prompt"]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3


def test_without_fts5_search_falls_back_to_like(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import modelport.cli._logstore as logstore

    no_fts5 = ("CREATE VIRTUAL TABLE responses_search USING nofts5(prompt)", *logstore._SEARCH_STATEMENTS[1:])
    monkeypatch.setattr(logstore, "_SEARCH_STATEMENTS", no_fts5)  # "no such module: nofts5"
    store = _store(tmp_path / "logs.db")
    assert not store.indexed()
    assert _prompts(store.search("rayleigh")) == ["Why is the sky blue?"]
    assert store.search("%") == []  # LIKE wildcards are literal


def test_logs_filter_by_model_or_alias_and_print_the_latest_answer(_command_home: Path) -> None:
    _store(_command_home / "logs.db")
    listed = json.loads(run("logs", "list", "-m", FLASH, "--json").output)
    assert [call["prompt"] for call in listed] == ["And sunsets?", "Why is the sky blue?"]
    assert run("aliases", "set", "local", LOCAL).exit_code == 0
    assert [c["model"] for c in json.loads(run("logs", "-m", "local", "--json").output)] == [LOCAL]
    found = json.loads(run("logs", "search", "e", "-m", "local", "--json").output)
    assert [call["prompt"] for call in found] == ['Say "hi" OR NEAR(x)']
    assert run("logs", "list", "-r").output == "Hello there\n"
    assert run("logs", "list", "-r", "-m", FLASH).output == "Longer path.\n"
    assert run("logs", "list", "-r", "--cid", "c1").output == "Longer path.\n"
    missing = run("logs", "list", "-r", "-m", "google/none")
    assert (missing.exit_code, missing.output) == (1, "error: no call is logged for these filters\n")
