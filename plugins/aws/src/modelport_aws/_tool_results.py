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

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from modelport.errors import InvalidRequestError
from modelport.types import FilePart, TextPart, ToolResultPart

from ._content import file_block

__all__ = ["tool_result_block"]

_STATUSES = ("success", "error")
_PART_TYPES: dict[str, type[TextPart] | type[FilePart]] = {"text": TextPart, "file": FilePart}


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
    parts = _parts(output, where)
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


def _parts(output: Any, where: str) -> list[TextPart | FilePart] | None:
    """``output`` as content parts when it is a non-empty list of them, else ``None`` (JSON)."""
    if not isinstance(output, (list, tuple)) or not output:
        return None
    kinds = [_kind(item) for item in output]
    if not all(kinds):
        if any(isinstance(item, (TextPart, FilePart)) for item in output):
            raise InvalidRequestError(
                f"{where}: a tool result's output mixes content parts with other values "
                "(give only text and file parts, or JSON)"
            )
        return None
    parts: list[TextPart | FilePart] = []
    for index, (item, kind) in enumerate(zip(output, kinds, strict=True)):
        if isinstance(item, (TextPart, FilePart)) or kind is None:
            parts.append(item)
            continue
        try:
            parts.append(_PART_TYPES[kind].model_validate(item))
        except ValidationError as error:
            detail = error.errors()[0]["msg"]
            raise InvalidRequestError(f"{where}.output.{index}: not a {kind} part ({detail})") from None
    return parts


def _kind(item: Any) -> str | None:
    if isinstance(item, TextPart):
        return "text"
    if isinstance(item, FilePart):
        return "file"
    if isinstance(item, Mapping) and item.get("type") in _PART_TYPES:
        return str(item["type"])
    return None
