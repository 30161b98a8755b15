"""Embeddings (G17): ``:embedContent`` for one value, ``:batchEmbedContents`` for a batch.

Batches are split into requests of at most :data:`BATCH_LIMIT` values (the API rejects more) and the
embeddings reassembled in input order. Vertex AI uses its ``:predict`` shape instead, one instance
per request for the Gemini embedding models (``gemini-embedding-001`` takes only one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from modelport.errors import ProviderResponseError
from modelport.provider import EmbedRequest
from modelport.types import EmbeddingResult, Usage

__all__ = ["BATCH_LIMIT", "EmbedCall", "decode_embeddings", "embed_calls", "one_instance_per_request"]

#: Most values one batch request may carry.
BATCH_LIMIT = 100

EmbedCall = tuple[str, dict[str, Any], int]
"""``(method, body, number of values)`` of one embedding request."""


def _content(value: str) -> dict[str, Any]:
    return {"parts": [{"text": value}]}


def _options(request: EmbedRequest) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if request.task_type is not None:
        options["taskType"] = request.task_type
    if request.output_dimensionality is not None:
        options["outputDimensionality"] = request.output_dimensionality
    return options


def embed_calls(model_name: str, request: EmbedRequest, *, vertex: bool = False) -> list[EmbedCall]:
    """The requests to send for ``request``, in order."""
    if vertex:
        size = 1 if one_instance_per_request(model_name) else BATCH_LIMIT
        return [_vertex_call(request, chunk) for chunk in _chunks(request.values, size)]
    if request.single:
        return [("embedContent", {"content": _content(request.values[0]), **_options(request)}, 1)]
    model = model_name if "/" in model_name else f"models/{model_name}"
    return [
        (
            "batchEmbedContents",
            {"requests": [{"model": model, "content": _content(v), **_options(request)} for v in chunk]},
            len(chunk),
        )
        for chunk in _chunks(request.values)
    ]


def _chunks(values: Sequence[str], size: int = BATCH_LIMIT) -> list[Sequence[str]]:
    return [values[i : i + size] for i in range(0, len(values), size)]


def one_instance_per_request(model_name: str) -> bool:
    """Whether a Vertex ``:predict`` call of this model takes one instance only (the Gemini
    embedding models, e.g. ``gemini-embedding-001``; ``text-embedding-*`` take up to 100)."""
    return model_name.rsplit("/", 1)[-1].startswith("gemini-embedding")


def _vertex_call(request: EmbedRequest, chunk: Sequence[str]) -> EmbedCall:
    instances: list[dict[str, Any]] = []
    for value in chunk:
        instance: dict[str, Any] = {"content": value}
        if request.task_type is not None:
            instance["task_type"] = request.task_type
        instances.append(instance)
    body: dict[str, Any] = {"instances": instances}
    if request.output_dimensionality is not None:
        body["parameters"] = {"outputDimensionality": request.output_dimensionality}
    return ("predict", body, len(chunk))


def _values(item: object) -> list[float]:
    values = item.get("values") if isinstance(item, dict) else None
    if not isinstance(values, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
    ):
        raise ValueError("an embedding needs a list of numbers in 'values'")
    return [float(v) for v in values]


def _decode_one(method: str, data: object, expected: int) -> tuple[list[list[float]], int | None]:
    if not isinstance(data, dict):
        raise ValueError("the response must be an object")
    tokens: int | None = None
    if method == "embedContent":
        embeddings = [_values(data.get("embedding"))]
    elif method == "predict":
        predictions = data.get("predictions")
        if not isinstance(predictions, list):
            raise ValueError("missing 'predictions'")
        embeddings = []
        for prediction in predictions:
            embedding = prediction.get("embeddings") if isinstance(prediction, dict) else None
            embeddings.append(_values(embedding))
            stats = embedding.get("statistics") if isinstance(embedding, dict) else None
            count = stats.get("token_count") if isinstance(stats, dict) else None
            if isinstance(count, (int, float)) and not isinstance(count, bool):
                tokens = (tokens or 0) + int(count)
    else:
        items = data.get("embeddings")
        if not isinstance(items, list):
            raise ValueError("missing 'embeddings'")
        embeddings = [_values(item) for item in items]
    if len(embeddings) != expected:
        raise ValueError(f"{len(embeddings)} embeddings for {expected} values")
    usage = data.get("usageMetadata")
    count = usage.get("promptTokenCount") if isinstance(usage, dict) else None
    if isinstance(count, int) and not isinstance(count, bool):
        tokens = count
    return embeddings, tokens


def decode_embeddings(
    calls: Sequence[EmbedCall], responses: Sequence[object], *, provider: str
) -> EmbeddingResult:
    """The embeddings of every response, in input order; token counts summed over the requests."""
    embeddings: list[list[float]] = []
    total: int | None = None
    try:
        for (method, _, expected), data in zip(calls, responses, strict=True):
            chunk, tokens = _decode_one(method, data, expected)
            embeddings.extend(chunk)
            if tokens is not None:
                total = (total or 0) + tokens
    except (ValueError, OverflowError) as error:  # 1e999 counts and 400-digit values overflow
        raise ProviderResponseError(f"malformed embedding response: {error}", provider=provider) from None
    usage = Usage(input_tokens=total, total_tokens=total) if total is not None else Usage()
    return EmbeddingResult(embeddings=embeddings, usage=usage)
