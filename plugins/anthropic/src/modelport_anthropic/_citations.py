"""A text block's ``citations`` → the contract's numbered sources and the spans of ``Result.text``
they support (pure; one function for generate and stream).

Each Anthropic text block that carries citations is the span its citations support: ``[start,
end)`` of the answer text, counted over the text blocks in order; one citation per source the
block cites, with the source's words it quotes (``cited_text``; several quotes of one source in
one block joined by a blank line). A citation names its source by
kind: ``web_search_result_location`` and ``search_result_location`` by URL (``url`` / ``source``)
and title, ``char_location``, ``page_location`` and ``content_block_location`` by the document
(``document_index`` and ``document_title``). Sources are numbered from 1 in the order first cited;
one source cited twice keeps its number. A document's source has ``kind="document"`` and its
``document_index`` as ``id`` (the index in ``documents=``, whose blocks come first); a web search
result's has ``kind="web-page"``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from modelport.types import Citation, Source

__all__ = ["Span", "sources_and_citations"]

#: ``(start, end, citations)``: a text block's span of the answer text and its citations as sent.
Span = tuple[int, int, list[Any]]


def _source_key(citation: dict[str, Any]) -> tuple[Any, ...] | None:
    kind = citation.get("type")
    if kind == "web_search_result_location":
        return ("url", citation.get("url"))
    if kind == "search_result_location":
        return ("url", citation.get("source"))
    if kind in ("char_location", "page_location", "content_block_location"):
        return ("document", citation.get("document_index"), citation.get("document_title"))
    return None


def _source(number: int, citation: dict[str, Any]) -> Source:
    uri = citation.get("url") or citation.get("source")
    uri = uri if isinstance(uri, str) and uri else None
    title = citation.get("title") or citation.get("document_title")
    domain = urlsplit(uri).hostname if uri is not None else None
    kind = citation.get("type")
    index = citation.get("document_index")
    return Source(
        number=number,
        title=title if isinstance(title, str) else None,
        uri=uri,
        domain=domain,
        id=str(index) if kind in _DOCUMENT_KINDS and type(index) is int else None,
        kind=_KINDS.get(kind) if isinstance(kind, str) else None,
    )


_DOCUMENT_KINDS = ("char_location", "page_location", "content_block_location")
#: A citation's type → what its source is (``search_result_location``: a search result block, the
#: output of the caller's own tool or a document it passed: not said).
_KINDS = {"web_search_result_location": "web-page", **dict.fromkeys(_DOCUMENT_KINDS, "document")}


def sources_and_citations(spans: Iterable[Span]) -> tuple[list[Source], list[Citation]]:
    """The numbered sources and the cited spans of ``spans``."""
    numbers: dict[tuple[Any, ...], int] = {}
    sources: list[Source] = []
    citations: list[Citation] = []
    for start, end, cited in spans:
        quotes: dict[int, list[str]] = {}  # source number → its quotes, in the order cited
        for citation in cited:
            key = _source_key(citation) if isinstance(citation, dict) else None
            if key is None:
                continue
            if key not in numbers:
                numbers[key] = len(sources) + 1
                sources.append(_source(numbers[key], citation))
            said = quotes.setdefault(numbers[key], [])
            quote = citation.get("cited_text")
            if isinstance(quote, str) and quote and quote not in said:
                said.append(quote)
        if end > start:
            citations += [
                Citation(start=start, end=end, sources=[number], cited_text="\n\n".join(said) or None)
                for number, said in quotes.items()
            ]
    return sources, citations
