"""Gemini stream frames → stream events, through the same part mapping as :mod:`._decode`.

Frames carry chunks of parts. Consecutive text chunks of one kind (thought or not) are merged into
one raw part unless a chunk carries a ``thoughtSignature``: a signed chunk always starts a new raw
part, so every signature stays on the part it arrived on (including empty signed text). The merged
raw parts are what a later turn replays, and their raw positions give the tool-call ids, exactly as
for a non-streamed response. :func:`merge_frames` applies the same rule to a list of frames, so a
stream's accumulated result equals :func:`~._decode.decode_response` of its merged frames.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from modelport.errors import ProviderMetadataError, ProviderResponseError
from modelport.events import (
    FileEvent,
    FinishEvent,
    ReasoningDeltaEvent,
    ReasoningEndEvent,
    ReasoningStartEvent,
    ResponseMetadataEvent,
    StreamEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallEvent,
    ToolCallStartEvent,
    ToolResultEvent,
    reasoning_delta,
    text_delta,
)
from modelport.types import FilePart, ReasoningPart, TextPart, ToolCallPart, ToolResultPart

from ._decode import (
    MALFORMED,
    blocked_reason,
    candidate_metadata,
    candidate_parts,
    finish_reason,
    first_candidate,
    grounding_fields,
    guarded,
    logprobs_from,
    malformed,
    server_tool_calls,
    string_or_none,
    text_of,
    usage_from,
)
from ._frames import FrameState, part_kind
from ._partial_args import StreamedCall, is_closer, is_fragment
from ._parts import _TEXT_KEYS, PartMapper, answered_calls, is_text_chunk, signature_metadata
from ._replay import replay_metadata

if TYPE_CHECKING:
    from ._wire import GenerateContentResponse
    from ._wire import Part as WirePart

__all__ = ["StreamDecoder", "merge_frames"]


def merge_frames(frames: Iterable[dict[str, Any]], *, provider: str = "google") -> dict[str, Any]:
    """One ``generateContent``-shaped response from stream frames, merged as the stream merges them.

    Malformed frames raise :class:`ProviderResponseError`, never a bare ``TypeError``.
    """
    try:
        return _merge_frames(frames, provider)
    except (TypeError, AttributeError, KeyError, IndexError) as error:
        raise ProviderResponseError(
            f"cannot merge stream frames: {type(error).__name__}: {error}", provider=provider
        ) from None


def _merge_frames(frames: Iterable[dict[str, Any]], provider: str) -> dict[str, Any]:
    state = FrameState(provider)
    parts: list[dict[str, Any]] = []
    open_text = False
    streamed: StreamedCall | None = None  # a call whose arguments stream (partialArgs), at parts[-1]
    for frame in frames:
        candidate = first_candidate(frame)
        for raw in candidate_parts(candidate):
            if is_fragment(raw):
                if streamed is None:
                    if is_closer(raw):
                        continue  # nothing open to close
                    streamed = StreamedCall(raw)
                    parts.append({})
                streamed.add(raw)
                parts[-1] = streamed.raw_part()
                streamed = None if streamed.done else streamed
                open_text = False
                continue
            streamed = None  # any other part ends a streamed call
            if is_text_chunk(raw):
                signed = "thoughtSignature" in raw
                if open_text and not signed and part_kind(parts[-1]) == part_kind(raw):
                    parts[-1] = {**parts[-1], "text": parts[-1]["text"] + raw["text"]}
                    continue
                if not raw["text"] and not signed:
                    continue
                parts.append(dict(raw))
                open_text = True
            else:
                parts.append(dict(raw))
                open_text = False
        state.add(frame, candidate)
    merged_candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, **state.candidate}
    grounding = state.grounding_result()
    if grounding is not None:
        merged_candidate["groundingMetadata"] = grounding
    if state.logprobs is not None:
        merged_candidate["logprobsResult"] = state.logprobs
    return {"candidates": [merged_candidate], **state.response}


class StreamDecoder:
    """Incremental frame → event mapping for one stream. Feed frames, then call :meth:`finish`."""

    def __init__(self, *, provider: str = "google") -> None:
        self.provider = provider
        self._state = FrameState(provider)
        self._raw: list[dict[str, Any]] = []
        self._chunks: dict[int, list[str]] = {}  # text chunks of merged raw text parts, joined once
        self._mapper = PartMapper()
        # kind, event id, raw part, its text chunks (the list in _chunks)
        self._open: tuple[str, str, dict[str, Any], list[str]] | None = None
        # From the first function call on, events are held until the end of the stream: a call the
        # server answers later in the same turn (server-side MCP tools) is provider-executed.
        self._held: list[StreamEvent] | None = None
        # held index of a call's start → (raw position, call, how many events it has)
        self._held_calls: dict[int, tuple[int, ToolCallPart, int]] = {}
        self._streamed: tuple[StreamedCall, str, int] | None = None  # partialArgs call: ident, start
        self._next_id = 0
        self._sent_id: str | None = None  # responseId: the first one wins, as in merge_frames
        self._sent_version: str | None = None  # modelVersion: the latest one wins

    def feed(self, frame: GenerateContentResponse) -> list[StreamEvent]:
        """The events for one parsed frame."""
        try:  # guarded(), without a closure for every frame
            return self._feed(frame)
        except (ProviderResponseError, ProviderMetadataError):
            raise
        except MALFORMED as error:
            raise malformed(self.provider, error) from None

    def _feed(self, frame: GenerateContentResponse) -> list[StreamEvent]:
        if not isinstance(frame, dict):
            raise TypeError("a stream frame must be an object")
        events: list[StreamEvent] = []
        # Either field may first arrive in a later frame: send each as soon as it is new.
        response_id = string_or_none(frame.get("responseId")) if self._sent_id is None else None
        version = frame.get("modelVersion")
        if version == self._sent_version or not isinstance(version, str):
            version = None
        if response_id or version:
            self._sent_id = response_id or self._sent_id
            self._sent_version = version or self._sent_version
            events.append(ResponseMetadataEvent(response_id=response_id, model_version=version))
        candidate = first_candidate(frame)
        if candidate is not None:
            content = candidate.get("content")
            parts = content.get("parts") if type(content) is dict else None
            if type(parts) is not list or len(parts) != 1 or type(parts[0]) is not dict:
                parts = candidate_parts(candidate)  # checks every part (the usual frame has one)
            if parts:
                for raw in parts:
                    into = events if self._held is None else self._held  # a call starts holding
                    text = raw.get("text")
                    # The hot path, once a frame: more text of the part being streamed.
                    if (
                        self._open is not None
                        and isinstance(text, str)
                        and raw.keys() <= _TEXT_KEYS  # with the str test: is_text_chunk(raw)
                        and "thoughtSignature" not in raw
                        and self._open[0] == part_kind(raw)
                    ):
                        if text:
                            kind, ident, _, chunks = self._open
                            chunks.append(text)
                            delta = text_delta if kind == "text" else reasoning_delta
                            into.append(delta(ident, text))
                        continue
                    self._part(raw, into)
        self._state.add(frame, candidate)
        return events

    def _close(self, events: list[StreamEvent]) -> None:
        if self._open is None:
            return
        kind, ident, raw, _ = self._open
        self._open = None
        if kind == "text":
            events.append(TextEndEvent(id=ident))
        else:
            signature = raw.get("thoughtSignature")
            signature = signature if isinstance(signature, str) else None
            events.append(ReasoningEndEvent(id=ident, signature=signature))

    def _new_id(self) -> str:
        self._next_id += 1
        return str(self._next_id - 1)

    def _part(self, raw: WirePart, events: list[StreamEvent]) -> None:
        if is_fragment(raw):
            self._fragment(raw, events)
            return
        if self._streamed is not None:
            self._end_streamed()  # any other part ends a call whose arguments streamed
        if is_text_chunk(raw):
            # More text of the open part never gets here: ``_feed`` takes it on its hot path.
            kind, text, signed = part_kind(raw), raw["text"], "thoughtSignature" in raw
            if not text and not signed:
                return
            self._close(events)
            stored = dict(raw)
            self._raw.append(stored)
            chunks = self._chunks[len(self._raw) - 1] = [text]
            self._mapper.position += 1
            ident = self._new_id()
            self._open = (kind, ident, stored, chunks)
            if kind == "text":
                events.append(TextStartEvent(id=ident, provider_metadata=signature_metadata(raw)))
                if text:
                    events.append(TextDeltaEvent(id=ident, delta=text))
            else:
                events.append(ReasoningStartEvent(id=ident))
                if text:
                    events.append(ReasoningDeltaEvent(id=ident, delta=text))
            return
        self._close(events)
        if "functionCall" in raw and self._held is None:
            self._held = events = []
        self._raw.append(dict(raw))
        part = self._mapper.map(raw)
        match part:
            case ToolCallPart() if not part.provider_executed:
                # A function call arrives whole; it is sent as the start/delta/end triple every
                # provider uses for calls whose arguments stream in fragments.
                self._held_calls[len(events)] = (len(self._raw) - 1, part, 3)
                ident = self._new_id()
                metadata = part.provider_metadata
                events.append(
                    ToolCallStartEvent(id=ident, call_id=part.id, name=part.name, provider_metadata=metadata)
                )
                events.append(ToolCallDeltaEvent(id=ident, delta=json.dumps(part.args, ensure_ascii=False)))
                events.append(ToolCallEndEvent(id=ident))
            case ToolCallPart():
                events.append(ToolCallEvent(part=part))
            case ToolResultPart():
                events.append(ToolResultEvent(part=part))
            case TextPart():
                ident = self._new_id()
                events.append(TextStartEvent(id=ident, provider_metadata=part.provider_metadata))
                events.append(TextDeltaEvent(id=ident, delta=part.text))
                events.append(TextEndEvent(id=ident))
            case ReasoningPart():
                ident = self._new_id()
                events.append(ReasoningStartEvent(id=ident))
                events.append(ReasoningDeltaEvent(id=ident, delta=part.text))
                events.append(ReasoningEndEvent(id=ident, signature=part.signature))
            case FilePart():
                events.append(FileEvent(part=part))  # e.g. a generated image (responseModalities)
            case _:
                pass  # unknown parts are kept for replay only

    def _fragment(self, raw: WirePart, events: list[StreamEvent]) -> None:
        """A piece of a call whose arguments stream: start it, then one delta per piece (held, as
        every call is, until the stream shows whether the server answered it)."""
        if self._streamed is None:
            if is_closer(raw):
                return  # nothing open to close
            self._close(events)
            if self._held is None:
                self._held = []  # from the first call on, events are held (see __init__)
            held = self._held
            call = StreamedCall(raw)
            ident = self._new_id()
            wire_id = call.id or f"call-{len(self._raw)}"  # the raw position the whole call will have
            metadata = signature_metadata(raw)
            self._streamed = (call, ident, len(held))
            held.append(
                ToolCallStartEvent(id=ident, call_id=wire_id, name=call.name, provider_metadata=metadata)
            )
        call, ident, _ = self._streamed
        text = call.add(raw)
        if text:
            (self._held or []).append(ToolCallDeltaEvent(id=ident, delta=text))
        if call.done:
            self._end_streamed()

    def _end_streamed(self) -> None:
        assert self._streamed is not None and self._held is not None
        (call, ident, start), held = self._streamed, self._held
        self._streamed = None
        text = call.close()
        if text:
            held.append(ToolCallDeltaEvent(id=ident, delta=text))
        self._raw.append(call.raw_part())
        part = self._mapper.map(self._raw[-1])
        assert isinstance(part, ToolCallPart)
        self._held_calls[start] = (len(self._raw) - 1, part, len(held) + 1 - start)
        # The whole call goes on the end: the arguments object decides should the pieces' order
        # (document order, as sent) ever not give it as text.
        held.append(ToolCallEndEvent(id=ident, part=part))

    def raw_parts(self) -> list[dict[str, Any]]:
        """The merged raw parts so far (text chunks joined)."""
        for index, chunks in self._chunks.items():
            if len(chunks) > 1:
                joined = "".join(chunks)
                self._raw[index]["text"] = joined
                chunks[:] = [joined]  # in place: the open part's chunks are this list
        return self._raw

    def finish(self) -> list[StreamEvent]:
        """Close what is open and, when the stream said how it finished, the ``finish`` event.

        A stream that ended without a finish reason (or a blocked prompt) gets no ``finish`` event,
        so the core reports it as interrupted with everything that arrived.
        """
        return guarded(self.provider, self._finish)

    def flush(self) -> list[StreamEvent]:
        """The events held back when the stream breaks (the kit calls this before raising), as they
        are known so far: nothing received is lost from the error's ``partial``."""
        if self._held is None:
            return []
        self._close(self._held)
        return self._release(answered_calls(self.raw_parts()))

    def _release(self, answered: frozenset[int]) -> list[StreamEvent]:
        """The held events, with each call the server answered in the turn as one provider-executed
        ``tool-call`` event instead of a start/delta/end triple."""
        held, self._held = self._held or [], None
        events: list[StreamEvent] = []
        skip = 0
        for index, event in enumerate(held):
            if skip:
                skip -= 1
                continue
            call = self._held_calls.get(index)
            if call is not None and call[0] in answered:
                events.append(ToolCallEvent(part=call[1].model_copy(update={"provider_executed": True})))
                skip = call[2] - 1
            else:
                events.append(event)
        return events

    def _finish(self) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        state = self._state
        raw_reason = string_or_none(state.candidate.get("finishReason"))
        blocked = blocked_reason(state.response) if raw_reason is None else None
        if self._streamed is not None and (raw_reason or blocked):
            self._end_streamed()  # a call still streaming when the stream was cut stays open
        self._close(events if self._held is None else self._held)
        raw_parts = self.raw_parts()
        answered = answered_calls(raw_parts)
        events.extend(self._release(answered))
        has_calls = any(position not in answered for position, _, _ in self._held_calls.values())
        if raw_reason is None and blocked is None:
            return events
        reason = "content-filter" if blocked is not None else finish_reason(raw_reason, has_calls)
        replay, replay_warning = replay_metadata(raw_parts)
        warnings = [replay_warning] if replay_warning is not None else []
        google = candidate_metadata(state.candidate, state.response)
        fields: dict[str, Any] = {}
        grounding = state.grounding_result()
        if grounding is not None:
            validated, sources, citations, extra = grounding_fields(
                grounding, text_of(raw_parts), provider=self.provider
            )
            google["groundingMetadata"] = validated
            fields = {"sources": sources, "citations": citations}
            warnings.extend(extra)
        events.append(
            FinishEvent(
                finish_reason=reason,  # type: ignore[arg-type]
                raw_finish_reason=blocked or raw_reason,
                usage=usage_from(
                    state.response.get("usageMetadata"),
                    server_tool_calls=server_tool_calls(raw_parts, grounding, state.candidate),
                ),
                provider_metadata={"google": google} if google else {},
                warnings=warnings,
                replay=replay,
                logprobs=logprobs_from(state.logprobs),
                **fields,
            )
        )
        return events
