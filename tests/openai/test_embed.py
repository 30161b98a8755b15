"""Embeddings: single and batch, dimensions, base64 decoded, batches split at the limit in order."""

from __future__ import annotations

import base64
import struct
from typing import Any

import pytest

from modelport.errors import InvalidRequestError, ProviderResponseError

from .fakes import model, response


def _data(vectors: list[list[float]], start: int = 0, *, shuffled: bool = False) -> dict[str, Any]:
    items = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
    if shuffled:
        items.reverse()
    return {
        "object": "list",
        "data": items,
        "model": "text-embedding-3-small",
        "usage": {"prompt_tokens": len(vectors), "total_tokens": len(vectors)},
    }


def test_a_batch_is_split_at_the_limit_and_kept_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    from modelport_openai._quirks import Quirks
    from modelport_openai.provider import OpenAIProvider

    monkeypatch.setattr(OpenAIProvider, "quirks", Quirks(reasoning_prefixes=("o1",), embed_batch=2))
    values = ["a", "b", "c", "d", "e"]
    replies = [
        response(body=_data([[0.0], [1.0]], shuffled=True)),
        response(body=_data([[2.0], [3.0]])),
        response(body=_data([[4.0]])),
    ]
    m, recorder = model(replies, "openai/text-embedding-3-small")
    result = m.embed(values, output_dimensionality=1)
    assert [b["input"] for b in recorder.bodies()] == [["a", "b"], ["c", "d"], ["e"]]
    assert all(b["dimensions"] == 1 for b in recorder.bodies())
    assert result.embeddings == [[0.0], [1.0], [2.0], [3.0], [4.0]]
    assert (result.usage.input_tokens, result.usage.total_tokens, result.model_version) == (
        5,
        5,
        "text-embedding-3-small",
    )


def test_base64_vectors_are_decoded() -> None:
    floats = [0.5, -1.25, 3.0]
    encoded = base64.b64encode(struct.pack("<3f", *floats)).decode()
    m, recorder = model([response(body=_data([encoded]))], "openai/text-embedding-3-small")  # type: ignore[list-item]
    result = m.embed("one", provider_options={"openai": {"encoding_format": "base64"}})
    assert recorder.body == {"model": "text-embedding-3-small", "input": "one", "encoding_format": "base64"}
    assert result.embeddings == [floats]


@pytest.mark.parametrize(
    ("model_id", "options", "match"),
    [
        ("groq/x", {}, "no embeddings endpoint"),
        ("openai/x", {"task_type": "RETRIEVAL_QUERY"}, "task_type"),
        ("openai/x", {"provider_options": {"openai": {"encoding": "base64"}}}, "unknown embedding option"),
        ("openai/x", {"provider_options": {"openai": {"encoding_format": "int8"}}}, "encoding_format"),
    ],
)
def test_bad_embedding_requests_fail_before_any_request(
    model_id: str, options: dict[str, Any], match: str
) -> None:
    m, recorder = model([], model_id)
    with pytest.raises(InvalidRequestError, match=match):
        m.embed(["a"], **options)
    assert recorder.requests == []


def test_a_short_answer_is_a_typed_error() -> None:
    m, _ = model([response(body=_data([[1.0]]))], "openai/x")
    with pytest.raises(ProviderResponseError, match="1 embeddings for 2 values"):
        m.embed(["a", "b"])
