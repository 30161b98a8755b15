"""The log of the command's calls: a local SQLite database (``logs.db`` in the command's directory).

Each call is one row of ``responses`` (prompt, system, options, attachments, response text, usage,
model, base URL, duration, finish reason, error, cost), in a conversation of ``conversations``; the
text of each fragment a call sent (``-f``) is one row of ``fragments``, by its sha256, however many
calls sent it. Keys are
never stored: nothing here receives one, and a base URL is kept without its user info and query.

The schema is versioned with ``PRAGMA user_version``: :data:`MIGRATIONS` are applied in order to a
database older than the code (each in its own transaction), and a newer one is refused.

Search (``logs search``) goes through an FTS5 index of prompt, system and response with the trigram
tokenizer, so it finds any text of three characters or more anywhere in a word, in any case, without
reading every row. An SQLite built without FTS5 (or without the trigram tokenizer, before 3.34)
gets no index and searches with ``LIKE``, as do queries shorter than three characters.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import ConfigurationError
from ..wire import loads

__all__ = ["MIGRATIONS", "Call", "LogStore", "public_url"]

LOGS_FILE = "logs.db"

_SEARCH_INDEX = "responses_search"

#: The search index and the triggers that keep it in step with ``responses`` (external content:
#: the text is stored once, in ``responses``).
_SEARCH_STATEMENTS = (
    f"CREATE VIRTUAL TABLE {_SEARCH_INDEX} USING fts5(prompt, system, response,"
    " content='responses', content_rowid='id', tokenize='trigram')",
    f"CREATE TRIGGER responses_search_insert AFTER INSERT ON responses BEGIN"
    f" INSERT INTO {_SEARCH_INDEX} (rowid, prompt, system, response)"
    " VALUES (new.id, new.prompt, new.system, new.response); END",
    f"CREATE TRIGGER responses_search_delete AFTER DELETE ON responses BEGIN"
    f" INSERT INTO {_SEARCH_INDEX} ({_SEARCH_INDEX}, rowid, prompt, system, response)"
    " VALUES ('delete', old.id, old.prompt, old.system, old.response); END",
    f"CREATE TRIGGER responses_search_update AFTER UPDATE ON responses BEGIN"
    f" INSERT INTO {_SEARCH_INDEX} ({_SEARCH_INDEX}, rowid, prompt, system, response)"
    " VALUES ('delete', old.id, old.prompt, old.system, old.response);"
    f" INSERT INTO {_SEARCH_INDEX} (rowid, prompt, system, response)"
    " VALUES (new.id, new.prompt, new.system, new.response); END",
    f"INSERT INTO {_SEARCH_INDEX} ({_SEARCH_INDEX}) VALUES ('rebuild')",  # the rows logged before
)


def _add_search_index(connection: sqlite3.Connection) -> None:
    """Schema step 3: the FTS5 search index, when this SQLite has FTS5 and its trigram tokenizer."""
    try:
        connection.execute(_SEARCH_STATEMENTS[0])
    except sqlite3.OperationalError as error:
        if "fts5" in str(error) or "tokenizer" in str(error):
            return  # searched with LIKE (see the module doc)
        raise
    for statement in _SEARCH_STATEMENTS[1:]:
        connection.execute(statement)


#: The schema, one step per version (version = index + 1): SQL statements separated by ``;``, or a
#: function of the connection (run inside the step's transaction).
MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    """
    CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        model TEXT NOT NULL,
        started TEXT NOT NULL
    );
    CREATE TABLE responses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id TEXT NOT NULL REFERENCES conversations(id),
        model TEXT NOT NULL,
        prompt TEXT NOT NULL,
        system TEXT,
        options TEXT NOT NULL DEFAULT '{}',
        response TEXT NOT NULL DEFAULT '',
        usage TEXT,
        duration_ms INTEGER,
        created TEXT NOT NULL
    );
    """,
    """
    ALTER TABLE responses ADD COLUMN attachments TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE responses ADD COLUMN base_url TEXT;
    ALTER TABLE responses ADD COLUMN finish_reason TEXT;
    ALTER TABLE responses ADD COLUMN error TEXT;
    CREATE INDEX responses_conversation ON responses (conversation_id, id);
    """,
    _add_search_index,
    """
    ALTER TABLE responses ADD COLUMN cost TEXT;
    """,
    """
    CREATE TABLE fragments (sha256 TEXT PRIMARY KEY, text TEXT NOT NULL);
    """,
)


def public_url(url: str | None) -> str | None:
    """``url`` without user info, query or fragment (where a credential could hide)."""
    if not url:
        return None
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def new_conversation_id() -> str:
    return uuid.uuid4().hex


@dataclass
class Call:
    """One logged call."""

    conversation_id: str
    model: str
    prompt: str
    system: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    attachments: list[str] = field(default_factory=list)
    response: str = ""
    usage: dict[str, Any] | None = None
    duration_ms: int | None = None
    base_url: str | None = None
    finish_reason: str | None = None
    error: str | None = None
    #: The total in USD as a decimal string, when the genai-prices catalog priced the call.
    cost: str | None = None
    id: int | None = None
    created: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds"))

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "conversation_id": self.conversation_id,
            "model": self.model,
            "created": self.created,
            "prompt": self.prompt,
            "system": self.system,
            "options": self.options,
            "attachments": self.attachments,
            "response": self.response,
            "usage": self.usage,
            "duration_ms": self.duration_ms,
            "base_url": self.base_url,
            "finish_reason": self.finish_reason,
            "error": self.error,
            "cost": self.cost,
        }


_COLUMNS = (
    "id, conversation_id, model, prompt, system, options, attachments, response, usage, duration_ms,"
    " base_url, finish_reason, error, cost, created"
)


class _Damaged(ValueError):
    """A row whose column ``column`` does not hold what the schema says."""


def _text(row: sqlite3.Row, column: str, *, optional: bool = False) -> Any:
    value = row[column]
    if value is None and optional:
        return None
    if isinstance(value, str):
        return value
    raise _Damaged(column)


def _json(row: sqlite3.Row, column: str, kind: type, default: Any) -> Any:
    raw = row[column]
    if raw is None or raw == "":
        return default
    try:
        value = loads(raw) if isinstance(raw, str) else None
    except ValueError:
        value = None
    if not isinstance(value, kind):
        raise _Damaged(column)
    return value


def _count(row: sqlite3.Row, column: str) -> int | None:
    value = row[column]
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise _Damaged(column)


def _call(row: sqlite3.Row) -> Call:
    """A row as a call; :class:`_Damaged` when a column does not hold what the schema says (a
    database edited by hand, or written by something else)."""
    return Call(
        id=_count(row, "id"),
        conversation_id=_text(row, "conversation_id"),
        model=_text(row, "model"),
        prompt=_text(row, "prompt"),
        system=_text(row, "system", optional=True),
        options=_json(row, "options", dict, {}),
        attachments=[str(a) for a in _json(row, "attachments", list, [])],
        response=_text(row, "response"),
        usage=_json(row, "usage", dict, None),
        duration_ms=_count(row, "duration_ms"),
        base_url=_text(row, "base_url", optional=True),
        finish_reason=_text(row, "finish_reason", optional=True),
        error=_text(row, "error", optional=True),
        cost=_text(row, "cost", optional=True),
        created=_text(row, "created"),
    )


class LogStore:
    """The log database at ``path``, migrated to the current schema when opened."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """The database, migrated; any SQLite failure in the block (a damaged file, a table missing)
        is a :class:`ConfigurationError` of one line naming the file."""
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not self.path.exists():  # prompts and answers are private: readable by the owner only
                os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600))
            elif not stat.S_ISREG(os.stat(self.path).st_mode):
                raise ConfigurationError(f"the log database {self.path} is not a regular file")
            connection = sqlite3.connect(self.path, isolation_level=None)
        except (sqlite3.Error, OSError) as error:
            raise ConfigurationError(f"the log database {self.path} cannot be opened: {error}") from None
        with closing(connection):
            connection.row_factory = sqlite3.Row
            try:
                migrate(connection, self.path)
                yield connection
            except sqlite3.Error as error:
                raise ConfigurationError(
                    f"the log database {self.path} cannot be read: {error} (move it away to start a new one)"
                ) from None

    def add(self, call: Call, *, fragments: Mapping[str, str] | None = None) -> int:
        """Record ``call`` (its conversation too, the first time), and the text of each fragment it
        sent, by sha256, once: a fragment already logged is not stored again. Its row id."""
        with self._connect() as db:
            db.execute("BEGIN")
            for digest, text in (fragments or {}).items():
                db.execute("INSERT OR IGNORE INTO fragments (sha256, text) VALUES (?, ?)", (digest, text))
            db.execute(
                "INSERT OR IGNORE INTO conversations (id, model, started) VALUES (?, ?, ?)",
                (call.conversation_id, call.model, call.created),
            )
            cursor = db.execute(
                "INSERT INTO responses (conversation_id, model, prompt, system, options, attachments,"
                " response, usage, duration_ms, base_url, finish_reason, error, cost, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    call.conversation_id,
                    call.model,
                    call.prompt,
                    call.system,
                    json.dumps(call.options, ensure_ascii=False),
                    json.dumps(call.attachments, ensure_ascii=False),
                    call.response,
                    json.dumps(call.usage) if call.usage is not None else None,
                    call.duration_ms,
                    public_url(call.base_url),
                    call.finish_reason,
                    call.error,
                    call.cost,
                    call.created,
                ),
            )
            db.execute("COMMIT")
            call.id = int(cursor.lastrowid or 0)
            return call.id

    def _select(self, where: str = "", args: Sequence[Any] = (), *, limit: int | None = None) -> list[Call]:
        sql = f"SELECT {_COLUMNS} FROM responses {where} ORDER BY id DESC"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self._connect() as db:
            rows = db.execute(sql, tuple(args)).fetchall()
        calls = []
        for row in rows:
            try:
                calls.append(_call(row))
            except (_Damaged, IndexError) as error:
                raise ConfigurationError(
                    f"the log database {self.path} is damaged: call #{row['id']} has an unreadable "
                    f"{error} column"
                ) from None
        return calls

    def recent(
        self, limit: int | None = 20, *, conversation_id: str | None = None, model: str | None = None
    ) -> list[Call]:
        """The latest calls first (of one conversation, of one model, when given)."""
        where, args = _filters(conversation_id=conversation_id, model=model)
        return self._select(where, args, limit=limit)

    def indexed(self) -> bool:
        """Whether the database has its FTS5 search index (see the module doc)."""
        with self._connect() as db:
            found = db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (_SEARCH_INDEX,)).fetchone()
        return found is not None

    def search(self, text: str, limit: int | None = 20, *, model: str | None = None) -> list[Call]:
        """Calls whose prompt, system or response contains ``text`` (case-insensitive), latest first
        (of one model when given)."""
        if len(text) >= 3 and self.indexed():
            phrase = '"' + text.replace('"', '""') + '"'  # the text as it is: no FTS5 query syntax
            match = f"id IN (SELECT rowid FROM {_SEARCH_INDEX} WHERE {_SEARCH_INDEX} MATCH ?)"
            where, args = _filters(model=model, extra=(match, [phrase]))
        else:
            pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            like = "(prompt LIKE ? ESCAPE '\\' OR system LIKE ? ESCAPE '\\' OR response LIKE ? ESCAPE '\\')"
            where, args = _filters(model=model, extra=(like, [pattern] * 3))
        return self._select(where, args, limit=limit)

    def fragment(self, sha256: str) -> str | None:
        """The text of a logged fragment, by the sha256 a call's ``options["fragments"]`` names."""
        with self._connect() as db:
            row = db.execute("SELECT text FROM fragments WHERE sha256 = ?", (sha256,)).fetchone()
        return row["text"] if row is not None and isinstance(row["text"], str) else None

    def fragment_count(self) -> int:
        with self._connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM fragments").fetchone()[0])

    def get(self, call_id: int) -> Call | None:
        found = self._select("WHERE id = ?", (call_id,))
        return found[0] if found else None

    def latest_conversation(self) -> str | None:
        """The conversation of the latest call (``-c``)."""
        latest = self._select(limit=1)
        return latest[0].conversation_id if latest else None

    def conversation(self, conversation_id: str) -> list[Call]:
        """The calls of a conversation, oldest first."""
        return list(reversed(self.recent(None, conversation_id=conversation_id)))


def _filters(
    *,
    conversation_id: str | None = None,
    model: str | None = None,
    extra: tuple[str, list[Any]] | None = None,
) -> tuple[str, list[Any]]:
    """A ``WHERE`` clause and its arguments: every given condition must hold."""
    conditions: list[str] = []
    args: list[Any] = []
    if conversation_id is not None:
        conditions.append("conversation_id = ?")
        args.append(conversation_id)
    if model is not None:
        conditions.append("model = ?")
        args.append(model)
    if extra is not None:
        conditions.append(extra[0])
        args.extend(extra[1])
    return ("WHERE " + " AND ".join(conditions) if conditions else ""), args


def schema_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def migrate(connection: sqlite3.Connection, path: Path | str = "the log database") -> None:
    """Bring the database to ``len(MIGRATIONS)``, one transaction per step; refuse a newer one."""
    version = schema_version(connection)
    if version > len(MIGRATIONS):
        raise ConfigurationError(
            f"{path} has schema version {version}, newer than this modelport reads ({len(MIGRATIONS)})"
        )
    for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
        connection.execute("BEGIN")
        try:
            if callable(step):
                step(connection)
            else:
                for statement in (s.strip() for s in step.split(";")):
                    if statement:
                        connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
