"""``modelport conformance import`` options a scripted import needs: the case's description and
features, the picked interactions' own numbers in ``source``, ``--accept`` (expected.json written,
no proposal), and a raw body's status with its standard reason phrase."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from modelport_conformance.cli import main
from modelport_conformance.goldens import PROPOSED_FILE
from tests import recordings

from .test_recording_import import HAR, MIRASCOPE, SSE


def _import(*args: str) -> Any:
    return CliRunner().invoke(main, ["conformance", "import", *args])


def _three_entries(tmp_path: Path) -> Path:
    # MOCK container: the real HAR entry three times in one log (a file of three exchanges).
    har = json.loads(recordings.recording("anthropic", HAR).read_text(encoding="utf-8"))
    har["log"]["entries"] *= 3
    source = tmp_path / "three.har"
    source.write_text(json.dumps(har), encoding="utf-8")
    return source


def test_picked_interactions_keep_their_numbers_in_the_file(tmp_path: Path) -> None:
    source = _three_entries(tmp_path)
    into = tmp_path / "cases"
    result = _import(
        str(source), "--provider", "anthropic", "--into", str(into), "--interaction", "3", "--interaction", "1",
        *MIRASCOPE,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    numbers = [
        yaml.safe_load((into / name / "case.yaml").read_text(encoding="utf-8"))["source"]["interaction"]
        for name in ("three-1", "three-2")
    ]
    assert numbers == [3, 1]
    one = _import(
        str(source), "--provider", "anthropic", "--into", str(into), "--interaction", "2", "--name", "second",
        *MIRASCOPE,
    )  # fmt: skip
    assert one.exit_code == 0, one.output
    spec = yaml.safe_load((into / "second" / "case.yaml").read_text(encoding="utf-8"))
    assert spec["source"]["interaction"] == 2


def test_description_features_and_accept_write_the_case_as_given(tmp_path: Path) -> None:
    source = _three_entries(tmp_path)
    args = [str(source), "--provider", "anthropic", "--into", str(tmp_path / "cases"), "--interaction", "1"]
    args += ["--name", "empty", "--description", "An empty user text, answered.", *MIRASCOPE]
    lacking = _import(*args, "--feature", "function_tools", "--feature", "embed", "--accept")
    assert lacking.exit_code == 1
    assert (
        "  [capabilities] refused: the case needs embed, which provider 'anthropic' does not declare "
        "(Capabilities: embed=False); declare it, or list it in the suite's unsupported with the reason"
    ) in lacking.output.splitlines()
    assert lacking.output.splitlines()[-1] == "1 case(s) imported, 1 failing, 0 expected.json written"
    result = _import(*args, "--feature", "function_tools", "--feature", "stream", "--accept", "--force")
    assert result.exit_code == 0, result.output
    case = tmp_path / "cases" / "empty"
    spec = yaml.safe_load((case / "case.yaml").read_text(encoding="utf-8"))
    assert spec["description"] == "An empty user text, answered."
    assert spec["features"] == ["function_tools", "stream"]
    assert list(spec) == ["description", "method", "model", "features", "request", "source"]
    assert sorted(p.name for p in case.iterdir()) == ["case.yaml", "cassette.yaml", "expected.json"]
    assert not (case / PROPOSED_FILE).exists()
    assert result.output.splitlines()[-1] == "1 case(s) imported, 0 failing, 1 expected.json written"
    assert f"  accepted as {case / 'expected.json'}" in result.output.splitlines()


def test_a_raw_body_keeps_the_standard_reason_phrase_of_its_status(tmp_path: Path) -> None:
    path = recordings.recording("anthropic", SSE)
    request = json.dumps({"prompt": "What is the meaning of life?", "max_output_tokens": 2048})
    for status, reason in (("200", "OK"), ("529", "")):
        name = f"status-{status}"
        result = _import(
            str(path), "--provider", "anthropic", "--into", str(tmp_path), "--name", name,
            "--model", "claude-3-7-sonnet-20250219", "--request", request, "--status", status,
        )  # fmt: skip
        assert "error:" not in result.output, result.output
        cassette = yaml.safe_load((tmp_path / name / "cassette.yaml").read_text(encoding="utf-8"))
        assert cassette["interactions"][0]["response"]["status"] == {"code": int(status), "message": reason}
