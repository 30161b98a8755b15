"""S7: accumulating ``groundingMetadata`` across stream frames.

Gemini may spread grounding over several frames while the indices refer to the combined response.
The stable list fields are appended in provider order; a frame whose list starts with the whole
accumulated list is cumulative and replaces it (so nothing is duplicated), also when it revises an
item it repeats (a support with the same segment start, a chunk with the same URI); every other field takes
the latest frame's value. The ``{}`` placeholders that 2.5 models send on every frame change
nothing, and neither does a ``null`` field or an empty ``{}`` value of a field that already has
one. The size bound is checked after every grounded frame, so a hostile stream cannot grow the
metadata without limit.
"""

from __future__ import annotations

from typing import Any

from ._validate import LIST_FIELDS, check_shape, check_size, ensure_json

__all__ = ["GroundingAccumulator"]

_CHUNK_KINDS = ("web", "retrievedContext", "maps", "image")


def _identity(key: str, item: object) -> object:
    """What makes a list item "the same item" across frames, when a later frame revises it: a
    support's segment start (and part), a chunk's URI; other items only by equality."""
    if not isinstance(item, dict):
        return None
    if key == "groundingSupports":
        segment = item.get("segment")
        if isinstance(segment, dict):
            return ("support", segment.get("partIndex"), segment.get("startIndex") or 0)
    elif key == "groundingChunks":
        for kind in _CHUNK_KINDS:
            source = item.get(kind)
            if isinstance(source, dict) and isinstance(source.get("uri"), str):
                return ("chunk", kind, source["uri"])
    return None


def _cumulative(key: str, value: list[Any], current: list[Any]) -> bool:
    """Whether a frame's list repeats the accumulated one (possibly revising items) rather than
    adding to it: it is at least as long, each accumulated item is equal to, or the same item as,
    the one at its position, and at least one is repeated exactly."""
    if len(value) < len(current):
        return False
    exact = 0
    for new, old in zip(value, current, strict=False):
        if new == old:
            exact += 1
        elif _identity(key, new) is None or _identity(key, new) != _identity(key, old):
            return False
    # A revision is recognised next to repeated items: a lone changed item may as well be new.
    return exact > 0 or not current


class GroundingAccumulator:
    """Fold the ``groundingMetadata`` of successive frames into one value.

    Examples:
        >>> acc = GroundingAccumulator(provider="google")
        >>> acc.add({})
        >>> acc.add({"webSearchQueries": ["a"]})
        >>> acc.add({"webSearchQueries": ["b"], "searchEntryPoint": {"renderedContent": "<b>"}})
        >>> acc.result()
        {'webSearchQueries': ['a', 'b'], 'searchEntryPoint': {'renderedContent': '<b>'}}
    """

    def __init__(self, *, provider: str = "google") -> None:
        self.provider = provider
        self._merged: dict[str, Any] = {}
        self._grounded = False

    def add(self, raw_frame_metadata: object) -> None:
        """Fold one frame's ``groundingMetadata`` (``None`` when the frame has none)."""
        if raw_frame_metadata is None:
            return
        frame = check_shape(raw_frame_metadata, provider=self.provider)
        if not frame:
            return
        ensure_json(frame, provider=self.provider)
        merged = self._merged
        for key, value in frame.items():
            if key in LIST_FIELDS and isinstance(value, list):
                current = merged.get(key)
                if not isinstance(current, list) or _cumulative(key, value, current):
                    merged[key] = list(value)
                else:
                    merged[key] = current + value
            elif value is None or (value == {} and key in merged):
                continue  # an empty placeholder never erases what earlier frames sent
            else:
                merged[key] = value
        self._grounded = True
        check_size(merged, provider=self.provider)

    @property
    def grounded(self) -> bool:
        """Whether any frame carried non-empty grounding."""
        return self._grounded

    def result(self) -> dict[str, Any] | None:
        """The accumulated metadata, or ``None`` when no frame carried any (only ``{}`` or none)."""
        if not self._grounded:
            return None
        return {k: list(v) if isinstance(v, list) else v for k, v in self._merged.items()}
