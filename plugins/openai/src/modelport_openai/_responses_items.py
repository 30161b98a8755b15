"""Built-in tool output items and text annotations → the contract's parts, sources and citations
(pure; used by the one decoder of :mod:`._responses_stream` for generate and stream).

Each built-in tool's output item arrives whole (``response.output_item.done``) and becomes a
provider-executed :class:`ToolCallPart` (``id`` = the item id, ``name`` = the tool: ``web_search``,
``file_search``, ``code_interpreter``, ``image_generation``, ``mcp_list_tools`` or the MCP tool's
own name) followed by its provider-executed :class:`ToolResultPart`; both keep the item's id and
type in ``provider_metadata["openai-responses"]``. A generated image is also a :class:`FilePart`
(``image/<output_format>``, the decoded bytes) after its result; the result's output leaves the
base64 out, unless it is not valid base64 (a truncated recording): then no file part, the text
stays in the output's ``result`` and a warning says so.

Annotations: ``url_citation`` and ``container_file_citation`` carry ``[start_index, end_index)``
of their ``output_text``; ``file_citation`` carries one ``index`` (the point the citation belongs
to, a zero-width span). The offsets count Unicode code points (Python ``str`` indices): in every
recorded answer the span of each ``url_citation`` is exactly the ``([domain](url))`` link it
annotates, including answers with non-ASCII text before it (so not UTF-8 bytes; no recorded text
has a character outside the BMP, where UTF-16 units would differ, so code points are the reading
that matches the API's documented "character" index). Each span is moved by where its text part
starts in ``Result.text``; sources are numbered from 1 in the order first cited. A
``file_citation`` names the file only: its source's ``excerpt`` is the passage the file search
retrieved from that file (``file_search_call.results``, sent when the request's ``include`` asks
for it; of several passages from one file, the one with the highest ``score``).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from modelport import events as ev
from modelport.events import tool_call_part
from modelport.types import CallWarning, Citation, FilePart, Source, ToolResultPart

from ._responses_input import RESPONSES

__all__ = ["BUILT_IN_ITEMS", "Citations", "approval_request_event", "built_in_events"]

#: Output item type → the tool name its call part carries (MCP calls carry the MCP tool's name).
BUILT_IN_ITEMS = {
    "web_search_call": "web_search",
    "file_search_call": "file_search",
    "code_interpreter_call": "code_interpreter",
    "image_generation_call": "image_generation",
    "mcp_call": "mcp",
    "mcp_list_tools": "mcp_list_tools",
}


def _call_and_output(item: Mapping[str, Any]) -> tuple[dict[str, Any], Any]:
    """What the item says was asked (the call's args) and what came back (the result's output)."""
    kind = item["type"]
    if kind == "web_search_call":
        action = dict(item.get("action") or {})
        sources = action.pop("sources", None)
        return action, {"status": item.get("status"), **({"sources": sources} if sources else {})}
    if kind == "file_search_call":
        return {"queries": item.get("queries") or []}, {
            "status": item.get("status"),
            "results": item.get("results"),
        }
    if kind == "code_interpreter_call":
        args = {"code": item.get("code"), "container_id": item.get("container_id")}
        return args, {"status": item.get("status"), "outputs": item.get("outputs")}
    if kind == "image_generation_call":
        return {}, {k: v for k, v in item.items() if k not in ("id", "type", "result")}
    if kind == "mcp_list_tools":
        return {"server_label": item.get("server_label")}, {"tools": item.get("tools")}
    return {}, item.get("output")  # mcp_call: its arguments are JSON text, parsed by the caller


def built_in_events(item: Mapping[str, Any]) -> tuple[list[ev.StreamEvent], CallWarning | None]:
    """The events of one whole built-in tool item (a type in :data:`BUILT_IN_ITEMS`)."""
    kind = item["type"]
    ident = item.get("id") or ""
    meta: dict[str, Any] = {"item_id": ident, "item_type": kind}
    if item.get("server_label"):
        meta["server_label"] = item["server_label"]
    args, output = _call_and_output(item)
    if kind == "mcp_call":
        name = item.get("name") or BUILT_IN_ITEMS[kind]
        call, warning = tool_call_part(ident, name, item.get("arguments") or "")
    else:
        name = BUILT_IN_ITEMS[kind]
        call, warning = tool_call_part(ident, name, args)
    metadata = {RESPONSES: meta}
    update = {"provider_executed": True, "provider_metadata": {**(call.provider_metadata or {}), **metadata}}
    call = call.model_copy(update=update)
    failed = item.get("status") in ("failed", "incomplete") or bool(item.get("error"))
    if kind in ("mcp_call", "mcp_list_tools") and item.get("error"):
        output = {"error": item["error"]} if output is None else output
    result = ToolResultPart(
        call_id=ident,
        name=name,
        output=output,
        is_error=failed,
        provider_executed=True,
        provider_metadata=metadata,
    )
    events: list[ev.StreamEvent] = [ev.ToolCallEvent(part=call), ev.ToolResultEvent(part=result)]
    if kind == "image_generation_call" and item.get("result"):
        image = _image(item)
        if image is not None:
            events.append(ev.FileEvent(part=image))
        else:
            events[-1] = ev.ToolResultEvent(
                part=result.model_copy(update={"output": {**output, "result": item["result"]}})
            )
            warning = CallWarning(
                type="other",
                setting="image_generation",
                details=f"the image of {ident!r} is not valid base64; it is kept as sent in the tool "
                "result's output['result']",
            )
    return events, warning


def approval_request_event(item: Mapping[str, Any]) -> tuple[ev.ToolCallEvent, CallWarning | None]:
    """An ``mcp_approval_request`` item: the MCP call OpenAI runs once approved, as a
    provider-executed call with ``approval="requested"`` and no result (the tool loop's ``approve=``
    hook answers it, :mod:`._responses_input` sends the answer as an ``mcp_approval_response``)."""
    ident = item.get("id") or ""
    call, warning = tool_call_part(ident, item.get("name") or "mcp", item.get("arguments") or "")
    meta = {"item_id": ident, "item_type": "mcp_approval_request"}
    if item.get("server_label"):
        meta["server_label"] = item["server_label"]
    update = {
        "provider_executed": True,
        "approval": "requested",
        "provider_metadata": {**(call.provider_metadata or {}), RESPONSES: meta},
    }
    return ev.ToolCallEvent(part=call.model_copy(update=update)), warning


def _image(item: Mapping[str, Any]) -> FilePart | None:
    data = item["result"]
    try:
        raw = base64.b64decode(data, validate=True) if isinstance(data, str) else None
    except (binascii.Error, ValueError):
        return None
    if raw is None:
        return None
    media = f"image/{item.get('output_format') or 'png'}"
    return FilePart(
        media_type=media, data=raw, provider_metadata={RESPONSES: {"item_id": item.get("id") or ""}}
    )


def _source_key(annotation: dict[str, Any]) -> tuple[Any, ...] | None:
    kind = annotation.get("type")
    if kind == "url_citation" and isinstance(annotation.get("url"), str):
        return ("url", annotation["url"])
    if kind == "file_citation":
        return ("file", annotation.get("file_id"))
    if kind == "container_file_citation":
        return ("container-file", annotation.get("container_id"), annotation.get("file_id"))
    return None


def _rank_passages(results: Any, found: dict[str, tuple[float, str]]) -> None:
    """Keep in ``found`` each file's best passage of a ``file_search_call``'s ``results`` (highest
    ``score``, the first seen on a tie); results without a file id or text are skipped."""
    for result in results if isinstance(results, list) else []:
        if not isinstance(result, dict):
            continue
        file_id, text, score = result.get("file_id"), result.get("text"), result.get("score")
        if not (isinstance(file_id, str) and file_id and isinstance(text, str) and text):
            continue
        rank = float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else 0.0
        if file_id not in found or rank > found[file_id][0]:
            found[file_id] = (rank, text)


def _source(number: int, annotation: dict[str, Any]) -> Source:
    uri = annotation.get("url") if annotation.get("type") == "url_citation" else None
    title = annotation.get("title") or annotation.get("filename")
    file_id = annotation.get("file_id") if annotation.get("type") != "url_citation" else None
    file_id = file_id if isinstance(file_id, str) and file_id else None
    return Source(
        number=number,
        title=title if isinstance(title, str) else None,
        uri=uri,
        domain=urlsplit(uri).hostname if uri else None,
        file_id=file_id,
        id=file_id,
        kind="web-page" if uri is not None else "file" if annotation.get("type") in _FILE_KINDS else None,
    )


#: The annotations that cite a file: a file search's store file, a code interpreter's container file.
_FILE_KINDS = ("file_citation", "container_file_citation")


def _span(annotation: dict[str, Any]) -> tuple[Any, Any]:
    if annotation.get("type") == "file_citation":
        return annotation.get("index"), annotation.get("index")
    return annotation.get("start_index"), annotation.get("end_index")


class Citations:
    """The sources and citations of one answer, collected text part by text part."""

    def __init__(self) -> None:
        self.numbers: dict[tuple[Any, ...], int] = {}
        self.cited: list[Source] = []
        self.citations: list[Citation] = []
        self.warnings: list[CallWarning] = []
        self.passages: dict[str, tuple[float, str]] = {}  # file id → (score, best passage retrieved)

    @property
    def sources(self) -> list[Source]:
        """The cited sources, a cited file with the passage its file search retrieved."""
        return [
            s.model_copy(update={"excerpt": self.passages[s.file_id][1]})
            if s.file_id in self.passages and s.uri is None and s.excerpt is None
            else s
            for s in self.cited
        ]

    def add_results(self, results: Any) -> None:
        """A ``file_search_call``'s ``results`` (``None`` unless the request included them)."""
        _rank_passages(results, self.passages)

    def add(self, base: int, length: int, annotations: list[Any]) -> None:
        """The annotations of one ``output_text`` of ``length`` characters that starts at ``base`` in
        ``Result.text``."""
        for annotation in annotations:
            key = _source_key(annotation) if isinstance(annotation, dict) else None
            if key is None:
                continue
            start, end = _span(annotation)
            ok = all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end))
            if not ok or not 0 <= start <= end <= length:
                self.warnings.append(
                    CallWarning(
                        type="skipped-citation",
                        setting="citations",
                        details=f"a {annotation.get('type')} annotation's span ({start}, {end}) is not "
                        f"within its text of {length} characters; it is left out",
                    )
                )
                continue
            if key not in self.numbers:
                self.numbers[key] = len(self.cited) + 1
                self.cited.append(_source(self.numbers[key], annotation))
            self.citations.append(Citation(start=base + start, end=base + end, sources=[self.numbers[key]]))
