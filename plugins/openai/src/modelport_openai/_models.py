"""The model list of OpenAI and compatible servers: ``GET /models`` (one page, no paging).

https://platform.openai.com/docs/api-reference/models/list: ``{"object": "list", "data": [{"id",
"object": "model", "created", "owned_by"}]}``.
"""

from __future__ import annotations

from typing import Any

from modelport.provider import ModelInfo, ModelPage, model_list_entries

__all__ = ["decode_model_page"]


def decode_model_page(data: Any) -> ModelPage:
    """The models of a ``/models`` answer (entries without a string ``id`` are skipped)."""
    models = []
    for entry in model_list_entries(data, "data"):
        created = entry.get("created")
        owner = entry.get("owned_by")
        models.append(
            ModelInfo(
                id=entry["id"],
                created=created if isinstance(created, int) and not isinstance(created, bool) else None,
                owned_by=owner if isinstance(owner, str) else None,
            )
        )
    return ModelPage(tuple(models))
