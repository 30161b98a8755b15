"""The ``openai`` provider's embedding conformance cases: which recording, which canonical request."""

from __future__ import annotations

from typing import Any

from openai_case_data import OT, PE, RECONSTRUCTED, V
from openai_corpus import raw_json, vcr


def embed_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "embed-single-base64",
            "description": "One value, encoding_format base64: the float32 bytes are decoded.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {
                "values": ["Hello, world!"],
                "provider_options": {"openai": {"encoding_format": "base64"}},
            },
            "response": vcr(PE + "test_embeddings__TestOpenAI.test_query.yaml"),
            "source": PE + "test_embeddings__TestOpenAI.test_query.yaml",
        },
        {
            "name": "embed-batch-base64",
            "description": "Two values in one request, base64; usage prompt_tokens 2.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {
                "values": ["hello", "world"],
                "provider_options": {"openai": {"encoding_format": "base64"}},
            },
            "response": vcr(PE + "test_embeddings__TestOpenAI.test_documents.yaml"),
            "source": PE + "test_embeddings__TestOpenAI.test_documents.yaml",
        },
        {
            "name": "embed-dimensions-base64",
            "description": "output_dimensionality 128 as dimensions, base64.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {
                "values": ["Hello, world!"],
                "output_dimensionality": 128,
                "provider_options": {"openai": {"encoding_format": "base64"}},
            },
            "response": vcr(PE + "test_embeddings__TestOpenAI.test_instrumentation.yaml"),
            "source": PE + "test_embeddings__TestOpenAI.test_instrumentation.yaml",
        },
        {
            "name": "embed-batch-base64-kept",
            "description": "embedding_type base64: encoding_format base64 sent, the recorded text kept.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {"values": ["hello", "world"], "embedding_type": "base64"},
            "response": vcr(PE + "test_embeddings__TestOpenAI.test_documents.yaml"),
            "source": PE + "test_embeddings__TestOpenAI.test_documents.yaml",
        },
        {
            "name": "embed-dimensions-base64-kept",
            "description": "embedding_type base64 with dimensions 128: 128 float32 values as base64 text.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {
                "values": ["Hello, world!"],
                "output_dimensionality": 128,
                "embedding_type": "base64",
            },
            "response": vcr(PE + "test_embeddings__TestOpenAI.test_instrumentation.yaml"),
            "source": PE + "test_embeddings__TestOpenAI.test_instrumentation.yaml",
        },
        {
            "name": "embed-error-int8-refused",
            "description": "embedding_type int8 (not in the API): InvalidRequestError, nothing sent.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {"values": ["hello"], "embedding_type": "int8"},
            "responses": [],
            "source_dict": {
                "mock": True,
                "docs": [
                    "https://platform.openai.com/docs/api-reference/embeddings/create#embeddings-create-encoding_format"
                ],
                "note": "MOCK: no recording: modelport refuses this request before any I/O (the OpenAI "
                "API is never called), so the cassette is empty and a mapping that sent it fails the "
                "request check",
            },
        },
        {
            "name": "embed-single-string-dimensions",
            "description": "A single string input (not a list) with dimensions 512, floats.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {
                "values": "This is a test for embeddings with dimensions",
                "output_dimensionality": 512,
            },
            "response": vcr(OT + "test_embeddings_with_dimensions.yaml"),
            "source": OT + "test_embeddings_with_dimensions.yaml",
        },
        {
            "name": "embed-batch-floats",
            "description": "Three values, 1536 floats each, in input order.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {
                "values": [
                    "This is the first test string for embeddings",
                    "This is the second test string for embeddings",
                    "This is the third test string for embeddings",
                ]
            },
            "response": vcr(OT + "test_embeddings_with_batch_input.yaml"),
            "source": OT + "test_embeddings_with_batch_input.yaml",
        },
        {
            "name": "embed-error-model-not-found",
            "description": "Embeddings 404 model_not_found.",
            "method": "embed",
            "model": "nonexistent",
            "features": ["embed"],
            "request": {
                "values": ["Hello, world!"],
                "provider_options": {"openai": {"encoding_format": "base64"}},
            },
            "response": vcr(PE + "test_embeddings__TestOpenAI.test_embed_error.yaml"),
            "source": PE + "test_embeddings__TestOpenAI.test_embed_error.yaml",
        },
        {
            "name": "embed-error-token-limit",
            "description": "Embeddings 400 max_tokens_per_request.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {"values": ["a very long document", "another one"]},
            "response": raw_json(
                V + "openai__src__embedding____fixtures____issue-10082-token-limit-error.json", status=400
            ),
            "source": V + "openai__src__embedding____fixtures____issue-10082-token-limit-error.json",
            "source_args": {
                "commit": "318a6ffd9150d77bfb6fce8ce6c9d7f33e8bfe4f",
                "note": RECONSTRUCTED + "; the status (400) is the one the body's type implies",
            },
        },
    ]
