"""S10 inline evidence and S11 query accounting for grounded results.

Inline evidence is the answer with ``[n]`` markers followed by a numbered "Sources" list, so the
sources survive when the text is handed to another model or tool; :func:`check_evidence` later
verifies that every marker in such a text still points at a listed source. Query accounting says,
per result, how many searches ran, how many sources came back, whether the answer was grounded at
all, and which share of the answer's bytes the supports cover.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from modelport.citations import CitedText, check_evidence, cite
from modelport.types import Citation, Result, TextPart

from ._access import grounding_metadata
from ._citations import citations_from_grounding
from ._offsets import ByteIndex

__all__ = ["GroundingStats", "check_evidence", "cited", "grounding_stats", "inline_evidence", "result_stats"]


def cited(result: Result, *, provider: str = "google") -> CitedText:
    """:func:`modelport.cite` of ``result``, computing sources from its grounding when it has none."""
    metadata = grounding_metadata(result)
    if not result.sources and metadata:
        parts = [p.text for p in result.content if isinstance(p, TextPart)]
        sources, citations, _ = citations_from_grounding(dict(metadata), parts, provider=provider)
        result = result.model_copy(update={"sources": sources, "citations": citations})
    return cite(result)


def inline_evidence(result: Result, *, provider: str = "google") -> str:
    """The answer with ``[n]`` markers plus its "Sources" list, ready to pass to another model."""
    return cited(result, provider=provider).with_sources()


class GroundingStats(BaseModel):
    """Query accounting of one grounded (or ungrounded) answer (S11)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    grounded: bool
    """Whether the answer carried any grounding metadata at all."""
    queries: int
    """Search queries the model ran (web and image)."""
    web_search_queries: int
    image_search_queries: int
    sources: int
    """Grounding chunks returned."""
    citations: int
    """Supports that could be placed on the text."""
    answer_bytes: int
    covered_bytes: int
    """Bytes of the answer inside at least one support (overlaps counted once)."""
    coverage: float
    """``covered_bytes / answer_bytes`` (0.0 for an empty answer)."""


def _count(metadata: Mapping[str, Any] | None, key: str) -> int:
    value = (metadata or {}).get(key)
    return len(value) if isinstance(value, list) else 0


def _stats(metadata: Mapping[str, Any] | None, text: str, citations: Sequence[Citation]) -> GroundingStats:
    index = ByteIndex(text)
    spans = sorted((index.byte_at(c.start), index.byte_at(c.end)) for c in citations if c.end <= len(text))
    covered, reach = 0, 0
    for start, end in spans:
        start = max(start, reach)
        if end > start:
            covered += end - start
            reach = end
    web, image = _count(metadata, "webSearchQueries"), _count(metadata, "imageSearchQueries")
    return GroundingStats(
        grounded=bool(metadata),
        queries=web + image,
        web_search_queries=web,
        image_search_queries=image,
        sources=_count(metadata, "groundingChunks"),
        citations=len(spans),
        answer_bytes=index.nbytes,
        covered_bytes=covered,
        coverage=covered / index.nbytes if index.nbytes else 0.0,
    )


def grounding_stats(
    metadata: Mapping[str, Any] | None, text_parts: Sequence[str], *, provider: str = "google"
) -> GroundingStats:
    """Accounting from raw ``groundingMetadata`` and the candidate's non-thought text parts."""
    parts = list(text_parts)
    citations: list[Citation] = []
    if metadata:
        _, citations, _ = citations_from_grounding(dict(metadata), parts, provider=provider)
    return _stats(metadata, "".join(parts), citations)


def result_stats(result: Result, *, provider: str = "google") -> GroundingStats:
    """Accounting of a result, from its grounding metadata and (or computed) citations."""
    metadata = grounding_metadata(result)
    if result.citations or not metadata:
        return _stats(metadata, result.text, result.citations)
    parts = [p.text for p in result.content if isinstance(p, TextPart)]
    return grounding_stats(metadata, parts, provider=provider)
