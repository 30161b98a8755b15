"""The pytest plugin and base class, run as a plugin author would: pytest on a test file of theirs."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from .conftest import EXAMPLE_ROOT

AUTHOR_TESTS = textwrap.dedent(
    """
    from modelport_conformance import ProviderConformanceTests


    class TestExample(ProviderConformanceTests):
        provider_id = "example"
        models = ("tiny-1",)
    """
)


def _pytest(site: Path, tmp_path: Path, source: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_author.py").write_text(source)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(EXAMPLE_ROOT)])}
    env["MODELPORT_BLOCK_PLUGINS"] = "google,google-vertex"
    env.pop("MODELPORT_RECORD_MODE", None)
    # pytest cuts its summary lines to the terminal's width, except on CI (CI, BUILD_NUMBER): the
    # reports read the same for every runner.
    env["COLUMNS"] = "80"
    for name in ("CI", "BUILD_NUMBER"):
        env.pop(name, None)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-rs",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(tmp_path),
    ]
    return subprocess.run(
        [*command, *args, str(tmp_path / "test_author.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_base_class_runs_the_standard_tests_per_case(example_installed, tmp_path):
    run = _pytest(example_installed, tmp_path, AUTHOR_TESTS)
    assert run.returncode == 0, run.stdout + run.stderr
    # 4 class-level tests + 10 per-case tests x 2 cases; generate-basic has no chunked, merged or
    # unterminated check, neither case a history
    assert run.stdout.splitlines()[-1].startswith("19 passed, 9 skipped in")
    assert "SKIPPED [3] " in run.stdout and run.stdout.count(": not a stream") == 1


def test_declared_unsupported_feature_is_a_skip_with_its_reason(example_installed, tmp_path):
    source = AUTHOR_TESTS + '    unsupported = {"stream": "no streaming in this test"}\n'
    run = _pytest(example_installed, tmp_path, source)
    assert run.returncode == 0, run.stdout
    assert "declared unsupported: stream: no streaming in this test" in run.stdout
    assert run.stdout.splitlines()[-1].startswith("10 passed, 18 skipped in")


def test_silently_overridden_standard_test_fails_the_guard(example_installed, tmp_path):
    source = AUTHOR_TESTS + "\n    def test_request_mapping(self, conformance_case):\n        pass\n"
    run = _pytest(example_installed, tmp_path, source)
    assert run.returncode == 1
    assert (
        "standard conformance tests deleted or overridden without a reason in `overrides`: test_request_mapping"
        in run.stdout
    )
    declared = source + '    overrides = {"test_request_mapping": "covered elsewhere"}\n'
    assert _pytest(example_installed, tmp_path, declared).returncode == 0


def test_regenerate_mode_proposes_expected_files_and_accept_mode_applies_them(example_installed, tmp_path):
    import shutil

    cases = tmp_path / "cases"
    shutil.copytree(EXAMPLE_ROOT / "modelport_example" / "cases", cases)
    (cases / "generate-basic" / "expected.json").unlink()
    source = AUTHOR_TESTS + f"    cases_dir = {str(cases)!r}\n"
    failing = _pytest(example_installed, tmp_path, source)
    assert failing.returncode == 1
    assert "no expected.json: replay with --regenerate, review, commit" in failing.stdout
    again = _pytest(example_installed, tmp_path, source, "--modelport-record-mode=regenerate")
    assert again.returncode == 0, again.stdout
    assert not (cases / "generate-basic" / "expected.json").exists()  # proposed, for review
    assert (cases / "generate-basic" / "expected.proposed.json").exists()
    accepted = _pytest(example_installed, tmp_path, source, "--modelport-record-mode=accept")
    assert accepted.returncode == 0, accepted.stdout
    assert (cases / "generate-basic" / "expected.json").exists()
    assert not (cases / "generate-basic" / "expected.proposed.json").exists()
    assert _pytest(example_installed, tmp_path, source).returncode == 0


def test_models_not_listed_are_skipped_and_listed_models_need_cases(example_installed, tmp_path):
    source = AUTHOR_TESTS.replace('models = ("tiny-1",)', 'models = ("tiny-2",)')
    run = _pytest(example_installed, tmp_path, source)
    assert run.returncode == 1
    assert "models without cases: tiny-2" in run.stdout
    assert "model 'tiny-1' is not in models" in run.stdout
    assert run.stdout.splitlines()[-1].startswith("1 failed, 3 passed, 24 skipped in")
