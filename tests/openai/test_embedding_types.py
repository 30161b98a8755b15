"""``embedding_type`` on OpenAI's ``/embeddings``: ``"base64"`` kept as the server's text, ``"float"``
decoded, the types the API lacks refused before any request, malformed base64 a typed error; on
Mistral, the integer and binary types as ``output_dtype``.

The answers are the vendored pydantic-ai recordings (``tests/corpus/openai/pydantic__pydantic-ai``,
MIT, see its MANIFEST); the malformed bodies are MOCK (no server sends them on purpose: each is the
recorded shape with one value damaged), and so are the Mistral ``output_dtype`` answers (no
recording of them exists).
"""

from __future__ import annotations

import asyncio
import base64
import json
import struct
from typing import Any

import pytest
import yaml

from modelport.errors import InvalidRequestError, ProviderResponseError
from modelport.types import EmbeddingResult, base64_floats
from tests.recordings import openai as recording
from tests.recordings import vcr_body

from .fakes import model, response

DOCUMENTS = "pydantic__pydantic-ai/tests__cassettes__test_embeddings__TestOpenAI.test_documents.yaml"


def _exchange() -> tuple[dict[str, Any], bytes]:
    interaction = yaml.safe_load(recording(DOCUMENTS).read_text())["interactions"][0]
    return interaction["request"]["parsed_body"], vcr_body(interaction["response"])


def _recorded_body(**changes: Any) -> dict[str, Any]:
    body = json.loads(_exchange()[1])
    for index, embedding in changes.items():
        body["data"][int(index.lstrip("_"))]["embedding"] = embedding
    return body


def test_base64_is_sent_and_kept_as_the_recorded_text() -> None:
    sent, answer = _exchange()
    m, recorder = model([response(body=answer)], "openai/text-embedding-3-small")
    result = m.embed(["hello", "world"], embedding_type="base64")
    assert (
        recorder.body
        == sent
        == {
            "model": "text-embedding-3-small",
            "input": ["hello", "world"],
            "encoding_format": "base64",
        }
    )
    assert result.embedding_type == "base64"
    assert [e[:12] for e in result.embeddings] == ["PsaJPMCKZL2l", "x4stvI1xE73a"]  # type: ignore[index]
    assert [e[-12:] for e in result.embeddings] == ["vIUpg7w0L4+8", "PJuHSTxtot+7"]  # type: ignore[index]
    assert result.dimensions() == 1536
    assert base64_floats(result.embeddings[0])[:3] == pytest.approx(  # type: ignore[arg-type]
        [0.01681816205382347, -0.05579638481140137, 0.005661087576299906], abs=0
    )
    assert (result.usage.input_tokens, result.model_version) == (2, "text-embedding-3-small")
    assert EmbeddingResult.model_validate_json(result.model_dump_json()) == result


def test_float_from_the_same_answer_is_the_decoded_base64() -> None:
    _, answer = _exchange()
    m, _ = model([response(body=answer), response(body=answer)], "openai/text-embedding-3-small")
    as_text = m.embed(["hello", "world"], embedding_type="base64")
    floats = m.embed(["hello", "world"], provider_options={"openai": {"encoding_format": "base64"}})
    assert floats.embedding_type == "float"
    assert floats.embeddings == [base64_floats(e) for e in as_text.embeddings]  # type: ignore[arg-type]
    assert floats.embeddings[1][:3] == [-0.010592407546937466, -0.03599696233868599, 0.030227113515138626]


def test_the_async_call_maps_it_alike() -> None:
    _, answer = _exchange()
    m, recorder = model([response(body=answer)], "openai/text-embedding-3-small")
    result = asyncio.run(m.aembed(["hello", "world"], embedding_type="base64"))
    assert recorder.body["encoding_format"] == "base64"
    assert result.embedding_type == "base64"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"embedding_type": "int8"},
            "embedding_type='int8' is not supported by provider 'openai' (it offers float, base64)",
        ),
        (
            {"embedding_type": "ubinary"},
            "embedding_type='ubinary' is not supported by provider 'openai' (it offers float, base64)",
        ),
        (
            {"embedding_type": "float16"},
            "embedding_type must be one of float, int8, uint8, binary, ubinary, base64, got 'float16'",
        ),
        ({"embedding_type": None}, "embedding_type must be one of"),
        (
            {"embedding_type": "base64", "provider_options": {"openai": {"encoding_format": "float"}}},
            "provider_options['openai'] encoding_format 'float' contradicts embedding_type='base64'",
        ),
    ],
)
def test_a_type_the_api_lacks_is_refused_before_any_request(kwargs: dict[str, Any], message: str) -> None:
    m, recorder = model([], "openai/text-embedding-3-small")
    with pytest.raises(InvalidRequestError) as error:
        m.embed(["hello"], **kwargs)
    assert str(error.value).startswith(message)
    with pytest.raises(InvalidRequestError):
        asyncio.run(m.aembed(["hello"], **kwargs))
    assert recorder.requests == []


_SIX_BYTES = base64.b64encode(b"\x00" * 6).decode()
_NAN = base64.b64encode(struct.pack("<2f", 0.5, float("nan"))).decode()


@pytest.mark.parametrize(
    ("embedding_type", "damaged", "problem"),
    [
        # MOCK: the recorded answer with its second vector replaced, one damage each.
        ("base64", "not base64!", "not valid base64"),
        ("base64", _SIX_BYTES, "must hold whole float32 values, got 6 bytes"),
        ("base64", _NAN, "a value that is not finite"),
        ("base64", [0.5, 0.25], "asked for base64, the embedding is a list"),
        ("float", "not base64!", "not valid base64"),
        ("float", _SIX_BYTES, "must hold whole float32 values, got 6 bytes"),
        ("float", _NAN, "a base64 embedding holds a value that is not finite"),
    ],
)
def test_a_malformed_vector_is_a_typed_error(embedding_type: str, damaged: Any, problem: str) -> None:
    body = _recorded_body(_1=damaged)
    m, _ = model([response(body=body)], "openai/text-embedding-3-small")
    with pytest.raises(ProviderResponseError) as error:
        m.embed(
            ["hello", "world"],
            embedding_type=embedding_type,  # type: ignore[arg-type]
            provider_options={"openai": {"encoding_format": "base64"}},
        )
    assert str(error.value).startswith("openai: malformed embedding response: ")
    assert problem in str(error.value)
    assert error.value.provider == "openai"


def _mistral_answer(vectors: list[Any]) -> dict[str, Any]:
    # MOCK: no recording of Mistral's output_dtype exists in the corpus; the body is the shape of
    # Mistral's embeddings reference (an OpenAI-style list; integers for the integer dtypes).
    return {
        "id": "embd-1",
        "object": "list",
        "model": "codestral-embed",
        "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
        "usage": {"prompt_tokens": 2, "total_tokens": 2},
    }


@pytest.mark.parametrize(
    ("embedding_type", "vectors"),
    [("int8", [[-128, 5, 127], [0, -1, 3]]), ("ubinary", [[255, 0], [7, 128]])],
)
def test_mistral_sends_integer_types_as_output_dtype(embedding_type: str, vectors: list[Any]) -> None:
    m, recorder = model([response(body=_mistral_answer(vectors))], "mistral/codestral-embed")
    result = m.embed(["a", "b"], embedding_type=embedding_type)  # type: ignore[arg-type]
    assert recorder.body == {"model": "codestral-embed", "input": ["a", "b"], "output_dtype": embedding_type}
    assert (result.embedding_type, result.embeddings) == (embedding_type, vectors)
    assert EmbeddingResult.model_validate_json(result.model_dump_json()) == result


def test_mistral_integers_out_of_range_are_a_typed_error() -> None:
    m, _ = model([response(body=_mistral_answer([[1, 2], [128, 0]]))], "mistral/codestral-embed")
    with pytest.raises(ProviderResponseError) as error:
        m.embed(["a", "b"], embedding_type="int8")
    assert "an int8 embedding must hold integers in -128..127 only" in str(error.value)


def test_mistral_refuses_integers_in_base64_before_any_request() -> None:
    m, recorder = model([], "mistral/codestral-embed")
    with pytest.raises(InvalidRequestError) as error:
        m.embed("a", embedding_type="uint8", provider_options={"mistral": {"encoding_format": "base64"}})
    assert str(error.value) == (
        "provider_options['mistral'] encoding_format 'base64' contradicts embedding_type='uint8'"
    )
    assert recorder.requests == []
