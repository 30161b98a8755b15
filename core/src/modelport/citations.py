"""Provider-neutral citation rendering: ``[n]`` markers at the ends of cited character spans.

Also the text safety every renderer shares: :func:`strip_control_sequences` (and
:class:`ControlStripper` for text arriving in pieces) removes terminal control sequences from
provider text before it reaches a terminal, and :func:`is_web_uri` says which source URIs may be
rendered as links (absolute ``http``/``https`` URLs only).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

from .types import CallWarning, Citation, Result, Source, TextPart

__all__ = [
    "CitedSpan",
    "CitedText",
    "ControlStripper",
    "check_evidence",
    "check_markers",
    "cite",
    "cited_spans",
    "is_web_uri",
    "merge_results",
    "split_sources_block",
    "strip_control_sequences",
    "uri_problem",
]

# A marker's number has at most 4,000 digits: ``int()`` refuses longer ones (and no source has one).
_MARKER = re.compile(r"\[(\d{1,4000})\]")
_SOURCES_HEADING = "\n\nSources:\n"
_SOURCE_LINE = re.compile(r"^\[(\d{1,4000})\]")

# --------------------------------------------------------------------------- terminal safety

#: Any 7-bit control but tab and newline, DEL, and any 8-bit control: every control sequence starts
#: with one.
_CONTROL_CHAR = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

_CONTROL_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]"  # CSI: colours, cursor, clear screen
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])"  # OSC (titles, OSC 8 links), DCS, SOS, PM, APC ...
    r"[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c|(?=\x1b)|\Z)"  # ... up to BEL, ST, another ESC or the end
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]"  # any other escape sequence (ESC c resets, ESC ( B, ...)
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]",  # what is left: lone controls (CR, BS, BEL, ESC, 8-bit)
)

#: A control sequence still incomplete at the end of the text (held back by :class:`ControlStripper`).
_INCOMPLETE_TAIL = re.compile(
    r"(?:(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*\x1b?"
    r"|\x1b[\x20-\x2f]*)\Z"
)


def strip_control_sequences(text: str) -> str:
    """``text`` without terminal control sequences or control characters; newline and tab are kept.

    Removed: CSI sequences (``ESC [`` ...: colours, cursor moves, clear screen), OSC sequences
    (``ESC ]`` ...: window titles, OSC 8 hyperlinks, clipboard writes) up to BEL or ST, DCS, SOS, PM
    and APC strings, every other escape sequence, the 8-bit forms of all of them (``\\x9b``,
    ``\\x9d``, ...), and every remaining 7-bit or 8-bit control character and DEL (carriage return and
    backspace included). A string sequence without its terminator is removed to the end of ``text``.
    Use it on any provider text (answers, titles, URIs, error messages) bound for a terminal.
    """
    if _CONTROL_CHAR.search(text) is None:
        return text
    return _CONTROL_SEQUENCE.sub("", text)


class ControlStripper:
    """:func:`strip_control_sequences` for text arriving in pieces (stream deltas).

    A control sequence split across pieces is held back until it is complete (at most ``hold``
    characters), so no piece of it is ever printed. Call :meth:`flush` after the last piece.
    """

    def __init__(self, hold: int = 4096) -> None:
        self._hold = hold
        self._pending = ""

    def feed(self, piece: str) -> str:
        """The safe text of ``piece`` (plus what was held back), minus a trailing partial sequence."""
        text = self._pending + piece
        self._pending = ""
        if _CONTROL_CHAR.search(text) is None:
            return text
        tail = _INCOMPLETE_TAIL.search(text, max(0, len(text) - self._hold))
        if tail is not None:
            self._pending, text = text[tail.start() :], text[: tail.start()]
        return strip_control_sequences(text)

    def flush(self) -> str:
        """What is still held back, stripped (an unfinished sequence is dropped)."""
        text, self._pending = self._pending, ""
        return strip_control_sequences(text)


def uri_problem(uri: str) -> str | None:
    """Why a source URI must not be rendered as a link (``None`` for an absolute http(s) URL)."""
    if not uri:
        return "it is empty"
    if not uri.isprintable():  # (a plain space is printable: real grounding URIs carry them)
        return "it contains control characters or line breaks"
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", uri)
    if scheme is None:
        return "it has no scheme"
    name = scheme.group(1).lower()
    if name not in ("http", "https"):
        return f"its scheme is {name[:32]!r}" + ("..." if len(name) > 32 else "")
    try:
        host = urlsplit(uri).hostname
    except ValueError:
        host = None
    return None if host else "it has no host"


def is_web_uri(uri: object) -> bool:
    """Whether ``uri`` may be rendered as a link: an absolute ``http``/``https`` URL with a host and
    no control characters or line breaks (never ``javascript:``, ``data:``, ``file:`` ...)."""
    return isinstance(uri, str) and uri_problem(uri) is None


def _one_line(text: str) -> str:
    # Each line break (any that str.splitlines knows) becomes a space, so a title cannot add a line.
    return " ".join(strip_control_sequences(text).splitlines())


def _quoted(excerpt: str, limit: int = 80) -> str:
    words = " ".join(strip_control_sequences(excerpt).split())
    return f"“{words if len(words) <= limit else words[: limit - 1].rstrip() + '…'}”"


class CitedText(BaseModel):
    """Text with ``[n]`` markers, the numbered sources, and the spans (in the unmarked text)."""

    model_config = ConfigDict(frozen=True)

    text: str
    sources: list[Source]
    citations: list[Citation]

    def __str__(self) -> str:
        return self.text

    def sources_block(self) -> str:
        """A plain "Sources" list: one ``[n] title - uri`` line per source, in source order (a source
        with no title, domain, URI or file id shows the start of its excerpt, quoted).

        Every line is one line: line breaks in a title become spaces and control sequences are
        removed, so a title cannot forge another ``[n]`` line. Only http(s) URIs are shown
        (:func:`is_web_uri`); any other (``javascript:``, ``data:``, ...) is left out.
        """
        lines = ["Sources:"]
        for source in sorted(self.sources, key=lambda s: s.number):
            uri = source.uri if is_web_uri(source.uri) else None
            label = _one_line(source.title or source.domain or uri or source.file_id or "")
            if not label and source.excerpt:
                label = _quoted(source.excerpt)
            label = label or f"source {source.number}"
            line = f"[{source.number}] {label}"
            if uri and uri != label:
                line += f" - {uri}"
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


class CitedSpan(BaseModel):
    """One citation as a span of ``Result.text``: its character offsets ``[start, end)``, its UTF-8
    byte offsets ``[byte_start, byte_end)`` (``text.encode()[byte_start:byte_end]`` is the same
    span), the cited words themselves, the sources that support them, and the source's own words
    when the provider quotes them (``cited_text``)."""

    model_config = ConfigDict(frozen=True)

    start: int
    end: int
    byte_start: int
    byte_end: int
    text: str
    sources: list[Source]
    cited_text: str | None = None


def cited_spans(result: Result) -> list[CitedSpan]:
    """Every citation of ``result`` whose span lies in its text, with its listed sources (as
    :func:`cite` keeps them), the same on every provider, streamed or not."""
    text = result.text
    by_number = {s.number: s for s in result.sources}
    spans: list[CitedSpan] = []
    counted, byte_at = 0, 0  # the UTF-8 length of text[:counted], kept as offsets grow
    for citation in sorted(result.citations, key=lambda c: (c.start, c.end)):
        sources = [by_number[n] for n in citation.sources if n in by_number]
        if citation.end > len(text) or not sources:
            continue
        byte_at += len(text[counted : citation.start].encode())
        counted = citation.start
        spans.append(
            CitedSpan(
                start=citation.start,
                end=citation.end,
                byte_start=byte_at,
                byte_end=byte_at + len(text[citation.start : citation.end].encode()),
                text=text[citation.start : citation.end],
                sources=sources,
                cited_text=citation.cited_text,
            )
        )
    return spans


def merge_results(results: Sequence[Result], *, separator: str = "\n\n") -> Result:
    """One result whose text is the results' texts joined by ``separator``, every citation still
    selecting the words it cited and pointing at its own sources, the same on every provider.

    The sources of result *k* are renumbered 1, 2, ... after those of the results before it (in
    its order), its citations' spans are moved by the characters before it, and a citation keeps
    its ``cited_text``. A citation that does not lie within its own result's text, or names no
    source of its result, is dropped with a ``skipped-citation`` warning: moved, its stale offsets
    would select another answer's words. Warnings are concatenated; the finish reason is the last
    result's. Usage, provider metadata and replay state stay with each result (a provider's merge
    adds its own metadata, as ``modelport_google.grounding.merge_results`` does).
    """
    texts: list[str] = []
    sources: list[Source] = []
    citations: list[Citation] = []
    warnings: list[CallWarning] = []
    shift = 0
    for n, result in enumerate(results):
        if n:
            texts.append(separator)
            shift += len(separator)
        text = result.text
        warnings += result.warnings
        numbers = {s.number: len(sources) + i for i, s in enumerate(result.sources, 1)}
        sources += [s.model_copy(update={"number": numbers[s.number]}) for s in result.sources]
        for citation in result.citations:
            refs = [numbers[i] for i in citation.sources if i in numbers]
            if citation.end > len(text) or not refs:
                warnings.append(
                    CallWarning(
                        type="skipped-citation",
                        setting="citations",
                        details=f"result {n + 1}'s citation ({citation.start}, {citation.end}) of sources "
                        f"{citation.sources} is not a span of its {len(text)} characters with a listed "
                        "source; it is left out of the merged result",
                    )
                )
                continue
            update = {"start": citation.start + shift, "end": citation.end + shift, "sources": refs}
            citations.append(citation.model_copy(update=update))
        texts.append(text)
        shift += len(text)
    return Result(
        content=[TextPart(text="".join(texts))],
        finish_reason=results[-1].finish_reason if results else "stop",
        raw_finish_reason=results[-1].raw_finish_reason if results else None,
        warnings=warnings,
        sources=sources,
        citations=citations,
    )


def check_markers(text: str, sources: list[Source]) -> list[int]:
    """Marker numbers in ``text`` that point at no listed source (empty when all are valid)."""
    numbers = {s.number for s in sources}
    return sorted({int(m) for m in _MARKER.findall(text) if int(m) not in numbers})


def split_sources_block(text: str) -> tuple[str, list[int]]:
    """Split evidence text (as made by :meth:`CitedText.with_sources`) into body and listed numbers.

    The block is the last ``"Sources:"`` heading after a blank line; each of its lines that starts
    with ``[n]`` lists source ``n``. Text without such a block lists nothing.
    :meth:`CitedText.sources_block` lists each source once, in ascending order: a block whose
    numbers repeat or go backwards has been tampered with (a forged line) and lists nothing.
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
        if match:
            number = int(match.group(1))
            if listed and number <= listed[-1]:
                return body, []
            listed.append(number)
    return body, listed


def check_evidence(text: str) -> list[int]:
    """Markers in the body of evidence text that point at no source of its own Sources list.

    Use it on text that went through another model or tool: an empty list means every ``[n]``
    marker still points at a listed source.
    """
    body, listed = split_sources_block(text)
    known = set(listed)
    return sorted({int(m) for m in _MARKER.findall(body) if int(m) not in known})
