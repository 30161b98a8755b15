"""Google conformance cases for embeddings (embedContent and batchEmbedContents)."""

from __future__ import annotations

from typing import Any

from gemini_corpus import vcr_interaction
from google_case_data import L, P, _response


def embed_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "embed-batch-task-type",
            "description": "A batch → batchEmbedContents with taskType; embeddings in order.",
            "method": "embed",
            "model": "gemini-embedding-2-preview",
            "requirements": ["G17"],
            "features": ["embed"],
            "request": {"values": ["hello", "world"], "task_type": "RETRIEVAL_DOCUMENT"},
            "response": _response("tests__cassettes__test_embeddings__TestGoogle.test_documents.yaml"),
            "source": P + "tests__cassettes__test_embeddings__TestGoogle.test_documents.yaml",
            "source_args": {"interaction": 0},
        },
        {
            "name": "embed-batch-output-dimensionality",
            "description": "outputDimensionality 768 on a one-value batch; no usageMetadata.",
            "method": "embed",
            "model": "gemini-embedding-001",
            "requirements": ["G17"],
            "features": ["embed"],
            "request": {"values": ["Some text goes here"], "output_dimensionality": 768},
            "response": vcr_interaction(L + "test_embedding[gemini-embedding-001-768].yaml", 0)[1],
            "source": L + "test_embedding[gemini-embedding-001-768].yaml",
            "source_args": {"interaction": 0, "note": "gzip body decompressed"},
        },
        {
            "name": "embed-error-not-found",
            "description": "batchEmbedContents on a nonexistent model → 404 NOT_FOUND request error.",
            "method": "embed",
            "model": "nonexistent-model",
            "requirements": ["G17", "G18"],
            "features": ["embed"],
            "request": {"values": ["Hello, world!"], "task_type": "RETRIEVAL_QUERY"},
            "response": _response("tests__cassettes__test_embeddings__TestGoogle.test_embed_error.yaml"),
            "source": P + "tests__cassettes__test_embeddings__TestGoogle.test_embed_error.yaml",
            "source_args": {"interaction": 0},
        },
    ]
