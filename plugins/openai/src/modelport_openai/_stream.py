"""Chat Completions chunks → stream events, and chunks → the body a non-streamed call returns.

Handles what real servers send: an empty ``id`` and ``model`` on Azure's first chunk, usage on the
last chunk with ``choices: []`` or on the finish chunk (DeepSeek, Groq under ``x_groq``, OpenRouter),
reasoning deltas under either name, refusal deltas, a tool call's id and name repeated in later
deltas (with ``name: ""`` on Mistral) that must not restart it, the whole call in one delta, its
arguments sent as a JSON object rather than text (taken as the arguments, as the unary decoder takes
them), a delta at a call's index with another call id (a new call, never merged into the first),
no ``finish_reason`` but a ``[DONE]``, and choices other than the first (``n > 1``), which are not
read. A stream is complete at ``[DONE]`` (the provider's ``stream_end``, which the kit enforces):
one that ends before it (the server cut it cleanly, even after a ``finish_reason``), or with no
chunk at all, gets no ``finish`` event, and the core raises ``StreamInterruptedError`` with what
had arrived, as for Gemini (Q3).
In-stream errors (``event: error``, a chunk with an ``error`` object) are raised by the core's SSE
parser before they reach the decoder; the stream's ``partial`` keeps what had arrived.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from modelport import events as ev
from modelport.types import TokenLogprob

from ._decode import (
    argument_text,
    finish_reason,
    logprobs,
    metadata,
    raw_usage,
    reasoning_text,
    refusal_metadata,
    usage,
)
from ._quirks import Quirks

if TYPE_CHECKING:
    from ._chat_wire import Chunk, ToolCallDelta

__all__ = ["ChatStream", "merge_frames"]

#: A delta with only these keys carries nothing but (possibly) text: the common chunk.
_PLAIN_DELTA_KEYS = frozenset({"content", "role"})
text_delta = ev.text_delta


class _Call:
    __slots__ = ("call_id", "id", "name", "pending", "started")

    def __init__(self, ident: str) -> None:
        self.id = ident
        self.call_id = ""
        self.name = ""
        self.started = False
        self.pending: list[str] = []


class ChatStream:
    """One stream's decoder: ``feed`` each parsed chunk, then ``finish``."""

    def __init__(self, *, quirks: Quirks, provider: str) -> None:
        self.quirks = quirks
        self.provider = provider
        self.response_id: str | None = None
        self.open: str | None = None  # "reasoning", "text" or "refusal": the part being streamed
        self.parts = 0
        self.calls: dict[int, _Call] = {}  # the call at each index now
        self.all_calls: list[_Call] = []  # every call, in the order they began
        self.chunks = 0
        self.ended = False  # the server sent its end marker ([DONE])
        self.reason: str | None = None
        self.usage: Any = None
        self.refusal: list[str] = []
        self.tokens: list[TokenLogprob] = []
        self.meta: dict[str, Any] = {}

    def done(self) -> None:
        """The stream ended with ``[DONE]`` (the core calls this; see ``StreamDecoder``)."""
        self.ended = True

    def feed(self, chunk: Chunk) -> list[ev.StreamEvent]:
        out: list[ev.StreamEvent] = []
        self.chunks += 1
        if self.response_id is None and chunk.get("id"):
            self.response_id = chunk["id"]
            out.append(
                ev.ResponseMetadataEvent(response_id=chunk["id"], model_version=chunk.get("model") or None)
            )
        meta = self.meta
        for key in ("system_fingerprint", "service_tier"):
            if key not in meta and chunk.get(key):
                meta[key] = chunk[key]  # the first one sent, as merge_frames keeps it
        if chunk.get("usage") is not None or "x_groq" in chunk:
            self.usage = raw_usage(chunk) or self.usage
        for choice in chunk.get("choices") or ():
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            content = delta.get("content")
            if delta.keys() <= _PLAIN_DELTA_KEYS and self.open == "text" and type(content) is str:
                # The hot path, once a chunk: more text of the text part being streamed.
                if content:
                    out.append(text_delta(f"text-{self.parts}", content))
            else:
                thought = reasoning_text(delta)
                if thought:
                    self._text(out, "reasoning", thought)
                if isinstance(content, str) and content:
                    self._text(out, "text", content)
                if isinstance(delta.get("refusal"), str) and delta["refusal"]:
                    self.refusal.append(delta["refusal"])
                    self._text(out, "refusal", delta["refusal"])
                for position, call in enumerate(delta.get("tool_calls") or []):
                    self._call(out, call, position)
            self.reason = choice.get("finish_reason") or self.reason
            found = choice.get("logprobs")
            if found is not None:
                self.tokens += logprobs(found)
        return out

    def _text(self, out: list[ev.StreamEvent], kind: str, delta: str) -> None:
        if self.open != kind:
            self._close(out)
            self.parts += 1
            self.open = kind
            ident = f"{kind}-{self.parts}"
            if kind == "reasoning":
                out.append(ev.ReasoningStartEvent(id=ident))
            else:
                refusal = refusal_metadata(self.provider) if kind == "refusal" else None
                out.append(ev.TextStartEvent(id=ident, provider_metadata=refusal))
        ident = f"{kind}-{self.parts}"
        if kind == "reasoning":
            out.append(ev.reasoning_delta(ident, delta))
        else:
            out.append(ev.text_delta(ident, delta))

    def _close(self, out: list[ev.StreamEvent]) -> None:
        if self.open is None:
            return
        ident = f"{self.open}-{self.parts}"
        out.append(ev.ReasoningEndEvent(id=ident) if self.open == "reasoning" else ev.TextEndEvent(id=ident))
        self.open = None

    def _call(self, out: list[ev.StreamEvent], raw: ToolCallDelta, position: int) -> None:
        index = raw.get("index", position)
        call = self.calls.get(index)
        if call is None or another_call(call.call_id, raw):
            ident = f"call-{index}" if call is None else f"call-{index}-{len(self.all_calls)}"
            call = self.calls[index] = _Call(ident)
            self.all_calls.append(call)
        function = raw.get("function") or {}
        call.call_id = call.call_id or raw.get("id") or ""
        call.name = call.name or function.get("name") or ""
        arguments = argument_text(function.get("arguments"))
        if arguments:
            call.pending.append(arguments)
        if not call.started and call.name:
            self._start(out, call)
        if call.started and call.pending:
            out.append(ev.ToolCallDeltaEvent(id=call.id, delta="".join(call.pending)))
            call.pending.clear()

    def _start(self, out: list[ev.StreamEvent], call: _Call) -> None:
        call.started = True
        out.append(ev.ToolCallStartEvent(id=call.id, call_id=call.call_id or call.id, name=call.name))

    def finish(self) -> Iterator[ev.StreamEvent]:
        if self.reason is None and not (self.ended and self.chunks):
            return  # cut short: no finish event, so the core raises with what arrived
        out: list[ev.StreamEvent] = []
        self._close(out)
        for call in self.all_calls:
            if not call.started:
                self._start(out, call)
                if call.pending:
                    out.append(ev.ToolCallDeltaEvent(id=call.id, delta="".join(call.pending)))
            out.append(ev.ToolCallEndEvent(id=call.id))
        yield from out
        refusal = "".join(self.refusal) or None
        reason = finish_reason(self.reason, calls=bool(self.all_calls), refused=bool(refusal))
        yield ev.FinishEvent(
            finish_reason=reason,
            raw_finish_reason=self.reason,
            usage=usage(self.usage, self.quirks),
            provider_metadata=metadata(self.meta, self.provider, refusal),
            logprobs=self.tokens or None,
        )


def another_call(call_id: str, raw: Mapping[str, Any]) -> bool:
    """Whether a tool-call delta at the index of the call ``call_id`` names another call: a new call
    that reuses the index (merging it into the first would corrupt both)."""
    new = raw.get("id")
    return bool(call_id) and isinstance(new, str) and bool(new) and new != call_id


def merge_frames(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """Stream chunks → the ``chat.completion`` body a non-streamed call returns (first choice)."""
    message: dict[str, Any] = {"role": "assistant", "content": None}
    choice: dict[str, Any] = {"index": 0, "message": message, "finish_reason": None}
    merged: dict[str, Any] = {"choices": [choice]}
    calls: dict[int, dict[str, Any]] = {}  # the call at each index now
    every: list[tuple[int, dict[str, Any]]] = []  # (index, call) of every call, in the order they began
    tokens: list[Any] = []
    for chunk in chunks:
        for key in ("id", "model", "system_fingerprint", "service_tier"):
            if chunk.get(key) and key not in merged:
                merged[key] = chunk[key]
        found = raw_usage(chunk)
        if found:
            merged["usage"] = found
        for raw in chunk.get("choices") or []:
            if raw.get("index", 0) != 0:
                continue
            delta = raw.get("delta") or {}
            for key in ("content", "refusal", "reasoning_content"):
                value = delta.get(key)
                if key == "reasoning_content":
                    value = reasoning_text(delta)
                if isinstance(value, str) and value:
                    message[key] = (message.get(key) or "") + value
            for position, call in enumerate(delta.get("tool_calls") or []):
                function = call.get("function") or {}
                index = call.get("index", position)
                into = calls.get(index)
                if into is None or another_call(into["id"], call):
                    into = calls[index] = {
                        "id": "",
                        "type": "function",
                        "function": {"name": "", "arguments": ""},
                    }
                    every.append((index, into))
                into["id"] = into["id"] or call.get("id") or ""
                into["function"]["name"] = into["function"]["name"] or function.get("name") or ""
                into["function"]["arguments"] += argument_text(function.get("arguments"))
            choice["finish_reason"] = raw.get("finish_reason") or choice["finish_reason"]
            if isinstance(raw.get("logprobs"), dict):
                tokens += raw["logprobs"].get("content") or []
    for index, call in every:
        call["id"] = call["id"] or f"call-{index}"
    if every:
        message["tool_calls"] = [call for _, call in every]
    if tokens:
        choice["logprobs"] = {"content": tokens}
    return merged
