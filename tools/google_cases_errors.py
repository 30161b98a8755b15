# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""Google conformance cases for blocked and filtered answers and error bodies."""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import JSON_TYPE, raw_json, raw_sse
from google_case_data import RECONSTRUCTED, SEARCH, F, V

GROUNDED = "googleai__unary-success-google-search-grounding.json"


def _parts_not_a_list() -> tuple[int, str, str]:
    """The recorded grounded answer with its content.parts list replaced by its one part object."""
    status, _, text = raw_json(F + GROUNDED)
    body = json.loads(text)
    content = body["candidates"][0]["content"]
    content["parts"] = content["parts"][0]
    return status, JSON_TYPE, json.dumps(body, ensure_ascii=False)


def error_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "stream-prompt-blocked",
            "description": "A single frame with promptFeedback.blockReason and no candidates → content-filter.",
            "method": "stream",
            "model": "gemini-2.0-flash",
            "requirements": ["G13", "G14"],
            "request": {"prompt": "A blocked prompt."},
            "response": raw_sse(F + "googleai__streaming-failure-prompt-blocked-safety.txt"),
            "source": F + "googleai__streaming-failure-prompt-blocked-safety.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-recitation-no-content",
            "description": "The final frame is RECITATION with no content key at all.",
            "method": "stream",
            "model": "gemini-2.0-flash",
            "requirements": ["G13", "G14"],
            "request": {"prompt": "Recite a famous poem."},
            "response": raw_sse(F + "googleai__streaming-failure-recitation-no-content.txt"),
            "source": F + "googleai__streaming-failure-recitation-no-content.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        # ---------------------------------------------------------------- errors
        {
            "name": "error-api-key-invalid",
            "description": "400 INVALID_ARGUMENT with ErrorInfo API_KEY_INVALID → authentication error.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello"},
            "response": raw_json(F + "googleai__unary-failure-api-key.json"),
            "source": F + "googleai__unary-failure-api-key.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "error-rate-limited-retry-info",
            "description": "429 with RetryInfo retryDelay 34.4s → rate-limited, retryable, retry_after 34.4.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello"},
            "response": raw_json(V + "google-429-retry-info.json"),
            "source": V + "google-429-retry-info.json",
            "source_args": {"note": RECONSTRUCTED + "; MOCK (simplified real shape)"},
        },
        {
            "name": "error-quota-exhausted",
            "description": "429 RESOURCE_EXHAUSTED without a delay → quota exhausted, not retryable.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello"},
            "response": raw_json(F + "vertexai__unary-failure-quota-exceeded.json"),
            "source": F + "vertexai__unary-failure-quota-exceeded.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "error-stream-http-status",
            "description": "A streaming request answered 400 (plain JSON error): checked before SSE parsing.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello", "temperature": 0.2},
            "response": raw_json(V + "issue-8943-gemini-2.5-flash-error.json"),
            "source": V + "issue-8943-gemini-2.5-flash-error.json",
            "source_args": {"commit": "6281ee13bb32592007faa58d3f21a68c624090eb", "note": RECONSTRUCTED},
        },
        {
            "name": "error-mid-stream",
            "description": "Two frames, then a bare JSON error object (499 CANCELLED) → a typed error after "
            "the partial text.",
            "method": "stream",
            "model": "gemini-2.0-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Count to three."},
            "response": raw_sse(F + "vertexai__streaming-failure-error-mid-stream.txt"),
            "source": F + "vertexai__streaming-failure-error-mid-stream.txt",
            "source_args": {"note": RECONSTRUCTED + "; MOCK (Vertex-shaped)"},
        },
        {
            "name": "generate-parts-not-a-list",
            "description": "A candidate whose content.parts is one part object, not a list: a typed "
            "ProviderResponseError (malformed answer), no result.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["Q1", "G14"],
            "request": {"prompt": "What is the current weather in Tokyo?", "tools": [SEARCH]},
            "response": _parts_not_a_list(),
            "source": F + GROUNDED,
            "source_args": {
                "note": RECONSTRUCTED + "; MOCK edit of the recorded response: candidates[0].content.parts "
                "replaced by its one part object"
            },
        },
    ]
