"""Provider-neutral citation rendering: ``[n]`` markers at the ends of cited character spans."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from .types import Citation, Result, Source

__all__ = ["CitedText", "check_evidence", "check_markers", "cite", "split_sources_block"]

_MARKER = re.compile(r"\[(\d+)\]")
_SOURCES_HEADING = "\n\nSources:\n"
_SOURCE_LINE = re.compile(r"^\[(\d+)\]")


class CitedText(BaseModel):
    """Text with ``[n]`` markers, the numbered sources, and the spans (in the unmarked text)."""

    model_config = ConfigDict(frozen=True)

    text: str
    sources: list[Source]
    citations: list[Citation]

    def __str__(self) -> str:
        return self.text

    def sources_block(self) -> str:
        """A plain "Sources" list: one ``[n] title - uri`` line per source."""
        lines = ["Sources:"]
        for source in self.sources:
            label = source.title or source.domain or source.uri or f"source {source.number}"
            line = f"[{source.number}] {label}"
            if source.uri and source.uri != label:
                line += f" - {source.uri}"
            lines.append(line)
        return "\n".join(lines)

    def with_sources(self) -> str:
        """The cited text followed by its Sources list, so sources survive being passed on."""
        if not self.sources:
            return self.text
        return f"{self.text}\n\n{self.sources_block()}"


def cite(result: Result) -> CitedText:
    """Insert ``[n]`` markers after each cited span of ``result.text``.

    Markers for spans ending at the same character are merged in ascending source order
    (``[1][3]``); spans that point past the text or at unknown sources are ignored.
    """
    text = result.text
    numbers = {s.number for s in result.sources}
    ends: dict[int, list[int]] = {}
    kept: list[Citation] = []
    for citation in result.citations:
        if citation.end > len(text):
            continue
        refs = [n for n in citation.sources if n in numbers]
        if not refs:
            continue
        kept.append(citation)
        bucket = ends.setdefault(citation.end, [])
        bucket.extend(n for n in refs if n not in bucket)
    pieces: list[str] = []
    position = 0
    for end in sorted(ends):
        pieces.append(text[position:end])
        pieces.append("".join(f"[{n}]" for n in sorted(ends[end])))
        position = end
    pieces.append(text[position:])
    return CitedText(text="".join(pieces), sources=list(result.sources), citations=kept)


def check_markers(text: str, sources: list[Source]) -> list[int]:
    """Marker numbers in ``text`` that point at no listed source (empty when all are valid)."""
    numbers = {s.number for s in sources}
    return sorted({int(m) for m in _MARKER.findall(text) if int(m) not in numbers})


def split_sources_block(text: str) -> tuple[str, list[int]]:
    """Split evidence text (as made by :meth:`CitedText.with_sources`) into body and listed numbers.

    The block is the last ``"Sources:"`` heading after a blank line; each of its lines that starts
    with ``[n]`` lists source ``n``. Text without such a block lists nothing.
    """
    at = text.rfind(_SOURCES_HEADING)
    if at != -1:
        body, block = text[:at], text[at + len(_SOURCES_HEADING) :]
    elif text.startswith(_SOURCES_HEADING[2:]):
        body, block = "", text[len(_SOURCES_HEADING) - 2 :]
    else:
        return text, []
    listed: list[int] = []
    for line in block.splitlines():
        match = _SOURCE_LINE.match(line.strip())
        if match and int(match.group(1)) not in listed:
            listed.append(int(match.group(1)))
    return body, listed


def check_evidence(text: str) -> list[int]:
    """Markers in the body of evidence text that point at no source of its own Sources list.

    Use it on text that went through another model or tool: an empty list means every ``[n]``
    marker still points at a listed source.
    """
    body, listed = split_sources_block(text)
    known = set(listed)
    return sorted({int(m) for m in _MARKER.findall(body) if int(m) not in known})
