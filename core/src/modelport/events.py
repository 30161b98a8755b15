"""Stream events and the accumulator that turns an event stream into a :class:`~modelport.types.Result`.

Events form a discriminated union on ``type``; the kebab-case tags are wire format and never renamed.
Each ``*-start`` / ``*-delta`` / ``*-end`` triple shares an ``id``. A well-formed stream is
``stream-start``, then content events, then exactly one ``finish`` (or an ``error``), last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ._content import built
from ._results import deprecated_grounding, moved_grounding
from .types import (
    CallWarning,
    Citation,
    FilePart,
    FinishReason,
    Origin,
    Part,
    ProviderMetadata,
    ReasoningPart,
    Result,
    Source,
    TextPart,
    TokenLogprob,
    ToolCallPart,
    ToolResultPart,
    Usage,
)

__all__ = [
    "ErrorEvent",
    "FileEvent",
    "FinishEvent",
    "PartialObjectEvent",
    "ReasoningDeltaEvent",
    "ReasoningEndEvent",
    "ReasoningStartEvent",
    "ResponseMetadataEvent",
    "StreamAccumulator",
    "StreamEvent",
    "StreamStartEvent",
    "TextDeltaEvent",
    "TextEndEvent",
    "TextStartEvent",
    "ToolCallDeltaEvent",
    "ToolCallEndEvent",
    "ToolCallEvent",
    "ToolCallStartEvent",
    "ToolResultEvent",
    "accumulate",
    "parse_event",
    "reasoning_delta",
    "text_delta",
    "tool_call_part",
]


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


def _merge_metadata(
    current: ProviderMetadata | None, extra: ProviderMetadata | None
) -> ProviderMetadata | None:
    if not extra:
        return current
    merged = {k: dict(v) for k, v in (current or {}).items()}
    for provider, values in extra.items():
        merged.setdefault(provider, {}).update(values)
    return merged


class _OpenPart:
    __slots__ = ("call_id", "chunks", "index", "kind", "metadata", "name", "signature")

    def __init__(self, kind: str, index: int, metadata: ProviderMetadata | None) -> None:
        self.kind = kind
        self.index = index
        self.chunks: list[str] = []
        self.signature: str | None = None
        self.metadata = metadata
        self.call_id = ""
        self.name = ""


class StreamAccumulator:
    """Folds stream events into the :class:`Result` a non-streaming call would return.

    Text is collected as chunk lists and joined once, so accumulation is linear in the stream's
    length. :meth:`snapshot` gives the partial result at any point (used for interrupted streams).
    """

    def __init__(self, *, origin: Origin | None = None, warnings: Sequence[CallWarning] = ()) -> None:
        """``origin`` is stamped on the result and ``warnings`` (the request's) come first in it."""
        self._slots: list[Part | _OpenPart] = []
        self._open: dict[str, _OpenPart] = {}
        self._warnings: list[CallWarning] = list(warnings)
        self._origin = origin
        self._response_id: str | None = None
        self._model_version: str | None = None
        self._finish: FinishEvent | None = None
        self.events = 0

    @property
    def finished(self) -> bool:
        """Whether a ``finish`` event has been seen."""
        return self._finish is not None

    def add(self, event: StreamEvent) -> StreamEvent:
        """Fold one event in; returns it as a consumer should see it: a ``tool-call-end`` without
        its ``part`` comes back with the whole call, every other event as it is."""
        self.events += 1
        if type(event) is TextDeltaEvent:  # the hot path, once a frame: skip the match below
            part = self._open[event.id]
            part.chunks.append(event.delta)
            if event.provider_metadata:
                part.metadata = _merge_metadata(part.metadata, event.provider_metadata)
            return event
        match event:
            case StreamStartEvent():
                self._warnings.extend(event.warnings)
            case ResponseMetadataEvent():
                self._response_id = event.response_id or self._response_id
                self._model_version = event.model_version or self._model_version
            case TextStartEvent() | ReasoningStartEvent():
                kind = "text" if isinstance(event, TextStartEvent) else "reasoning"
                part = _OpenPart(kind, len(self._slots), event.provider_metadata)
                self._open[event.id] = part
                self._slots.append(part)
            case TextDeltaEvent() | ReasoningDeltaEvent():
                part = self._open[event.id]
                part.chunks.append(event.delta)
                part.metadata = _merge_metadata(part.metadata, event.provider_metadata)
                if isinstance(event, ReasoningDeltaEvent) and event.signature is not None:
                    part.signature = event.signature
            case TextEndEvent() | ReasoningEndEvent():
                part = self._open.pop(event.id)
                part.metadata = _merge_metadata(part.metadata, event.provider_metadata)
                if isinstance(event, ReasoningEndEvent) and event.signature is not None:
                    part.signature = event.signature
                self._slots[part.index] = _closed(part)
            case ToolCallStartEvent():
                part = _OpenPart("tool-call", len(self._slots), event.provider_metadata)
                part.call_id, part.name = event.call_id, event.name
                self._open[event.id] = part
                self._slots.append(part)
            case ToolCallDeltaEvent():
                self._open[event.id].chunks.append(event.delta)
            case ToolCallEndEvent():
                return self._end_call(event)
            case ToolCallEvent() | ToolResultEvent() | FileEvent():
                self._slots.append(event.part)
            case FinishEvent():
                self._finish = event
            case ErrorEvent():
                pass
        return event

    def _end_call(self, event: ToolCallEndEvent) -> ToolCallEndEvent:
        part = self._open.pop(event.id)
        if event.part is not None:  # the whole call as the decoder (or a stored stream) gave it
            self._slots[part.index] = call = event.part
            raw = (call.provider_metadata or {}).get("modelport", {}).get("raw_args")
            if isinstance(raw, str):  # the warning the call had when it was first assembled
                warning = tool_call_part(call.id, call.name, raw)[1]
                self._warnings += [warning] if warning is not None else []
            return event
        part.metadata = _merge_metadata(part.metadata, event.provider_metadata)
        call, warning = tool_call_part(part.call_id, part.name, "".join(part.chunks), part.metadata)
        if warning is not None:
            self._warnings.append(warning)
        self._slots[part.index] = call
        return ToolCallEndEvent(id=event.id, provider_metadata=event.provider_metadata, part=call)

    def snapshot(self) -> Result:
        """The result so far; open parts are included with the text received."""
        content = [_closed(s) if isinstance(s, _OpenPart) else s for s in self._slots]
        finish = self._finish
        if finish is None:
            return Result(
                content=content,
                finish_reason="error",
                warnings=list(self._warnings),
                response_id=self._response_id,
                model_version=self._model_version,
                origin=self._origin,
            )
        return Result(
            content=content,
            finish_reason=finish.finish_reason,
            raw_finish_reason=finish.raw_finish_reason,
            usage=finish.usage,
            warnings=[*self._warnings, *finish.warnings],
            provider_metadata=finish.provider_metadata,
            sources=finish.sources,
            citations=finish.citations,
            response_id=self._response_id,
            model_version=self._model_version,
            replay=finish.replay,
            logprobs=finish.logprobs,
            origin=self._origin,
        )

    def result(self) -> Result:
        """The final result; call after the ``finish`` event."""
        return self.snapshot()


def _closed(part: _OpenPart) -> Part:
    text = "".join(part.chunks)
    if part.kind == "text":
        return TextPart(text=text, provider_metadata=part.metadata)
    if part.kind == "reasoning":
        return ReasoningPart(text=text, signature=part.signature, provider_metadata=part.metadata)
    return tool_call_part(part.call_id, part.name, text, part.metadata)[0]


def tool_call_part(
    call_id: str, name: str, arguments: str | dict[str, Any], metadata: ProviderMetadata | None = None
) -> tuple[ToolCallPart, CallWarning | None]:
    """A function call from its arguments, as every decoder and the stream build it (one form).

    ``arguments`` is the call's JSON text (empty text is no arguments) or an already decoded JSON
    object. Text that is not a JSON object leaves ``args`` empty and is kept in
    ``provider_metadata["modelport"]["raw_args"]``; the warning returned then says so.
    """
    if isinstance(arguments, dict):
        return ToolCallPart(id=call_id, name=name, args=arguments, provider_metadata=metadata), None
    from .wire import loads

    problem: str | None
    try:
        args = loads(arguments) if arguments.strip() else {}
    except ValueError as error:
        args = None
        problem = f"not JSON ({error})"
    else:
        problem = None if isinstance(args, dict) else f"a JSON {type(args).__name__}, not an object"
    if problem is None:
        return ToolCallPart(id=call_id, name=name, args=args, provider_metadata=metadata), None
    # Nothing received is dropped: the raw text stays on the part for the caller to repair.
    kept = _merge_metadata(metadata, {"modelport": {"raw_args": arguments}})
    call = ToolCallPart(id=call_id, name=name, args={}, provider_metadata=kept)
    details = (
        f"the arguments of tool call {call_id!r} ({name}) are {problem}; "
        "args is empty and the text is in provider_metadata['modelport']['raw_args']"
    )
    return call, CallWarning(type="other", setting="tool_calls", details=details)


def accumulate(events: Any) -> Result:
    """Fold an iterable of events into a :class:`Result`."""
    acc = StreamAccumulator()
    for event in events:
        acc.add(event)
    return acc.result()
