"""``--junit``, ``--summary`` and ``--badge``: the files a CI system and a README badge read, written
beside the report; the JUnit XML has one test case per check, counted as the CLI counts checks."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from click.testing import CliRunner

from modelport_conformance.cli import main

from .test_plugin_failures import _line

CHECK_NAMES = [
    "credentials", "request", "expected", "invariants", "chunked", "merged", "async", "cut", "unterminated", "history",
    "metamorphic", "request-edits",
]  # fmt: skip


def _run(tmp_path, *args):
    files = ["--junit", str(tmp_path / "j.xml"), "--summary", str(tmp_path / "s.json")]
    files += ["--badge", str(tmp_path / "b.json")]
    result = CliRunner().invoke(main, ["conformance", "-q", *args, *files])
    junit = ET.fromstring((tmp_path / "j.xml").read_text(encoding="utf-8"))
    summary = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    return result, junit, summary, json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))


def test_junit_has_one_testcase_per_check_with_failures_and_skip_reasons(variants_installed, tmp_path):
    result, junit, summary, badge = _run(tmp_path, "--provider", "example-mergebug")
    assert result.exit_code == 1
    assert junit.tag == "testsuites"
    assert {k: junit.get(k) for k in ("tests", "failures", "errors", "skipped")} == {
        "tests": "24",
        "failures": "1",
        "errors": "0",
        "skipped": "9",
    }
    [suite] = junit.findall("testsuite")
    assert (suite.get("name"), suite.get("tests"), suite.get("failures"), suite.get("skipped")) == (
        "example-mergebug",
        "24",
        "1",
        "9",
    )
    cases = suite.findall("testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        (f"example-mergebug.{case}", name)
        for case in ("generate-basic", "stream-basic")
        for name in CHECK_NAMES
    ]
    outcomes = {(c.get("classname").split(".")[1], c.get("name")): c for c in cases}
    # the Example declares no wire map: its metamorphic and request-edits checks skip
    assert [child.tag for c in cases for child in c] == ["skipped"] * 6 + ["failure"] + ["skipped"] * 3
    for name in ("chunked", "merged", "unterminated"):
        assert outcomes["generate-basic", name].find("skipped").get("message") == "not a stream"
    failure = outcomes["stream-basic", "merged"].find("failure")
    line = _line('frames[0]["missing"]')
    where = f"modelport_variants.py:{line} in merge_frames"
    assert failure.get("message") == f"merge_frames raised KeyError: 'missing' (at {where})"
    assert failure.text == failure.get("message")
    assert summary == {
        "version": 1,
        "ok": False,
        "cases": {"total": 2, "passed": 1, "failed": 1, "skipped": 0},
        "checks": {"total": 24, "passed": 14, "failed": 1, "skipped": 9},
        "providers": [
            {
                "provider": "example-mergebug",
                "status": "fail",
                "cases": {"total": 2, "passed": 1, "failed": 1, "skipped": 0},
                "checks": {"total": 24, "passed": 14, "failed": 1, "skipped": 9},
                "warnings": [],
            }
        ],
        "badge": badge,
    }
    assert badge == {
        "schemaVersion": 1,
        "label": "modelport conformance",
        "message": "1 of 2 cases failed",
        "color": "red",
    }


def test_a_passing_run_gives_a_green_badge_and_an_empty_handed_provider_a_testcase(
    example_installed, tmp_path
):
    result, junit, summary, badge = _run(tmp_path, "--provider", "example")
    assert result.exit_code == 0
    assert badge == {
        "schemaVersion": 1,
        "label": "modelport conformance",
        "message": "2/2 cases passed",
        "color": "brightgreen",
    }
    assert summary["checks"] == {"total": 24, "passed": 15, "failed": 0, "skipped": 9}
    assert [c.find("failure") for c in junit.iter("testcase")] == [None] * 24

    result, junit, summary, badge = _run(tmp_path, "--provider", "nope")
    assert result.exit_code == 1
    [case] = junit.iter("testcase")
    assert (case.get("classname"), case.get("name")) == ("nope", "cases")
    assert case.find("failure").get("message") == "not a registered provider"
    assert (badge["message"], badge["color"]) == ("failed", "red")


def test_characters_xml_cannot_hold_are_replaced(example_installed, tmp_path):
    from modelport_conformance.ci_files import junit_xml
    from modelport_conformance.report import ProviderReport, Report

    report = Report([ProviderReport("bad\x00id", problem="nul \x00 and \x1b[31m", status="fail")], {}, True)
    root = ET.fromstring(junit_xml(report))
    [case] = root.iter("testcase")
    assert case.get("classname") == "bad\ufffdid"
    assert case.find("failure").get("message") == "nul \ufffd and \ufffd[31m"
