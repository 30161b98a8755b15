"""modelport-google: the Google Gemini provider plugin for modelport.

Providers ``google`` (Gemini API) and ``google-vertex`` (Vertex AI), their typed request options,
and the Google provider tools (``google_search``, ``code_execution``). Use them through
``modelport.get_model("google/gemini-2.5-flash")``; the names here are for typing and configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._backends import API_KEY_ENV_VARS, BASE_URL_ENV_VAR, GEMINI_BASE_URL, VERTEX_ENV_VARS
from .provider import GoogleProvider, VertexProvider

# Names backed by pydantic or the mapping modules load on first access (P1: get_model stays cheap).
_LAZY = {
    "BATCH_LIMIT": "._embed",
    "EFFORT_BUDGETS": "._request",
    "GoogleOptions": "._options",
    "MAX_REPLAY_BYTES": "._replay",
    "MAX_REPLAY_PARTS": "._replay",
    "code_execution": ".tools",
    "google_search": ".tools",
}

if TYPE_CHECKING:
    from ._embed import BATCH_LIMIT
    from ._options import GoogleOptions
    from ._replay import MAX_REPLAY_BYTES, MAX_REPLAY_PARTS
    from ._request import EFFORT_BUDGETS
    from .tools import code_execution, google_search


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "API_KEY_ENV_VARS",
    "BASE_URL_ENV_VAR",
    "BATCH_LIMIT",
    "EFFORT_BUDGETS",
    "GEMINI_BASE_URL",
    "GoogleOptions",
    "GoogleProvider",
    "MAX_REPLAY_BYTES",
    "MAX_REPLAY_PARTS",
    "VERTEX_ENV_VARS",
    "VertexProvider",
    "code_execution",
    "google_search",
]
