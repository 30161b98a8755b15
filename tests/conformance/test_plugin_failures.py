"""A bug in plugin code is one FAIL row naming the exception and the check it broke: the run goes on,
every report format is written, the exit code is non-zero, and under pytest only that check fails.
A plugin that stops authenticating fails its cases."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from modelport_conformance.cli import main

from .test_pytest_plugin import _pytest

VARIANTS = Path(__file__).parent / "variant_plugins.py"


def _line(text: str) -> int:
    """The line of variant_plugins.py holding ``text`` (where the planted bug is)."""
    [number] = [i for i, line in enumerate(VARIANTS.read_text().splitlines(), 1) if text in line]
    return number


def _conformance(provider: str, fmt: str, output: Path) -> int:
    args = ["conformance", "--provider", provider, "--format", fmt, "--output", str(output), "-q"]
    return CliRunner().invoke(main, args).exit_code


def _failed(source: str, site: Path, tmp_path: Path) -> list[str]:
    """The tests a pytest run of ``source`` reports as failed."""
    run = _pytest(site, tmp_path, source, "-rf")
    return [line.split(" - ")[0] for line in run.stdout.splitlines() if line.startswith("FAILED ")]


def _checks(case: dict) -> dict[str, str]:
    return {check["name"]: check["status"] for check in case["checks"]}


AUTHOR = """
from modelport_conformance import ProviderConformanceTests


class TestVariant(ProviderConformanceTests):
    provider_id = {provider!r}
"""


def test_a_merge_frames_bug_is_one_fail_row_and_every_report_is_written(
    variants_installed, tmp_path, monkeypatch
):
    monkeypatch.setenv("COLUMNS", "100")
    outputs = {fmt: tmp_path / f"report.{fmt}" for fmt in ("json", "table", "markdown")}
    assert [_conformance("example-mergebug", fmt, path) for fmt, path in outputs.items()] == [1, 1, 1]
    report = json.loads(outputs["json"].read_text())
    assert (report["ok"], report["summary"]) == (False, {"pass": 1, "fail": 1, "skip": 0})
    generate, stream = report["providers"]["example-mergebug"]["cases"]
    assert (generate["case"], generate["status"], stream["case"], stream["status"]) == (
        "generate-basic",
        "pass",
        "stream-basic",
        "fail",
    )
    line = _line('frames[0]["missing"]')
    where = f"modelport_variants.py:{line} in merge_frames"
    assert stream["message"] == f"[merged] merge_frames raised KeyError: 'missing' (at {where})"
    assert _checks(stream) == {
        "credentials": "pass",
        "request": "pass",
        "expected": "pass",
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
    table = outputs["table"].read_text().splitlines()
    assert max(len(line) for line in table) <= 99  # the terminal's 100 columns, less one
    end = table.index("Failures:") - 1
    rows = [re.split(r"\s{2,}", line.strip()) for line in table[2:end]]
    assert rows[:2] == [
        ["example-mergebug", "generate-basic", "generate", "PASS", "EX1"],
        ["example-mergebug", "stream-basic", "stream", "FAIL", "EX2", "[merged] merge_frames raised"],
    ]
    # The detail wraps in its column (from character 66): nothing of it is cut.
    assert {line[:66].strip() for line in table[4:end]} == {""}
    detail = " ".join(line[66:] for line in table[3:end])
    assert detail == f"[merged] merge_frames raised KeyError: 'missing' (at {where})"
    assert table[-3:] == [
        "example-mergebug: 2 cases: 1 passed, 1 failed, 0 skipped",
        "example-mergebug: 24 checks: 14 passed, 1 failed, 9 skipped",
        "conformance: FAILED",
    ]
    markdown = outputs["markdown"].read_text().splitlines()
    assert (
        f"| example-mergebug | stream-basic | stream | FAIL | EX2 | [merged] merge_frames raised KeyError: 'missing' (at {where}) |"
        in markdown
    )
    assert markdown[-1] == "**conformance: FAILED**"


def test_under_pytest_a_merge_frames_bug_fails_only_the_merged_check(variants_installed, tmp_path):
    run = _pytest(variants_installed, tmp_path, AUTHOR.format(provider="example-mergebug"), "-rf")
    assert run.returncode == 1
    failed = [line.split(" - ")[0] for line in run.stdout.splitlines() if line.startswith("FAILED ")]
    assert failed == ["FAILED test_author.py::TestVariant::test_stream_equals_merged_decode[stream-basic]"]
    assert run.stdout.splitlines()[-1].startswith("1 failed, 18 passed, 9 skipped in")


def test_a_decoder_bug_names_the_exception_in_the_expected_check(variants_installed, tmp_path):
    output = tmp_path / "report.json"
    assert _conformance("example-decodebug", "json", output) == 1
    generate, stream = json.loads(output.read_text())["providers"]["example-decodebug"]["cases"]
    assert (generate["status"], stream["status"]) == ("fail", "pass")
    first, second, *diff = generate["message"].splitlines()
    line = _line('data["no_such_field"]')
    where = f"modelport_variants.py:{line} in decode_response"
    assert first.startswith("[expected] the call raised ProviderResponseError: ")
    assert first.endswith(f"KeyError: 'no_such_field' (at {where})")
    assert second == "output differs from expected.json:"
    assert diff[0].startswith("  $.result: missing (expected ")
    assert _checks(generate) == {
        "credentials": "pass",
        "request": "pass",
        "expected": "fail",
        "invariants": "pass",
        "chunked": "skip",
        "merged": "skip",
        "async": "pass",
        "cut": "skip",
        "unterminated": "skip",
        "history": "skip",
        "metamorphic": "skip",
        "request-edits": "skip",
    }


def test_a_crash_after_the_call_fails_the_expected_check_and_skips_its_dependants(
    variants_installed, tmp_path
):
    output = tmp_path / "report.json"
    assert _conformance("example-crash", "json", output) == 1
    generate, stream = json.loads(output.read_text())["providers"]["example-crash"]["cases"]
    where = f"modelport_variants.py:{_line('post-processing failed')} in send"
    assert (
        generate["message"]
        == f"[expected] the provider raised RuntimeError: post-processing failed (at {where})"
    )
    skipped = "not run: the replay raised RuntimeError (see the expected check)"
    assert [(c["name"], c["status"], c["message"]) for c in generate["checks"]] == [
        ("credentials", "pass", ""),
        ("request", "pass", ""),
        ("expected", "fail", f"the provider raised RuntimeError: post-processing failed (at {where})"),
        ("invariants", "skip", skipped),
        ("chunked", "skip", skipped),
        ("merged", "skip", skipped),
        ("async", "skip", skipped),
        ("cut", "skip", skipped),
        ("unterminated", "skip", skipped),
        ("history", "skip", skipped),
        ("metamorphic", "skip", skipped),
        ("request-edits", "skip", skipped),
    ]
    assert stream["status"] == "skip"
    failed = _failed(AUTHOR.format(provider="example-crash"), variants_installed, tmp_path)
    assert failed == ["FAILED test_author.py::TestVariant::test_expected_output[generate-basic]"]


def test_a_plugin_that_drops_its_auth_header_fails_its_cases(variants_installed, tmp_path):
    output = tmp_path / "report.json"
    assert _conformance("example-auth", "json", output) == 0
    assert _conformance("example-noauth", "json", output) == 1
    cases = json.loads(output.read_text())["providers"]["example-noauth"]["cases"]
    assert [(c["case"], c["status"]) for c in cases] == [("generate-basic", "fail"), ("stream-basic", "fail")]
    assert cases[0]["message"].splitlines() == [
        "[request] request POST https://api.example.test/v1/generate does not match recorded interaction #1:",
        "  header authorization: missing (expected '<credential>')",
        "  the recording sent a credential in that header; this request sends none",
        "recorded interaction #1 (POST https://api.example.test/v1/generate) was never played",
    ]
    failed = _failed(AUTHOR.format(provider="example-noauth"), variants_installed, tmp_path)
    assert failed == [
        "FAILED test_author.py::TestVariant::test_request_mapping[generate-basic]",
        "FAILED test_author.py::TestVariant::test_request_mapping[stream-basic]",
    ]
