"""Converse citations → the contract's numbered sources and the spans of ``Result.text`` they
support (pure; one function for generate and stream).

A content block that carries citations (a stream's ``citation`` deltas, a whole answer's
``citationsContent``) is the span its citations support: ``[start, end)`` of the answer text,
counted over the text blocks in order; one citation per source the block cites, with the words of
the source it quotes (``sourceContent`` texts, joined by a blank line). A citation's ``location``
names a request document by ``documentIndex`` (``documentChar``, ``documentPage``,
``documentChunk``): its source has ``kind="document"``, the document's ``title`` and, when it was
one of ``documents=``, its index there as ``id``. Sources are numbered from 1 in the order first
cited; one source cited twice keeps its number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from modelport.types import Citation, Source

__all__ = ["Span", "sources_and_citations"]

#: ``(start, end, citations)``: a block's span of the answer text and its citations as sent.
Span = tuple[int, int, list[Any]]
_DOCUMENT_LOCATIONS = ("documentChar", "documentPage", "documentChunk")


def _document_index(citation: dict[str, Any]) -> int | None:
    location = citation.get("location")
    if not isinstance(location, dict):
        return None
    for kind in _DOCUMENT_LOCATIONS:
        found = location.get(kind)
        if isinstance(found, dict) and type(found.get("documentIndex")) is int:
            index: int = found["documentIndex"]
            return index
    return None


def _quotes(citation: dict[str, Any]) -> list[str]:
    content = citation.get("sourceContent")
    if not isinstance(content, list):
        return []
    return [
        c["text"] for c in content if isinstance(c, dict) and isinstance(c.get("text"), str) and c["text"]
    ]


def sources_and_citations(
    spans: Iterable[Span], origins: Sequence[int | None]
) -> tuple[list[Source], list[Citation]]:
    """The numbered sources and the cited spans of ``spans``; ``origins`` gives, for each document
    block of the request, its index in ``documents=`` (``None``: a file part of a message)."""
    numbers: dict[int, int] = {}
    sources: list[Source] = []
    citations: list[Citation] = []
    for start, end, cited in spans:
        quotes: dict[int, list[str]] = {}  # source number → its quotes, in the order cited
        for citation in cited:
            index = _document_index(citation) if isinstance(citation, dict) else None
            if index is None:
                continue  # a location kind this decoder does not map
            if index not in numbers:
                numbers[index] = len(sources) + 1
                origin = origins[index] if 0 <= index < len(origins) else None
                title = citation.get("title")
                sources.append(
                    Source(
                        number=numbers[index],
                        title=title if isinstance(title, str) else None,
                        id=str(origin) if origin is not None else None,
                        kind="document",
                    )
                )
            said = quotes.setdefault(numbers[index], [])
            said += [quote for quote in _quotes(citation) if quote not in said]
        if end > start:
            citations += [
                Citation(start=start, end=end, sources=[number], cited_text="\n\n".join(said) or None)
                for number, said in quotes.items()
            ]
    return sources, citations
