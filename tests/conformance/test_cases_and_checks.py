"""The CLI counts cases and checks; pytest counts the checks plus four class-level tests. The same
run read both ways gives exactly those numbers, for a passing suite, one with a failing check and
one with a refused case."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from modelport_conformance.cli import main

from .test_plugin_failures import AUTHOR
from .test_pytest_plugin import _pytest

CLASS_LEVEL_TESTS = 4  # registered, has cases, models covered, standard tests intact


@pytest.mark.parametrize(
    ("provider", "lines"),
    [
        ("example", ["2 cases: 2 passed, 0 failed, 0 skipped", "24 checks: 15 passed, 0 failed, 9 skipped"]),
        (
            "example-mergebug",
            ["2 cases: 1 passed, 1 failed, 0 skipped", "24 checks: 14 passed, 1 failed, 9 skipped"],
        ),
        (
            "example-features",
            ["2 cases: 1 passed, 1 failed, 0 skipped", "24 checks: 6 passed, 12 failed, 6 skipped"],
        ),
    ],
)
def test_pytest_counts_the_cli_checks_plus_the_class_level_tests(
    variants_installed, tmp_path, provider, lines
):
    table = CliRunner().invoke(main, ["conformance", "-q", "--provider", provider])
    assert table.output.splitlines()[-3:-1] == [f"{provider}: {line}" for line in lines]
    summary = tmp_path / "summary.json"
    CliRunner().invoke(main, ["conformance", "-q", "--provider", provider, "--summary", str(summary)])
    checks = json.loads(summary.read_text())["checks"]
    run = _pytest(variants_installed, tmp_path, AUTHOR.format(provider=provider))
    counts = {
        word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped)", run.stdout.splitlines()[-1])
    }
    assert counts.get("passed", 0) == checks["passed"] + CLASS_LEVEL_TESTS
    assert counts.get("failed", 0) == checks["failed"]
    assert counts.get("skipped", 0) == checks["skipped"]
    assert sum(counts.values()) == checks["total"] + CLASS_LEVEL_TESTS
