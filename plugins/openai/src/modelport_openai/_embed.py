"""Embeddings: ``POST /embeddings``, one value or batches split at the server's limit.

Values are sent in input order, at most ``quirks.embed_batch`` per request; each response's items
are put back in order by their ``index``; ``dimensions`` comes from ``output_dimensionality``.

``embedding_type`` (contract 2.3): ``"float"`` (the default) sends no ``encoding_format`` unless
``provider_options`` asks for one; a ``"base64"`` answer (little-endian float32, what OpenAI's own
SDK asks for) is then decoded to floats. ``"base64"`` sends ``encoding_format: "base64"`` and keeps
each vector as the text the server sent, checked to be base64 of whole, finite float32 values. The
API has no integer or binary embeddings: the core refuses those before any I/O (the provider's
``embedding_types``). A server with ``quirks.embed_dtype`` (Mistral) takes them as ``output_dtype``
and answers lists of integers, each checked against its type's byte range.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from modelport.errors import InvalidRequestError, ProviderResponseError, validation_message
from modelport.provider import EmbedRequest
from modelport.types import EmbeddingResult, Usage, base64_floats

from ._quirks import Quirks

__all__ = ["decode_embeddings", "embed_bodies"]

_OPTIONS = frozenset({"encoding_format", "user", "extra_body"})
#: The integer and binary types, sent as ``output_dtype`` where the server has it.
_DTYPES = frozenset({"int8", "uint8", "binary", "ubinary"})


def _options(options: Mapping[str, Any], provider: str) -> dict[str, Any]:
    unknown = sorted(set(options) - _OPTIONS)
    if unknown:
        raise InvalidRequestError(
            f"unknown embedding option(s) {', '.join(unknown)} in provider_options[{provider!r}]; "
            f"known: {', '.join(sorted(_OPTIONS))}"
        )
    if options.get("encoding_format") not in (None, "float", "base64"):
        raise InvalidRequestError("encoding_format must be 'float' or 'base64'")
    extra = options.get("extra_body") or {}
    if not isinstance(extra, Mapping) or {"model", "input"} & set(extra):
        raise InvalidRequestError("extra_body must be a mapping and cannot set model or input")
    wire = {k: v for k, v in options.items() if k != "extra_body"}
    wire.update(extra)
    return wire


def embed_bodies(
    model_name: str, request: EmbedRequest, *, quirks: Quirks, provider: str
) -> list[tuple[dict[str, Any], int]]:
    """``(body, number of values)`` of each request to send, in input order."""
    if quirks.embed_batch <= 0:
        raise InvalidRequestError(f"provider {provider!r} has no embeddings endpoint")
    if request.task_type is not None:
        raise InvalidRequestError(f"provider {provider!r} takes no task_type for embeddings")
    extra = _options(request.provider_options.get(provider) or {}, provider)
    if request.embedding_type == "base64":
        if extra.get("encoding_format", "base64") != "base64":
            raise InvalidRequestError(
                f"provider_options[{provider!r}] encoding_format {extra['encoding_format']!r} "
                "contradicts embedding_type='base64'"
            )
        extra["encoding_format"] = "base64"
    elif request.embedding_type in _DTYPES:
        if not quirks.embed_dtype:
            raise InvalidRequestError(f"provider {provider!r} has no {request.embedding_type} embeddings")
        if extra.get("encoding_format", "float") != "float":
            raise InvalidRequestError(
                f"provider_options[{provider!r}] encoding_format {extra['encoding_format']!r} "
                f"contradicts embedding_type={request.embedding_type!r}"
            )
        extra["output_dtype"] = request.embedding_type
    if request.output_dimensionality is not None:
        extra = {"dimensions": request.output_dimensionality, **extra}
    if request.single:
        return [({"model": model_name, "input": request.values[0], **extra}, 1)]
    size = quirks.embed_batch
    chunks = [list(request.values[i : i + size]) for i in range(0, len(request.values), size)]
    return [({"model": model_name, "input": chunk, **extra}, len(chunk)) for chunk in chunks]


def _vector(value: Any, embedding_type: str) -> Any:
    """One vector as ``embedding_type`` holds it (checked again, and bounded, by the result)."""
    if embedding_type == "base64":
        if not isinstance(value, str):
            raise ValueError(f"asked for base64, the embedding is a {type(value).__name__}")
        return value
    if embedding_type in _DTYPES:
        if not isinstance(value, list):
            raise ValueError(f"asked for {embedding_type}, the embedding is a {type(value).__name__}")
        return value  # integers in range: checked by the result
    if isinstance(value, str):
        return base64_floats(value)
    if not isinstance(value, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
    ):
        raise ValueError("an embedding must be a list of numbers or a base64 string")
    return [float(v) for v in value]


def _decode_one(data: Any, expected: int, embedding_type: str) -> tuple[list[Any], Any]:
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list) or len(items) != expected:
        count = len(items) if isinstance(items, list) else "no"
        raise ValueError(f"{count} embeddings for {expected} values")
    ordered = sorted(items, key=lambda item: item.get("index", 0))
    return [_vector(item.get("embedding"), embedding_type) for item in ordered], data.get("usage")


def decode_embeddings(
    counts: Sequence[int], responses: Sequence[Any], *, provider: str, embedding_type: str = "float"
) -> EmbeddingResult:
    """Every response's embeddings in input order, of ``embedding_type``; token counts summed over
    the requests."""
    embeddings: list[Any] = []
    totals: dict[str, int] = {}
    try:
        for expected, data in zip(counts, responses, strict=True):
            vectors, used = _decode_one(data, expected, embedding_type)
            embeddings.extend(vectors)
            for key in ("prompt_tokens", "total_tokens"):
                value = used.get(key) if isinstance(used, dict) else None
                if isinstance(value, int) and not isinstance(value, bool):
                    totals[key] = totals.get(key, 0) + value
        model = responses[0].get("model") if responses and isinstance(responses[0], dict) else None
        return EmbeddingResult(
            embeddings=embeddings,
            embedding_type=embedding_type,
            usage=Usage(input_tokens=totals.get("prompt_tokens"), total_tokens=totals.get("total_tokens")),
            model_version=model if isinstance(model, str) else None,
        )
    except ValidationError as error:
        problem = validation_message(error, root="embeddings")
        raise ProviderResponseError(f"malformed embedding response: {problem}", provider=provider) from None
    except (ValueError, TypeError, AttributeError) as error:
        raise ProviderResponseError(f"malformed embedding response: {error}", provider=provider) from None
