"""Issue 30: the command's log database is versioned (``PRAGMA user_version``) and migrated: a
database of the first schema is brought up to date with its rows kept; a newer one is refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from modelport.cli._logstore import MIGRATIONS, Call, LogStore, migrate, public_url
from modelport.errors import ConfigurationError


def _first_schema(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
        db.execute(
            "INSERT INTO conversations VALUES ('c1', 'google/gemini-2.5-flash', '2026-01-01T00:00:00+00:00')"
        )
        db.execute(
            "INSERT INTO responses (conversation_id, model, prompt, response, duration_ms, created) "
            "VALUES ('c1', 'google/gemini-2.5-flash', 'old prompt', 'old answer', 12, '2026-01-01T00:00:00+00:00')"
        )


def test_a_first_schema_database_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    _first_schema(path)
    store = LogStore(path)
    (old,) = store.recent()
    assert (old.prompt, old.response, old.attachments, old.error, old.base_url) == (
        "old prompt", "old answer", [], None, None
    )  # fmt: skip
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 5
        assert "responses_conversation" in {row[1] for row in db.execute("PRAGMA index_list(responses)")}
    store.add(Call(conversation_id="c1", model="google/gemini-2.5-flash", prompt="new", response="answer"))
    assert [c.prompt for c in store.conversation("c1")] == ["old prompt", "new"]


def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 9")
    with pytest.raises(ConfigurationError, match="has schema version 9, newer than this modelport reads"):
        LogStore(path).recent()


def test_a_failing_step_leaves_the_database_at_its_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "logs.db"
    _first_schema(path)
    monkeypatch.setattr("modelport.cli._logstore.MIGRATIONS", (MIGRATIONS[0], MIGRATIONS[1] + "; NOT SQL"))
    db = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError):
        migrate(db)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "attachments" not in {row[1] for row in db.execute("PRAGMA table_info(responses)")}
    db.close()


@pytest.mark.parametrize(
    ("url", "kept"),
    [
        ("https://user:secret@example.com/v1?key=secret#x", "https://example.com/v1"),
        ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
        (None, None),
    ],
)
def test_a_base_url_is_logged_without_user_info_or_query(url: str | None, kept: str | None) -> None:
    assert public_url(url) == kept
