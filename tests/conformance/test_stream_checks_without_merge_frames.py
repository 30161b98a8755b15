"""Without ``merge_frames`` a stream is still held to its whole answer: the accumulated stream must
equal the answer ``expected.json`` holds (its ``events`` accumulated, or a ``result``), usage count
by count. A planted bug in the stream decoder only (the Example's stream-basic reports
``{input: 4, output: 3}`` on the wire; the variant swaps them) fails the ``merged`` check, which
was skipped before when the suite registered no ``merge_frames``."""

from __future__ import annotations

import json
import shutil

from modelport_conformance.cases import Suite, load_cases
from modelport_conformance.runner import run_case
from modelport_conformance.whole_answer import STREAM_RESULT_FIELDS

from .conftest import EXAMPLE_CASES
from .test_plugin_failures import AUTHOR, _checks, _conformance, _failed

SWAPPED_USAGE = [
    "usage.input_tokens of the stream is 3, of the answer in expected.json 4",
    "usage.output_tokens of the stream is 4, of the answer in expected.json 3",
]


def _result_form(tmp_path):
    """The Example's cases, stream-basic's expected.json holding the answer as a ``result``."""
    target = tmp_path / "cases"
    shutil.copytree(EXAMPLE_CASES, target)
    expected = target / "stream-basic" / "expected.json"
    answer = {
        "citations": [],
        "content": [{"text": "Héllo wörld 👋", "type": "text"}],
        "finish_reason": "stop",
        "provider_metadata": {},
        "raw_finish_reason": "end",
        "response_id": "resp-2",
        "sources": [],
        "text": "Héllo wörld 👋",
        "usage": {"input_tokens": 4, "output_tokens": 3},
        "warnings": [],
    }
    expected.write_text(json.dumps({"result": answer}), encoding="utf-8")
    return target


def test_a_stream_decoder_bug_fails_the_merged_check_without_merge_frames(variants_installed, tmp_path):
    assert _conformance("example-streamswap", "json", tmp_path / "report.json") == 1
    report = json.loads((tmp_path / "report.json").read_text())["providers"]["example-streamswap"]
    generate, stream = report["cases"]
    assert generate["status"] == "pass"  # the response decoder is right
    assert _checks(stream) == {
        "credentials": "pass",
        "request": "pass",
        "expected": "fail",
        "invariants": "pass",
        "chunked": "pass",
        "merged": "fail",
        "async": "pass",
        "cut": "pass",
        "unterminated": "pass",
        "history": "skip",
        "metamorphic": "skip",
        "request-edits": "skip",
    }
    merged = next(c for c in stream["checks"] if c["name"] == "merged")
    assert merged["message"].splitlines() == SWAPPED_USAGE
    failed = _failed(AUTHOR.format(provider="example-streamswap"), variants_installed, tmp_path)
    assert failed == [
        "FAILED test_author.py::TestVariant::test_expected_output[stream-basic]",
        "FAILED test_author.py::TestVariant::test_stream_equals_merged_decode[stream-basic]",
    ]


def test_a_stream_case_may_hold_its_answer_as_a_result(variants_installed, tmp_path):
    cases = load_cases(_result_form(tmp_path))
    good = run_case(Suite("example", cases), cases[1])
    assert (good.status, good.message) == ("pass", "")
    assert {c.name: c.status for c in good.checks}["merged"] == "pass"
    swapped = run_case(Suite("example-streamswap", cases), cases[1])
    checks = {c.name: c for c in swapped.checks}
    assert checks["expected"].message.splitlines() == [
        "output differs from expected.json:",
        "  $.result.usage.input_tokens: expected 4, got 3",
        "  $.result.usage.output_tokens: expected 3, got 4",
    ]
    assert checks["merged"].message.splitlines() == SWAPPED_USAGE


def test_regenerate_keeps_the_result_form(variants_installed, tmp_path):
    target = _result_form(tmp_path)
    expected = target / "stream-basic" / "expected.json"
    stale = json.loads(expected.read_text())
    stale["result"]["usage"]["input_tokens"] = 5
    expected.write_text(json.dumps(stale), encoding="utf-8")
    cases = load_cases(target)
    outcome = run_case(Suite("example", cases), cases[1], regenerate=True)
    assert outcome.status == "pass"
    written = json.loads((target / "stream-basic" / "expected.proposed.json").read_text())
    assert list(written) == ["result"]
    assert written["result"]["usage"] == {"input_tokens": 4, "output_tokens": 3}


def test_a_stream_carries_every_result_field_but_the_stamped_origin():
    assert STREAM_RESULT_FIELDS == (
        "content",
        "finish_reason",
        "raw_finish_reason",
        "usage",
        "warnings",
        "provider_metadata",
        "sources",
        "citations",
        "response_id",
        "model_version",
        "replay",
        "logprobs",
    )
