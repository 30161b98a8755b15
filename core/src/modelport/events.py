"""Stream events and the accumulator that turns an event stream into a :class:`~modelport.types.Result`.

Events form a discriminated union on ``type``; the kebab-case tags are wire format and never renamed.
Each ``*-start`` / ``*-delta`` / ``*-end`` triple shares an ``id``. A well-formed stream is
``stream-start``, then content events, then exactly one ``finish`` (or an ``error``), last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._contract.event_types import (
    ErrorEvent,
    FileEvent,
    FinishEvent,
    PartialObjectEvent,
    ReasoningDeltaEvent,
    ReasoningEndEvent,
    ReasoningStartEvent,
    ResponseMetadataEvent,
    StreamEvent,
    StreamStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallEvent,
    ToolCallStartEvent,
    ToolResultEvent,
    parse_event,
    reasoning_delta,
    text_delta,
)
from .types import (
    CallWarning,
    Origin,
    Part,
    ProviderMetadata,
    ReasoningPart,
    Result,
    TextPart,
    ToolCallPart,
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

    @property
    def open_parts(self) -> bool:
        """Whether a text, reasoning or tool-call part has started and not ended."""
        return bool(self._open)

    def close_open_parts(self) -> list[StreamEvent]:
        """The end events of the parts still open, in the order they started, each folded in (with
        a warning naming them): what a stream sends before its ``finish`` when the provider's end
        frames for those parts were lost, so a consumer never sees a part that does not end."""
        ends = {"text": TextEndEvent, "reasoning": ReasoningEndEvent, "tool-call": ToolCallEndEvent}
        parts = sorted(self._open.items(), key=lambda item: item[1].index)
        self._warnings.append(
            CallWarning(
                type="other",
                setting="stream",
                details="the stream finished while "
                + ", ".join(f"{part.kind} part {ident!r}" for ident, part in parts)
                + (" was" if len(parts) == 1 else " were")
                + " still open; closed with what had arrived",
            )
        )
        return [self.add(ends[part.kind](id=ident)) for ident, part in parts]

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
