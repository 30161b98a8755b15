"""Tool result parts → Converse ``toolResult`` blocks (pure; what Converse cannot carry is an
``InvalidRequestError`` naming the part, before any I/O).

The ``content`` of the block follows the part's ``output``:

- a string is one ``{"text"}`` block;
- a list of content parts (:class:`~modelport.types.TextPart` and :class:`~modelport.types.FilePart`,
  as objects or as their dicts, ``{"type": "text", "text"}`` / ``{"type": "file", "media_type",
  "data"}``) is one block each, in order: ``{"text"}``, an image as ``{"image": {"format",
  "source": {"bytes"}}}`` and a document as ``{"document": {"format", "name", "source"}}``, exactly
  as a user turn's files go (:func:`._content.file_block`: the same formats and limits);
- anything else is one ``{"json"}`` block.

``status`` is ``"error"`` for an error result, else ``"success"``; the part's
``provider_metadata["bedrock"]["status"]`` overrides it (``None`` sends none: Bedrock documents the
field for Amazon Nova and Anthropic Claude 3 and 4 models only).
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.http import tool_output_parts
from modelport.types import TextPart, ToolResultPart

from ._content import file_block

__all__ = ["tool_result_block"]

_STATUSES = ("success", "error")


def tool_result_block(part: ToolResultPart, where: str, documents: int) -> dict[str, Any]:
    """The ``toolResult`` block of ``part``; ``documents`` is how many documents came before it."""
    block: dict[str, Any] = {"toolUseId": part.call_id, "content": _content(part.output, where, documents)}
    own = (part.provider_metadata or {}).get("bedrock") or {}
    status = own.get("status", "error" if part.is_error else "success")
    if status is not None:
        if status not in _STATUSES:
            raise InvalidRequestError(f"{where}: bedrock status {status!r} is not one of {_STATUSES}")
        block["status"] = status
    return {"toolResult": block}


def _content(output: Any, where: str, documents: int) -> list[dict[str, Any]]:
    if isinstance(output, str):
        return [{"text": output}]
    parts = tool_output_parts(output, where)
    if parts is None:
        return [{"json": output}]
    blocks: list[dict[str, Any]] = []
    for index, item in enumerate(parts):
        if isinstance(item, TextPart):
            blocks.append({"text": item.text})
        else:
            block = file_block(item, f"{where}.output.{index}", documents)
            documents += "document" in block
            blocks.append(block)
    return blocks
