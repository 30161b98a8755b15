"""What a batch job keeps: the requests it was given (:class:`SavedRequest`, of a
:data:`BatchKind`), and the model it is bound to as the batch functions read it
(:class:`BatchModel`: a :class:`~modelport.Model` is one)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, field_validator

from ..types import Request

if TYPE_CHECKING:
    from ..provider import EmbedRequest, Provider
    from ..types import Origin

__all__ = ["BatchKind", "BatchModel", "SavedRequest"]

#: What a job's requests are: generations (results are :class:`Result`) or embeddings
#: (:class:`EmbeddingResult`).
BatchKind = Literal["generate", "embed"]


class SavedRequest(BaseModel):
    """A request of a job, kept so its result can be decoded wherever the job is restored: the
    validated request as compact JSON text (a tenth of the memory of the objects), read back one at
    a time while results are decoded."""

    model_config = ConfigDict(frozen=True)

    custom_id: str
    request: str

    @field_validator("request", mode="before")
    @classmethod
    def _as_text(cls, value: Any) -> Any:
        """A request given as a JSON object (a job written by hand) is kept as its text."""
        return json.dumps(value) if isinstance(value, Mapping) else value

    def parsed(self) -> Request:
        """The validated request (of a ``generate`` batch)."""
        return Request.model_validate_json(self.request)

    def parsed_embedding(self) -> EmbedRequest:
        """The validated request (of an ``embed`` batch)."""
        from ..provider import EmbedRequest

        fields = json.loads(self.request)
        return EmbedRequest(**{**fields, "values": tuple(fields["values"])})


class _Validated(Protocol):
    @property
    def request(self) -> Request: ...


class BatchModel(Protocol):
    """What a batch reads of its model."""

    provider: Provider
    name: str

    @property
    def id(self) -> str: ...

    @property
    def origin(self) -> Origin: ...

    def _validate(self, kwargs: Mapping[str, Any]) -> _Validated: ...
