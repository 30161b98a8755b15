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

REFUSED = (
    "refused: the case needs reasoning, which provider 'example-features' does not declare "
    "(Capabilities: reasoning=False); declare it, or list it in the suite's unsupported with the reason"
)


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
    # a capability the provider does not declare is no skip: the case is refused (see below)
    assert skip_reason(plain, stream) is None
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


def test_a_case_needing_an_undeclared_capability_is_refused_in_the_cli_and_pytest(
    variants_installed, tmp_path
):
    out = tmp_path / "report.json"
    result = CliRunner().invoke(
        main,
        ["conformance", "--provider", "example-features", "--format", "json", "--output", str(out), "-q"],
    )
    assert result.exit_code == 1, out.read_text()
    cases = json.loads(out.read_text())["providers"]["example-features"]["cases"]
    assert [(c["case"], c["status"], c["message"], c["checks"]) for c in cases] == [
        ("generate-basic", "pass", "", cases[0]["checks"]),  # config: {max_retries: 0} over the options
        (
            "stream-basic",
            "fail",
            f"[capabilities] {REFUSED}",
            [{"name": "capabilities", "status": "fail", "message": REFUSED}],
        ),
    ]
    source = (
        "from modelport_conformance import ProviderConformanceTests\n\n\n"
        "class TestFeatures(ProviderConformanceTests):\n    provider_id = 'example-features'\n"
    )
    run = _pytest(variants_installed, tmp_path, source, "-rfs")
    assert run.returncode == 1, run.stdout
    failed = sorted(line.split(" - ")[0] for line in run.stdout.splitlines() if line.startswith("FAILED "))
    tests = (
        "async_parity",
        "chunked_stream_decoding",
        "derived_cut",
        "derived_history",
        "derived_unterminated",
    )
    tests += (
        "expected_output",
        "invariants",
        "metamorphic_edits",
        "no_credentials",
        "request_edits",
        "request_mapping",
        "stream_equals_merged_decode",
    )
    # the twelve tests of stream-basic fail with the CLI's reason; generate-basic has no stream checks
    assert failed == [f"FAILED test_author.py::TestFeatures::test_{name}[stream-basic]" for name in tests]
    assert run.stdout.count(REFUSED) == 12
    assert run.stdout.splitlines()[-1].startswith("12 failed, 10 passed, 6 skipped in")


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
    assert kept.output.splitlines()[-3:] == [
        "example: 2 cases: 2 passed, 0 failed, 0 skipped",
        "example: 24 checks: 15 passed, 0 failed, 9 skipped",
        "conformance: OK",
    ]
