"""The ``modelport`` command: providers, conformance (matrix, formats, exit codes), generate.

The command is the core's (``modelport.cli``); ``conformance`` comes from this package through the
``modelport.commands`` entry point. tests/cli has the command's own tests (plugins, spinner, progress
bar, ``-o``, standard input, the HTML report in Chromium).
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from modelport.cli import main
from modelport_conformance import conformance_suites

from .conftest import EXAMPLE_CASES

CANARY = "AIza" + "C" * 35


def test_providers_lists_capabilities_and_plugin_errors(broken_installed, tmp_path):
    from .conftest import write_distribution

    write_distribution(tmp_path / "site", "modelport-bad", {"bad": "modelport_does_not_exist._plugin"})
    result = CliRunner().invoke(main, ["providers"])
    assert result.exit_code == 0
    assert result.output.splitlines()[:3] == [
        "example: Example",
        "  capabilities: generate, stream",
        "  provider tools: none",
    ]
    assert result.output.splitlines()[-2:] == [
        "Plugin load errors:",
        "  bad: ModuleNotFoundError: No module named 'modelport_does_not_exist'",
    ]
    same = CliRunner().invoke(main, ["providers", "--format", "json"])
    data = json.loads(same.output)
    assert [p["id"] for p in data["providers"]] == ["example", "example-badrequest", "example-badresponse"]
    assert "conformance_suites" not in data["providers"][0]  # the core knows nothing of suites
    assert [s.provider_id for s in conformance_suites()["example"]] == ["example"]


def test_conformance_json_is_machine_readable(example_installed, tmp_path):
    out = tmp_path / "report.json"
    result = CliRunner().invoke(main, ["conformance", "--format", "json", "--output", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert (report["version"], report["ok"], report["summary"]) == (
        1,
        True,
        {"pass": 2, "fail": 0, "skip": 0},
    )
    cases = report["providers"]["example"]["cases"]
    assert [(c["case"], c["method"], c["status"], c["requirements"]) for c in cases] == [
        ("generate-basic", "generate", "pass", ["EX1"]),
        ("stream-basic", "stream", "pass", ["EX2"]),
    ]
    assert "example/stream-basic ... PASS" in result.output  # progress


def test_conformance_exits_non_zero_on_failure_and_renders_markdown(broken_installed):
    result = CliRunner().invoke(
        main, ["conformance", "--provider", "example-badrequest", "--format", "markdown", "-q"]
    )
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "| provider | case | method | result | requirements | detail |"
    assert "      $.max_tokens: missing (expected 20)" in lines
    assert lines[-1] == "**conformance: FAILED**"


def test_conformance_table_passes_for_the_example(example_installed):
    result = CliRunner().invoke(main, ["conformance", "--strict", "-q"])
    assert result.exit_code == 0
    assert result.output.splitlines()[-3:] == [
        "example: 2 cases: 2 passed, 0 failed, 0 skipped",
        "example: 24 checks: 15 passed, 0 failed, 9 skipped",
        "conformance: OK",
    ]


def test_generate_replays_a_cassette_offline_without_printing_keys(example_installed, monkeypatch):
    monkeypatch.setenv("EXAMPLE_API_KEY", CANARY)
    cassette = str(EXAMPLE_CASES / "generate-basic" / "cassette.yaml")
    args = ["generate", "example/tiny-1", "Say hello.", "--system", "Be brief.", "--max-output-tokens", "20"]
    result = CliRunner().invoke(main, [*args, "--cassette", cassette])
    # temperature 0.5 was recorded but not given: the request does not match, and the diff says so
    assert result.exit_code == 1
    assert "  $.temperature: missing (expected 0.5)" in result.output
    stream = str(EXAMPLE_CASES / "stream-basic" / "cassette.yaml")
    ok = CliRunner().invoke(
        main, ["generate", "example/tiny-1", "Say hello.", "--stream", "--cassette", stream]
    )
    assert (ok.exit_code, ok.output) == (0, "Héllo wörld 👋\n")
    as_json = CliRunner().invoke(
        main, ["generate", "example/tiny-1", "Say hello.", "--stream", "--json", "--cassette", stream]
    )
    payload = json.loads(as_json.output)
    assert (payload["text"], payload["sources"], payload["result"]["usage"]["output_tokens"]) == (
        "Héllo wörld 👋",
        [],
        3,
    )
    for output in (result.output, ok.output, as_json.output):
        assert CANARY not in output


def test_generate_rejects_unknown_tool_names_and_cassettes_with_keys(example_installed, tmp_path):
    # The key shape is the Google plugin's: loaded here, as it is wherever that plugin is installed
    # (the example registry alone does not load it; the test must not depend on an earlier test).
    import modelport_google.provider  # noqa: F401

    result = CliRunner().invoke(main, ["generate", "example/tiny-1", "hi", "--tool", "os.system"])
    assert result.exit_code == 1
    assert result.output == "error: provider 'example' has no provider tools\n"
    bad = tmp_path / "c.yaml"
    bad.write_text(f"version: 1\ninteractions: []\nmetadata: {{k: {CANARY}}}\n")
    result = CliRunner().invoke(main, ["generate", "example/tiny-1", "hi", "--cassette", str(bad)])
    assert result.exit_code == 1
    assert (
        result.output
        == "error: the cassette contains credential-looking strings:\n  c.yaml:3: Google API key (AIza…)\n"
    )


def test_plugin_load_errors_are_shown_and_fail_strict_runs(example_installed, tmp_path):
    from .conftest import write_distribution

    write_distribution(tmp_path / "site", "modelport-bad", {"bad": "modelport_does_not_exist._plugin"})
    lenient = CliRunner().invoke(main, ["conformance", "-q"])
    assert lenient.exit_code == 0
    assert (
        "Plugin load errors:\nbad: ModuleNotFoundError: No module named 'modelport_does_not_exist'"
        in lenient.output
    )
    strict = CliRunner().invoke(main, ["conformance", "-q", "--strict", "--format", "json"])
    assert strict.exit_code == 1
    report = json.loads(strict.output)
    assert (report["ok"], list(report["plugin_errors"])) == (False, ["bad"])


def test_unknown_provider_fails(example_installed):
    result = CliRunner().invoke(main, ["conformance", "-q", "--provider", "nope", "--format", "json"])
    assert result.exit_code == 1
    assert json.loads(result.output)["providers"]["nope"] == {
        "status": "fail",
        "problem": "not a registered provider",
        "summary": {"pass": 0, "fail": 0, "skip": 0},
        "check_summary": {"pass": 0, "fail": 0, "skip": 0},
        "warnings": [],
        "cases": [],
    }


def test_conformance_html_goes_to_stdout_without_output(example_installed):
    result = CliRunner().invoke(main, ["conformance", "-q", "--format", "html"])
    assert result.exit_code == 0
    assert result.stdout.startswith("<!DOCTYPE html>\n")
    assert '<span class="verdict ok">conformance: OK</span>' in result.stdout
    assert result.stdout.rstrip().endswith("</html>")
