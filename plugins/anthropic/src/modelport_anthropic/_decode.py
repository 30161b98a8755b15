"""A Messages API ``message`` body → :class:`Result` (pure; the blocks are mapped by :mod:`._blocks`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from modelport.types import CallWarning, Part, Result, TextPart

from ._blocks import NAMESPACE, block_part, finish_reason, is_code_run, message_metadata, usage
from ._citations import Span, sources_and_citations

if TYPE_CHECKING:
    from ._wire import Message

__all__ = ["decode_message"]


def decode_message(data: Message, answer_tool: str | None = None) -> Result:
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
    sources, citations = sources_and_citations(_spans(content))
    return Result(
        content=content,
        finish_reason=finish_reason(raw, answered=answer_tool is not None),
        raw_finish_reason=raw,
        usage=usage(data.get("usage"), code_runs=_code_runs(data.get("content"))),
        warnings=warnings,
        provider_metadata=message_metadata(data, data.get("usage")),
        sources=sources,
        citations=citations,
        response_id=data.get("id") or None,
        model_version=data.get("model") or None,
    )


def _code_runs(blocks: Any) -> int:
    """How many code execution result blocks the answer has (one per run)."""
    if not isinstance(blocks, list):
        return 0
    return sum(isinstance(b, dict) and is_code_run(str(b.get("type", ""))) for b in blocks)


def _spans(content: list[Part]) -> list[Span]:
    """Each text part's span of the answer text, with its citations."""
    spans: list[Span] = []
    offset = 0
    for part in content:
        if isinstance(part, TextPart):
            cited = ((part.provider_metadata or {}).get(NAMESPACE) or {}).get("citations") or []
            spans.append((offset, offset + len(part.text), cited))
            offset += len(part.text)
    return spans
