"""Exact replay of assistant turns (G5): raw Gemini parts, signatures included, sent back verbatim.

A result stores its candidate's raw parts under ``replay["google"]["parts"]``; ``Result.message`` copies
them into the assistant message's ``provider_metadata``. On the next turn those parts are sent as they
arrived — signatures on the exact part, empty signed text parts, server-side tool parts and all — after
checking that the canonical tool calls still match them, since Google rejects a history whose calls and
responses disagree.
"""

from __future__ import annotations

import json
from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import Message, ProviderMetadata, ToolCallPart, Warning

from ._parts import PartMapper

__all__ = ["MAX_REPLAY_BYTES", "MAX_REPLAY_PARTS", "ReplayedCall", "replay_metadata", "replay_parts"]

#: Most raw parts one assistant turn may carry for exact replay (Q4).
MAX_REPLAY_PARTS = 4_096
#: Most bytes (compact JSON) of one assistant turn's raw parts (Q4).
MAX_REPLAY_BYTES = 8 * 1024 * 1024

ReplayedCall = tuple[str, str, str | None]
"""``(canonical id, name, wire id or None)`` of a function call in a replayed turn."""


def _size(parts: list[Any]) -> int:
    return len(json.dumps(parts, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _size_bound(value: Any) -> int:
    """An upper bound of the compact JSON size, without encoding (6 bytes per char covers escapes)."""
    if isinstance(value, str):
        return 6 * len(value) + 2
    if isinstance(value, dict):
        return 2 + sum(_size_bound(k) + _size_bound(v) + 2 for k, v in value.items())
    if isinstance(value, list):
        return 2 + sum(_size_bound(v) + 1 for v in value)
    return 32  # numbers, booleans, null


def _over_bound(parts: list[Any]) -> str | None:
    if len(parts) > MAX_REPLAY_PARTS:
        return f"{len(parts)} raw parts (at most {MAX_REPLAY_PARTS})"
    # The exact size is computed only when the cheap bound cannot rule the limit out.
    if _size_bound(parts) > MAX_REPLAY_BYTES and _size(parts) > MAX_REPLAY_BYTES:
        return f"more than {MAX_REPLAY_BYTES} bytes of raw parts"
    return None


def replay_metadata(parts: list[dict[str, Any]]) -> tuple[ProviderMetadata | None, Warning | None]:
    """What a result stores for exact replay, or a warning when the turn is over the bound."""
    if not parts:
        return None, None
    problem = _over_bound(parts)
    if problem:
        return None, Warning(
            type="other",
            setting="replay",
            details=f"exact replay unavailable: the turn has {problem}; signatures will not be replayed",
        )
    return {"google": {"parts": parts}}, None


def replay_parts(message: Message) -> tuple[list[dict[str, Any]], list[ReplayedCall]] | None:
    """The raw parts to send for an assistant ``message`` and its function calls, or ``None``.

    Raises :class:`InvalidRequestError` when the stored parts are malformed, over the bound, or do not
    match the message's canonical tool calls in order.
    """
    google = (message.provider_metadata or {}).get("google")
    if not isinstance(google, dict) or "parts" not in google:
        return None
    parts = google["parts"]
    if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
        raise InvalidRequestError("provider_metadata['google']['parts'] must be a list of Gemini parts")
    problem = _over_bound(parts)
    if problem:
        raise InvalidRequestError(f"cannot replay an assistant turn with {problem}")
    mapper = PartMapper()
    calls: list[ReplayedCall] = []
    try:
        for raw in parts:
            part = mapper.map(raw)
            if isinstance(part, ToolCallPart) and not part.provider_executed:
                wire_id = raw["functionCall"].get("id")
                calls.append((part.id, part.name, wire_id if isinstance(wire_id, str) else None))
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        raise InvalidRequestError(f"provider_metadata['google']['parts'] is malformed: {error}") from None
    canonical = [
        (p.id, p.name) for p in message.content if isinstance(p, ToolCallPart) and not p.provider_executed
    ]
    if canonical != [(ident, name) for ident, name, _ in calls]:
        raise InvalidRequestError(
            "the assistant message's tool calls "
            f"{canonical} do not match its raw Gemini parts {[(i, n) for i, n, _ in calls]}; "
            "keep the message as returned, or drop its provider_metadata to send it without signatures"
        )
    return parts, calls
