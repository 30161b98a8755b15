"""Google conformance cases for malformed embedding and token-count answers: the recorded
``batchEmbedContents`` answer (pydantic-ai's two-document batch) with a value that is no number
(a typed ProviderResponseError), and the MOCK ``:countTokens`` answer of
``count-tokens-text`` without its ``totalTokens`` (Google omits a zero count) or with it negative.
Each change is named in the case's ``source.note``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from gemini_corpus import JSON_TYPE, documented, mock_json
from google_case_data import NO_RECORDING, P, _response, _text_tokens
from google_cases_mock import GEMINI_COUNT_DOCS

DOCUMENTS = "tests__cassettes__test_embeddings__TestGoogle.test_documents.yaml"
VALUES = ["hello", "world"]


def _documents_with(edit: Callable[[dict[str, Any]], None]) -> tuple[int, str, str]:
    """The recorded two-document answer with one value changed by ``edit``."""
    status, _, text = _response(DOCUMENTS)
    body = json.loads(text)
    edit(body)
    return status, JSON_TYPE, json.dumps(body)


def _value_string(body: dict[str, Any]) -> None:
    values = body["embeddings"][0]["values"]
    values[0] = str(values[0])


def _embed_case(
    name: str, description: str, edit: Callable[[dict[str, Any]], None], change: str
) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "method": "embed",
        "model": "gemini-embedding-2-preview",
        "requirements": ["G17"],
        "features": ["embed"],
        "request": {"values": VALUES, "task_type": "RETRIEVAL_DOCUMENT"},
        "response": _documents_with(edit),
        "source": P + DOCUMENTS,
        "source_args": {"interaction": 0, "note": f"MOCK: the recorded answer with {change}"},
    }


def _count_case(name: str, description: str, body: dict[str, Any], change: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "method": "count_tokens",
        "model": "gemini-2.5-flash",
        "requirements": ["R4", "G3"],
        "request": {"prompt": "The quick brown fox jumps over the lazy dog."},
        "response": mock_json(body),
        "source": documented(
            NO_RECORDING.format(what=":countTokens traffic") + f"; count-tokens-text's answer with {change}",
            GEMINI_COUNT_DOCS,
        ),
    }


def embed_edge_cases() -> list[dict[str, Any]]:
    return [
        _embed_case(
            "embed-batch-value-not-a-number",
            "batchEmbedContents answered with a value that is a string: a typed ProviderResponseError.",
            _value_string,
            "the first value of its first embedding a string",
        ),
        _count_case(
            "count-tokens-total-omitted",
            "A :countTokens answer without totalTokens (Google omits a zero count): zero input tokens, "
            "promptTokensDetails kept as provider metadata.",
            {"promptTokensDetails": _text_tokens(10)},
            "totalTokens left out",
        ),
        _count_case(
            "count-tokens-total-negative",
            "A :countTokens answer whose totalTokens is negative: a typed ProviderResponseError.",
            {"totalTokens": -1, "promptTokensDetails": _text_tokens(10)},
            "totalTokens -1",
        ),
    ]


__all__ = ["embed_edge_cases"]
