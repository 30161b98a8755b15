"""A Messages API ``message`` body → :class:`Result` (pure; the blocks are mapped by :mod:`._blocks`)."""

from __future__ import annotations

from typing import Any

from modelport.types import CallWarning, Part, Result

from ._blocks import block_part, finish_reason, message_metadata, usage

__all__ = ["decode_message"]


def decode_message(data: Any, answer_tool: str | None = None) -> Result:
    """The result of a ``message`` body, every content block in order (``answer_tool``: the forced
    tool of ``response_format``, whose input is the answer)."""
    content: list[Part] = []
    warnings: list[CallWarning] = []
    for block in data.get("content") or []:
        part, warning = block_part(block, answer_tool)
        if part is not None:
            content.append(part)
        if warning is not None:
            warnings.append(warning)
    raw = data.get("stop_reason")
    return Result(
        content=content,
        finish_reason=finish_reason(raw, answered=answer_tool is not None),
        raw_finish_reason=raw,
        usage=usage(data.get("usage")),
        warnings=warnings,
        provider_metadata=message_metadata(data, data.get("usage")),
        response_id=data.get("id") or None,
        model_version=data.get("model") or None,
    )
