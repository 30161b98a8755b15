"""The entries of ``submit_batch`` and ``submit_embed_batch`` checked and built by the provider's
own mapping, before anything is sent (:mod:`modelport.batches`)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InvalidRequestError

if TYPE_CHECKING:
    from ..http import HttpProvider
    from .records import BatchModel

__all__ = ["built_entries"]


def built_entries(
    model: BatchModel, provider: HttpProvider, entries: Sequence[Any], kind: str
) -> list[tuple[str, str, Any]]:
    """Each entry as ``(custom_id, request as JSON text, the provider's wire request)``, all
    validated and built before anything is sent."""
    if kind == "embed" and not provider.capabilities.embed:
        raise InvalidRequestError(f"provider {provider.id!r} does not support embed")
    if isinstance(entries, (str, bytes, Mapping)) or not entries:
        raise InvalidRequestError("a batch takes a non-empty list of requests")
    built: list[tuple[str, str, Any]] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        custom_id, value = entry if isinstance(entry, tuple) and len(entry) == 2 else (str(index), entry)
        if not isinstance(custom_id, str) or not custom_id or custom_id in seen:
            raise InvalidRequestError(
                f"batch request {index}: custom_id must be a new non-empty string, got {custom_id!r}"
            )
        seen.add(custom_id)
        if kind == "embed":
            text, spec = _embed_entry(provider, model.name, custom_id, value)
        else:
            text, spec = _generate_entry(model, custom_id, value)
        built.append((custom_id, text, spec))
    return built


def _generate_entry(model: BatchModel, custom_id: str, kwargs: Any) -> tuple[str, Any]:
    if not isinstance(kwargs, Mapping):
        raise InvalidRequestError(f"batch request {custom_id!r}: expected a dict of generate keywords")
    if "output" in kwargs:
        raise InvalidRequestError(
            f"batch request {custom_id!r}: output= is not kept across processes; pass response_format="
        )
    request = model._validate(kwargs).request
    return request.model_dump_json(), model.provider.prepare(model.name, request).wire


def _embed_entry(provider: HttpProvider, model_name: str, custom_id: str, entry: Any) -> tuple[str, Any]:
    from ..provider import EmbedRequest

    options = {"values": entry} if isinstance(entry, str) else entry
    if not isinstance(options, Mapping) or "values" not in options or not set(options) <= _EMBED_KEYS:
        raise InvalidRequestError(
            f"batch request {custom_id!r}: expected a string or a dict of embed keywords "
            f"({', '.join(sorted(_EMBED_KEYS))})"
        )
    request = EmbedRequest.checked(**options)
    provider.check_embed(model_name, request)
    specs = provider.embed_requests(model_name, request)
    if len(specs) != 1:
        raise InvalidRequestError(
            f"batch request {custom_id!r}: more values than one embedding request takes"
        )
    return json.dumps(dataclasses.asdict(request)), specs[0]


_EMBED_KEYS = frozenset(
    {"values", "output_dimensionality", "task_type", "provider_options", "embedding_type"}
)
