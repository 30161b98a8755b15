"""S8: grounding supports (UTF-8 byte offsets) → the core's numbered sources and character spans.

``segment.startIndex``/``endIndex`` are byte offsets (``startIndex`` is omitted when 0) into the
candidate's non-thought text, or into part ``partIndex`` of it when given. Source *n* is chunk
*n - 1*. A support whose offsets fall mid-character, run past the text, or disagree with
``segment.text`` is re-anchored on ``segment.text`` when that text occurs (the occurrence nearest to
the given offset wins), else skipped; both are reported as warnings. Chunk indices out of range are
dropped (and reported). Nothing here raises on odd provider data: a support that cannot be used is
skipped with a warning. A source whose URI is not an absolute http(s) URL (``javascript:``,
``data:``, ``file:`` ...) keeps it, with a warning; renderers never show such a URI as a link. The
Cloud Storage URI (``gs://``) of a retrieved document (a ``retrievedContext`` chunk, Vertex RAG) is
what such a chunk normally carries, so it gets no warning (and is not rendered as a link either).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from modelport.errors import ProviderMetadataError
from modelport.types import CallWarning, Citation, Source

from ._offsets import ByteIndex
from ._validate import is_index

__all__ = ["citations_from_grounding", "sources_from_chunks"]

#: At most this many occurrences of ``segment.text`` are compared when re-anchoring.
_MAX_OCCURRENCES = 1_000

_CHUNK_KINDS = ("web", "retrievedContext", "image", "maps")
#: A chunk's kind → ``Source.kind``: a web result (or a fetched URL) is a page; a retrieved context
#: is a file of a store searched (File Search, Vertex RAG), as OpenAI's ``file_citation`` is; an
#: image or a place is neither, so not said.
_SOURCE_KINDS = {"web": "web-page", "retrievedContext": "file"}


def _string(value: object) -> str | None:
    return value if isinstance(value, str) else None


def sources_from_chunks(chunks: object) -> list[Source]:
    """One numbered source per grounding chunk (source n = chunk n - 1), empty chunks included."""
    sources: list[Source] = []
    for i, chunk in enumerate(chunks if isinstance(chunks, list) else ()):
        info: dict[str, Any] = {}
        kind = None
        if isinstance(chunk, dict):
            kind = next((k for k in _CHUNK_KINDS if isinstance(chunk.get(k), dict)), None)
            info = chunk[kind] if kind is not None else {}
        sources.append(
            Source(
                number=i + 1,
                title=_string(info.get("title")),
                uri=_string(info.get("uri")) or _string(info.get("sourceUri")),
                domain=_string(info.get("domain")),
                # A retrieved passage; the document's resource name is sent by Vertex AI Search
                # only (``documentName``): the Gemini API's File Search names its store, not a file.
                file_id=_string(info.get("documentName")),
                excerpt=_string(info.get("text")),
                kind=_SOURCE_KINDS.get(kind or ""),
            )
        )
    return sources


class _Skip(Exception):
    """A support that cannot be used; the message says why."""


def _nearest(haystack: str, needle: str, near: int) -> int | None:
    """Character offset of the occurrence of ``needle`` nearest to character offset ``near``."""
    best: int | None = None
    position = haystack.find(needle)
    seen = 0
    while position != -1 and seen < _MAX_OCCURRENCES:
        if best is None or abs(position - near) < abs(best - near):
            best = position
        if position > near:
            break
        seen += 1
        position = haystack.find(needle, position + 1)
    return best


def _offsets_problem(
    segment: dict[str, Any], index: ByteIndex, text: str | None
) -> tuple[str | None, tuple[int, int] | None]:
    """``(None, span)`` when the offsets are usable on ``index``, else ``(problem, None)``."""
    start = segment.get("startIndex", 0)
    start = 0 if start is None else start
    end = segment.get("endIndex")
    if not (is_index(start) and is_index(end)):
        return "has no valid startIndex/endIndex", None
    if start > end:
        return f"starts after it ends (bytes {start}..{end})", None
    if end > index.nbytes:
        return f"runs past the text (byte {end} of {index.nbytes})", None
    char_start, char_end = index.char_at(start), index.char_at(end)
    if char_start is None or char_end is None:
        return f"falls mid-character (bytes {start}..{end})", None
    if text is not None and index.text[char_start:char_end] != text:
        return f"does not match segment.text (bytes {start}..{end})", None
    return None, (char_start, char_end)


def _span(
    segment: dict[str, Any],
    part: tuple[int, ByteIndex] | None,
    whole: ByteIndex,
    support_no: int,
    warnings: list[CallWarning],
) -> tuple[int, int]:
    """The character span of ``segment`` in the joined text, re-anchored when needed.

    ``part`` is ``(first character, index)`` of the text the offsets refer to, ``None`` when the
    segment names a part that does not exist. Re-anchoring searches the whole joined text, so a
    wrong ``partIndex`` is recovered from as well as wrong offsets.
    """
    text = _string(segment.get("text"))
    problem: str | None
    if part is None:
        problem = f"names part {segment.get('partIndex')!r}, which does not exist"
        near = 0
    else:
        base, index = part
        problem, span = _offsets_problem(segment, index, text)
        if problem is None and span is not None:
            return base + span[0], base + span[1]
        start = segment.get("startIndex") or 0
        at = index.char_at(start) if is_index(start) else None
        near = base + (at if at is not None else 0)
    if text:
        found = _nearest(whole.text, text, near)
        if found is not None:
            warnings.append(
                CallWarning(
                    type="reanchored-citation",
                    setting=f"groundingSupports[{support_no}]",
                    details=f"citation re-anchored on segment.text: the support {problem}",
                )
            )
            return found, found + len(text)
    raise _Skip(f"the support {problem}" + (" and segment.text does not occur" if text else ""))


def _chunk_numbers(
    support: dict[str, Any], chunk_count: int, support_no: int, warnings: list[CallWarning]
) -> list[int]:
    raw = support.get("groundingChunkIndices")
    indices = raw if isinstance(raw, list) else []
    numbers: list[int] = []
    dropped: list[str] = []
    for i in indices:
        if is_index(i) and i < chunk_count:
            if i + 1 not in numbers:
                numbers.append(i + 1)
        else:
            dropped.append(repr(i))
    if dropped and numbers:
        warnings.append(
            CallWarning(
                type="skipped-citation",
                setting=f"groundingSupports[{support_no}]",
                details=f"dropped chunk indices out of range: {', '.join(dropped)}",
            )
        )
    if not numbers:
        raise _Skip("no chunk index in range" + (f" ({', '.join(dropped)})" if dropped else ""))
    return numbers


def _expected_storage_uri(chunk: object, uri: str) -> bool:
    retrieved = chunk.get("retrievedContext") if isinstance(chunk, dict) else None
    return isinstance(retrieved, dict) and uri[:5].lower() == "gs://" and uri.isprintable()


def _uri_warnings(chunks: object, sources: list[Source]) -> list[CallWarning]:
    raw = chunks if isinstance(chunks, list) else []
    warnings = []
    for source in sources:
        problem = _uri_problem(source.uri) if source.uri is not None else None
        if problem is not None and not _expected_storage_uri(raw[source.number - 1], source.uri or ""):
            warnings.append(
                CallWarning(
                    type="other",
                    setting=f"groundingChunks[{source.number - 1}]",
                    details=f"source {source.number} has a URI that is not an http(s) URL ({problem}); "
                    "it is not rendered as a link",
                )
            )
    return warnings


def citations_from_grounding(
    metadata: dict[str, Any], text_parts: list[str], *, provider: str
) -> tuple[list[Source], list[Citation], list[CallWarning]]:
    """Numbered sources, character-span citations and warnings for one candidate.

    ``text_parts`` are the candidate's non-thought text parts in order; spans refer to
    ``"".join(text_parts)`` (what ``Result.text`` is). ``segment.partIndex`` selects
    ``text_parts[partIndex]``: callers that pass ``""`` for each thought or non-text part keep
    that list aligned with the raw parts Google counts. Raises
    :class:`~modelport.errors.ProviderMetadataError` only when ``metadata`` is not an object or
    ``text_parts`` is not a list of strings; bad supports become ``skipped-citation`` warnings.
    """
    if not isinstance(metadata, dict):
        raise ProviderMetadataError("groundingMetadata must be an object", provider=provider)
    if (
        isinstance(text_parts, str)
        or not isinstance(text_parts, Sequence)
        or not all(isinstance(p, str) for p in text_parts)
    ):
        raise ProviderMetadataError("text parts must be a list of strings", provider=provider)
    sources = sources_from_chunks(metadata.get("groundingChunks"))
    supports = metadata.get("groundingSupports")
    citations: list[Citation] = []
    warnings: list[CallWarning] = _uri_warnings(metadata.get("groundingChunks"), sources)
    whole: ByteIndex | None = None
    parts: dict[int, tuple[int, ByteIndex]] = {}
    for number, support in enumerate(supports if isinstance(supports, list) else ()):
        local: list[CallWarning] = []
        try:
            if not isinstance(support, dict) or not isinstance(support.get("segment"), dict):
                raise _Skip("the support has no segment")
            segment: dict[str, Any] = support["segment"]
            chunk_numbers = _chunk_numbers(support, len(sources), number, local)
            whole = whole or ByteIndex("".join(text_parts))
            part = segment.get("partIndex")
            located: tuple[int, ByteIndex] | None = None
            if part is None:
                located = (0, whole)
            elif is_index(part) and part < len(text_parts):
                if part not in parts:
                    parts[part] = (sum(len(p) for p in text_parts[:part]), ByteIndex(text_parts[part]))
                located = parts[part]
            start, end = _span(segment, located, whole, number, local)
            citations.append(Citation(start=start, end=end, sources=chunk_numbers))
        except _Skip as skip:
            local.append(
                CallWarning(
                    type="skipped-citation", setting=f"groundingSupports[{number}]", details=str(skip)
                )
            )
        warnings.extend(local)
    return sources, citations, warnings


def _uri_problem(uri: str) -> str | None:
    from modelport.citations import uri_problem  # here: decoding a grounded answer builds no CitedText

    return uri_problem(uri)
