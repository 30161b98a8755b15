"""S9: merging grounded answers into one text, keeping every citation pointing at the right source.

Each answer's chunk indices refer to its own chunk list and its offsets to its own text. When the
answers are concatenated, the chunk lists are concatenated too, so the chunk indices of answer *k*
are shifted by the number of chunks before it, and its byte offsets by the UTF-8 length of the text
(and separators) before it. Segments given relative to a part (``partIndex``) become absolute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from modelport import citations
from modelport.types import Result, TextPart

from .._parts import text_of
from ._access import grounding_metadata, with_grounding
from ._validate import LIST_FIELDS, check_shape, validate_grounding_metadata

__all__ = ["merge_grounding", "merge_results"]

_MERGED_LISTS = ("groundingChunks", "webSearchQueries", "imageSearchQueries")


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _shift_support(support: object, parts: Sequence[str], byte_shift: int, chunk_shift: int) -> object:
    if not isinstance(support, dict):
        return support
    shifted = dict(support)
    indices = support.get("groundingChunkIndices")
    if isinstance(indices, list):
        shifted["groundingChunkIndices"] = [
            i + chunk_shift if isinstance(i, int) and not isinstance(i, bool) else i for i in indices
        ]
    segment = support.get("segment")
    if isinstance(segment, dict):
        segment = dict(segment)
        base = byte_shift
        part = segment.pop("partIndex", None)  # never kept: it would index the wrong, merged parts
        if isinstance(part, int) and not isinstance(part, bool) and 0 <= part < len(parts):
            base += _utf8_len("".join(parts[:part]))
        elif part is not None:
            # A part this answer does not have: anchor on segment.text when it occurs in the
            # answer, else drop the offsets (an unusable support, never a wrong one).
            text = segment.get("text")
            joined = "".join(parts)
            found = joined.find(text) if isinstance(text, str) and text else -1
            segment.pop("startIndex", None)
            segment.pop("endIndex", None)
            if found >= 0:
                start = byte_shift + _utf8_len(joined[:found])
                segment.update(startIndex=start, endIndex=start + _utf8_len(text))  # type: ignore[arg-type]
            shifted["segment"] = segment
            return shifted
        for key in ("startIndex", "endIndex"):
            value = segment.get(key, 0 if key == "startIndex" else None)
            if isinstance(value, int) and not isinstance(value, bool):
                segment[key] = value + base
        shifted["segment"] = segment
    return shifted


def merge_grounding(
    answers: Sequence[tuple[str | Sequence[str], Mapping[str, Any] | None]],
    *,
    separator: str = "\n\n",
    provider: str = "google",
) -> tuple[str, dict[str, Any] | None]:
    """Concatenate grounded answers: ``(text or text parts, groundingMetadata or None)`` pairs.

    Returns the joined text (answers separated by ``separator``) and one ``groundingMetadata``
    whose supports index that text and the concatenated chunk list; ``None`` when no answer was
    grounded. List fields are concatenated in order; other fields take the last answer's value.
    The result is validated like provider metadata (shape, JSON, size).
    """
    texts: list[str] = []
    merged: dict[str, Any] = {}
    byte_shift = 0
    chunk_shift = 0
    grounded = False
    for n, (text, metadata) in enumerate(answers):
        parts = [text] if isinstance(text, str) else list(text)
        if n:
            texts.append(separator)
            byte_shift += _utf8_len(separator)
        joined = "".join(parts)
        texts.append(joined)
        if metadata:
            grounded = True
            meta = check_shape(dict(metadata), provider=provider)
            supports = [
                _shift_support(s, parts, byte_shift, chunk_shift) for s in meta.get("groundingSupports") or []
            ]
            merged.setdefault("groundingSupports", []).extend(supports)
            for key in _MERGED_LISTS:
                merged.setdefault(key, []).extend(meta.get(key) or [])
            for key, value in meta.items():
                if key not in LIST_FIELDS and value not in (None, {}):
                    merged[key] = value
            chunk_shift += len(meta.get("groundingChunks") or [])
        byte_shift += _utf8_len(joined)
    if not grounded:
        return "".join(texts), None
    merged = {k: v for k, v in merged.items() if v != []}
    return "".join(texts), validate_grounding_metadata(merged, provider=provider)


def _text_parts(result: Result, provider: str) -> list[str]:
    """The text of each raw part Google counts in ``partIndex`` (``""`` for thought and non-text
    parts), from the result's replay parts when it has them, else its text parts."""
    raw = ((result.replay or {}).get(provider) or {}).get("parts")
    if isinstance(raw, list) and all(isinstance(p, dict) for p in raw):
        parts = text_of(raw)
        if "".join(parts) == result.text:
            return parts
    return [p.text for p in result.content if isinstance(p, TextPart)]


def merge_results(results: Sequence[Result], *, separator: str = "\n\n", provider: str = "google") -> Result:
    """One result whose text is the results' texts joined, with renumbered sources and citations.

    :func:`modelport.citations.merge_results` (renumbered sources, moved spans, the rules every
    provider shares) with grounding metadata (``provider_metadata["google"]["groundingMetadata"]``)
    that is :func:`merge_grounding` of the results' metadata.
    """
    merged = citations.merge_results(results, separator=separator)
    _, metadata = merge_grounding(
        [(_text_parts(r, provider), grounding_metadata(r)) for r in results],
        separator=separator,
        provider=provider,
    )
    return merged.model_copy(update={"provider_metadata": with_grounding({}, metadata)})
