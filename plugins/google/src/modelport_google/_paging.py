"""Reading every page of a Google list method (``pageSize`` and ``pageToken`` in, ``nextPageToken``
out), shared by :func:`~modelport_google.files.list_files` and
:func:`~modelport_google.caches.list_caches`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import quote

from modelport.errors import InvalidRequestError
from modelport.http import HttpRequest, Steps

_T = TypeVar("_T")


def checked_page_size(page_size: object, most: int) -> int:
    """``page_size`` if it is an integer from 1 to ``most`` (the method's own bound), else
    :class:`~modelport.errors.InvalidRequestError` (before any request)."""
    if not isinstance(page_size, int) or isinstance(page_size, bool) or not 0 < page_size <= most:
        raise InvalidRequestError(f"page_size must be an integer from 1 to {most}")
    return page_size


def all_pages(collection: str, page_size: int, key: str, item: Callable[[Any], _T]) -> Steps[list[_T]]:
    """The steps that read every page of ``collection`` and return ``item`` of each entry listed
    under ``key``, in the order the pages give them."""
    found: list[_T] = []
    token: str | None = None
    while True:
        query = f"{collection}?pageSize={page_size}"
        if token:
            query += f"&pageToken={quote(token, safe='')}"
        answer = yield HttpRequest(query, method="GET")
        assert answer is not None
        data = answer.data if isinstance(answer.data, dict) else {}
        found.extend(item(entry) for entry in data.get(key) or [])
        token = data.get("nextPageToken") if isinstance(data.get("nextPageToken"), str) else None
        if not token:
            return found
