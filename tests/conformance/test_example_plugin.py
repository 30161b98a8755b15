"""The worked third-party example: found by entry point, passes; the broken variants fail readably."""

from __future__ import annotations

import shutil
from pathlib import Path

from modelport_conformance import cases
from modelport_conformance.cases import Suite, discover_suites, load_cases
from modelport_conformance.goldens import accept_case
from modelport_conformance.report import render, run_conformance
from modelport_conformance.runner import run_case

from .conftest import EXAMPLE_CASES

FAKE_KEY = "AIza" + "0123456789abcdefghijABCDEFGHIJ_-xyz"


def test_example_is_discovered_through_its_entry_point(example_installed):
    suites, errors = discover_suites()
    assert errors == {}
    assert sorted(suites) == ["example"]
    suite = suites["example"]
    assert [c.name for c in suite.cases] == ["generate-basic", "stream-basic"]
    assert suite.unsupported == {"embed": "the Example API has no embeddings endpoint"}
    assert suite.merge_frames is not None


def test_example_passes_every_check(example_installed):
    report = run_conformance()
    assert report.ok
    outcomes = {c.case: {k.name: k.status for k in c.checks} for c in report.providers[0].cases}
    assert outcomes == {
        "generate-basic": {
            "credentials": "pass",
            "request": "pass",
            "expected": "pass",
            "invariants": "pass",
            "chunked": "skip",
            "merged": "skip",
            "async": "pass",
            "cut": "pass",
            "unterminated": "skip",
            "history": "skip",
            "metamorphic": "skip",
            "request-edits": "skip",
        },
        "stream-basic": {
            "credentials": "pass",
            "request": "pass",
            "expected": "pass",
            "invariants": "pass",
            "chunked": "pass",
            "merged": "pass",
            "async": "pass",
            "cut": "pass",
            "unterminated": "pass",
            "history": "skip",
            "metamorphic": "skip",
            "request-edits": "skip",
        },
    }


def test_wrong_request_body_fails_naming_the_json_path(broken_installed):
    report = run_conformance(["example-badrequest"])
    assert not report.ok
    [generate, stream] = report.providers[0].cases
    assert (generate.status, stream.status) == ("fail", "skip")
    assert generate.message == (
        "[request] request POST https://api.example.test/v1/generate does not match recorded interaction #1:\n"
        "  $.max_tokens: missing (expected 20)\n"
        "  $.max_output_tokens: unexpected (got 20)\n"
        "recorded interaction #1 (POST https://api.example.test/v1/generate) was never played"
    )
    assert stream.message == "declared unsupported: stream: only the generate path is under test"


def test_wrong_response_mapping_fails_naming_the_json_path(broken_installed):
    report = run_conformance(["example-badresponse"])
    [generate, _] = report.providers[0].cases
    assert generate.status == "fail"
    assert generate.message == (
        "[expected] output differs from expected.json:\n"
        "  $.result.usage.input_tokens: expected 9, got 2\n"
        "  $.result.usage.output_tokens: expected 2, got 9"
    )
    table = render(report)
    assert "example-badresponse / generate-basic:\n    [expected] output differs" in table
    assert table.endswith("conformance: FAILED")


def test_strict_fails_a_registered_provider_without_cases(example_installed, monkeypatch):
    monkeypatch.setattr(cases, "conformance_suites", lambda: {})
    lenient, strict = run_conformance(), run_conformance(strict=True)
    assert (lenient.ok, lenient.providers[0].status) == (True, "skip")
    assert (strict.ok, strict.providers[0].status) == (False, "fail")
    assert strict.providers[0].problem == "registered provider has no conformance cases"


def _copy_cases(tmp_path: Path) -> Path:
    target = tmp_path / "cases"
    shutil.copytree(EXAMPLE_CASES, target)
    return target


def test_planted_key_in_a_cassette_fails_the_run(example_installed, tmp_path):
    # The key shape is the Google plugin's: loaded here, as it is wherever that plugin is installed
    # (the example registry alone does not load it; the test must not depend on an earlier test).
    import modelport_google.provider  # noqa: F401

    cases = _copy_cases(tmp_path)
    cassette = cases / "generate-basic" / "cassette.yaml"
    cassette.write_text(cassette.read_text().replace("id: resp-1", f"id: {FAKE_KEY}"))
    suite = Suite("example", load_cases(cases))
    outcome = run_case(suite, suite.cases[0])
    assert outcome.status == "fail"
    [scan] = [c for c in outcome.checks if c.name == "credentials"]
    assert (scan.status, scan.message) == ("fail", "generate-basic/cassette.yaml:22: Google API key (AIza…)")
    assert FAKE_KEY not in outcome.message


def test_missing_expected_file_fails_and_regenerate_proposes_it(example_installed, tmp_path):
    cases = _copy_cases(tmp_path)
    expected = cases / "stream-basic" / "expected.json"
    original = expected.read_text()
    expected.unlink()
    suite = Suite("example", load_cases(cases))
    outcome = run_case(suite, suite.cases[1])
    assert outcome.message == "[expected] no expected.json: replay with --regenerate, review, commit"
    regenerated = run_case(suite, suite.cases[1], regenerate=True)
    assert regenerated.status == "pass"
    assert not expected.exists()  # proposed beside it, for review
    assert accept_case(cases / "stream-basic")
    assert expected.read_text() == original


def test_unplayed_interaction_fails(example_installed, tmp_path):
    cases = _copy_cases(tmp_path)
    cassette = cases / "generate-basic" / "cassette.yaml"
    text = cassette.read_text()
    cassette.write_text(text + text.split("interactions:\n", 1)[1])
    suite = Suite("example", load_cases(cases))
    outcome = run_case(suite, suite.cases[0])
    assert outcome.message == (
        "[request] recorded interaction #2 (POST https://api.example.test/v1/generate) was never played"
    )
