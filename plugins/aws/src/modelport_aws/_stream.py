"""Bedrock ConverseStream events → modelport events, and a whole Converse answer through the same
decoder: :func:`._frames.answer_frames` turns a Converse response into the frames its stream would
have sent, so generate and stream are mapped by one path and cannot disagree.

A frame is the kit's AWS event-stream frame (:mod:`modelport.http.event_stream`):
``{"event": <event type>, "data": <payload>}``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from modelport import events as ev
from modelport.types import Usage

from ._citations import Span, sources_and_citations

__all__ = ["FINISH", "ConverseStream", "usage"]

#: Converse ``stopReason`` → the neutral finish reason.
FINISH: dict[str, Any] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool-calls",
    "content_filtered": "content-filter",
    "guardrail_intervened": "content-filter",
}


def usage(raw: dict[str, Any] | None) -> Usage:
    """Converse ``usage`` → :class:`Usage`. Bedrock's ``inputTokens`` leaves out the cache reads
    and writes (its ``totalTokens`` adds them): ``input_tokens`` is the whole bill, so they are
    added back, and kept as its parts."""
    get = (raw or {}).get
    read, write, uncached = get("cacheReadInputTokens"), get("cacheWriteInputTokens"), get("inputTokens")
    total_input = None if uncached is None else uncached + (read or 0) + (write or 0)
    return Usage(
        input_tokens=total_input,
        output_tokens=get("outputTokens"),
        total_tokens=get("totalTokens"),
        cache_read_input_tokens=read,
        cache_write_input_tokens=write,
    )


class ConverseStream:
    """One stream's decoder: text, reasoning and tool-use blocks by their ``contentBlockIndex``.

    A reasoning block's text arrives in ``reasoningContent.text`` deltas and its signature in a
    ``reasoningContent.signature`` delta; redacted reasoning in a ``redactedContent`` delta, kept
    as ``provider_metadata["bedrock"]["redacted_content"]`` of the part (replayed as it came).
    A guardrail's ``trace`` (in ``metadata``) is ``provider_metadata["bedrock"]["trace"]``.
    A text block's ``citation`` deltas make it a cited span (:mod:`._citations`); ``origins`` is
    where each of the request's document blocks came from (the request's ``context``).
    """

    def __init__(self, origins: Sequence[int | None] = ()) -> None:
        self.origins = origins
        self.offset = 0  # characters of answer text so far
        self.starts: dict[int, int] = {}  # text block index → its first character
        self.cited: dict[int, list[Any]] = {}
        self.spans: list[Span] = []
        self.open: dict[int, str] = {}  # block index → "text" | "tool" | "reasoning"
        self.signatures: dict[int, str] = {}
        self.redacted: dict[int, str] = {}
        self.reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self.metadata: dict[str, Any] = {}

    def feed(self, frame: dict[str, Any]) -> Iterator[ev.StreamEvent]:
        kind, data = frame["event"], frame["data"]
        if kind == "contentBlockStart":
            tool = (data.get("start") or {}).get("toolUse")
            if tool is not None:
                index = data["contentBlockIndex"]
                self.open[index] = "tool"
                yield ev.ToolCallStartEvent(id=f"b{index}", call_id=tool["toolUseId"], name=tool["name"])
        elif kind == "contentBlockDelta":
            yield from self._delta(data["contentBlockIndex"], data["delta"])
        elif kind == "contentBlockStop":
            yield from self._stop(data["contentBlockIndex"])
        elif kind == "messageStop":
            self.reason = data["stopReason"]
        elif kind == "metadata":
            self.usage = data.get("usage")
            self.metadata = {key: data[key] for key in ("metrics", "trace") if data.get(key)}
        # messageStart carries only the role; an event kind newer than this decoder is skipped.

    def _delta(self, index: int, delta: dict[str, Any]) -> Iterator[ev.StreamEvent]:
        if "text" in delta or "citation" in delta:
            if index not in self.open:
                self.open[index] = "text"
                self.starts[index] = self.offset
                yield ev.TextStartEvent(id=f"b{index}")
            if delta.get("citation"):
                self.cited.setdefault(index, []).append(delta["citation"])
            if delta.get("text"):
                self.offset += len(delta["text"])
                yield ev.TextDeltaEvent(id=f"b{index}", delta=delta["text"])
        elif "reasoningContent" in delta:
            yield from self._reasoning(index, delta["reasoningContent"])
        elif "toolUse" in delta:
            if self.open.get(index) != "tool":
                raise ValueError(f"a toolUse delta for block {index}, which no toolUse started")
            fragment = delta["toolUse"].get("input") or ""
            if fragment:
                yield ev.ToolCallDeltaEvent(id=f"b{index}", delta=fragment)

    def _reasoning(self, index: int, delta: dict[str, Any]) -> Iterator[ev.StreamEvent]:
        if self.open.get(index) != "reasoning":
            if index in self.open:
                raise ValueError(f"a reasoningContent delta for block {index}, a {self.open[index]} block")
            self.open[index] = "reasoning"
            yield ev.ReasoningStartEvent(id=f"b{index}")
        if delta.get("text"):
            yield ev.ReasoningDeltaEvent(id=f"b{index}", delta=delta["text"])
        if delta.get("signature"):
            self.signatures[index] = delta["signature"]
        if delta.get("redactedContent"):
            self.redacted[index] = self.redacted.get(index, "") + delta["redactedContent"]

    def _stop(self, index: int) -> Iterator[ev.StreamEvent]:
        kind = self.open.pop(index, None)
        if kind == "reasoning":
            redacted = self.redacted.pop(index, None)
            metadata = {"bedrock": {"redacted_content": redacted}} if redacted else None
            yield ev.ReasoningEndEvent(
                id=f"b{index}", signature=self.signatures.pop(index, None), provider_metadata=metadata
            )
        elif kind == "text":
            cited = self.cited.pop(index, None)
            if cited:
                self.spans.append((self.starts[index], self.offset, cited))
            yield ev.TextEndEvent(id=f"b{index}")
        elif kind == "tool":
            yield ev.ToolCallEndEvent(id=f"b{index}")

    def finish(self) -> Iterator[ev.StreamEvent]:
        for index in sorted(self.open):
            yield from self._stop(index)
        if self.reason is not None:
            sources, citations = sources_and_citations(self.spans, self.origins)
            yield ev.FinishEvent(
                sources=sources,
                citations=citations,
                finish_reason=FINISH.get(self.reason, "other"),
                raw_finish_reason=self.reason,
                usage=usage(self.usage),
                provider_metadata={"bedrock": self.metadata} if self.metadata else {},
            )
