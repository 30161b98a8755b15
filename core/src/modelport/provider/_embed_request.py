"""An embedding request (:class:`EmbedRequest`, public through :mod:`modelport.provider`) and the
checks of ``Model.embed``'s arguments: a clear ``InvalidRequestError`` before any I/O for anything
a provider could not send, an ``embedding_type`` it does not map included."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import InvalidRequestError

if TYPE_CHECKING:
    from ..types import EmbeddingType

__all__ = ["EmbedRequest", "checked_fields"]


@dataclass(frozen=True)
class EmbedRequest:
    """A validated embedding request: one or more values plus options.

    ``embedding_type`` (contract 2.3) is the type the embeddings come back in
    (:data:`~modelport.types.EmbeddingType`, default ``"float"``); a provider maps the ones in its
    ``embedding_types`` and the core refuses the others before the provider sees the request.
    """

    values: tuple[str, ...]
    single: bool
    output_dimensionality: int | None = None
    task_type: str | None = None
    provider_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    embedding_type: EmbeddingType = "float"

    @classmethod
    def checked(
        cls,
        values: str | Sequence[str],
        output_dimensionality: int | None = None,
        task_type: str | None = None,
        provider_options: Mapping[str, Mapping[str, Any]] | None = None,
        embedding_type: str = "float",
    ) -> EmbedRequest:
        """The request of ``Model.embed``'s arguments, checked: a clear ``InvalidRequestError``
        before any I/O for anything a provider could not send."""
        fields = checked_fields(values, output_dimensionality, task_type, provider_options)
        return cls(**fields, embedding_type=_checked_type(embedding_type))


def _checked_type(embedding_type: object) -> EmbeddingType:
    from ..types import EMBEDDING_TYPES

    if embedding_type not in EMBEDDING_TYPES:
        shown = repr(embedding_type) if isinstance(embedding_type, str) else type(embedding_type).__name__
        raise InvalidRequestError(f"embedding_type must be one of {', '.join(EMBEDDING_TYPES)}, got {shown}")
    return embedding_type  # type: ignore[return-value]


def checked_fields(
    values: str | Sequence[str],
    output_dimensionality: int | None,
    task_type: str | None,
    provider_options: Mapping[str, Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """The fields of an :class:`~modelport.provider.EmbedRequest` for these arguments, checked."""
    from ..types import MAX_SAFE_INTEGER

    single = isinstance(values, str)
    # A list or tuple of strings (any sequence but bytes); a mapping or a set has no input order.
    if not single and (
        not isinstance(values, Sequence) or isinstance(values, (bytes, bytearray, memoryview))
    ):
        raise InvalidRequestError(
            f"embed values must be a string or a list of strings, got {type(values).__name__}"
        )
    items = (values,) if isinstance(values, str) else tuple(values)
    if not items:
        raise InvalidRequestError("embed needs at least one value")
    wrong = [type(v).__name__ for v in items if not isinstance(v, str)]
    if wrong:
        raise InvalidRequestError(f"embed values must be strings, got {wrong[0]}")
    if output_dimensionality is not None and (
        not isinstance(output_dimensionality, int)
        or isinstance(output_dimensionality, bool)
        or not 0 < output_dimensionality <= MAX_SAFE_INTEGER
    ):
        raise InvalidRequestError(
            f"output_dimensionality must be a positive integer (at most {MAX_SAFE_INTEGER})"
        )
    if task_type is not None and not isinstance(task_type, str):
        raise InvalidRequestError(f"task_type must be a string, got {type(task_type).__name__}")
    if provider_options is not None and (
        not isinstance(provider_options, Mapping)
        or not all(isinstance(k, str) and isinstance(v, Mapping) for k, v in provider_options.items())
    ):
        raise InvalidRequestError(
            "provider_options must map provider ids to mappings of options, e.g. {'google': {...}}"
        )
    return {
        "values": items,
        "single": single,
        "output_dimensionality": output_dimensionality,
        "task_type": task_type,
        "provider_options": provider_options or {},
    }
