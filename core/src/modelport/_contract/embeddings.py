"""What an embedding call produced (public through :mod:`modelport.types`): the vectors, in the
type the request asked for (``embedding_type``, contract 2.3), checked as they are built.
"""

from __future__ import annotations

import base64
import binascii
import math
import struct
from typing import Any, Literal, get_args

from pydantic import Field, model_validator

from .content import ProviderMetadata, _Frozen
from .results import Usage

__all__ = ["EMBEDDING_TYPES", "EmbeddingResult", "EmbeddingType", "base64_floats"]

#: The types an embedding may come back in (``embed(..., embedding_type=...)``):
#:
#: - ``"float"`` (the default): one float per dimension;
#: - ``"int8"`` / ``"uint8"``: one integer per dimension, in ``-128..127`` / ``0..255``;
#: - ``"binary"`` / ``"ubinary"``: one bit per dimension, packed eight to an integer (a signed /
#:   unsigned byte, the first dimension in the highest bit), so a vector has ``dimensions / 8``;
#: - ``"base64"``: one string per value, the base64 text of the little-endian float32 values as the
#:   provider sent it (:func:`base64_floats` reads it), kept as text to be stored as it is.
EmbeddingType = Literal["float", "int8", "uint8", "binary", "ubinary", "base64"]
#: Every :data:`EmbeddingType`, the default first.
EMBEDDING_TYPES: tuple[str, ...] = get_args(EmbeddingType)

_INTEGER_RANGES = {"int8": (-128, 127), "binary": (-128, 127), "uint8": (0, 255), "ubinary": (0, 255)}


def base64_floats(text: str) -> list[float]:
    """The float32 values of one ``"base64"`` embedding; a ``ValueError`` for text that is not
    base64, bytes that are no whole float32 values, or a value that is not finite."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as error:
        raise ValueError(f"a base64 embedding is not valid base64: {error}") from None
    if len(raw) % 4:
        raise ValueError(f"a base64 embedding must hold whole float32 values, got {len(raw)} bytes")
    values = list(struct.unpack(f"<{len(raw) // 4}f", raw))
    if not all(math.isfinite(v) for v in values):
        raise ValueError("a base64 embedding holds a value that is not finite")
    return values


def _checked(kind: str, vector: Any) -> Any:
    if kind == "base64":
        if not isinstance(vector, str):
            raise ValueError(f"a base64 embedding must be a string, got {type(vector).__name__}")
        base64_floats(vector)
        return vector
    if not isinstance(vector, list):
        raise ValueError(f"an embedding must be a list of numbers, got {type(vector).__name__}")
    if kind == "float":
        if not all(type(v) in (int, float) and math.isfinite(v) for v in vector):
            raise ValueError("a float embedding must hold finite numbers only")
        return [float(v) for v in vector]
    low, high = _INTEGER_RANGES[kind]
    if not all(type(v) is int and low <= v <= high for v in vector):
        article = "an" if kind == "int8" else "a"
        raise ValueError(f"{article} {kind} embedding must hold integers in {low}..{high} only")
    return vector


class EmbeddingResult(_Frozen):
    """Embeddings in the order of the input values, each of the type ``embedding_type`` names (see
    :data:`EmbeddingType`): lists of floats, lists of integers, or base64 strings. Every vector is
    checked against that type when the result is built (a value out of range, a string that is not
    base64 of whole float32 values: a ``ValueError``, a ``ProviderResponseError`` from a decoder)."""

    embeddings: list[list[float]] | list[list[int]] | list[str]
    #: What ``embeddings`` holds; results stored before contract 2.3 hold floats.
    embedding_type: EmbeddingType = "float"
    usage: Usage = Field(default_factory=Usage)
    model_version: str | None = None
    provider_metadata: ProviderMetadata = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _typed(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("embeddings"), list):
            return data
        kind = data.get("embedding_type", "float")
        if kind not in EMBEDDING_TYPES:
            return data  # the field's own error names the allowed types
        return {**data, "embeddings": [_checked(kind, v) for v in data["embeddings"]]}

    def dimensions(self) -> int | None:
        """The dimensions of the first vector (a packed binary integer holds eight, a base64
        string four bytes each), ``None`` for no vectors."""
        if not self.embeddings:
            return None
        first = self.embeddings[0]
        if isinstance(first, str):
            return len(base64.b64decode(first)) // 4
        return len(first) * (8 if self.embedding_type in ("binary", "ubinary") else 1)
