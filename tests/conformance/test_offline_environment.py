"""A replay reads no endpoint or key from the environment: ``modelport conformance`` and the pytest
plugin pass offline with ``OPENAI_BASE_URL``, ``GOOGLE_GEMINI_BASE_URL`` and ``OLLAMA_BASE_URL`` set
to a dead port and keys set in the shell (the cassettes hold the providers' default URLs)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport.cli import main


def _dead_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def hostile_shell(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment variables a user's shell might hold, all pointing nowhere useful."""
    dead = f"http://127.0.0.1:{_dead_port()}"
    variables = {
        "OPENAI_BASE_URL": f"{dead}/v1",
        "GOOGLE_GEMINI_BASE_URL": f"{dead}/v1beta",
        "OLLAMA_BASE_URL": f"{dead}/v1",
        "OPENAI_API_KEY": "sk-from-the-shell-not-for-replay",
        "GEMINI_API_KEY": "from-the-shell-not-for-replay",
    }
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return variables


def test_replay_settings_pin_the_default_url_and_the_replay_key() -> None:
    from modelport_conformance.replay import REPLAY_API_KEY, replay_settings

    assert replay_settings("openai") == {
        "api_key": REPLAY_API_KEY,
        "max_retries": 0,
        "base_url": "https://api.openai.com/v1",
    }
    assert replay_settings("google")["base_url"] == "https://generativelanguage.googleapis.com/v1beta"
    assert replay_settings("ollama")["base_url"] == "http://localhost:11434/v1"
    assert "base_url" not in replay_settings("google-vertex")  # its URL comes from the case's location


def test_the_conformance_command_passes_offline_with_the_variables_set(
    hostile_shell: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "report.json"
    providers = ["--provider", "openai", "--provider", "ollama", "--provider", "google"]
    result = CliRunner().invoke(
        main, ["conformance", *providers, "-q", "--format", "json", "--output", str(out)]
    )
    report = json.loads(out.read_text())
    failed = [
        (provider, case["case"], case.get("detail"))
        for provider, data in report["providers"].items()
        for case in data["cases"]
        if case["status"] == "fail"
    ]
    assert failed == []
    assert result.exit_code == 0, result.output
    assert set(report["providers"]) == {"openai", "ollama", "google"}
    passed = {p: sum(c["status"] == "pass" for c in d["cases"]) for p, d in report["providers"].items()}
    assert all(count > 0 for count in passed.values()), passed


AUTHOR_TESTS = textwrap.dedent(
    """
    from modelport_conformance import ProviderConformanceTests


    class TestOllama(ProviderConformanceTests):
        provider_id = "ollama"
        models = ("qwen3:0.6b",)


    class TestOpenAI(ProviderConformanceTests):
        provider_id = "openai"
        models = ("gpt-4o-mini",)
    """
)


def test_the_pytest_plugin_passes_offline_with_the_variables_set(
    hostile_shell: dict[str, str], tmp_path: Path
) -> None:
    (tmp_path / "test_author.py").write_text(AUTHOR_TESTS)
    env = {**os.environ, **hostile_shell}
    env.pop("MODELPORT_RECORD_MODE", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path)]
    run = subprocess.run(
        [*command, str(tmp_path / "test_author.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " failed" not in run.stdout.splitlines()[-1]
    assert " passed" in run.stdout.splitlines()[-1]
