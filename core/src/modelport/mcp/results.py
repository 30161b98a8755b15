"""An MCP ``tools/call`` result, converted block by block: to the output of a tool result part (what
the tool loop sends back to the model) and to modelport parts (what an application shows).

The output of :func:`tool_output`:

- the text, when every content block is text (the blocks joined by a newline): what most tools
  return, sent to every provider as it is;
- the ``structuredContent`` object, when the tool gave one and its text blocks only repeat it as
  JSON (as the MCP specification asks a tool with an output schema to do), or gave no block at all;
- otherwise a list with one JSON object per block, in the server's order: ``{"type": "text",
  "text"}``, ``{"type": "image" | "audio", "media_type", "data"}`` (base64, as MCP sends it),
  ``{"type": "resource", "uri", "media_type", "text" | "data"}`` for an embedded resource and
  ``{"type": "resource_link", "uri", "name", "media_type", "description"}`` for a link (keys
  without a value left out), with ``{"type": "structured", "content": {...}}`` last when the tool
  gave structured content the text does not repeat.

A result with ``isError`` is never an output: :func:`tool_output` raises :class:`McpToolError`
with the server's text, which the tool loop gives the model as the call's error result.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

from ..errors import ModelportError

if TYPE_CHECKING:
    from mcp import types

    from ..types import FilePart, TextPart

__all__ = ["McpError", "McpToolError", "content_parts", "tool_output"]


class McpError(ModelportError):
    """Something went wrong talking to an MCP server (the base of the MCP errors)."""


class McpToolError(McpError):
    """An MCP tool answered with ``isError``: the message is the server's text."""


def tool_output(result: types.CallToolResult, *, tool: str = "") -> Any:
    """The tool result output of ``result`` (see the module documentation); raises
    :class:`McpToolError` for an error result."""
    blocks = [_block(block) for block in result.content]
    texts = [block["text"] for block in blocks if block["type"] == "text"]
    if result.isError:
        named = f"MCP tool {tool!r} failed" if tool else "the MCP tool failed"
        raise McpToolError("\n".join(texts) or named)
    structured = result.structuredContent
    if structured is not None and (not blocks or _repeats(texts, blocks, structured)):
        return structured
    if blocks and len(texts) == len(blocks):
        return "\n".join(texts)
    if structured is not None:
        blocks.append({"type": "structured", "content": structured})
    return blocks


def _repeats(texts: list[str], blocks: list[dict[str, Any]], structured: dict[str, Any]) -> bool:
    """Whether the blocks are one text block holding ``structured`` as JSON."""
    if len(blocks) != 1 or len(texts) != 1:
        return False
    try:
        return bool(json.loads(texts[0]) == structured)
    except ValueError:
        return False


def _block(block: Any) -> dict[str, Any]:
    """One content block as a JSON object (its ``_meta`` and annotations left out)."""
    kind = getattr(block, "type", None)
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind in ("image", "audio"):
        return {"type": kind, "media_type": block.mimeType, "data": block.data}
    if kind == "resource":
        contents = block.resource
        value = {"type": "resource", "uri": str(contents.uri), "media_type": contents.mimeType}
        if hasattr(contents, "text"):
            value["text"] = contents.text
        else:
            value["data"] = contents.blob
        return {key: item for key, item in value.items() if item is not None}
    if kind == "resource_link":
        link = {
            "type": "resource_link",
            "uri": str(block.uri),
            "name": block.name,
            "media_type": block.mimeType,
            "description": block.description,
        }
        return {key: item for key, item in link.items() if item is not None}
    # A block type this SDK version does not know: its fields, as the server sent them.
    dump = block.model_dump(mode="json", exclude_none=True) if hasattr(block, "model_dump") else {}
    return {"type": str(kind), **{k: v for k, v in dump.items() if k != "type"}}


def content_parts(result: types.CallToolResult) -> list[TextPart | FilePart]:
    """The content blocks of ``result`` as modelport parts, in the server's order: text as a
    :class:`~modelport.types.TextPart`; an image, audio or embedded blob as an inline
    :class:`~modelport.types.FilePart`; an embedded text resource as a ``FilePart`` of its bytes
    (media type ``text/plain`` when the server gave none); a resource link as a ``FilePart`` by
    ``uri``. Structured content and ``isError`` are the caller's to read on ``result``."""
    from ..types import FilePart, TextPart

    parts: list[TextPart | FilePart] = []
    for block in result.content:
        value = _block(block)
        kind = value["type"]
        if kind == "text":
            parts.append(TextPart(text=value["text"]))
        elif kind in ("image", "audio") or (kind == "resource" and "data" in value):
            media = value.get("media_type") or "application/octet-stream"
            parts.append(FilePart(media_type=media, data=base64.b64decode(value["data"])))
        elif kind == "resource":
            media = value.get("media_type") or "text/plain"
            parts.append(FilePart(media_type=media, data=value["text"].encode("utf-8")))
        elif kind == "resource_link":
            media = value.get("media_type") or "application/octet-stream"
            parts.append(FilePart(media_type=media, uri=value["uri"]))
    return parts
