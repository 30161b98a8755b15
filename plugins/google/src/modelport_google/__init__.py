"""modelport-google: the Google Gemini provider plugin for modelport.

Providers ``google`` (Gemini API) and ``google-vertex`` (Vertex AI), their typed request options,
the Google provider tools (``google_search``, ``code_execution``, ``url_context``, ``file_search``,
``google_maps``, ``enterprise_web_search``), and the Files API and cached-content helpers
(:mod:`.files`, :mod:`.caches`). Use them through
``modelport.get_model("google/gemini-2.5-flash")``; the names here are for typing and configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelport.lazy import lazy_attributes

from ._backends import API_KEY_ENV_VARS, BASE_URL_ENV_VAR, GEMINI_BASE_URL, VERTEX_ENV_VARS
from .provider import GoogleProvider, VertexProvider

# Names backed by pydantic or the mapping modules load on first access (P1: get_model stays cheap).
_LAZY = {
    "BATCH_LIMIT": "._embed",
    "caches": ".caches",
    "files": ".files",
    "EFFORT_BUDGETS": "._request",
    "GoogleOptions": "._options",
    "MAX_REPLAY_BYTES": "._replay",
    "MAX_REPLAY_PARTS": "._replay",
    "code_execution": ".tools",
    "enterprise_web_search": ".tools",
    "file_search": ".tools",
    "google_maps": ".tools",
    "google_search": ".tools",
    "url_context": ".tools",
}

if TYPE_CHECKING:
    from . import caches, files
    from ._embed import BATCH_LIMIT
    from ._options import GoogleOptions
    from ._replay import MAX_REPLAY_BYTES, MAX_REPLAY_PARTS
    from ._request import EFFORT_BUDGETS
    from .tools import (
        code_execution,
        enterprise_web_search,
        file_search,
        google_maps,
        google_search,
        url_context,
    )


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)


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
    "caches",
    "code_execution",
    "enterprise_web_search",
    "file_search",
    "files",
    "google_maps",
    "google_search",
    "url_context",
]
