"""A tool result's output as content parts (pure; every plugin whose API takes files in a tool
result reads its output the same way): a non-empty list whose every item is a
:class:`~modelport.types.TextPart` or :class:`~modelport.types.FilePart`, as an object or as its
dict (``{"type": "text", "text"}`` / ``{"type": "file", "media_type", "data" | "uri"}``), is sent
as content blocks; any other output is JSON. A list that mixes parts with other values, or a part
dict that is not a valid part, is an ``InvalidRequestError`` naming it, before any I/O."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from ..errors import InvalidRequestError
from ..types import FilePart, TextPart

__all__ = ["tool_output_parts"]

_PART_TYPES: dict[str, type[TextPart] | type[FilePart]] = {"text": TextPart, "file": FilePart}


def tool_output_parts(output: Any, where: str) -> list[TextPart | FilePart] | None:
    """``output`` as content parts, or ``None`` when it is JSON to send as text."""
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
