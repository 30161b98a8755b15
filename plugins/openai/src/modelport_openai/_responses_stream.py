"""Responses API events (``response.*``) → stream events; one mapping path for generate and stream.

A non-streamed body is decoded by the same decoder (:func:`decode_response`): each of its output
items is fed as the ``response.output_item.done`` event a stream ends the item with, then the body
as the ``response.completed`` (or ``incomplete`` / ``failed``) event. So a streamed answer and the
same answer not streamed give equal results.

Each output item becomes parts that keep its id (``provider_metadata["openai-responses"]
["item_id"]``), so the next turn sends them back as the same items (:mod:`._responses_input`):
a ``reasoning`` item is one reasoning part per summary (one empty part when it has none), the
last one carrying ``encrypted_content`` as its ``signature``; a ``message`` is a text part per
``output_text`` or ``refusal`` (its raw ``annotations`` kept in its metadata, and mapped to the
result's sources and citations); a ``function_call`` is a tool call (``call_id`` as its id); a
built-in tool's item is a provider-executed call and result (and a file part for a generated
image, :mod:`._responses_items`). Other item types (client-run ``local_shell_call`` /
``shell_call``, ...) are not mapped in this version: each gives a warning and is kept raw under
``Result.provider_metadata["openai-responses"]["unmapped_items"]``; one the model asks the client to
run (:data:`CLIENT_RUN_ITEMS`) still ends the answer with ``tool-calls``, as a ``function_call`` does.

``response.incomplete`` ends with ``length`` (``max_output_tokens``), ``content-filter`` or, with
no reason given, ``other`` (never ``stop``), the raw reason kept; ``response.failed`` (or a terminal
event whose ``status`` is ``failed``) raises the error it carries, typed by the core's table
(:func:`modelport.http.stream_error`), after the events before it; a response ``cancelled``, or
still ``queued`` / ``in_progress`` (background mode), is no answer either: a
``ProviderResponseError`` whose ``provider_status`` is that status and whose ``partial`` holds what
arrived. An ``error`` event is raised by the core's SSE parser. A stream that ends without a
terminal event gets no ``finish`` event (the provider's ``stream_end`` says so to the kit too), so
the core raises ``StreamInterruptedError`` with what arrived. Citation offsets count the text as it
streamed, which is the text the result holds. The events are typed in :mod:`._responses_wire`;
event types newer than this decoder are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from modelport import events as ev
from modelport.errors import ProviderError, ProviderResponseError
from modelport.events import StreamAccumulator
from modelport.http import stream_error
from modelport.types import REFUSAL_METADATA, CallWarning, FinishReason, Result, Usage

from ._responses_input import RESPONSES
from ._responses_items import BUILT_IN_ITEMS, Citations, approval_request_event, built_in_events
from ._wire_map import INCOMPLETE

if TYPE_CHECKING:
    from typing_extensions import assert_type

    from ._responses_wire import Event, OutputItem, Progress, Response

__all__ = ["CLIENT_RUN_ITEMS", "ResponsesStream", "decode_response", "merge_frames", "usage"]

#: Output items the model asks the client to run and answer with a ``*_output`` item, as it does a
#: ``function_call``: not mapped in this version (kept raw), but the answer waits for them.
CLIENT_RUN_ITEMS = frozenset(
    {"local_shell_call", "shell_call", "computer_call", "apply_patch_call", "custom_tool_call"}
)

_TERMINAL = ("response.completed", "response.incomplete", "response.failed")
#: Statuses of a response that is no answer: what each means, for the error.
_UNFINISHED = {
    "cancelled": "the response was cancelled before it completed",
    "queued": "the response is not finished: it is queued (a background response: retrieve it once done)",
    "in_progress": "the response is not finished: it is in progress (a background response: retrieve it "
    "once done)",
}


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _detail(raw: dict[str, Any], details: str, key: str) -> int | None:
    found = raw.get(details)
    return _count(found.get(key)) if isinstance(found, dict) else None


def usage(raw: Any, *, server_tool_calls: int | None = None) -> Usage:
    """The contract's usage: ``input_tokens`` holds the cached ones, ``output_tokens`` the reasoning;
    ``server_tool_calls`` is counted from the answer's built-in tool items (OpenAI reports none)."""
    if not isinstance(raw, dict):
        return Usage(server_tool_calls=server_tool_calls)
    return Usage(
        server_tool_calls=server_tool_calls,
        input_tokens=_count(raw.get("input_tokens")),
        output_tokens=_count(raw.get("output_tokens")),
        reasoning_tokens=_detail(raw, "output_tokens_details", "reasoning_tokens"),
        total_tokens=_count(raw.get("total_tokens")),
        cache_read_input_tokens=_detail(raw, "input_tokens_details", "cached_tokens"),
        cache_write_input_tokens=_detail(raw, "input_tokens_details", "cache_write_tokens"),
    )


def _meta(ident: str, **extra: Any) -> dict[str, dict[str, Any]]:
    return {RESPONSES: {"item_id": ident, **extra}}


class ResponsesStream:
    """One stream's decoder: ``feed`` each ``response.*`` event, then ``finish``."""

    def __init__(self, *, provider: str) -> None:
        self.provider = provider
        self.response_id: str | None = None
        self.open: dict[str, str] = {}  # event id of each open text/reasoning part → its kind
        self.calls: dict[str, bool] = {}  # item id of each started call → whether deltas came
        self.approvals = 0  # mcp_approval_request items: the answer waits for them too
        self.server_calls = 0  # built-in tool calls OpenAI ran (web search, code interpreter, ...)
        self.refusal: list[str] = []
        self.unmapped: list[OutputItem] = []
        self.warnings: list[CallWarning] = []
        self.terminal: dict[str, Any] | None = None
        self.incomplete = False  # the terminal event was response.incomplete
        self.cited = Citations()
        self.offset = 0  # where the next text part starts in ``Result.text``
        self.streamed: dict[str, int] = {}  # the length of each text part's streamed text
        self.done: set[str] = set()  # ids of the output items that ended

    def feed(self, frame: Event) -> list[ev.StreamEvent]:
        out: list[ev.StreamEvent] = []
        match frame["type"]:
            case "response.output_text.delta" | "response.refusal.delta":
                part = "text" if frame["type"] == "response.output_text.delta" else "refusal"
                ident = self._start(out, part, frame["item_id"], frame.get("content_index", 0))
                delta = frame["delta"]
                if delta:
                    out.append(ev.text_delta(ident, delta))
                    self.streamed[ident] = self.streamed.get(ident, 0) + len(delta)
            case "response.reasoning_summary_text.delta":
                ident = self._start(out, "reasoning", frame["item_id"], frame.get("summary_index", 0))
                if frame["delta"]:
                    out.append(ev.reasoning_delta(ident, frame["delta"]))
            case "response.function_call_arguments.delta":
                if frame["item_id"] in self.calls and frame["delta"]:
                    self.calls[frame["item_id"]] = True
                    out.append(ev.ToolCallDeltaEvent(id=frame["item_id"], delta=frame["delta"]))
            case "response.output_item.added":
                item = frame["item"]
                if item.get("type") == "function_call":
                    self._start_call(out, item)
            case "response.output_item.done":
                self._item(out, frame["item"])
            case "response.created" | "response.in_progress":
                self._metadata(out, frame.get("response") or {})
            case "response.completed" | "response.incomplete" | "response.failed":
                self._terminal(out, frame["type"], frame.get("response") or {})
            case _:
                # Progress (what output_item.done repeats) or an event type newer than this
                # decoder: nothing to read. The type checker holds that only Progress gets here.
                if TYPE_CHECKING:
                    assert_type(frame, Progress)
        return out

    def _terminal(self, out: list[ev.StreamEvent], kind: str, response: Mapping[str, Any]) -> None:
        self._metadata(out, response)
        status = response.get("status")
        if kind == "response.failed" or status == "failed":
            error = response.get("error")
            raise stream_error(error if isinstance(error, dict) else {}, provider=self.provider)
        if isinstance(status, str) and status in _UNFINISHED:
            raise ProviderResponseError(_UNFINISHED[status], provider=self.provider, provider_status=status)
        self.terminal = dict(response)
        self.incomplete = kind == "response.incomplete" or status == "incomplete"

    def _metadata(self, out: list[ev.StreamEvent], response: Mapping[str, Any]) -> None:
        if self.response_id is None and response.get("id"):
            self.response_id = response["id"]
            out.append(
                ev.ResponseMetadataEvent(response_id=response["id"], model_version=response.get("model"))
            )

    def _start(self, out: list[ev.StreamEvent], part: str, item: str, index: int) -> str:
        ident = f"{item}:{index}"
        if ident not in self.open:
            self.open[ident] = part
            if part == "reasoning":
                out.append(ev.ReasoningStartEvent(id=ident, provider_metadata=_meta(item)))
            else:
                extra = {RESPONSES: {"item_id": item, "refusal": True}, **REFUSAL_METADATA}
                out.append(
                    ev.TextStartEvent(id=ident, provider_metadata=extra if part == "refusal" else _meta(item))
                )
        return ident

    def _start_call(self, out: list[ev.StreamEvent], item: OutputItem) -> None:
        ident = item["id"]
        if ident not in self.calls:
            self.calls[ident] = False
            start = ev.ToolCallStartEvent(
                id=ident, call_id=item["call_id"], name=item["name"], provider_metadata=_meta(ident)
            )
            out.append(start)

    def _item(self, out: list[ev.StreamEvent], item: OutputItem) -> None:
        kind = item.get("type")
        ident = item.get("id") or ""
        if ident in self.done:  # sent again (a proxy's repeat): its parts already ended
            self.warnings.append(
                CallWarning(
                    type="other",
                    setting="stream",
                    details=f"output item {ident!r} ended a second time; the repeat was ignored",
                )
            )
            return
        if ident:
            self.done.add(ident)
        if kind == "message":
            for index, content in enumerate(item.get("content") or []):
                part = "refusal" if content.get("type") == "refusal" else "text"
                text = content.get("refusal" if part == "refusal" else "text") or ""
                if part == "refusal":
                    self.refusal.append(text)
                key = f"{ident}:{index}"
                if key not in self.open:  # not streamed: the whole text now
                    self._start(out, part, ident, index)
                    if text:
                        out.append(ev.text_delta(key, text))
                    length = len(text)
                else:  # the result holds the streamed text, whatever the done item says
                    length = self.streamed.pop(key, 0)
                del self.open[key]
                annotations = content.get("annotations") or []
                self.cited.add(self.offset, length, annotations)
                self.offset += length
                kept = {RESPONSES: {"annotations": annotations}} if annotations else None
                out.append(ev.TextEndEvent(id=key, provider_metadata=kept))
        elif kind == "reasoning":
            summary = item.get("summary") or [{}]
            for index, entry in enumerate(summary):
                key = f"{ident}:{index}"
                if key not in self.open:
                    self._start(out, "reasoning", ident, index)
                    if entry.get("text"):
                        out.append(ev.reasoning_delta(key, entry["text"]))
                del self.open[key]
                last = index == len(summary) - 1
                out.append(
                    ev.ReasoningEndEvent(id=key, signature=item.get("encrypted_content") if last else None)
                )
        elif kind == "function_call":
            self._start_call(out, item)
            if not self.calls[ident] and item.get("arguments"):  # not streamed: the arguments now
                out.append(ev.ToolCallDeltaEvent(id=ident, delta=item["arguments"]))
            out.append(ev.ToolCallEndEvent(id=ident))
        elif kind == "mcp_approval_request":  # a remote MCP call waiting for the client's answer
            event, warning = approval_request_event(item)
            out.append(event)
            self.approvals += 1
            self.warnings += [warning] if warning is not None else []
        elif kind in BUILT_IN_ITEMS:
            self.server_calls += kind != "mcp_list_tools"  # listing a server's tools runs none
            if kind == "file_search_call":
                self.cited.add_results(item.get("results"))
            events, warning = built_in_events(item)
            out += events
            self.warnings += [warning] if warning is not None else []
        else:
            self.unmapped.append(item)
            self.warnings.append(
                CallWarning(
                    type="other",
                    setting="output",
                    details=f"an output item of type {kind!r} is not mapped in this version; it is kept "
                    f"raw in provider_metadata[{RESPONSES!r}]['unmapped_items']",
                )
            )

    def finish(self) -> Iterator[ev.StreamEvent]:
        response = self.terminal
        if response is None:
            return  # cut short: no finish event, so the core raises with what arrived
        details = response.get("incomplete_details")
        found_reason = details.get("reason") if isinstance(details, dict) else None
        raw = found_reason if self.incomplete and isinstance(found_reason, str) else None
        refused = bool(self.refusal)
        reason: FinishReason
        if self.incomplete:  # cut short, whether or not it says why: never "stop"
            reason = INCOMPLETE.get(raw, "other") if raw is not None else "other"
        elif refused:
            reason = "content-filter"
        else:
            asks_client = (
                self.calls or self.approvals or any(i.get("type") in CLIENT_RUN_ITEMS for i in self.unmapped)
            )
            reason = "tool-calls" if asks_client else "stop"
        found = {k: response[k] for k in ("service_tier",) if response.get(k)}
        if refused:
            found["refusal"] = "".join(self.refusal)
        if self.unmapped:
            found["unmapped_items"] = self.unmapped
        yield ev.FinishEvent(
            finish_reason=reason,
            raw_finish_reason=raw or response.get("status"),
            usage=usage(response.get("usage"), server_tool_calls=self.server_calls or None),
            provider_metadata={RESPONSES: found} if found else {},
            sources=self.cited.sources,
            citations=self.cited.citations,
            warnings=[*self.warnings, *self.cited.warnings],
        )


def decode_response(data: Response, *, provider: str) -> Result:
    """A non-streamed ``response`` body, through the stream's decoder (one mapping path)."""
    decoder = ResponsesStream(provider=provider)
    accumulator = StreamAccumulator()
    try:
        for frame in frames_of(data):
            for event in decoder.feed(frame):
                accumulator.add(event)
    except ProviderError as error:  # a failed, cancelled or unfinished response: what it holds
        error.partial = accumulator.snapshot()
        raise
    for event in decoder.finish():
        accumulator.add(event)
    return accumulator.result()


def frames_of(data: Response) -> Iterator[Event]:
    """The events a stream of ``data`` would end with: each output item done, then the terminal."""
    yield {"type": "response.created", "response": data}
    for index, item in enumerate(data.get("output") or []):
        yield {"type": "response.output_item.done", "output_index": index, "item": item}
    status = data.get("status")
    if status == "incomplete":
        yield {"type": "response.incomplete", "response": data}
    elif status == "failed":
        yield {"type": "response.failed", "response": data}
    else:
        yield {"type": "response.completed", "response": data}


def merge_frames(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Stream events → the body a non-streamed call returns: the terminal event's ``response`` with
    the stream's own items (``response.output_item.done``, in output order). The terminal copy of a
    reasoning item carries another, equally valid ``encrypted_content``; the stream keeps its own."""
    terminal = [f for f in frames if f.get("type") in _TERMINAL and isinstance(f.get("response"), dict)]
    if not terminal:
        raise ValueError("the stream has no terminal response.* event")
    merged = dict(terminal[-1]["response"])
    done = [f for f in frames if f.get("type") == "response.output_item.done"]
    if done:
        merged["output"] = [f["item"] for f in sorted(done, key=lambda f: f.get("output_index", 0))]
    return merged
