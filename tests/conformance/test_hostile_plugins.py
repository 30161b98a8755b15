"""A hostile plugin cannot stop a conformance run: a decoder that never returns, or that allocates
without end, is stopped at the per-case bound and becomes one failing ``time-out`` (``memory``) row;
the run goes on with the next case and every report is written (K3, X2)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport_conformance import bounds
from modelport_conformance.bounds import Exceeded, bounded, resident_bytes
from modelport_conformance.cli import main
from modelport_conformance.report import run_conformance

from .conftest import EXAMPLE_CASES

MiB = 1024**2


def _rows(report_providers: list) -> dict[str, list[tuple[str, str, str]]]:
    return {
        p.provider_id: [
            (c.case, c.status, ",".join(k.name for k in c.checks if k.status == "fail")) for c in p.cases
        ]
        for p in report_providers
    }


def test_a_decoder_that_never_returns_is_a_time_out_row_and_the_run_goes_on(variants_installed):
    started = time.monotonic()
    report = run_conformance(["example-hang", "example-decodebug"], case_timeout=1.0)
    elapsed = time.monotonic() - started
    assert _rows(report.providers) == {
        "example-hang": [("generate-basic", "fail", "time-out"), ("stream-basic", "pass", "")],
        "example-decodebug": [("generate-basic", "fail", "expected"), ("stream-basic", "pass", "")],
    }
    hang = report.providers[0].cases[0]
    assert hang.message == "[time-out] the case did not finish within 1 s; it was stopped"
    assert hang.requirements == ["EX1"]
    assert elapsed < 1.0 + bounds.GRACE + 3.0  # one bound, not a hang
    assert not [t for t in threading.enumerate() if t.name == "modelport-conformance-generate-basic"]


@pytest.mark.skipif(resident_bytes() is None, reason="the memory bound reads /proc/self/statm")
def test_a_decoder_that_allocates_without_end_is_a_memory_row(variants_installed):
    before = resident_bytes()
    report = run_conformance(["example-hog"], case_timeout=30.0, case_memory=256 * MiB)
    [generate, stream] = report.providers[0].cases
    assert (generate.status, [c.name for c in generate.checks]) == ("fail", ["memory"])
    assert generate.message.startswith("[memory] the case grew the process by ")
    assert generate.message.endswith(" MiB, over its bound of 256 MiB; it was stopped")
    assert stream.status == "pass"
    assert resident_bytes() - before < 256 * MiB  # what it held was released when it was stopped


def test_the_cli_writes_a_time_out_row_in_every_format(variants_installed, tmp_path: Path):
    output = tmp_path / "report.json"
    args = ["conformance", "--provider", "example-hang", "--format", "json", "--output", str(output), "-q"]
    result = CliRunner().invoke(main, [*args, "--case-timeout", "0.5"])
    assert result.exit_code == 1
    report = json.loads(output.read_text())
    [generate, stream] = report["providers"]["example-hang"]["cases"]
    assert generate["status"] == "fail"
    assert generate["checks"] == [
        {
            "name": "time-out",
            "status": "fail",
            "message": "the case did not finish within 0.5 s; it was stopped",
        }
    ]
    assert stream["status"] == "pass"


def test_bounded_returns_and_raises_what_the_work_does() -> None:
    assert bounded(lambda: 42, timeout=5) == 42
    with pytest.raises(KeyError, match="x"):
        bounded(lambda: {}["x"], timeout=5)


def test_a_plugin_catching_exception_cannot_swallow_the_interruption() -> None:
    def stubborn() -> None:
        while True:
            try:
                while True:
                    pass
            except Exception:  # noqa: BLE001 - what a careless plugin does
                continue

    with pytest.raises(Exceeded) as info:
        bounded(stubborn, timeout=0.3, memory=None)
    assert (info.value.kind, info.value.message) == (
        "time-out",
        "the case did not finish within 0.3 s; it was stopped",
    )


# --------------------------------------------------------------------------- a huge cassette


def _sparse(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no disk space (a sparse file: nothing is committed)."""
    with path.open("wb") as stream:
        stream.truncate(size)
    return path


def test_a_cassette_of_hundreds_of_megabytes_is_refused_unread(example_installed, tmp_path: Path):
    import shutil

    from modelport_conformance.cases import MAX_CASE_FILE_BYTES, Suite, load_cases

    root = tmp_path / "cases"
    shutil.copytree(EXAMPLE_CASES / "generate-basic", root / "generate-basic")
    _sparse(root / "generate-basic" / "cassette.yaml", 300 * MiB)
    before = resident_bytes()
    with pytest.raises(ValueError) as info:
        load_cases(root)
    assert str(info.value) == (
        "case 'generate-basic': cassette.yaml is larger than 16 MiB, the bound of a case file; it was not read"
    )
    if before is not None:
        assert resident_bytes() - before < 2 * MAX_CASE_FILE_BYTES  # the bound, never the file
    suite = Suite.from_registration(Suite("example", [], location=root).registration)
    assert suite.load_error is not None and "larger than 16 MiB" in suite.load_error


def test_generate_refuses_a_huge_cassette_with_a_clear_error(example_installed, tmp_path: Path):
    cassette = _sparse(tmp_path / "cassette.yaml", 300 * MiB)
    result = CliRunner().invoke(main, ["generate", "example/tiny-1", "hi", "--cassette", str(cassette)])
    # the command's own bound on every file it is given comes first: a usage error, one line
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f"Error: Invalid value for '--cassette': {cassette}: larger than the limit of 32 MiB"
    )
