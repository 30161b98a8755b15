"""Derived fault cases: checks built from a plugin's own recordings, with no golden.

- ``cut``: a stream cut cleanly at a frame boundary before its terminal frame must raise
  :class:`~modelport.errors.StreamInterruptedError`, and cut in the middle of a ``data:`` line
  that or a :class:`~modelport.errors.ProviderResponseError` (its last frame is not JSON); either
  way its ``partial`` must equal what the prefix decodes to: the partial of the same prefix
  followed by a broken connection
  (:func:`~modelport_conformance.derived_replay.replay_broken`). A unary answer's JSON body cut
  short (to one byte, to half, to all but its last byte) must raise a typed modelport error,
  never give a result;
- ``unterminated``: a stream with a terminal frame removed is never a complete result. A provider
  class that declares ``stream_end`` (``kind``, ``terminal``, ``required``; the kit's
  ``modelport.http.StreamEnd``) has each frame whose ``kind`` field is in ``terminal | required``
  (for frames without a kind: each frame whose ``status`` ends the stream, and the ``[DONE]``
  marker when the rule says ``done``)
  removed in turn; one that does not, its last frame.

Cut points are bounded per case (:data:`MAX_BOUNDARY_CUTS`, :data:`MAX_LINE_CUTS`), chosen evenly
over the frames up to the terminal one, always with the first and the last, so the same case gives
the same cuts on every run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from modelport import plugins
from modelport.errors import ModelportError, ProviderResponseError, StreamInterruptedError

from .cases import Case, Suite
from .cassette import body_bytes
from .derived_replay import Derived, frame_blocks, frame_kind, replay_body, replay_broken, stream_interaction
from .jsondiff import diff_json, format_differences
from .outcomes import CheckOutcome
from .replay import Execution, describe_exception, is_crash

__all__ = [
    "MAX_BOUNDARY_CUTS",
    "MAX_LINE_CUTS",
    "cut_check",
    "evenly",
    "stream_end_rule",
    "terminal_frames",
    "unterminated_check",
]

#: At most this many cuts at frame boundaries per stream case (the first and last always).
MAX_BOUNDARY_CUTS = 6
#: At most this many cuts inside a ``data:`` line per stream case (the terminal frame's always).
MAX_LINE_CUTS = 3
#: What a cut inside a frame may raise: the stream broke, or (docs/reliability.md, Q3) its last
#: frame is not valid JSON; either way with the partial.
_INSIDE = (StreamInterruptedError, ProviderResponseError)
#: The fields of a partial result compared with the decode of the prefix.
_PARTIAL_FIELDS = {"content", "response_id", "model_version"}


def evenly(count: int, limit: int) -> list[int]:
    """``limit`` indices spread evenly over ``range(count)``, the first and the last included
    (all of them when there are no more than ``limit``)."""
    if count <= limit:
        return list(range(count))
    if limit <= 1:
        return [count - 1]
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def stream_end_rule(suite: Suite) -> Any:
    """The provider class's ``stream_end`` rule (``None`` when it declares none)."""
    try:
        provider = plugins.provider_class(suite.provider_id)
    except ModelportError:
        return None
    return getattr(provider, "stream_end", None)


def terminal_frames(entries: Sequence[dict[str, Any]], rule: Any) -> tuple[list[int], list[int]]:
    """``(terminal, removable)`` entry indices: the frames that end the stream, and the frames the
    ``unterminated`` check removes one at a time (terminal and required ones). Without a rule, both
    are the last frame with data (a trailing comment or keep-alive is no end)."""
    if rule is None:
        last = [i for i, entry in enumerate(entries) if "data" in entry][-1:]
        return last, last
    key = getattr(rule, "kind", None)
    terminal = frozenset(getattr(rule, "terminal", ()) or ())
    required = frozenset(getattr(rule, "required", ()) or ())
    kinds = [frame_kind(entry, key) for entry in entries]
    ends = {i for i, kind in enumerate(kinds) if kind in terminal}
    removable = {i for i, kind in enumerate(kinds) if kind in terminal | required}
    carries = getattr(rule, "ends", None)  # frames without a kind: the one whose status ends it
    if key is None and bool(getattr(rule, "status", None)) and callable(carries):
        found = {i for i, e in enumerate(entries) if isinstance(e.get("data"), dict) and carries(e["data"])}
        ends |= found
        removable |= found
    if getattr(rule, "done", False):  # the body's data: [DONE] marker
        marks = {i for i, entry in enumerate(entries) if entry.get("data") == "[DONE]"}
        ends |= marks
        removable |= marks
    return sorted(ends), sorted(removable)


def _label(entries: Sequence[dict[str, Any]], index: int) -> str:
    kind = frame_kind(entries[index]) if index < len(entries) else None
    return f"frame {index + 1} of {len(entries)}" + (f" ({kind})" if kind else "")


def _cuts(entries: Sequence[dict[str, Any]], blocks: list[bytes], end: int) -> list[tuple[Derived, int]]:
    """The cut bodies of one stream, each with the number of whole frames it keeps."""
    cuts = [
        (Derived(f"cut before {_label(entries, k)}", b"".join(blocks[:k])), k)
        for k in evenly(end + 1, MAX_BOUNDARY_CUTS)
    ]
    for k in reversed(evenly(end + 1, MAX_LINE_CUTS)):
        block = blocks[k]
        start = block.find(b"data:")
        if start < 0:
            continue
        stop = block.find(b"\n", start)
        middle = start + max(1, ((stop if stop > 0 else len(block)) - start) // 2)
        cuts.append((Derived(f"cut inside {_label(entries, k)}", b"".join(blocks[:k]) + block[:middle]), k))
    return cuts


def _partial_form(result: Any) -> dict[str, Any]:
    if result is None:
        return {"content": []}
    dumped: dict[str, Any] = result.model_dump(mode="json", exclude_none=True, include=_PARTIAL_FIELDS)
    dumped.setdefault("content", [])
    return dumped


def _cut_problem(label: str, run: Execution, expected: dict[str, Any]) -> str | None:
    error = run.error
    if error is None:
        reason = run.events[-1].finish_reason if run.events else None  # type: ignore[union-attr]
        return f"{label}: reported complete (finish_reason {reason!r}); expected StreamInterruptedError"
    if is_crash(error):
        return f"{label}: raised {describe_exception(error)}"
    allowed = _INSIDE if label.startswith("cut inside") else (StreamInterruptedError,)
    if not isinstance(error, allowed):
        wanted = " or ".join(kind.__name__ for kind in allowed)
        return f"{label}: raised {type(error).__name__}: {error}; expected {wanted}"
    differences = diff_json(expected, _partial_form(error.partial), "$.partial")
    if differences:
        return f"{label}: the partial differs from the decode of the prefix:\n" + format_differences(
            differences
        )
    return None


@dataclasses.dataclass(frozen=True)
class _Stream:
    """A case's one recorded stream: which interaction, its SSE entries and their wire bytes, the
    frames that end it and those the ``unterminated`` check removes."""

    index: int
    entries: Sequence[dict[str, Any]]
    blocks: list[bytes]
    ends: list[int]
    removable: list[int]


def _skip(case: Case, run: Execution, name: str) -> CheckOutcome | None:
    """The skip outcome of check ``name`` for a case no derived fault case is built from."""
    if case.method == "batch":
        return CheckOutcome(name, "skip", "a batch: its exchanges are covered by its own steps")
    if run.error is not None:
        return CheckOutcome(name, "skip", "the recorded call ends in an error")
    return None


def _stream(suite: Suite, case: Case, name: str) -> _Stream | CheckOutcome:
    """The case's recorded stream, or the skip outcome of check ``name`` when it has none to derive
    from (``cut`` needs a terminal frame, ``unterminated`` one to remove)."""
    index = stream_interaction(case)
    if index is None:
        return CheckOutcome(name, "skip", "the stream has no single SSE body")
    entries = case.cassette.interactions[index].response["body"]["sse"]
    ends, removable = terminal_frames(entries, stream_end_rule(suite))
    if not (ends if name == "cut" else removable):
        kinds = "terminal" if name == "cut" else "end"
        return CheckOutcome(name, "skip", f"the stream has no frame of its declared {kinds} kinds")
    return _Stream(index, entries, frame_blocks(case, index), ends, removable)


def cut_check(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    """The ``cut`` check of one replay (see the module)."""
    skipped = _skip(case, run, "cut")
    if skipped is not None:
        return skipped
    if not case.is_stream:
        return _unary_cuts(suite, case)
    stream = _stream(suite, case, "cut")
    if isinstance(stream, CheckOutcome):
        return stream
    index, blocks = stream.index, stream.blocks
    references: dict[int, dict[str, Any]] = {}
    problems: list[str] = []
    for derived, kept in _cuts(stream.entries, blocks, stream.ends[0]):
        if kept not in references:
            broken = replay_broken(suite, case, index, b"".join(blocks[:kept]))
            references[kept] = _partial_form(getattr(broken.error, "partial", None))
        problem = _cut_problem(derived.label, replay_body(suite, case, index, derived.body), references[kept])
        if problem is not None:
            problems.append(problem)
    return CheckOutcome("cut", "fail" if problems else "pass", "\n".join(problems))


def _unary_cuts(suite: Suite, case: Case) -> CheckOutcome:
    answered = [
        i
        for i, item in enumerate(case.cassette.interactions)
        if "json" in (item.response.get("body") or {}) and 200 <= item.status < 300
    ]
    if not answered:
        return CheckOutcome("cut", "skip", "no JSON answer body to cut")
    index = answered[-1]
    body = body_bytes(case.cassette.interactions[index].response["body"])
    problems: list[str] = []
    for size in sorted({1, len(body) // 2, len(body) - 1}):
        run = replay_body(suite, case, index, body[:size])
        label = f"body of interaction #{index + 1} cut to {size} of {len(body)} bytes"
        if run.error is None:
            problems.append(f"{label}: decoded as a result; expected a typed error")
        elif is_crash(run.error):
            problems.append(f"{label}: raised {describe_exception(run.error)}")
    return CheckOutcome("cut", "fail" if problems else "pass", "\n".join(problems))


def unterminated_check(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    """The ``unterminated`` check of one replay (see the module)."""
    skipped = _skip(case, run, "unterminated")
    if skipped is not None:
        return skipped
    if not case.is_stream:
        return CheckOutcome("unterminated", "skip", "not a stream")
    stream = _stream(suite, case, "unterminated")
    if isinstance(stream, CheckOutcome):
        return stream
    blocks = stream.blocks
    problems: list[str] = []
    for k in stream.removable:
        label = f"{_label(stream.entries, k)} removed"
        again = replay_body(suite, case, stream.index, b"".join(blocks[:k] + blocks[k + 1 :]))
        if again.error is None:
            reason = again.events[-1].finish_reason if again.events else None  # type: ignore[union-attr]
            problems.append(f"{label}: reported complete (finish_reason {reason!r})")
        elif is_crash(again.error):
            problems.append(f"{label}: raised {describe_exception(again.error)}")
    return CheckOutcome("unterminated", "fail" if problems else "pass", "\n".join(problems))
