"""The stream event types (public through :mod:`modelport.events`).

Events form a discriminated union on ``type``; the kebab-case tags are wire format and never renamed.
Each ``*-start`` / ``*-delta`` / ``*-end`` triple shares an ``id``. A well-formed stream is
``stream-start``, then content events, then exactly one ``finish`` (or an ``error``), last.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .content import FilePart, ProviderMetadata, ToolCallPart, ToolResultPart, built
from .results import (
    CallWarning,
    Citation,
    FinishReason,
    Source,
    TokenLogprob,
    Usage,
    deprecated_grounding,
    moved_grounding,
)


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StreamStartEvent(_Event):
    """First event of every stream; carries request-time warnings."""

    type: Literal["stream-start"] = "stream-start"
    warnings: list[CallWarning] = Field(default_factory=list)


class ResponseMetadataEvent(_Event):
    """Response id and model version, as soon as the provider sends them."""

    type: Literal["response-metadata"] = "response-metadata"
    response_id: str | None = None
    model_version: str | None = None


class TextStartEvent(_Event):
    """A text part begins."""

    type: Literal["text-start"] = "text-start"
    id: str
    provider_metadata: ProviderMetadata | None = None


class TextDeltaEvent(_Event):
    """More text for the part ``id``; ``provider_metadata`` merges into the part's."""

    type: Literal["text-delta"] = "text-delta"
    id: str
    delta: str
    provider_metadata: ProviderMetadata | None = None


class TextEndEvent(_Event):
    """The text part ``id`` is complete."""

    type: Literal["text-end"] = "text-end"
    id: str
    provider_metadata: ProviderMetadata | None = None


class ReasoningStartEvent(_Event):
    """A reasoning part begins."""

    type: Literal["reasoning-start"] = "reasoning-start"
    id: str
    provider_metadata: ProviderMetadata | None = None


class ReasoningDeltaEvent(_Event):
    """More reasoning text; a signature, when sent, is set on the part."""

    type: Literal["reasoning-delta"] = "reasoning-delta"
    id: str
    delta: str
    signature: str | None = None
    provider_metadata: ProviderMetadata | None = None


class ReasoningEndEvent(_Event):
    """The reasoning part ``id`` is complete."""

    type: Literal["reasoning-end"] = "reasoning-end"
    id: str
    signature: str | None = None
    provider_metadata: ProviderMetadata | None = None


class ToolCallStartEvent(_Event):
    """A function call begins: its call id and tool name; the arguments follow as JSON text."""

    type: Literal["tool-call-start"] = "tool-call-start"
    id: str
    call_id: str
    name: str
    provider_metadata: ProviderMetadata | None = None


class ToolCallDeltaEvent(_Event):
    """More of the call's arguments, as a fragment of JSON text (fragments concatenate)."""

    type: Literal["tool-call-delta"] = "tool-call-delta"
    id: str
    delta: str


class ToolCallEndEvent(_Event):
    """The call ``id`` is complete; ``part`` is the whole call (id, name, parsed ``args``).

    A decoder sends it without ``part``; the core's stream fills it in from the start and delta
    events (:meth:`StreamAccumulator.add` returns the completed event), so a consumer of
    ``model.stream`` gets every call whole. Arguments that are no JSON object leave ``args`` empty
    and keep their text in ``provider_metadata["modelport"]["raw_args"]`` (with a warning on the result).
    """

    type: Literal["tool-call-end"] = "tool-call-end"
    id: str
    provider_metadata: ProviderMetadata | None = None
    part: ToolCallPart | None = None


class ToolCallEvent(_Event):
    """A complete tool call in one event (provider-executed calls, or a decoder that has it whole)."""

    type: Literal["tool-call"] = "tool-call"
    part: ToolCallPart


class ToolResultEvent(_Event):
    """A complete tool result: a provider-executed tool's, inside a model's stream, or, between the
    steps of ``model.run_stream``, a function call's the loop ran (``provider_executed`` false)."""

    type: Literal["tool-result"] = "tool-result"
    part: ToolResultPart


class FileEvent(_Event):
    """A complete file the model produced (e.g. a generated image), in its place among the parts."""

    type: Literal["file"] = "file"
    part: FilePart


class FinishEvent(_Event):
    """Last event of a successful stream: reason, usage and everything known only at the end."""

    type: Literal["finish"] = "finish"
    finish_reason: FinishReason
    raw_finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    provider_metadata: ProviderMetadata = Field(default_factory=dict)
    sources: list[Source] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    warnings: list[CallWarning] = Field(default_factory=list)
    replay: ProviderMetadata | None = None
    logprobs: list[TokenLogprob] | None = None

    @model_validator(mode="before")
    @classmethod
    def _moved_grounding(cls, value: Any) -> Any:
        return moved_grounding(value)  # a stored 2.0 event still loads

    @property
    def grounding_metadata(self) -> dict[str, Any] | None:
        """Deprecated (contract 2.1): read ``modelport_google.grounding.grounding_metadata(event)``."""
        return deprecated_grounding("FinishEvent", self.provider_metadata)


class PartialObjectEvent(_Event):
    """The typed output so far: emitted by the core (never a plugin) while the answer's JSON arrives,
    when ``response_format`` is a Python type.

    ``value`` is the best-effort parse of the JSON text received so far (plain JSON values, not
    validated): complete members as they are, an unfinished string cut where the text ends. One is
    emitted after each text delta that changes it; the validated instance is on the final result.
    """

    type: Literal["partial-object"] = "partial-object"
    value: Any


class ErrorEvent(_Event):
    """The stream failed; ``error`` describes it (class name, message, status)."""

    type: Literal["error"] = "error"
    error: dict[str, Any]


#: Any stream event: the union of the event classes, told apart by ``type``.
StreamEvent = Annotated[
    Union[
        StreamStartEvent,
        ResponseMetadataEvent,
        TextStartEvent,
        TextDeltaEvent,
        TextEndEvent,
        ReasoningStartEvent,
        ReasoningDeltaEvent,
        ReasoningEndEvent,
        ToolCallStartEvent,
        ToolCallDeltaEvent,
        ToolCallEndEvent,
        ToolCallEvent,
        ToolResultEvent,
        FileEvent,
        FinishEvent,
        PartialObjectEvent,
        ErrorEvent,
    ],
    Field(discriminator="type"),
]

_EVENT_ADAPTER: TypeAdapter[StreamEvent] = TypeAdapter(StreamEvent)


# Delta events without re-validation ------------------------------------------------------------
# A stream has about one delta event a frame, and validating it is most of its cost (P3). For ``str``
# values validation changes nothing, so these build the same object the constructor makes (equal,
# same ``model_fields_set``, same dump) directly; anything else goes through the constructor.


def text_delta(id: str, delta: str) -> TextDeltaEvent:
    """``TextDeltaEvent(id=id, delta=delta)``, built without validation when both are ``str``.

    For stream decoders: the cheapest way to emit the event most frames carry.
    """
    if type(id) is not str or type(delta) is not str:
        return TextDeltaEvent(id=id, delta=delta)
    state = {"type": "text-delta", "id": id, "delta": delta, "provider_metadata": None}
    return built(TextDeltaEvent, state, {"id", "delta"}, None)


def reasoning_delta(id: str, delta: str) -> ReasoningDeltaEvent:
    """``ReasoningDeltaEvent(id=id, delta=delta)``, built without validation when both are ``str``."""
    if type(id) is not str or type(delta) is not str:
        return ReasoningDeltaEvent(id=id, delta=delta)
    state = {
        "type": "reasoning-delta",
        "id": id,
        "delta": delta,
        "signature": None,
        "provider_metadata": None,
    }
    return built(ReasoningDeltaEvent, state, {"id", "delta"}, None)


def parse_event(data: str | bytes | dict[str, Any]) -> StreamEvent:
    """Validate one event from JSON text or a dict."""
    if isinstance(data, dict):
        return _EVENT_ADAPTER.validate_python(data)
    return _EVENT_ADAPTER.validate_json(data)
