"""The derived fault cases (modelport_conformance.derived): which cuts they make, the provider's
``stream_end`` rule read by duck typing, and this round's stream defects planted in a copy of a
first-party decoder, each named by the check that fails."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from modelport_anthropic.provider import AnthropicProvider

import modelport
from modelport.http import HttpRequest
from modelport_conformance import derived
from modelport_conformance.cases import Case, Suite
from modelport_conformance.derived import evenly, stream_end_rule, terminal_frames
from modelport_conformance.expected_failures import apply_expected_failures
from modelport_conformance.outcomes import CheckOutcome
from modelport_conformance.player import ChunkedStream
from modelport_conformance.runner import run_case

ROOT = Path(__file__).parents[2]
ANTHROPIC = ROOT / "plugins" / "anthropic" / "src" / "modelport_anthropic" / "cassettes" / "anthropic"
#: Anthropic's end of a message, as the kit's ``StreamEnd`` declares it (duck-typed here).
ANTHROPIC_END = SimpleNamespace(
    kind="type", terminal=frozenset({"message_stop"}), required=frozenset({"message_delta"})
)


def test_cut_points_are_spread_evenly_with_the_first_and_the_last() -> None:
    assert evenly(4, 6) == [0, 1, 2, 3]
    assert evenly(120, 6) == [0, 24, 48, 71, 95, 119]
    assert evenly(120, 3) == [0, 60, 119]
    assert evenly(5, 1) == [4]


def test_the_rule_is_read_from_the_provider_class_by_duck_typing(fresh_registry: None) -> None:
    class Declared(modelport.Provider):
        id: ClassVar[str] = "declares-stream-end"
        stream_end: ClassVar[Any] = ANTHROPIC_END

    class Plugin:
        @modelport.hookimpl
        def modelport_register_providers(self, register: Any) -> None:
            register(Declared)

    modelport.register_plugin(Plugin(), name="declares-stream-end")
    assert stream_end_rule(Suite("declares-stream-end", [])) is ANTHROPIC_END
    assert stream_end_rule(Suite("no-such-provider", [])) is None
    entries = [
        {"event": "message_start", "data": {"type": "message_start"}},
        {"event": "message_delta", "data": {"type": "message_delta"}},
        {"event": "message_stop", "data": {"type": "message_stop"}},
    ]
    assert terminal_frames(entries, ANTHROPIC_END) == ([2], [1, 2])
    assert terminal_frames(entries, None) == ([2], [2])  # no rule: the last frame
    assert terminal_frames([*entries, {"comments": ["keep-alive"]}], None) == ([2], [2])  # with data
    assert terminal_frames([], None) == ([], [])
    done = [{"data": {"choices": []}}, {"data": "[DONE]"}]
    assert terminal_frames(done, SimpleNamespace(kind=None, terminal=frozenset({"[DONE]"}))) == ([1], [1])


class CompletesWithoutMessageDelta:
    """This round's Anthropic defect, planted: a stream whose ``message_delta`` (the stop reason and
    the output count) never came is completed at ``message_stop`` as if it had said ``end_turn``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.stopped = False

    def feed(self, frame: Any) -> Any:
        kind = frame.get("type") if isinstance(frame, dict) else None
        self.stopped = self.stopped or kind == "message_delta"
        events = []
        if kind == "message_stop" and not self.stopped:
            events += list(self.inner.feed({"type": "message_delta", "delta": {"stop_reason": "end_turn"}}))
        return events + list(self.inner.feed(frame))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class PlantedAnthropic(AnthropicProvider):
    id: ClassVar[str] = "anthropic-planted"
    stream_end: ClassVar[Any] = None  # the decoder alone decides when the answer is complete

    def stream_decoder(self, spec: HttpRequest) -> Any:
        return CompletesWithoutMessageDelta(super().stream_decoder(spec))


class PlantedPlugin:
    @modelport.hookimpl
    def modelport_register_providers(self, register: Any) -> None:
        register(PlantedAnthropic)


def test_an_anthropic_stream_without_message_delta_reported_complete_fails_unterminated(
    fresh_registry: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    modelport.register_plugin(PlantedPlugin(), name="anthropic-planted")
    monkeypatch.setattr(derived, "stream_end_rule", lambda suite: ANTHROPIC_END)
    case = Case.load(ANTHROPIC / "stream-text")
    outcome = run_case(Suite("anthropic-planted", [case]), case)
    checks = {check.name: check for check in outcome.checks}
    assert checks["expected"].status == "pass"  # the whole recorded stream decodes as before
    assert (checks["unterminated"].status, checks["unterminated"].message) == (
        "fail",
        "frame 9 of 10 (message_delta) removed: reported complete (finish_reason 'stop')",
    )
    assert checks["cut"].status == "pass"  # every cut also loses message_stop


def test_an_expected_failure_is_a_skip_naming_the_defect_until_it_passes() -> None:
    declared = {"stream-text/cut": "acme#12: a cut stream is complete"}
    failing = [CheckOutcome("cut", "fail", "cut before frame 3 of 4: reported complete")]
    [skipped] = apply_expected_failures(declared, "stream-text", failing)
    assert (skipped.status, skipped.message.splitlines()) == (
        "skip",
        ["expected failure: acme#12: a cut stream is complete", "cut before frame 3 of 4: reported complete"],
    )
    [fixed] = apply_expected_failures(declared, "stream-text", [CheckOutcome("cut", "pass")])
    assert (fixed.status, fixed.message) == (
        "fail",
        "expected to fail (acme#12: a cut stream is complete), but passed: "
        "remove 'stream-text/cut' from expected_failures",
    )
    other = [CheckOutcome("cut", "fail", "x")]
    assert apply_expected_failures(declared, "stream-other", other) == other


def test_random_chunks_are_the_same_for_a_seed_and_rebuild_the_body() -> None:
    data = bytes(range(256)) * 3
    pieces = list(ChunkedStream(data, 64, seed=35))
    assert b"".join(pieces) == data
    assert all(1 <= len(piece) <= 64 for piece in pieces)
    assert len({len(piece) for piece in pieces}) > 1
    assert list(ChunkedStream(data, 64, seed=35)) == pieces
    assert list(ChunkedStream(data, 64, seed=36)) != pieces
