"""Exact replay of assistant turns (G5): raw Gemini parts, signatures included, sent back verbatim.

A result stores its candidate's raw parts under ``replay["google"]["parts"]``; ``Result.message`` copies
them into the assistant message's ``provider_metadata``. On the next turn those parts are sent as they
arrived — signatures on the exact part, empty signed text parts, server-side tool parts and all — as
long as the message's visible text and call arguments still say what they say. An edited message (a
redacted text, changed call arguments) is sent as edited, with signatures only on the parts left
unchanged, so an edit always reaches the wire.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from modelport.errors import InvalidRequestError
from modelport.reasoning import without_reasoning_state
from modelport.types import (
    CallWarning,
    Message,
    Part,
    ProviderMetadata,
    ReasoningPart,
    TextPart,
    ToolCallPart,
)
from modelport.wire import REENCODED_RATIO

from ._parts import PartMapper, answered_calls

__all__ = [
    "FOREIGN_SIGNATURE",
    "MAX_REPLAY_BYTES",
    "MAX_REPLAY_PARTS",
    "ReplayedCall",
    "from_other_model",
    "replay_metadata",
    "replay_parts",
]

#: Most raw parts one assistant turn may carry for exact replay (Q4).
MAX_REPLAY_PARTS = 4_096
#: Most bytes (compact JSON) of one assistant turn's raw parts (Q4).
MAX_REPLAY_BYTES = 8 * 1024 * 1024

ReplayedCall = tuple[str, str, str | None]
"""``(canonical id, name, wire id or None)`` of a function call in a replayed turn."""


#: Google's documented stand-in thought signature for a function call the model did not produce
#: itself (history from another model, e.g. Gemini 2.5 turns sent to Gemini 3): it passes the
#: signature validation Gemini 3 applies to the first function call of each step, which answers 400
#: without a signature (https://ai.google.dev/gemini-api/docs/thought-signatures, FAQ).
FOREIGN_SIGNATURE = "skip_thought_signature_validator"

_GENERATION = re.compile(r"gemini-(\d+)")


def _validates_signatures(model_name: str) -> bool:
    """Whether ``model_name`` is a Gemini 3 or later model (those validate thought signatures)."""
    found = _GENERATION.search(model_name)
    return found is not None and int(found.group(1)) >= 3


def from_other_model(message: Message, model_name: str) -> Message:
    """Google's rule for an assistant turn another Gemini model produced, sent to ``model_name``.

    A thought signature is valid only for the model that made it, so the turn's signatures, its
    raw parts and its thoughts are dropped; its text and function calls are sent as content. For a
    model that validates signatures (Gemini 3 and later) the first function call of the turn (one
    turn is one step) carries :data:`FOREIGN_SIGNATURE`, as Google documents for such history.
    """
    sent = without_reasoning_state(message)
    if not _validates_signatures(model_name):
        return sent
    for index, part in enumerate(sent.content):
        if isinstance(part, ToolCallPart) and not part.provider_executed:
            metadata = {**(part.provider_metadata or {}), "google": {"thoughtSignature": FOREIGN_SIGNATURE}}
            content = list(sent.content)
            content[index] = part.model_copy(update={"provider_metadata": metadata})
            return sent.model_copy(update={"content": content})
    return sent


def _size(parts: Sequence[Any]) -> int:
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


def _over_bound(parts: Sequence[Any], source_bytes: int | None = None) -> str | None:
    if len(parts) > MAX_REPLAY_PARTS:
        return f"{len(parts)} raw parts (at most {MAX_REPLAY_PARTS})"
    if source_bytes is not None and source_bytes * REENCODED_RATIO <= MAX_REPLAY_BYTES:
        return None  # parsed from a text too small for its parts to reach the bound (P4)
    # The exact size is computed only when the cheap bound cannot rule the limit out.
    if _size_bound(parts) > MAX_REPLAY_BYTES and _size(parts) > MAX_REPLAY_BYTES:
        return f"more than {MAX_REPLAY_BYTES} bytes of raw parts"
    return None


def replay_metadata(
    parts: Sequence[Mapping[str, Any]], *, source_bytes: int | None = None
) -> tuple[ProviderMetadata | None, CallWarning | None]:
    """What a result stores for exact replay, or a warning when the turn is over the bound.

    ``source_bytes``: the size of the JSON text ``parts`` were parsed from, when they all come from
    one (:func:`modelport.wire.source_bytes`; a stream's parts come from many frames, so not there).
    """
    if not parts:
        return None, None
    problem = _over_bound(parts, source_bytes)
    if problem:
        return None, CallWarning(
            type="other",
            setting="replay",
            details=f"exact replay unavailable: the turn has {problem}; signatures will not be replayed",
        )
    return {"google": {"parts": parts}}, None


Fresh = Callable[[Part, "str | None"], "dict[str, Any] | None"]
"""Builds an unsigned raw part for an edited canonical part (and the call's wire id, if any)."""


def _is_call(part: object) -> bool:
    return isinstance(part, ToolCallPart) and not part.provider_executed


def _segments(parts: Sequence[Part | None]) -> tuple[list[str], list[list[TextPart]], list[ToolCallPart]]:
    """The visible text between function calls (one entry more than there are calls), its text
    parts, and the calls, in order."""
    texts: list[list[TextPart]] = [[]]
    calls: list[ToolCallPart] = []
    for part in parts:
        if isinstance(part, ToolCallPart) and not part.provider_executed:
            calls.append(part)
            texts.append([])
        elif isinstance(part, TextPart):
            texts[-1].append(part)
    return ["".join(p.text for p in segment) for segment in texts], texts, calls


def replay_parts(
    message: Message, fresh: Fresh
) -> tuple[list[dict[str, Any]], list[ReplayedCall], bool] | None:
    """The raw parts to send for an assistant ``message``, its function calls, and whether it was
    edited; ``None`` when it carries no raw parts.

    While the message's text, reasoning text and call arguments still say what the raw parts say,
    the raw parts are sent verbatim (signatures, empty signed parts, server-side tool parts and
    all). When they were edited (a name redacted, call arguments changed), the edited content is
    sent: the edited text in place of the raw text between the same calls, an edited thought or call
    in place of its raw one, each built by ``fresh`` without a signature; every other part keeps its
    raw form and signature. Raises :class:`InvalidRequestError` when the stored parts are
    malformed or over the bound, or when the function calls themselves (ids, names, order) no
    longer match, which Google would reject as a broken call/response history.
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
    try:
        mapper = PartMapper(answered_calls(parts))
        mapped = [mapper.map(raw) for raw in parts]
        wire_ids = [
            raw["functionCall"].get("id") if _is_call(part) else None
            for raw, part in zip(parts, mapped, strict=True)
        ]
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        raise InvalidRequestError(f"provider_metadata['google']['parts'] is malformed: {error}") from None
    raw_text, _, raw_calls = _segments(mapped)
    text, text_parts, calls = _segments(message.content)
    if [(c.id, c.name) for c in calls] != [(c.id, c.name) for c in raw_calls]:
        raise InvalidRequestError(
            "the assistant message's tool calls "
            f"{[(c.id, c.name) for c in calls]} do not match its raw Gemini parts "
            f"{[(c.id, c.name) for c in raw_calls]}; "
            "keep the message as returned, or drop its provider_metadata to send it without signatures"
        )
    replayed = [
        (c.id, c.name, w if isinstance(w, str) else None)
        for c, w in zip(
            raw_calls, [w for w, p in zip(wire_ids, mapped, strict=True) if _is_call(p)], strict=True
        )
    ]
    edited_text = {k for k, (a, b) in enumerate(zip(raw_text, text, strict=True)) if a != b}
    edited_calls = {k for k, (a, b) in enumerate(zip(raw_calls, calls, strict=True)) if a.args != b.args}
    thoughts = [p for p in message.content if isinstance(p, ReasoningPart)]
    raw_thoughts = [p.text for p in mapped if isinstance(p, ReasoningPart)]
    edited_thoughts = [p.text for p in thoughts] != raw_thoughts
    if not edited_text and not edited_calls and not edited_thoughts:
        return parts, replayed, False
    sent: list[dict[str, Any]] = []
    written: set[int] = set()

    def write_text(segment: int) -> None:
        if segment in edited_text and segment not in written:
            written.add(segment)
            sent.extend(r for r in (fresh(p, None) for p in text_parts[segment] if p.text) if r is not None)

    # Thoughts edited in place (same count) are replaced one for one; otherwise the message's
    # thoughts, unsigned, stand where the first raw thought stood.
    in_place = len(thoughts) == len(raw_thoughts)
    thought = 0
    segment = 0
    for raw, part, wire_id in zip(parts, mapped, wire_ids, strict=True):
        if isinstance(part, ReasoningPart) and edited_thoughts:
            if in_place:
                if thoughts[thought].text == part.text:
                    sent.append(raw)
                else:
                    _extend(sent, fresh(thoughts[thought], None))
            elif thought == 0:
                for edited in thoughts:
                    _extend(sent, fresh(edited, None))
            thought += 1
        elif isinstance(part, TextPart) and segment in edited_text:
            write_text(segment)
        elif _is_call(part):
            write_text(segment)
            if segment in edited_calls:
                call = fresh(calls[segment], wire_id if isinstance(wire_id, str) else None)
                if call is not None:
                    sent.append(call)
            else:
                sent.append(raw)
            segment += 1
        else:
            sent.append(raw)
    write_text(segment)
    if edited_thoughts and not raw_thoughts:
        sent[:0] = [r for r in (fresh(t, None) for t in thoughts) if r is not None]
    return sent, replayed, True


def _extend(sent: list[dict[str, Any]], raw: dict[str, Any] | None) -> None:
    if raw is not None:
        sent.append(raw)
