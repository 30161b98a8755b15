"""Declared capabilities held against the cases: what a case exercises (its method, features and
request), a declared capability no case exercises reported as a warning (never a failure, also under
``--strict``), and a case needing an undeclared capability refused (tested with the CLI and pytest in
test_selection_and_config.py)."""

from __future__ import annotations

import json
import shutil

import yaml

from modelport_conformance.capabilities import exercised, refusal, uncovered
from modelport_conformance.cases import Suite, load_cases
from modelport_conformance.report import render, run_conformance

from .conftest import EXAMPLE_CASES

WARNING = "declares stream, and no case exercises it"


def _cases(tmp_path, request_edits=None):
    target = tmp_path / "cases"
    shutil.copytree(EXAMPLE_CASES, target)
    for name, edit in (request_edits or {}).items():
        path = target / name / "case.yaml"
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        spec["request"] = {**spec["request"], **edit}
        path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return load_cases(target)


def test_a_case_exercises_its_method_features_and_what_its_request_uses(example_installed, tmp_path):
    tools = [
        {"type": "function", "name": "f", "parameters": {"type": "object"}},
        {"type": "provider", "id": "google.search"},
    ]
    generate, stream = _cases(
        tmp_path,
        {
            "generate-basic": {"response_format": {"type": "json"}, "tools": tools},
            "stream-basic": {
                "response_format": "text",
                "reasoning": {"effort": "low"},
                "prompt_cache": {"at": ["system"]},
            },
        },
    )
    assert exercised(generate) == ["generate", "structured_output", "function_tools", "provider_tools"]
    # a "text" response format is no structured output
    assert exercised(stream) == ["stream", "reasoning", "prompt_cache"]
    # the Example declares none of them: the cases are refused, naming every one
    assert refusal("example", generate) == (
        "refused: the case needs structured_output, function_tools, provider_tools, which provider "
        "'example' does not declare (Capabilities: structured_output=False, function_tools=False, "
        "provider_tools=False); declare it, or list it in the suite's unsupported with the reason"
    )
    plain = load_cases(EXAMPLE_CASES)
    assert [refusal("example", case) for case in plain] == [None, None]


def test_a_capability_no_case_can_exercise_is_not_reported(example_installed, monkeypatch):
    from modelport import plugins
    from modelport.provider import Capabilities

    provider = plugins.provider_class("example")
    monkeypatch.setattr(provider, "capabilities", Capabilities(generate=True, stream=True, list_models=True))
    assert uncovered("example", load_cases(EXAMPLE_CASES)) == []


def test_a_declared_capability_without_a_case_is_a_warning_not_a_failure(example_installed, tmp_path):
    generate, stream = load_cases(EXAMPLE_CASES)
    assert uncovered("example", [generate, stream]) == []
    assert uncovered("example", [generate]) == ["stream"]
    report = run_conformance(suites={"example": Suite("example", [generate])}, strict=True)
    assert report.ok
    [provider] = report.providers
    assert (provider.status, provider.warnings) == ("pass", [WARNING])
    table = render(report, width=200).splitlines()
    assert [line.split() for line in table[2:4]] == [
        ["example", "generate-basic", "generate", "PASS", "EX1"],
        ["example", "-", "-", "WARN", *WARNING.split()],
    ]
    assert json.loads(render(report, "json"))["providers"]["example"]["warnings"] == [WARNING]
    assert f"<li>{WARNING}</li>" in render(report, "html")
