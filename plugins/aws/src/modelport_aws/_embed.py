"""Embeddings through InvokeModel (``POST /model/{modelId}/invoke``), by model family.

- Amazon Titan text (``amazon.titan-embed-text-v1``, ``-v2:0``): one ``inputText`` per request;
  ``dimensions`` from ``output_dimensionality`` (v2 only), ``normalize`` from ``provider_options``;
  the answer's ``embedding`` and ``inputTextTokenCount``.
- Cohere (``cohere.embed-english-v3``, ``-multilingual-v3``, ``-v4:0``): ``texts`` in requests of at
  most :data:`COHERE_BATCH` values, ``input_type`` from ``task_type`` (default
  ``search_document``); the answer's ``embeddings`` (a list, or ``{"float": [...]}``).
- Amazon Nova multimodal (``amazon.nova-2-multimodal-embeddings-v1:0``): one ``SINGLE_EMBEDDING``
  text per request, ``embeddingPurpose`` from ``task_type`` (default ``GENERIC_INDEX``),
  ``embeddingDimension`` from ``output_dimensionality``; the answer's ``embeddings[0].embedding``.

A model id of any other family (an application inference profile ARN names none), an option the
family does not take or an unknown ``provider_options["bedrock"]`` key is an
``InvalidRequestError`` before any I/O. Pure mapping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from modelport.errors import InvalidRequestError, ProviderResponseError
from modelport.provider import EmbedRequest
from modelport.types import EmbeddingResult, Usage

__all__ = ["COHERE_BATCH", "EmbedCall", "decode_embeddings", "embed_calls", "embed_family"]

#: Most texts one Cohere embed request may carry.
COHERE_BATCH = 96

EmbedCall = tuple[str, dict[str, Any], int]
"""``(family, body, number of values)`` of one InvokeModel embedding request."""

#: ``task_type`` (the neutral names and Cohere's own) -> Cohere ``input_type``.
_COHERE_INPUT = {
    "RETRIEVAL_QUERY": "search_query",
    "RETRIEVAL_DOCUMENT": "search_document",
    "CLASSIFICATION": "classification",
    "CLUSTERING": "clustering",
}
#: ``task_type`` (the neutral names) -> Nova ``embeddingPurpose``.
_NOVA_PURPOSE = {
    "RETRIEVAL_QUERY": "GENERIC_RETRIEVAL",
    "RETRIEVAL_DOCUMENT": "GENERIC_INDEX",
}
_NOVA_PURPOSES = frozenset(
    {
        "GENERIC_INDEX",
        "GENERIC_RETRIEVAL",
        "TEXT_RETRIEVAL",
        "IMAGE_RETRIEVAL",
        "VIDEO_RETRIEVAL",
        "DOCUMENT_RETRIEVAL",
        "AUDIO_RETRIEVAL",
        "CLASSIFICATION",
        "CLUSTERING",
    }
)
#: The ``provider_options["bedrock"]`` keys each family takes (sent as body fields).
_OPTIONS = {
    "titan-v1": frozenset(),
    "titan-v2": frozenset({"normalize"}),
    "cohere": frozenset({"truncate"}),
    "nova": frozenset({"truncationMode"}),
}


def embed_family(model_name: str) -> str:
    """``titan-v1``, ``titan-v2``, ``cohere`` or ``nova`` for a model id (a region prefix such as
    ``us.`` or a foundation-model ARN allowed); an ``InvalidRequestError`` for any other."""
    base = model_name.rsplit("/", 1)[-1]
    base = base.split(".", 1)[1] if base.split(".", 1)[0] in ("us", "eu", "apac", "global") else base
    if base.startswith("amazon.titan-embed-text-v2"):
        return "titan-v2"
    if base.startswith("amazon.titan-embed-text-v1"):
        return "titan-v1"
    if base.startswith("cohere.embed-"):
        return "cohere"
    if base.startswith("amazon.nova-") and "embeddings" in base:
        return "nova"
    raise InvalidRequestError(
        f"bedrock: no embeddings for {model_name!r} (Titan text, Cohere embed and Nova multimodal "
        "embedding models are supported)"
    )


def _options(request: EmbedRequest, family: str) -> dict[str, Any]:
    options = dict(request.provider_options.get("bedrock") or {})
    unknown = sorted(set(options) - _OPTIONS[family])
    if unknown:
        allowed = ", ".join(sorted(_OPTIONS[family])) or "none"
        raise InvalidRequestError(
            f"bedrock: unknown embedding option(s) {', '.join(unknown)} for {family} "
            f"(provider_options['bedrock'] takes: {allowed})"
        )
    return options


def _no_task_type(request: EmbedRequest, family: str) -> None:
    if request.task_type is not None:
        raise InvalidRequestError(f"bedrock: {family} embedding models take no task_type")


def embed_calls(model_name: str, request: EmbedRequest) -> list[EmbedCall]:
    """The InvokeModel bodies for ``request``, in input order (all checked before any is sent)."""
    family = embed_family(model_name)
    options = _options(request, family)
    dimensions = request.output_dimensionality
    if family.startswith("titan"):
        _no_task_type(request, "Titan")
        if dimensions is not None and family == "titan-v1":
            raise InvalidRequestError("bedrock: Titan text v1 takes no output_dimensionality")
        extra = {"dimensions": dimensions} if dimensions is not None else {}
        return [(family, {"inputText": v, **extra, **options}, 1) for v in request.values]
    if family == "cohere":
        if dimensions is not None:
            raise InvalidRequestError("bedrock: Cohere embed models take no output_dimensionality")
        task = request.task_type or "search_document"
        input_type = _COHERE_INPUT.get(task, task)
        if input_type not in _COHERE_INPUT.values():
            raise InvalidRequestError(f"bedrock: Cohere takes no task_type {task!r}")
        chunks = [request.values[i : i + COHERE_BATCH] for i in range(0, len(request.values), COHERE_BATCH)]
        return [
            (family, {"texts": list(chunk), "input_type": input_type, **options}, len(chunk))
            for chunk in chunks
        ]
    task = request.task_type or "GENERIC_INDEX"
    purpose = _NOVA_PURPOSE.get(task, task)
    if purpose not in _NOVA_PURPOSES:
        raise InvalidRequestError(f"bedrock: Nova takes no task_type {task!r}")
    text_options = {"truncationMode": options.get("truncationMode", "END")}
    calls: list[EmbedCall] = []
    for value in request.values:
        params: dict[str, Any] = {"embeddingPurpose": purpose, "text": {"value": value, **text_options}}
        if dimensions is not None:
            params["embeddingDimension"] = dimensions
        calls.append((family, {"taskType": "SINGLE_EMBEDDING", "singleEmbeddingParams": params}, 1))
    return calls


def _vector(values: object) -> list[float]:
    if not isinstance(values, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
    ):
        raise ValueError("an embedding must be a list of numbers")
    return [float(v) for v in values]


def _decode_one(family: str, data: object, expected: int) -> tuple[list[list[float]], int | None]:
    if not isinstance(data, Mapping):
        raise ValueError("the response must be an object")
    tokens: int | None = None
    if family.startswith("titan"):
        embeddings = [_vector(data.get("embedding"))]
        count = data.get("inputTextTokenCount")
        if isinstance(count, int) and not isinstance(count, bool):
            tokens = count
    elif family == "cohere":
        items = data.get("embeddings")
        if isinstance(items, Mapping):  # ``embedding_types`` asked: {"float": [...]}
            items = items.get("float")
        if not isinstance(items, list):
            raise ValueError("missing 'embeddings'")
        embeddings = [_vector(item) for item in items]
    else:
        items = data.get("embeddings")
        if not isinstance(items, list):
            raise ValueError("missing 'embeddings'")
        embeddings = [_vector(item.get("embedding") if isinstance(item, Mapping) else None) for item in items]
    if len(embeddings) != expected:
        raise ValueError(f"{len(embeddings)} embeddings for {expected} values")
    return embeddings, tokens


def decode_embeddings(
    calls: Sequence[EmbedCall], responses: Sequence[object], *, provider: str
) -> EmbeddingResult:
    """The embeddings of every response, in input order; Titan's token counts summed (Cohere and
    Nova bodies carry none)."""
    embeddings: list[list[float]] = []
    total: int | None = None
    try:
        for (family, _, expected), data in zip(calls, responses, strict=True):
            chunk, tokens = _decode_one(family, data, expected)
            embeddings.extend(chunk)
            if tokens is not None:
                total = (total or 0) + tokens
    except (ValueError, OverflowError) as error:
        raise ProviderResponseError(f"malformed embedding response: {error}", provider=provider) from None
    usage = Usage(input_tokens=total, total_tokens=total) if total is not None else Usage()
    return EmbeddingResult(embeddings=embeddings, usage=usage)
