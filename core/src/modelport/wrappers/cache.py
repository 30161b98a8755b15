"""``ResponseCache``: a middleware that answers a request it has seen from memory (tests, notebooks,
evals).

The key is the canonical request: the provider id, the server it goes to (the base URL, without
user info or query), the provider options given to ``get_model`` (project, location...), the model
name, how it was called (``generate`` or ``stream``) and the validated request as JSON with sorted
keys, hashed (SHA-256): two models of one provider on different servers never share an entry. A
request carries no credential, so none is part of what is stored. Equal requests in
another process have the same key (:meth:`ResponseCache.key`).

Stored: a generate's :class:`~modelport.types.Result`, a stream's events once it ended with its
``finish`` event; a hit replays them (a stream event by event). Never stored: an error, a result
whose ``finish_reason`` is ``"error"``, a stream that raised or was closed before its end.
``max_entries`` bounds the store (the least recently used entry goes first); ``None``: unbounded.
``path=`` keeps the entries in a SQLite file (JSON, never pickles; shared by processes) instead of
memory.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConfigurationError
from ..events import FinishEvent
from ._stores import MemoryStore, SQLiteStore
from .middleware import Middleware

if TYPE_CHECKING:
    from .._model import Model
    from ..events import StreamEvent
    from ..types import Request, Result
    from .middleware import AsyncGenerate, AsyncStream, Generate, Stream

__all__ = ["ResponseCache"]

Mode = Literal["generate", "stream"]


class ResponseCache(Middleware):
    """An in-memory response cache as a middleware: ``wrap(model, ResponseCache(max_entries=1000))``.

    ``hits`` and ``misses`` count lookups; ``len(cache)`` is the number of entries; :meth:`clear`
    empties it. One cache may serve several models (the key names the model).
    """

    def __init__(self, *, max_entries: int | None = None, path: str | Path | None = None) -> None:
        if max_entries is not None and (
            isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 1
        ):
            raise ConfigurationError(f"max_entries must be a positive integer or None, got {max_entries!r}")
        self.max_entries = max_entries
        self.hits = 0
        self.misses = 0
        self._store: MemoryStore | SQLiteStore = (
            MemoryStore(max_entries) if path is None else SQLiteStore(path, max_entries)
        )
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._store)

    def __repr__(self) -> str:
        return f"ResponseCache({len(self)} entries, {self.hits} hits, {self.misses} misses)"

    def clear(self) -> None:
        """Remove every entry."""
        self._store.clear()

    def close(self) -> None:
        """Close the SQLite file (``path=``); a memory cache has nothing to close."""
        if isinstance(self._store, SQLiteStore):
            self._store.close()

    @staticmethod
    def key(model: Model, request: Request, mode: Mode = "generate") -> str:
        """The key of ``request`` sent to ``model`` by ``mode``: a SHA-256 hex digest of the canonical
        JSON of the provider id, endpoint, provider options, model name, mode and request."""
        canonical = {
            "provider": model.provider.id,
            "endpoint": _endpoint(model.provider),
            "options": json.loads(json.dumps(dict(model.provider.config.options), default=_type_name)),
            "model": model.name,
            "mode": mode,
            "request": request.model_dump(mode="json", by_alias=True, exclude_none=True),
        }
        text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _get(self, key: str) -> Any:
        found = self._store.get(key)
        with self._lock:
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
        return found

    def _put(self, key: str, value: Any) -> None:
        self._store.put(key, value)

    # Hooks ---------------------------------------------------------------------------------------

    def wrap_generate(self, request: Request, call_next: Generate, model: Model) -> Result:
        key = self.key(model, request)
        found = self._get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        result = call_next(request)
        if result.finish_reason != "error":
            self._put(key, result)
        return result

    async def wrap_agenerate(self, request: Request, call_next: AsyncGenerate, model: Model) -> Result:
        key = self.key(model, request)
        found = self._get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        result = await call_next(request)
        if result.finish_reason != "error":
            self._put(key, result)
        return result

    def wrap_stream(self, request: Request, call_next: Stream, model: Model) -> Iterator[StreamEvent]:
        key = self.key(model, request, "stream")
        found = self._get(key)
        if found is not None:
            yield from found
            return
        events: list[StreamEvent] = []
        for event in call_next(request):
            events.append(event)
            yield event
        if _complete(events):
            self._put(key, tuple(events))

    async def wrap_astream(
        self, request: Request, call_next: AsyncStream, model: Model
    ) -> AsyncIterator[StreamEvent]:
        key = self.key(model, request, "stream")
        found = self._get(key)
        if found is not None:
            for event in found:
                yield event
            return
        events: list[StreamEvent] = []
        async for event in call_next(request):
            events.append(event)
            yield event
        if _complete(events):
            self._put(key, tuple(events))


def _complete(events: list[StreamEvent]) -> bool:
    """Whether a stream ended with its ``finish`` event, not an error."""
    return bool(events) and isinstance(events[-1], FinishEvent) and events[-1].finish_reason != "error"


def _endpoint(provider: Any) -> str | None:
    """Where the provider sends requests: its resolved base URL (``base_url=``, its environment
    variable, its default), else the configured one; user info, query and fragment left out."""
    from urllib.parse import urlsplit, urlunsplit

    from ..errors import ModelportError

    url: str | None
    try:
        url = provider.base_url() if callable(getattr(provider, "base_url", None)) else None
    except ModelportError:
        url = None
    url = url or provider.config.base_url
    if not url:
        return None
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], parts.path, "", ""))


def _type_name(value: Any) -> str:
    """A provider option JSON cannot carry (a token provider, a client) by its type: the same in
    every process, unlike its repr."""
    return f"<{type(value).__module__}.{type(value).__qualname__}>"
