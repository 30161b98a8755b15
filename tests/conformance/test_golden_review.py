"""Goldens reviewed, not overwritten (modelport_conformance.goldens): ``--regenerate`` writes
``expected.proposed.json`` and prints each case's diff, flagging what the golden-free checks read;
``--accept`` applies the proposals; with ``CI`` set ``--regenerate`` refuses in one line."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport_conformance.cli import main
from modelport_conformance.goldens import ci_refusal, relied_on
from modelport_conformance.jsondiff import Difference

from .conftest import EXAMPLE_ROOT, install_alone

REFUSAL = "--regenerate refuses to run in CI (CI is set): regenerate locally, review, --accept, commit"


@pytest.fixture
def example_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> Path:
    """The example plugin installed from a copy, its goldens edited as a stale review would leave
    them: a response id (nothing relies on it) and a usage count and a text delta (both relied on)."""
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE_ROOT, root)
    install_alone(
        monkeypatch, tmp_path / "site", "modelport-example", {"example": "modelport_example._plugin"}, root
    )
    for name in [m for m in sys.modules if m.startswith("modelport_example")]:
        monkeypatch.delitem(sys.modules, name)  # imported from the checkout by an earlier test
    monkeypatch.delenv("CI", raising=False)
    cases = root / "modelport_example" / "cases"
    _edit(cases / "generate-basic", lambda e: e["result"].update(response_id="resp-old"))
    _edit(cases / "stream-basic", _stale_stream)
    return cases


def _edit(case: Path, change) -> None:
    path = case / "expected.json"
    expected = json.loads(path.read_text(encoding="utf-8"))
    change(expected)
    path.write_text(
        json.dumps(expected, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8"
    )


def _stale_stream(expected: dict) -> None:
    expected["events"][3]["delta"] = "Hello"
    expected["events"][6]["usage"]["input_tokens"] = 5


def _conformance(*args: str):
    return CliRunner().invoke(main, ["conformance", "--provider", "example", "-q", *args])


def test_regenerate_proposes_and_flags_what_the_checks_rely_on_then_accept_applies(
    example_copy: Path,
) -> None:
    before = {p: p.read_text() for p in example_copy.glob("*/expected.json")}
    result = _conformance("--regenerate")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "example/generate-basic: 1 change proposed, 0 to values the golden-free checks rely on",
        "    $.result.response_id: expected 'resp-old', got 'resp-1'",
        "example/stream-basic: 2 changes proposed, 2 to values the golden-free checks rely on",
        "  ! [text] $.events[3].delta: expected 'Hello', got 'Héllo'",
        "  ! [usage] $.events[6].usage.input_tokens: expected 5, got 4",
        "2 proposal(s) written; review them, then: modelport conformance --accept",
    ]
    assert {p: p.read_text() for p in example_copy.glob("*/expected.json")} == before  # not overwritten
    proposals = sorted(p.parent.name for p in example_copy.glob("*/expected.proposed.json"))
    assert proposals == ["generate-basic", "stream-basic"]
    proposed = json.loads((example_copy / "stream-basic" / "expected.proposed.json").read_text())

    accepted = _conformance("--accept")
    assert accepted.exit_code == 0, accepted.output
    assert accepted.stdout.splitlines() == [
        "accepted example/generate-basic",
        "accepted example/stream-basic",
        "2 proposals accepted",
    ]
    assert json.loads((example_copy / "stream-basic" / "expected.json").read_text()) == proposed
    assert not list(example_copy.glob("*/expected.proposed.json"))
    again = _conformance("--regenerate")
    assert again.stderr.splitlines() == ["no proposals: every expected.json is current"]
    assert _conformance().exit_code == 0


def test_regenerate_refuses_in_ci_in_one_line(example_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    result = _conformance("--regenerate")
    assert (result.exit_code, result.output) == (2, f"error: {REFUSAL}\n")
    assert not list(example_copy.glob("*/expected.proposed.json"))
    both = _conformance("--regenerate", "--accept")
    assert (
        both.output
        == "error: --regenerate and --accept do not go together: review the proposals, then --accept\n"
    )


def test_ci_is_set_by_any_value_but_an_empty_or_false_one() -> None:
    assert [ci_refusal({"CI": value}) for value in ("true", "1", "yes", "woodpecker")] == [REFUSAL] * 4
    assert [ci_refusal(env) for env in ({}, {"CI": ""}, {"CI": "false"}, {"CI": "0"})] == [None] * 4


def test_the_values_flagged_are_those_the_golden_free_checks_read() -> None:
    def label(path: str, expected=None, actual=None) -> str | None:
        return relied_on(Difference(path, "changed", expected, actual))

    assert label("$.result.usage.output_tokens") == "usage"
    assert label("$.events[9].finish_reason") == "finish reason"
    assert label("$.result.content[1].args.city") == "tool call"
    assert label("$.result.content[1].name") == "tool call"
    assert label("$.events[4].part") == "tool call"
    assert label("$.result.citations[0].end") == "citations"
    assert label("$.result.text") == "text"
    assert label("$.result.content[2]", actual={"type": "tool-call", "name": "f"}) == "tool call"
    assert label("$.result.response_id") is None
    assert label("$.result.provider_metadata.google.model_version") is None
