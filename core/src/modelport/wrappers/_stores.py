"""Where :class:`~modelport.wrappers.ResponseCache` keeps its entries: in memory, or in SQLite.

An entry is a generate's :class:`~modelport.types.Result` or a finished stream's events (a tuple).
Both stores drop the least recently used entry first beyond ``max_entries``. SQLite keeps JSON (the
contract's own dumps, read back with validation), never pickles: a cache file is data, not code.
"""

from __future__ import annotations

import itertools
import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

__all__ = ["MemoryStore", "SQLiteStore"]


class MemoryStore:
    """Entries in a dict, in the order of their last use."""

    def __init__(self, max_entries: int | None) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while self.max_entries is not None and len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS responses"
    " (key TEXT PRIMARY KEY, mode TEXT NOT NULL, body TEXT NOT NULL, used INTEGER NOT NULL)"
)
_TRIM = "DELETE FROM responses WHERE key NOT IN (SELECT key FROM responses ORDER BY used DESC LIMIT ?)"


class SQLiteStore:
    """Entries in the SQLite database at ``path`` (created when missing), shared by processes."""

    def __init__(self, path: str | Path, max_entries: int | None) -> None:
        self.path = Path(path)
        self.max_entries = max_entries
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute(_SCHEMA)
        self._lock = threading.Lock()
        (last,) = self._db.execute("SELECT COALESCE(MAX(used), 0) FROM responses").fetchone()
        self._uses = itertools.count(last + 1)

    def get(self, key: str) -> Any:
        with self._lock:
            row = self._db.execute("SELECT mode, body FROM responses WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE responses SET used = ? WHERE key = ?", (next(self._uses), key))
        return _decoded(*row)

    def put(self, key: str, value: Any) -> None:
        mode, body = _encoded(value)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, mode, body, used) VALUES (?, ?, ?, ?)",
                (key, mode, body, next(self._uses)),
            )
            if self.max_entries is not None:
                self._db.execute(_TRIM, (self.max_entries,))

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM responses").fetchone()
        return int(count)

    def clear(self) -> None:
        with self._lock:
            self._db.execute("DELETE FROM responses")

    def close(self) -> None:
        self._db.close()


_events_adapter: Any = None


def _events() -> Any:
    global _events_adapter
    if _events_adapter is None:
        from pydantic import TypeAdapter

        from ..events import StreamEvent

        _events_adapter = TypeAdapter(list[StreamEvent])  # type: ignore[arg-type]
    return _events_adapter


def _encoded(value: Any) -> tuple[str, str]:
    if isinstance(value, tuple):
        return "stream", _events().dump_json(list(value)).decode("utf-8")
    return "generate", value.model_dump_json()


def _decoded(mode: str, body: str) -> Any:
    if mode == "stream":
        return tuple(_events().validate_json(body))
    from ..types import Result

    return Result.model_validate_json(body)
