# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The ``anthropic`` cases of ``api_version="2026-10-21"``: the official SDK's current line sends
``anthropic-version: 2026-10-21`` with ``Authorization: Bearer`` and no ``temperature``, ``top_p``
or ``top_k``. The corpus has no recording of that version (every one is of ``2023-06-01``), so the
answered case is **MOCK** (``source.mock``: its response written in the Messages shape, id invented)
and checks what is sent: the pinned ``anthropic-version`` header, the key in ``authorization`` and
the body. The refused case needs no recording: it is refused before any I/O.
"""

from __future__ import annotations

import json
from typing import Any

from anthropic_case_kit import user_turn
from anthropic_corpus import JSON_TYPE, Exchange

__all__ = ["NEW_VERSION", "version_cases"]

NEW_VERSION = "2026-10-21"
VERSIONS_DOCS = "https://docs.anthropic.com/en/api/versioning"
MESSAGES_DOCS = "https://docs.anthropic.com/en/api/messages"


def _answer() -> Exchange:
    """MOCK: a one-text Messages answer (the shape of the API reference; id and counts invented)."""
    body = {
        "id": "msg_01ApiVersionMock2026102101",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": "Hello! How can I help you today?"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 8, "output_tokens": 12},
    }
    return Exchange(None, 200, JSON_TYPE, json.dumps(body))


def version_cases() -> list[dict[str, Any]]:
    """The answered MOCK case, then the refused one."""
    config = {"api_version": NEW_VERSION}
    return [
        {
            "name": "generate-api-version-2026-10-21",
            "description": "api_version 2026-10-21: anthropic-version 2026-10-21 and the key as Authorization: Bearer (not x-api-key); the body is the 2023-06-01 one for a request without sampling settings.",
            "method": "generate",
            "model": "claude-sonnet-4-5",
            "config": config,
            "request": {"messages": user_turn("Hello"), "max_output_tokens": 1024},
            "exchange": _answer(),
            "source": {
                "mock": True,
                "docs": [VERSIONS_DOCS, MESSAGES_DOCS],
                "note": "MOCK: the corpus has no recording of anthropic-version 2026-10-21 (all are 2023-06-01); the response is written in the Messages shape, its id and token counts invented",
            },
        },
        {
            "name": "error-api-version-2026-10-21-temperature",
            "description": "api_version 2026-10-21 takes no temperature (its request types dropped temperature, top_p and top_k): refused before any I/O, naming the setting and the version.",
            "method": "generate",
            "model": "claude-sonnet-4-5",
            "config": config,
            "request": {"messages": user_turn("Hello"), "max_output_tokens": 1024, "temperature": 0.5},
            "exchange": None,
            "source": {
                "docs": [VERSIONS_DOCS],
                "note": "no recording: the request is refused before any I/O (InvalidRequestError), so the cassette has no interaction",
            },
        },
    ]
