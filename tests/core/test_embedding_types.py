"""``EmbeddingResult.embedding_type`` (contract 2.3): each type's values checked as the result is
built, the type kept through JSON, and the request's type reaching the provider.

MOCK: the vectors are invented (a few values at each type's bounds); the recorded base64 and float
shapes are tested on OpenAI's recordings in ``tests/openai/test_embedding_types.py``.
"""

from __future__ import annotations

import base64
import struct
from typing import Any

import pytest
from pydantic import ValidationError

import modelport
from modelport import testing
from modelport.errors import InvalidRequestError
from modelport.types import EMBEDDING_TYPES, EmbeddingResult, base64_floats

_FLOATS = base64.b64encode(struct.pack("<2f", 0.5, -1.25)).decode()


@pytest.mark.parametrize(
    ("embedding_type", "embeddings", "dimensions"),
    [
        ("float", [[0.5, -1.0, 3]], 3),
        ("int8", [[-128, 0, 127]], 3),
        ("uint8", [[0, 255]], 2),
        ("binary", [[-128, 127]], 16),
        ("ubinary", [[0, 255, 7]], 24),
        ("base64", [_FLOATS], 2),
    ],
)
def test_each_type_round_trips_through_json(
    embedding_type: str, embeddings: list[Any], dimensions: int
) -> None:
    result = EmbeddingResult(embeddings=embeddings, embedding_type=embedding_type)  # type: ignore[arg-type]
    again = EmbeddingResult.model_validate_json(result.model_dump_json())
    assert again == result
    assert again.embedding_type == embedding_type
    assert again.dimensions() == dimensions
    first = again.embeddings[0]
    if embedding_type == "float":
        assert first == [0.5, -1.0, 3.0] and all(type(v) is float for v in first)  # type: ignore[union-attr]
    elif embedding_type == "base64":
        assert first == _FLOATS and base64_floats(first) == [0.5, -1.25]  # type: ignore[arg-type]
    else:
        assert first == embeddings[0] and all(type(v) is int for v in first)  # type: ignore[union-attr]


def test_a_result_stored_before_2_3_holds_floats() -> None:
    stored = '{"embeddings": [[1, 0.25]], "usage": {}, "model_version": null, "provider_metadata": {}}'
    result = EmbeddingResult.model_validate_json(stored)
    assert (result.embedding_type, result.embeddings) == ("float", [[1.0, 0.25]])


@pytest.mark.parametrize(
    ("embedding_type", "embeddings", "problem"),
    [
        ("int8", [[128]], "an int8 embedding must hold integers in -128..127 only"),
        ("int8", [[-129]], "an int8 embedding must hold integers in -128..127 only"),
        ("int8", [[1.0]], "an int8 embedding must hold integers in -128..127 only"),
        ("int8", [[True]], "an int8 embedding must hold integers in -128..127 only"),
        ("uint8", [[-1]], "a uint8 embedding must hold integers in 0..255 only"),
        ("binary", [[200]], "a binary embedding must hold integers in -128..127 only"),
        ("ubinary", [[256]], "a ubinary embedding must hold integers in 0..255 only"),
        ("float", [[True]], "a float embedding must hold finite numbers only"),
        ("float", [[float("inf")]], "a float embedding must hold finite numbers only"),
        ("float", ["AAAAAA=="], "an embedding must be a list of numbers, got str"),
        ("base64", [[0.5]], "a base64 embedding must be a string, got list"),
        ("base64", ["AAA"], "a base64 embedding is not valid base64"),
        ("base64", ["AAAAAAA="], "a base64 embedding must hold whole float32 values, got 5 bytes"),
    ],
)
def test_a_value_the_type_cannot_hold_is_refused(
    embedding_type: str, embeddings: list[Any], problem: str
) -> None:
    with pytest.raises(ValidationError) as error:
        EmbeddingResult(embeddings=embeddings, embedding_type=embedding_type)  # type: ignore[arg-type]
    assert problem in str(error.value)


def test_an_unknown_type_is_refused() -> None:
    with pytest.raises(ValidationError) as error:
        EmbeddingResult(embeddings=[[1]], embedding_type="float16")  # type: ignore[arg-type]
    assert error.value.errors()[0]["loc"] == ("embedding_type",)


def test_the_requested_type_reaches_the_provider(scripted: testing.Script) -> None:
    scripted.embeddings.append(EmbeddingResult(embeddings=[[-3, 4]], embedding_type="int8"))
    result = modelport.get_model("scripted/m", script=scripted).embed("a", embedding_type="int8")
    assert scripted.embed_requests[0].embedding_type == "int8"
    assert result.embeddings == [[-3, 4]]
    assert EMBEDDING_TYPES == ("float", "int8", "uint8", "binary", "ubinary", "base64")


def test_a_bad_type_is_refused_before_the_provider(scripted: testing.Script) -> None:
    model = modelport.get_model("scripted/m", script=scripted)
    with pytest.raises(InvalidRequestError, match="embedding_type must be one of"):
        model.embed("a", embedding_type="int4")  # type: ignore[arg-type]
    assert scripted.embed_requests == []
