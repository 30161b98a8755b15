"""Embeddings: ``POST /embeddings``, one value or batches split at the server's limit.

Values are sent in input order, at most ``quirks.embed_batch`` per request; each response's items
are put back in order by their ``index``. ``encoding_format: "base64"`` (little-endian float32, what
OpenAI's own SDK asks for) is decoded to floats; ``dimensions`` comes from ``output_dimensionality``.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Mapping, Sequence
from typing import Any

from modelport.errors import InvalidRequestError, ProviderResponseError
from modelport.provider import EmbedRequest
from modelport.types import EmbeddingResult, Usage

from ._quirks import Quirks

__all__ = ["decode_embeddings", "embed_bodies"]

_OPTIONS = frozenset({"encoding_format", "user", "extra_body"})


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
    if request.output_dimensionality is not None:
        extra = {"dimensions": request.output_dimensionality, **extra}
    if request.single:
        return [({"model": model_name, "input": request.values[0], **extra}, 1)]
    size = quirks.embed_batch
    chunks = [list(request.values[i : i + size]) for i in range(0, len(request.values), size)]
    return [({"model": model_name, "input": chunk, **extra}, len(chunk)) for chunk in chunks]


def _vector(value: Any) -> list[float]:
    if isinstance(value, str):
        raw = base64.b64decode(value, validate=True)
        if len(raw) % 4:
            raise ValueError("a base64 embedding must hold whole float32 values")
        return list(struct.unpack(f"<{len(raw) // 4}f", raw))
    if not isinstance(value, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
    ):
        raise ValueError("an embedding must be a list of numbers or a base64 string")
    return [float(v) for v in value]


def _decode_one(data: Any, expected: int) -> tuple[list[list[float]], Any]:
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list) or len(items) != expected:
        count = len(items) if isinstance(items, list) else "no"
        raise ValueError(f"{count} embeddings for {expected} values")
    ordered = sorted(items, key=lambda item: item.get("index", 0))
    return [_vector(item.get("embedding")) for item in ordered], data.get("usage")


def decode_embeddings(counts: Sequence[int], responses: Sequence[Any], *, provider: str) -> EmbeddingResult:
    """Every response's embeddings in input order; token counts summed over the requests."""
    embeddings: list[list[float]] = []
    totals: dict[str, int] = {}
    try:
        for expected, data in zip(counts, responses, strict=True):
            vectors, used = _decode_one(data, expected)
            embeddings.extend(vectors)
            for key in ("prompt_tokens", "total_tokens"):
                value = used.get(key) if isinstance(used, dict) else None
                if isinstance(value, int) and not isinstance(value, bool):
                    totals[key] = totals.get(key, 0) + value
    except (ValueError, TypeError, AttributeError, struct.error) as error:
        raise ProviderResponseError(f"malformed embedding response: {error}", provider=provider) from None
    model = responses[0].get("model") if responses and isinstance(responses[0], dict) else None
    return EmbeddingResult(
        embeddings=embeddings,
        usage=Usage(input_tokens=totals.get("prompt_tokens"), total_tokens=totals.get("total_tokens")),
        model_version=model if isinstance(model, str) else None,
    )
