"""Cached contents (explicit context caching) on the Gemini API and Vertex AI: create one from a
canonical request, get, list, update its expiry, delete.

Each function validates its input at once (before any request) and returns an
:class:`~modelport.http.Operation` that the core's HTTP kit runs (``.run()``, or ``await`` it)::

    from modelport_google import caches

    cache = caches.create(model, system="You are a geography expert.", messages=[...], ttl=300).run()
    result = model.generate(prompt="Capital?", provider_options={"google": {"cached_content": cache.name}})
    caches.delete(model, cache.name).run()

A short name (``cachedContents/123`` or ``123``) is expanded to the full Vertex resource name on
``google-vertex``, exactly as the ``cached_content`` request option is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from modelport.errors import InvalidRequestError, ProviderResponseError
from modelport.http import HttpRequest, Operation, Steps
from modelport.http.urls import check_resource_name

from ._paging import all_pages, checked_page_size

if TYPE_CHECKING:
    from modelport import Model

    from .provider import _GeminiFamily

__all__ = ["CachedContent", "create", "delete", "get", "list_caches", "update"]

#: The request keywords a cache holds (the prompt prefix); generation settings belong to each call.
_CACHE_KEYWORDS = frozenset({"prompt", "messages", "system", "tools", "tool_choice", "provider_options"})
_CACHE_FIELDS = ("contents", "systemInstruction", "tools", "toolConfig")


@dataclass(frozen=True)
class CachedContent:
    """A cached content (``raw`` is the API's own object, unknown fields included)."""

    name: str
    model: str | None
    display_name: str | None = None
    expire_time: str | None = None
    create_time: str | None = None
    update_time: str | None = None
    total_token_count: int | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


def _string(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _cache(data: object, provider: str) -> CachedContent:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ProviderResponseError("the cachedContents answer has no object with a name", provider=provider)
    usage = data.get("usageMetadata")
    total = usage.get("totalTokenCount") if isinstance(usage, dict) else None
    return CachedContent(
        name=data["name"],
        model=_string(data, "model"),
        display_name=_string(data, "displayName"),
        expire_time=_string(data, "expireTime"),
        create_time=_string(data, "createTime"),
        update_time=_string(data, "updateTime"),
        total_token_count=total if isinstance(total, int) and not isinstance(total, bool) else None,
        raw=data,
    )


def _provider(model: Model) -> _GeminiFamily:
    from .provider import _GeminiFamily

    provider = getattr(model, "provider", None)
    if not isinstance(provider, _GeminiFamily):
        raise InvalidRequestError("cached contents need a 'google/...' or 'google-vertex/...' model")
    return provider


def _collection(provider: _GeminiFamily) -> str:
    """``cachedContents`` (Gemini API), or ``projects/{p}/locations/{l}/cachedContents`` (Vertex)."""
    return provider.cache_collection()


def _expiry(ttl: float | timedelta | None, expire_time: datetime | str | None) -> dict[str, str]:
    if ttl is not None and expire_time is not None:
        raise InvalidRequestError("give ttl or expire_time, not both")
    if ttl is not None:
        seconds = ttl.total_seconds() if isinstance(ttl, timedelta) else ttl
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
            raise InvalidRequestError("ttl must be a number of seconds or a timedelta")
        if seconds <= 0:
            raise InvalidRequestError("ttl must be positive")
        text = f"{seconds:.9f}".rstrip("0").rstrip(".")
        return {"ttl": f"{text}s"}
    if expire_time is not None:
        from ._timestamps import parse_rfc3339

        if isinstance(expire_time, datetime):
            if expire_time.tzinfo is None or expire_time.utcoffset() is None:
                raise InvalidRequestError("expire_time must be timezone-aware")
            return {"expireTime": expire_time.isoformat().replace("+00:00", "Z")}
        try:
            parse_rfc3339(expire_time)
        except (TypeError, ValueError) as error:
            raise InvalidRequestError(f"expire_time: {error}") from None
        return {"expireTime": expire_time}
    return {}


def create(
    model: Model,
    *,
    ttl: float | timedelta | None = None,
    expire_time: datetime | str | None = None,
    display_name: str | None = None,
    **request: Any,
) -> Operation[CachedContent]:
    """Cache the prompt prefix of a canonical request (``prompt``/``messages``, ``system``,
    ``tools``, ``tool_choice``), mapped exactly as ``generate`` maps it, for ``ttl`` seconds (or
    until ``expire_time``; Google's default is one hour)."""
    provider = _provider(model)
    unknown = sorted(set(request) - _CACHE_KEYWORDS)
    if unknown:
        raise InvalidRequestError(
            f"a cache holds the prompt prefix only; {', '.join(unknown)} belong to each generate call"
        )
    body = _expiry(ttl, expire_time)
    prepared = model.prepare(**request)  # the same validation as generate, before any request
    built, _ = provider.body_for(model.name, prepared)
    cached: dict[str, Any] = {"model": provider.model_resource(model.name)}
    cached.update({key: built[key] for key in _CACHE_FIELDS if key in built})
    cached.update(body)
    if display_name is not None:
        if not isinstance(display_name, str):
            raise InvalidRequestError("display_name must be a string")
        cached["displayName"] = display_name
    url = _collection(provider)

    def steps() -> Steps[CachedContent]:
        answer = yield HttpRequest(url, cached)
        assert answer is not None
        return _cache(answer.data, provider.name)

    return provider.operation(steps)


def _path(provider: _GeminiFamily, name: str) -> str:
    if not isinstance(name, str) or not name.strip("/"):
        raise InvalidRequestError("a cached content name is 'cachedContents/{id}' or the id alone")
    return provider.cache_name(check_resource_name(name, what="a cached content name"))


def get(model: Model, name: str) -> Operation[CachedContent]:
    """The cached content ``name``."""
    provider = _provider(model)
    path = _path(provider, name)

    def steps() -> Steps[CachedContent]:
        answer = yield HttpRequest(path, method="GET")
        assert answer is not None
        return _cache(answer.data, provider.name)

    return provider.operation(steps)


def list_caches(model: Model, *, page_size: int = 100) -> Operation[list[CachedContent]]:
    """Every cached content of the project (and location, on Vertex), all pages read."""
    provider = _provider(model)
    size = checked_page_size(page_size, 1000)
    collection = _collection(provider)
    return provider.operation(
        lambda: all_pages(collection, size, "cachedContents", lambda data: _cache(data, provider.name))
    )


def update(
    model: Model,
    name: str,
    *,
    ttl: float | timedelta | None = None,
    expire_time: datetime | str | None = None,
) -> Operation[CachedContent]:
    """Change when the cached content ``name`` expires (the only thing a cache lets you update)."""
    provider = _provider(model)
    path = _path(provider, name)
    body = _expiry(ttl, expire_time)
    if not body:
        raise InvalidRequestError("give ttl or expire_time")
    mask = "ttl" if "ttl" in body else "expireTime"

    def steps() -> Steps[CachedContent]:
        answer = yield HttpRequest(f"{path}?updateMask={mask}", body, method="PATCH")
        assert answer is not None
        return _cache(answer.data, provider.name)

    return provider.operation(steps)


def delete(model: Model, name: str) -> Operation[None]:
    """Delete the cached content ``name``."""
    provider = _provider(model)
    path = _path(provider, name)

    def steps() -> Steps[None]:
        yield HttpRequest(path, method="DELETE")

    return provider.operation(steps)
