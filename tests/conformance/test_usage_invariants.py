"""The usage invariants hold a third-party plugin to the contract's meanings, whatever its golden files
say: planted variants of the Example plugin (tests/conformance/variant_plugins.py) whose authors
regenerated ``expected.json`` from their buggy output still fail, on the check that names the bug."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport_conformance.cli import main

from .test_plugin_failures import AUTHOR, _checks, _failed


def _run(provider: str, output: Path, *extra: str) -> int:
    args = ["conformance", "--provider", provider, "--format", "json", "--output", str(output), "-q"]
    return CliRunner().invoke(main, [*args, *extra]).exit_code


@pytest.fixture(autouse=True)
def _author_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The author regenerates on their own machine: ``--regenerate`` refuses where ``CI`` is set."""
    monkeypatch.delenv("CI", raising=False)


def _blessed_then_run(provider: str, tmp_path: Path) -> list[dict]:
    """The cases' outcomes after the author regenerated their expected files from the plugin."""
    assert _run(provider, tmp_path / "regenerated.json", "--regenerate") in (0, 1)
    assert CliRunner().invoke(main, ["conformance", "--provider", provider, "--accept"]).exit_code == 0
    assert _run(provider, tmp_path / "report.json") == 1
    return json.loads((tmp_path / "report.json").read_text())["providers"][provider]["cases"]


def test_counts_outside_their_totals_fail_the_invariants(variants_installed, tmp_path):
    generate, stream = _blessed_then_run("example-usagebug", tmp_path)
    # generate-basic's wire usage is {input: 9, output: 2}; stream-basic's {input: 4, output: 3}.
    assert generate["message"].splitlines() == [
        "[invariants] result.usage: cache_read_input_tokens (9) + cache_write_input_tokens (1) exceeds "
        "input_tokens (9), which includes it; input_tokens is every input token, cached ones included "
        "(docs/usage.md)",
        "result.usage: reasoning_tokens (3) exceeds output_tokens (2), which includes it; output_tokens is "
        "every output token, reasoning included (docs/usage.md)",
        "result.usage.total_tokens (12) is not input_tokens + output_tokens (9 + 2)",
    ]
    assert stream["message"].splitlines() == [
        "[invariants] events[6].usage: cache_read_input_tokens (4) + cache_write_input_tokens (1) exceeds "
        "input_tokens (4), which includes it; input_tokens is every input token, cached ones included "
        "(docs/usage.md)",
        "events[6].usage: reasoning_tokens (4) exceeds output_tokens (3), which includes it; output_tokens is "
        "every output token, reasoning included (docs/usage.md)",
        "events[6].usage.total_tokens (8) is not input_tokens + output_tokens (4 + 3)",
    ]
    for case in (generate, stream):
        assert {name for name, status in _checks(case).items() if status == "fail"} == {"invariants"}
    failed = _failed(AUTHOR.format(provider="example-usagebug"), variants_installed, tmp_path)
    assert failed == [
        "FAILED test_author.py::TestVariant::test_invariants[generate-basic]",
        "FAILED test_author.py::TestVariant::test_invariants[stream-basic]",
    ]


def test_a_stream_whose_usage_differs_from_the_whole_decode_fails_the_merged_check(
    variants_installed, tmp_path
):
    generate, stream = _blessed_then_run("example-streamusage", tmp_path)
    assert generate["status"] == "pass"
    assert stream["message"].splitlines() == [
        "[merged] usage.input_tokens of the stream is None, of the same answer decoded whole 4",
        "usage.output_tokens of the stream is None, of the same answer decoded whole 3",
    ]
    assert {name for name, status in _checks(stream).items() if status == "fail"} == {"merged"}
    failed = _failed(AUTHOR.format(provider="example-streamusage"), variants_installed, tmp_path)
    assert failed == ["FAILED test_author.py::TestVariant::test_stream_equals_merged_decode[stream-basic]"]
