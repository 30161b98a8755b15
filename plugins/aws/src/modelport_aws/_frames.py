"""A whole Converse answer as the frames its stream would have sent, and back (pure).

:func:`answer_frames` turns a Converse response into ``messageStart``, each block's start, delta
and stop, ``messageStop`` and ``metadata``, so that ``generate`` is decoded by the stream's own
decoder (:class:`._stream.ConverseStream`). :func:`merge_frames` is the other way, for the
conformance suite's ``merged`` check. A frame is the kit's AWS event-stream frame
(``{"event": <event type>, "data": <payload>}``, :mod:`modelport.http.event_stream`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from modelport.wire import dumps

__all__ = ["answer_frames", "merge_frames"]


def answer_frames(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The frames a stream of the Converse answer ``data`` would have sent."""
    message = data["output"]["message"]
    yield {"event": "messageStart", "data": {"role": message["role"]}}
    for index, block in enumerate(message["content"]):
        if "toolUse" in block:
            tool = block["toolUse"]
            start = {"toolUse": {"toolUseId": tool["toolUseId"], "name": tool["name"]}}
            yield {"event": "contentBlockStart", "data": {"contentBlockIndex": index, "start": start}}
        deltas = list(_deltas(block))
        if not deltas:
            continue  # a block kind this decoder does not map yet
        for delta in deltas:
            yield {"event": "contentBlockDelta", "data": {"contentBlockIndex": index, "delta": delta}}
        yield {"event": "contentBlockStop", "data": {"contentBlockIndex": index}}
    yield {"event": "messageStop", "data": {"stopReason": data["stopReason"]}}
    metadata = {key: data[key] for key in ("usage", "metrics", "trace") if key in data}
    yield {"event": "metadata", "data": metadata}


def _deltas(block: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The deltas a stream sends for one whole block: a tool's input as JSON text; a text; a
    cited text's citations, then its text; a reasoning text, then its signature (or the redacted
    content)."""
    if "toolUse" in block:
        yield {"toolUse": {"input": dumps(block["toolUse"].get("input", {})).decode("utf-8")}}
    elif "text" in block:
        yield {"text": block["text"]}
    elif "citationsContent" in block:
        cited = block["citationsContent"]
        for citation in cited.get("citations") or []:
            yield {"citation": citation}
        yield {"text": "".join(c.get("text") or "" for c in cited.get("content") or [])}
    elif "reasoningContent" in block:
        content = block["reasoningContent"]
        if "redactedContent" in content:
            yield {"reasoningContent": {"redactedContent": content["redactedContent"]}}
            return
        text = content.get("reasoningText") or {}
        yield {"reasoningContent": {"text": text.get("text") or ""}}
        if text.get("signature"):
            yield {"reasoningContent": {"signature": text["signature"]}}


def merge_frames(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """A stream's frames → the Converse body the same call returns unstreamed (for the conformance
    suite's ``merged`` check): each block's deltas joined, the stop reason, usage and metrics."""
    blocks: dict[int, dict[str, Any]] = {}
    answer: dict[str, Any] = {"output": {"message": {"role": "assistant", "content": []}}}
    for frame in frames:
        kind, data = frame.get("event"), frame.get("data") or {}
        if kind == "contentBlockStart" and "toolUse" in (data.get("start") or {}):
            tool = data["start"]["toolUse"]
            blocks[data["contentBlockIndex"]] = {"toolUse": {**tool, "input": ""}}
        elif kind == "contentBlockDelta":
            _merge(blocks, data["contentBlockIndex"], data["delta"])
        elif kind == "messageStop":
            answer["stopReason"] = data["stopReason"]
        elif kind == "metadata":
            answer.update({key: data[key] for key in ("usage", "metrics", "trace") if key in data})
    for index in sorted(blocks):
        block = blocks[index]
        if "toolUse" in block:
            block["toolUse"]["input"] = json.loads(block["toolUse"]["input"] or "{}")
        if "citations" in block:
            block = {
                "citationsContent": {"content": [{"text": block["text"]}], "citations": block["citations"]}
            }
        answer["output"]["message"]["content"].append(block)
    return answer


def _merge(blocks: dict[int, dict[str, Any]], index: int, delta: dict[str, Any]) -> None:
    if "text" in delta or "citation" in delta:
        block = blocks.setdefault(index, {"text": ""})
        block["text"] += delta.get("text") or ""
        if "citation" in delta:
            block.setdefault("citations", []).append(delta["citation"])
    elif "toolUse" in delta:
        blocks[index]["toolUse"]["input"] += delta["toolUse"].get("input") or ""
    elif "reasoningContent" in delta:
        content = blocks.setdefault(index, {"reasoningContent": {}})["reasoningContent"]
        step = delta["reasoningContent"]
        if "redactedContent" in step:
            content["redactedContent"] = content.get("redactedContent", "") + step["redactedContent"]
            return
        text = content.setdefault("reasoningText", {"text": ""})
        text["text"] += step.get("text") or ""
        if step.get("signature"):
            text["signature"] = step["signature"]
