"""Messages API stream events → stream events, and stream events → the ``message`` body a
non-streamed call returns (:func:`merge_frames`, for the conformance suite).

Frames arrive as ``message_start``, then per content block ``content_block_start``, its
``content_block_delta`` frames (``text_delta``, ``thinking_delta``, ``signature_delta``,
``input_json_delta``, ``citations_delta``) and ``content_block_stop``, then ``message_delta``
(stop reason, matched stop sequence, final usage) and ``message_stop``; ``ping`` carries nothing.
Their types are in :mod:`._wire` (a closed union on ``type``, matched here); an event or delta type
newer than this decoder is skipped, as the API's versioning policy asks, and a frame without a type
is malformed (a typed error, through the core's decoder guard).
Blocks that arrive whole in ``content_block_start`` (``redacted_thinking``, server-tool results)
are mapped by :func:`._blocks.block_part`, as a non-streamed body's blocks are.

A stream is complete at ``message_stop`` after ``message_start`` and ``message_delta`` (the
provider's ``stream_end``, enforced by the kit): a stream cut before gets no ``finish`` event, and
the core raises ``StreamInterruptedError`` with what had arrived. Nothing received is lost on the
way: a block still open at ``message_stop`` is closed (a thinking block keeps its signature, a tool
call whose ``input_json_delta`` never completed keeps its raw text with a warning); a text or
thinking delta for a block that never started opens one, with a warning; a ``tool_use`` whose start
carries its whole ``input`` and no deltas streams that input as its arguments. An ``event: error``
frame (``overloaded_error`` mid-stream) is raised by the core's SSE parser, typed by its error
table, with the partial result.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from modelport import events as ev
from modelport import wire
from modelport.errors import ProviderResponseError
from modelport.types import CallWarning

from ._blocks import (
    block_part,
    finish_reason,
    is_code_run,
    is_result_block,
    message_metadata,
    text_metadata,
    usage,
)
from ._citations import Span, sources_and_citations

if TYPE_CHECKING:
    from typing_extensions import assert_never

    from ._wire import ContentBlockDelta, Delta, Frame

__all__ = ["MessageStream", "merge_frames"]


class _Block:
    __slots__ = ("citations", "deltas", "id", "json", "kind", "raw", "signature", "start")

    def __init__(self, kind: str, ident: str, raw: Mapping[str, Any]) -> None:
        self.kind = kind
        self.id = ident
        self.raw = raw
        self.json: list[str] = []
        self.citations: list[Any] = []
        self.signature: str | None = raw.get("signature") or None
        self.start = 0  # a text block's offset in the answer text
        self.deltas = False  # whether a tool call's arguments came in input_json_delta frames


#: The block kind each content delta writes to: a delta for a block that never started opens one.
_DELTA_BLOCKS = {"text_delta": "text", "thinking_delta": "thinking"}
#: Block kinds this decoder maps (a delta for a block of another kind is not content of it).
_KNOWN = frozenset({"text", "thinking", "tool_use", "answer", "redacted_thinking"})


def _merge_usage(into: dict[str, Any], raw: Any) -> None:
    if isinstance(raw, dict):
        into.update({key: value for key, value in raw.items() if value is not None})


class MessageStream:
    """One stream's decoder: ``feed`` each parsed frame, then ``finish``."""

    def __init__(self, answer_tool: str | None = None) -> None:
        self.answer_tool = answer_tool  # response_format's forced tool: its input streams as text
        self.message: dict[str, Any] = {}
        self.usage: dict[str, Any] = {}
        self.blocks: dict[int, _Block] = {}
        self.starts: dict[str, int] = {}  # how often each part id was given out
        self.offset = 0  # the length of the answer text so far
        self.spans: list[Span] = []
        self.code_runs = 0  # code execution result blocks: Anthropic's usage does not count them
        self.ended = False
        self.warnings: list[CallWarning] = []

    def feed(self, frame: Frame) -> list[ev.StreamEvent]:
        match frame["type"]:
            case "content_block_delta":
                return self._delta(frame)
            case "content_block_start":
                return self._start(frame.get("index", 0), frame.get("content_block") or {})
            case "content_block_stop":
                return self._stop(frame.get("index", 0))
            case "message_start":
                self.message = dict(frame.get("message") or {})
                _merge_usage(self.usage, self.message.get("usage"))
                ident = self.message.get("id")
                if ident:
                    model = self.message.get("model")
                    return [ev.ResponseMetadataEvent(response_id=ident, model_version=model)]
            case "message_delta":
                self.message.update({k: v for k, v in (frame.get("delta") or {}).items() if v is not None})
                _merge_usage(self.usage, frame.get("usage"))
            case "message_stop":
                self.ended = True
            case "ping":
                pass
            case _:
                if TYPE_CHECKING:
                    assert_never(frame)
                # An event type newer than this decoder: skipped, as the API's versioning asks.
        return []

    def _start(self, index: int, raw: Mapping[str, Any]) -> list[ev.StreamEvent]:
        kind = str(raw.get("type", ""))
        if kind == "tool_use" and self.answer_tool is not None and raw.get("name") == self.answer_tool:
            kind = "answer"
        block = self.blocks[index] = _Block(kind, self._part_id(f"{kind}-{index}"), raw)
        if kind == "answer":
            return [ev.TextStartEvent(id=block.id)]
        if kind == "text":
            out: list[ev.StreamEvent] = [ev.TextStartEvent(id=block.id)]
            block.start = self.offset
            if raw.get("text"):
                self.offset += len(raw["text"])
                out.append(ev.text_delta(block.id, raw["text"]))
            block.citations += raw.get("citations") or []
            return out
        if kind == "thinking":
            out = [ev.ReasoningStartEvent(id=block.id)]
            if raw.get("thinking"):
                out.append(ev.reasoning_delta(block.id, raw["thinking"]))
            return out
        if kind == "tool_use":
            return [
                ev.ToolCallStartEvent(id=block.id, call_id=raw.get("id") or "", name=raw.get("name") or "")
            ]
        if kind == "redacted_thinking":
            part, _ = block_part(raw)
            metadata = part.provider_metadata if part is not None else None
            return [
                ev.ReasoningStartEvent(id=block.id, provider_metadata=metadata),
                ev.ReasoningEndEvent(id=block.id),
            ]
        if is_result_block(kind):
            self.code_runs += is_code_run(kind)
            part, _ = block_part(raw)
            return [ev.ToolResultEvent(part=part)] if part is not None else []  # type: ignore[arg-type]
        return []  # server tool calls are sent whole at their stop; unknown blocks are skipped

    def _part_id(self, ident: str) -> str:
        """``ident``, or, for a block started again at an index whose part already began (a start
        repeated, or a delta after the block's stop), a new id: no event reaches a part that ended."""
        count = self.starts[ident] = self.starts.get(ident, 0) + 1
        return ident if count == 1 else f"{ident}-{count}"

    def _delta(self, frame: ContentBlockDelta) -> list[ev.StreamEvent]:
        index = frame.get("index", 0)
        block = self.blocks.get(index)
        delta = frame["delta"]
        opened: list[ev.StreamEvent] = []
        wanted = _DELTA_BLOCKS.get(delta["type"])
        if wanted is not None and (block is None or block.kind != wanted):
            if block is not None and block.kind in _KNOWN:
                opened = self._stop(index)  # a delta of another kind: that block ended, a new one began
            block, started = self._implicit(index, wanted)
            opened += started
        elif block is None:
            if delta["type"] == "input_json_delta":
                raise ProviderResponseError(
                    f"an input_json_delta arrived for content block {index}, which never started",
                    provider="anthropic",
                )
            return []
        return opened + self._content(block, delta)

    def _implicit(self, index: Any, kind: str) -> tuple[_Block, list[ev.StreamEvent]]:
        """The block a content delta writes to when none of its kind started at its index: opened
        now (its start was lost or unusable), so that no text is dropped."""
        self.warnings.append(
            CallWarning(
                type="other",
                setting="stream",
                details=f"a {kind} delta arrived for content block {index!r}, which never started as a "
                f"{kind} block; it was opened where the delta arrived",
            )
        )
        out = self._start(index, {"type": kind})
        return self.blocks[index], out

    def _content(self, block: _Block, delta: Delta) -> list[ev.StreamEvent]:
        match delta["type"]:
            case "text_delta":
                text = delta.get("text") or ""
                self.offset += len(text)
                return [ev.text_delta(block.id, text)]
            case "thinking_delta":
                return [ev.reasoning_delta(block.id, delta.get("thinking") or "")]
            case "signature_delta":
                block.signature = delta.get("signature") or block.signature
            case "input_json_delta":
                fragment = delta.get("partial_json") or ""
                if block.kind == "tool_use" and fragment:
                    block.deltas = True
                    return [ev.ToolCallDeltaEvent(id=block.id, delta=fragment)]
                if block.kind == "answer" and fragment:
                    block.json.append(fragment)
                    return [ev.text_delta(block.id, fragment)]
                block.json.append(fragment)
            case "citations_delta":
                if delta.get("citation") is not None:
                    block.citations.append(delta["citation"])
            case _:
                if TYPE_CHECKING:
                    assert_never(delta)
                # A delta type newer than this decoder: skipped, as the API's versioning asks.
        return []

    def _stop(self, index: int) -> list[ev.StreamEvent]:
        block = self.blocks.pop(index, None)
        if block is None:
            return []
        if block.kind == "text":
            self.spans.append((block.start, self.offset, block.citations))
            return [ev.TextEndEvent(id=block.id, provider_metadata=text_metadata(block.citations))]
        if block.kind == "answer":
            self.offset += len("".join(block.json))
            return [ev.TextEndEvent(id=block.id)]
        if block.kind == "thinking":
            return [ev.ReasoningEndEvent(id=block.id, signature=block.signature)]
        if block.kind == "tool_use":
            whole = block.raw.get("input")
            if not block.deltas and isinstance(whole, dict) and whole:
                # The whole input in the start and no deltas: the arguments, as a unary body has them.
                return [
                    ev.ToolCallDeltaEvent(id=block.id, delta=json.dumps(whole, ensure_ascii=False)),
                    ev.ToolCallEndEvent(id=block.id),
                ]
            return [ev.ToolCallEndEvent(id=block.id)]
        part, _ = block_part({**block.raw, "input": _json(block.json, block.raw.get("input"))})
        if part is None or part.type != "tool-call":
            return []
        return [ev.ToolCallEvent(part=part)]  # a server tool's call, whole: its input is complete now

    def finish(self) -> Iterator[ev.StreamEvent]:
        if not self.ended:
            return  # cut short: no finish event, so the core raises with what arrived
        for index in list(self.blocks):  # still open at message_stop: closed with what arrived
            yield from self._stop(index)
        raw = self.message.get("stop_reason")
        sources, citations = sources_and_citations(self.spans)
        yield ev.FinishEvent(
            finish_reason=finish_reason(raw, answered=self.answer_tool is not None),
            raw_finish_reason=raw,
            usage=usage(self.usage, code_runs=self.code_runs),
            provider_metadata=message_metadata(self.message, self.usage),
            sources=sources,
            citations=citations,
            warnings=self.warnings,
        )


def _json(fragments: list[str], default: Any) -> Any:
    text = "".join(fragments)
    if not text:
        return default or {}
    try:
        return wire.loads(text)
    except ValueError:  # wire.loads: every failure, deep nesting and NaN included, is one
        return {}


def merge_frames(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Stream frames → the ``message`` body a non-streamed call returns."""
    message: dict[str, Any] = {"content": []}
    blocks: dict[int, dict[str, Any]] = {}
    fragments: dict[int, list[str]] = {}
    for frame in frames:
        kind = frame.get("type")
        if kind == "message_start":
            message = {**frame.get("message", {}), "content": []}
            message["usage"] = dict(message.get("usage") or {})
        elif kind == "content_block_start":
            index = frame.get("index", 0)
            block = blocks[index] = dict(frame.get("content_block") or {})
            message["content"].append(block)
            fragments[index] = []
        elif kind == "content_block_delta":
            index = frame.get("index", 0)
            block, delta = blocks[index], frame.get("delta") or {}
            step = delta.get("type")
            if step == "text_delta":
                block["text"] = block.get("text", "") + delta.get("text", "")
            elif step == "thinking_delta":
                block["thinking"] = block.get("thinking", "") + delta.get("thinking", "")
            elif step == "signature_delta":
                block["signature"] = delta.get("signature")
            elif step == "input_json_delta":
                fragments[index].append(delta.get("partial_json") or "")
            elif step == "citations_delta":
                block["citations"] = [*(block.get("citations") or []), delta.get("citation")]
        elif kind == "content_block_stop":
            index = frame.get("index", 0)
            if "input" in blocks.get(index, {}) and fragments.get(index):
                blocks[index]["input"] = _json(fragments[index], {})
        elif kind == "message_delta":
            message.update({k: v for k, v in (frame.get("delta") or {}).items() if v is not None})
            _merge_usage(message.setdefault("usage", {}), frame.get("usage"))
    return message
