"""Skips are decided once (models, declared unsupported, Capabilities) and read the same in the CLI and
in pytest; a case's ``config`` merges over the runner's settings, the case winning."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from modelport_conformance.cases import Suite, load_cases
from modelport_conformance.cli import main
from modelport_conformance.replay import REPLAY_API_KEY, model_options
from modelport_conformance.runner import run_case
from modelport_conformance.selection import skip_reason

from .conftest import EXAMPLE_CASES
from .test_pytest_plugin import _pytest

NO_REASONING = "provider declares no reasoning support"


def _cases(tmp_path, edits):
    target = tmp_path / "cases"
    shutil.copytree(EXAMPLE_CASES, target)
    for name, lines in edits.items():
        with (target / name / "case.yaml").open("a") as handle:
            handle.write(lines)
    return load_cases(target)


def test_skip_reasons_in_order(example_installed, tmp_path):
    generate, stream = _cases(
        tmp_path,
        {"generate-basic": "features: [grounding]\n", "stream-basic": "features: [reasoning, grounding]\n"},
    )
    suite = Suite("example", [generate, stream], unsupported={"grounding": "no search here"})
    assert skip_reason(suite, generate, models=("tiny-2",)) == "model 'tiny-1' is not in models"
    assert skip_reason(suite, stream) == "declared unsupported: grounding: no search here"
    plain = Suite("example", [generate, stream])
    assert skip_reason(plain, stream) == NO_REASONING
    # a feature that names no capability counts only when the suite declares it unsupported
    assert skip_reason(plain, generate) is None
    assert skip_reason(plain, generate, models=("tiny-1",)) is None


def test_a_case_config_wins_over_the_runner_and_the_suite(example_installed, tmp_path):
    generate, _ = _cases(tmp_path, {"generate-basic": "config: {max_retries: 0, timeout: 5}\n"})
    suite = Suite("example", [generate], options={"max_retries": 3, "timeout": 1, "name": "ex"})
    assert model_options(suite, generate) == {
        "api_key": REPLAY_API_KEY,
        "max_retries": 0,
        "timeout": 5,
        "name": "ex",
    }
    outcome = run_case(suite, generate)  # get_model() got multiple values for 'max_retries' before
    assert (outcome.status, outcome.message) == ("pass", "")


def test_capabilities_and_config_drive_the_cli_and_pytest_alike(variants_installed, tmp_path):
    out = tmp_path / "report.json"
    result = CliRunner().invoke(
        main,
        ["conformance", "--provider", "example-features", "--format", "json", "--output", str(out), "-q"],
    )
    assert result.exit_code == 0, out.read_text()
    cases = json.loads(out.read_text())["providers"]["example-features"]["cases"]
    assert [(c["case"], c["status"], c["message"]) for c in cases] == [
        ("generate-basic", "pass", ""),  # config: {max_retries: 0} over the suite's options
        ("stream-basic", "skip", NO_REASONING),
    ]
    source = (
        "from modelport_conformance import ProviderConformanceTests\n\n\n"
        "class TestFeatures(ProviderConformanceTests):\n    provider_id = 'example-features'\n"
    )
    run = _pytest(variants_installed, tmp_path, source)
    assert run.returncode == 0, run.stdout
    skips = [
        (line.split("]")[0] + "]", line.rsplit(": ", 1)[1])
        for line in run.stdout.splitlines()
        if line.startswith("SKIPPED [")
    ]
    # the seven tests of stream-basic skip with the CLI's reason; generate-basic has no stream checks
    assert sorted(skips) == [("SKIPPED [2]", "not a stream"), ("SKIPPED [7]", NO_REASONING)]
    assert run.stdout.splitlines()[-1].startswith("9 passed, 9 skipped in")


def test_models_filter_the_cli_as_they_filter_pytest(example_installed, tmp_path):
    out = tmp_path / "report.json"
    result = CliRunner().invoke(
        main, ["conformance", "--model", "tiny-2", "--format", "json", "--output", str(out), "-q"]
    )
    assert result.exit_code == 0
    cases = json.loads(out.read_text())["providers"]["example"]["cases"]
    assert [(c["case"], c["status"], c["message"]) for c in cases] == [
        ("generate-basic", "skip", "model 'tiny-1' is not in models"),
        ("stream-basic", "skip", "model 'tiny-1' is not in models"),
    ]
    kept = CliRunner().invoke(main, ["conformance", "--model", "tiny-1", "-q"])
    assert kept.output.splitlines()[-2:] == ["example: 2 passed, 0 failed, 0 skipped", "conformance: OK"]
