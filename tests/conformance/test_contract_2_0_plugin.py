"""A plugin written for provider contract 2.0, kept frozen as a fixture (tests/fixtures/contract_2_0),
installed through a real entry point, still passes conformance: the core registers it through the
2.0 adapter (``modelport.contracts``) and every one of its recorded cases passes every check."""

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
    assert result.exit_code == 0, out.read_text()
    provider = plugins.provider_class("acme")
    original = provider.adapted_from  # type: ignore[attr-defined]
    assert (original.__module__, original.contract_version) == ("modelport_acme_2_0.provider", "2.0")
    report = json.loads(out.read_text())["providers"]["acme"]
    assert report["summary"] == {"pass": 8, "fail": 0, "skip": 0}
    assert report["check_summary"] == {
        "pass": 44,
        "fail": 0,
        "skip": 28,
    }  # 6 generate cases skip 2 stream checks; the 2.0 copy declares no wire map (2 skips a case)
    assert report["warnings"] == []
    shipped = sorted(case.name for case in (FIXTURE / "modelport_acme_2_0" / "cases").iterdir())
    assert [c["case"] for c in report["cases"]] == shipped and len(shipped) == 8
