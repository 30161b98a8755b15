"""Embeddings (G17) against recorded traffic (pydantic/pydantic-ai MIT, simonw/llm-gemini Apache-2.0)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from modelport.errors import InvalidRequestError, ProviderResponseError

from . import corpus as c
from .mock import Recorder, model, response

DOCUMENTS = "tests__cassettes__test_embeddings__TestGoogle.test_documents.yaml"
BATCH_768 = "tests__cassettes__test_gemini__test_embedding_batch.yaml"


def test_batch_request_and_response_match_the_recording() -> None:
    recorded = c.cassette(c.PYDANTIC, DOCUMENTS)[0]
    m, recorder = model([response(200, recorded.body)], "google/gemini-embedding-2-preview")
    result = m.embed(["hello", "world"], task_type="RETRIEVAL_DOCUMENT")
    assert str(recorder.requests[0].url) == recorded.uri
    assert recorder.body == recorded.request_body
    expected = [e["values"] for e in recorded.json()["embeddings"]]
    assert result.embeddings == expected
    assert [len(e) for e in result.embeddings] == [3072, 3072]


def test_output_dimensionality_and_usage() -> None:
    recorded = c.cassette(c.LLM_GEMINI, BATCH_768)[0]
    m, recorder = model([response(200, recorded.body)], "google/gemini-embedding-2")
    result = m.embed(["First text", "Second text"], output_dimensionality=768)
    assert recorder.body == recorded.request_body
    assert [len(e) for e in result.embeddings] == [768, 768]
    assert result.embeddings[0][:3] == [-0.011345503, -0.011202878, 0.05836822]
    assert (result.usage.input_tokens, result.usage.total_tokens) == (4, 4)


def test_single_value_uses_embed_content() -> None:
    recorded = c.cassette(
        c.LLM_GEMINI, "tests__cassettes__test_gemini__test_embedding[gemini-embedding-001-768].yaml"
    )[0]
    values = recorded.json()["embeddings"][0]["values"]
    m, recorder = model([response(200, {"embedding": {"values": values}})], "google/gemini-embedding-001")
    result = m.embed("Some text goes here", output_dimensionality=768, task_type="SEMANTIC_SIMILARITY")
    assert str(recorder.requests[0].url).endswith("/models/gemini-embedding-001:embedContent")
    assert recorder.body == {
        "content": {"parts": [{"text": "Some text goes here"}]},
        "taskType": "SEMANTIC_SIMILARITY",
        "outputDimensionality": 768,
    }
    assert result.embeddings == [values]
    assert result.usage.input_tokens is None


def _echo(request: httpx.Request) -> httpx.Response:
    # Each embedding is [index of the value] so order can be checked after reassembly.
    body = json.loads(request.content)
    return response(
        200, {"embeddings": [{"values": [float(r["content"]["parts"][0]["text"])]} for r in body["requests"]]}
    )


def test_batches_over_100_are_split_and_reassembled_in_order() -> None:
    recorder = Recorder([_echo, _echo, _echo])
    m, _ = model(recorder, "google/gemini-embedding-001")
    values = [str(i) for i in range(250)]
    result = m.embed(values)
    assert [len(b["requests"]) for b in recorder.bodies()] == [100, 100, 50]
    assert result.embeddings == [[float(i)] for i in range(250)]


@pytest.mark.asyncio
async def test_async_batches() -> None:
    recorder = Recorder([_echo, _echo])
    m, _ = model(recorder, "google/gemini-embedding-001", asynchronous=True)
    result = await m.aembed([str(i) for i in range(101)])
    assert [len(b["requests"]) for b in recorder.bodies()] == [100, 1]
    assert result.embeddings[-1] == [100.0]


@pytest.mark.parametrize(
    "body",
    [
        {"embeddings": [{"values": [1.0]}]},
        {"embeddings": [{"values": "x"}, {"values": [1]}]},
        {"nothing": 1},
        [],
    ],
)
def test_malformed_embedding_responses(body: Any) -> None:
    m, _ = model([response(200, body)], "google/gemini-embedding-001")
    with pytest.raises(ProviderResponseError, match="malformed embedding response"):
        m.embed(["a", "b"])


def test_vertex_embeddings_use_predict() -> None:
    answer = {"predictions": [{"embeddings": {"values": [0.5], "statistics": {"token_count": 3}}}]}
    m, recorder = model(
        [response(200, answer)], "google-vertex/gemini-embedding-001", api_key=None, token="tok", project="p"
    )
    result = m.embed(["a"], output_dimensionality=8, task_type="RETRIEVAL_QUERY")
    assert str(recorder.requests[0].url) == (
        "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/"
        "publishers/google/models/gemini-embedding-001:predict"
    )
    assert recorder.body == {
        "instances": [{"content": "a", "task_type": "RETRIEVAL_QUERY"}],
        "parameters": {"outputDimensionality": 8},
    }
    assert result.embeddings == [[0.5]] and result.usage.input_tokens == 3


@pytest.mark.parametrize("embedding_type", ["int8", "uint8", "binary", "ubinary", "base64"])
@pytest.mark.parametrize(
    ("model_id", "options", "name"),
    [
        ("google/gemini-embedding-001", {}, "google"),
        (
            "google-vertex/gemini-embedding-001",
            {"api_key": None, "token": "tok", "project": "p"},
            "google-vertex",
        ),
    ],
)
def test_types_other_than_float_are_refused_before_any_request(
    embedding_type: str, model_id: str, options: dict[str, Any], name: str
) -> None:
    # embedContent, batchEmbedContents and Vertex :predict return floats only (the API references
    # name no output type, only outputDimensionality, taskType, title and autoTruncate).
    m, recorder = model([], model_id, **options)
    with pytest.raises(InvalidRequestError) as error:
        m.embed(["a", "b"], embedding_type=embedding_type)  # type: ignore[arg-type]
    assert str(error.value) == (
        f"embedding_type={embedding_type!r} is not supported by provider {name!r} (it offers float)"
    )
    assert recorder.requests == []
