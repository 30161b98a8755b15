"""Anthropic's model list: ``GET /v1/models``, paged with ``after_id``.

https://docs.anthropic.com/en/api/models-list: ``{"data": [{"type": "model", "id", "display_name",
"created_at"}], "has_more", "first_id", "last_id"}``; the next page starts after ``last_id``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from modelport.provider import ModelInfo, ModelPage, model_list_entries

__all__ = ["PAGE_SIZE", "decode_model_page", "model_list_url"]

#: The largest page the API serves.
PAGE_SIZE = 1000


def model_list_url(page: str | None) -> str:
    """The URL of one page: the first, or the one after the model id ``page``."""
    url = f"/v1/models?limit={PAGE_SIZE}"
    return url if page is None else f"{url}&after_id={quote(page, safe='')}"


def decode_model_page(data: Any) -> ModelPage:
    """The models of one page, and the id to page after when ``has_more`` says there is more."""
    models = []
    for entry in model_list_entries(data, "data"):
        name = entry.get("display_name")
        models.append(
            ModelInfo(
                id=entry["id"],
                display_name=name if isinstance(name, str) else None,
                created=_seconds(entry.get("created_at")),
            )
        )
    last = data.get("last_id")
    more = data.get("has_more") is True and isinstance(last, str) and bool(last)
    return ModelPage(tuple(models), next_page=last if more else None)


def _seconds(value: Any) -> int | None:
    """An RFC 3339 time (``2024-10-22T00:00:00Z``) in Unix seconds; ``None`` when it is not one."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return int(moment.timestamp()) if moment.tzinfo is not None else None
