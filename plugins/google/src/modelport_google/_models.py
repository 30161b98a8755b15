"""The Gemini API's model list: ``GET models`` (``models.list``), paged with ``pageToken``.

https://ai.google.dev/api/models#method:-models.list: ``{"models": [{"name": "models/…",
"displayName", "description", "inputTokenLimit", "outputTokenLimit", …}], "nextPageToken"}``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from modelport.provider import ModelInfo, ModelPage, model_list_entries

__all__ = ["PAGE_SIZE", "decode_model_page", "model_list_url"]

#: The largest page the API serves.
PAGE_SIZE = 1000


def model_list_url(page: str | None) -> str:
    """The URL (relative to the base URL) of one page: the first, or the one ``page`` names."""
    url = f"models?pageSize={PAGE_SIZE}"
    return url if page is None else f"{url}&pageToken={quote(page, safe='')}"


def decode_model_page(data: Any) -> ModelPage:
    """The models of one page (``models/`` taken off each name) and the next page's token."""
    models = []
    for entry in model_list_entries(data, "models", "name", required=False):  # none: no "models"
        models.append(
            ModelInfo(
                id=entry["name"].removeprefix("models/"),
                display_name=_text(entry.get("displayName")),
                description=_text(entry.get("description")),
                input_token_limit=_count(entry.get("inputTokenLimit")),
                output_token_limit=_count(entry.get("outputTokenLimit")),
            )
        )
    token = data.get("nextPageToken")
    return ModelPage(tuple(models), next_page=token if isinstance(token, str) and token else None)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
