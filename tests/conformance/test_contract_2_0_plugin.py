"""A plugin written for provider contract 2.0, kept frozen as a fixture (tests/fixtures/contract_2_0),
installed through a real entry point, still passes conformance: the core registers it through the
2.0 adapter (``modelport.contracts``) and every one of its recorded cases passes every check but
the derived fault cases, which find its decoder completing a stream cut before ``[DONE]``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport import plugins
from modelport_conformance.cli import main

from .conftest import install_alone

FIXTURE = Path(__file__).parents[1] / "fixtures" / "contract_2_0"


@pytest.fixture
def acme_2_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> None:
    entry_points = {"acme": "modelport_acme_2_0._plugin"}
    install_alone(monkeypatch, tmp_path / "site", "modelport-acme-2-0", entry_points, FIXTURE)


def test_the_frozen_2_0_plugin_passes_conformance_through_the_adapter(acme_2_0, tmp_path):
    out = tmp_path / "report.json"
    args = ["conformance", "--provider", "acme", "--strict", "--format", "json", "--output", str(out), "-q"]
    result = CliRunner().invoke(main, args)
    provider = plugins.provider_class("acme")
    original = provider.adapted_from  # type: ignore[attr-defined]
    assert (original.__module__, original.contract_version) == ("modelport_acme_2_0.provider", "2.0")
    report = json.loads(out.read_text())["providers"]["acme"]
    shipped = sorted(case.name for case in (FIXTURE / "modelport_acme_2_0" / "cases").iterdir())
    assert [c["case"] for c in report["cases"]] == shipped and len(shipped) == 8
    assert report["warnings"] == []
    # Every check of the original seven passes through the adapter. The derived fault cases find
    # what the 2.0-era decoder does (it completes any body that ended, [DONE] or not): its two
    # streams cut before `data: [DONE]` are reported complete, and nothing else fails.
    failed = {
        (case["case"], check["name"]): check["message"].splitlines()[-1]
        for case in report["cases"]
        for check in case["checks"]
        if check["status"] == "fail"
    }
    assert failed == {
        ("stream-text", "cut"): "cut inside frame 5 of 5 ([DONE]): reported complete (finish_reason 'stop'); "
        "expected StreamInterruptedError",
        (
            "stream-text",
            "unterminated",
        ): "frame 5 of 5 ([DONE]) removed: reported complete (finish_reason 'stop')",
        ("stream-tool-call-fragments", "cut"): "cut inside frame 14 of 14 ([DONE]): reported complete "
        "(finish_reason 'tool-calls'); expected StreamInterruptedError",
        ("stream-tool-call-fragments", "unterminated"): "frame 14 of 14 ([DONE]) removed: reported complete "
        "(finish_reason 'tool-calls')",
    }
    assert result.exit_code == 1
    assert report["summary"] == {"pass": 6, "fail": 2, "skip": 0}
    # the 2.0 copy declares no wire map: its metamorphic and request-edits checks skip (2 a case)
    assert report["check_summary"] == {"pass": 46, "fail": 4, "skip": 46}
