"""``modelport new-provider`` with the API settings the name cannot tell (``--key-env``,
``--base-url``, ``--auth``, ``--stream``): each value lands in one place of the generated plugin,
a bad one is refused before anything is written, and a plugin generated with them passes the
conformance suite with its generated ``merge_frames``, whose ``merged`` check catches a whole-answer
decoder that disagrees with the stream even after the goldens were regenerated from the bug.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport._registry import reset_registry
from modelport.cli import main
from modelport.secrets import credential_headers
from modelport_conformance.cli import main as conformance_main
from tests.conformance.conftest import install_alone

NAME = "opt-llm"
PACKAGE = "modelport_opt_llm"
OPTIONS = [
    "--key-env",
    "OPT_SERVICE_KEY",
    "--base-url",
    "https://gateway.opt.example:8443/api/v2/",
    "--auth",
    "header:X-Opt-Key",
]
STREAMS = ("stream-cut-short", "stream-text", "stream-tool-call")


def _generate(target: Path, *options: str) -> CliRunner:
    result = CliRunner().invoke(main, ["new-provider", NAME, "--directory", str(target), *options])
    assert result.exit_code == 0, result.output
    return result


def _python_files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in root.rglob("*.py")}


def test_each_setting_is_written_once_in_the_provider_and_read_from_there(tmp_path: Path) -> None:
    _generate(tmp_path / "p", *OPTIONS)
    code = _python_files(tmp_path / "p")
    provider = code[f"src/{PACKAGE}/provider.py"]
    assert (
        '    default_base_url: ClassVar[str | None] = "https://gateway.opt.example:8443/api/v2"\n' in provider
    )
    assert '    api_key_env: ClassVar[tuple[str, ...]] = ("OPT_SERVICE_KEY",)\n' in provider
    assert '    api_key_header: ClassVar[str] = "x-opt-key"\n' in provider
    assert "credential_headers" not in provider  # the kit adds the key's header to them
    for value in ("OPT_SERVICE_KEY", "gateway.opt.example", "x-opt-key"):
        holders = {path: text.count(value) for path, text in code.items() if value in text}
        assert holders == {f"src/{PACKAGE}/provider.py": 1}, value
    plugin = code[f"src/{PACKAGE}/_plugin.py"]
    assert "    from .provider import OptLlmProvider as provider\n" in plugin
    assert "credential_env=provider.api_key_env," in plugin
    assert "PROVIDER = OptLlmProvider\n" in code["tests/record_traffic.py"]
    assert "KEY_ENV = PROVIDER.api_key_env[0]\n" in code["tests/record_traffic.py"]
    assert "AUTH_HEADER = OptLlmProvider.api_key_header\n" in code["tests/fake_server.py"]
    cassette = (tmp_path / "p" / f"src/{PACKAGE}/cases/stream-text/cassette.yaml").read_text(encoding="utf-8")
    assert "    uri: https://gateway.opt.example:8443/api/v2/generate\n" in cassette
    assert "      x-opt-key:\n      - <credential>\n" in cassette
    assert "authorization" not in cassette
    readme = (tmp_path / "p" / "README.md").read_text(encoding="utf-8")
    assert "key in `OPT_SERVICE_KEY`." in readme


def test_the_defaults_are_derived_from_the_name(tmp_path: Path) -> None:
    _generate(tmp_path / "p")
    provider = (tmp_path / "p" / f"src/{PACKAGE}/provider.py").read_text(encoding="utf-8")
    assert '    default_base_url: ClassVar[str | None] = "https://api.opt-llm.test/v1"\n' in provider
    assert '    api_key_env: ClassVar[tuple[str, ...]] = ("OPT_LLM_API_KEY",)\n' in provider
    assert '    api_key_header: ClassVar[str] = "authorization"\n' in provider
    cassette = (tmp_path / "p" / f"src/{PACKAGE}/cases/generate-text/cassette.yaml").read_text(
        encoding="utf-8"
    )
    assert "    uri: https://api.opt-llm.test/v1/generate\n" in cassette
    assert "      authorization:\n      - <credential>\n" in cassette


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--key-env", "opt-key"],
            "Invalid value for '--key-env': 'opt-key' is not an environment variable name: use upper-case "
            "letters, digits and underscores, not starting with a digit, at most 60 (e.g. MY_LLM_API_KEY)",
        ),
        (
            ["--key-env", "9KEY"],
            "Invalid value for '--key-env': '9KEY' is not an environment variable name: use upper-case "
            "letters, digits and underscores, not starting with a digit, at most 60 (e.g. MY_LLM_API_KEY)",
        ),
        (
            ["--base-url", "ftp://opt.example/v1"],
            "Invalid value for '--base-url': the base URL must be an http:// or https:// URL with a host "
            "(scheme: 'ftp')",
        ),
        (
            ["--base-url", "https://opt.example/v1?key=1"],
            "Invalid value for '--base-url': the base URL cannot have a query or fragment ('?' or '#')",
        ),
        (
            ["--base-url", "https://user:secret@opt.example/v1"],
            "Invalid value for '--base-url': the base URL cannot contain '@' in a generated plugin "
            "(letters, digits and . _ ~ : / % - only; no user:password)",
        ),
        (
            ["--base-url", 'https://opt.example/v1"'],
            "Invalid value for '--base-url': the base URL cannot contain '\"' in a generated plugin "
            "(letters, digits and . _ ~ : / % - only; no user:password)",
        ),
        (
            ["--base-url", "https://opt.example/" + "v" * 60],
            "Invalid value for '--base-url': the base URL has 80 characters; a generated plugin holds "
            "at most 64 (set a longer one in its provider.py)",
        ),
        (
            ["--auth", "basic"],
            "Invalid value for '--auth': 'basic' is not an auth style: use bearer (authorization: Bearer "
            "<key>) or header:<Name> (the key as is in that header)",
        ),
        (
            ["--auth", "header:"],
            "Invalid value for '--auth': 'header:' is not an auth style: use bearer (authorization: Bearer "
            "<key>) or header:<Name> (the key as is in that header)",
        ),
        (
            ["--auth", "header:x key"],
            "Invalid value for '--auth': 'header:x key' is not an auth style: use bearer (authorization: "
            "Bearer <key>) or header:<Name> (the key as is in that header)",
        ),
        (
            ["--auth", "header:Authorization"],
            "Invalid value for '--auth': 'header:Authorization' is not an auth style: use bearer "
            "(authorization: Bearer <key>) or header:<Name> (the key as is in that header)",
        ),
        (
            ["--auth", "query:key"],
            "Invalid value for '--auth': 'query:key': the HTTP kit sends the key in a header, never in the "
            "URL (where logs and recordings would keep it); use bearer (authorization: Bearer <key>) or "
            "header:<Name> (the key as is in that header)",
        ),
        (
            ["--stream", "ndjson"],
            "Invalid value for '--stream': 'ndjson' is not a stream framing of the HTTP kit: a streamed "
            "generation is read as server-sent events (sse); a JSON Lines stream needs a provider of its "
            "own (modelport.provider.Provider)",
        ),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_option_before_anything_is_written(
    tmp_path: Path, options: list[str], message: str
) -> None:
    result = CliRunner().invoke(main, ["new-provider", NAME, "--directory", str(tmp_path / "p"), *options])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == f"Error: {message}"
    assert not (tmp_path / "p").exists()


@pytest.fixture
def generated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> Path:
    """A plugin generated with :data:`OPTIONS`, installed by entry point; its package folder."""
    project = tmp_path / "project"
    for name in [m for m in sys.modules if m.startswith(PACKAGE)]:
        monkeypatch.delitem(sys.modules, name)
    _generate(project, *OPTIONS)
    install_alone(
        monkeypatch, tmp_path / "site", f"modelport-{NAME}", {NAME: f"{PACKAGE}._plugin"}, project / "src"
    )
    monkeypatch.setenv("OPT_SERVICE_KEY", "a-key-in-the-shell-that-replay-ignores")
    reset_registry()  # new-provider read the installed plugins (to refuse a taken name) before this one
    yield project / "src" / PACKAGE
    for name in [m for m in sys.modules if m.startswith(PACKAGE)]:
        del sys.modules[name]
    reset_registry()


def _checks(tmp_path: Path, *extra: str) -> tuple[int, dict[tuple[str, str], tuple[str, str]]]:
    reset_registry()
    for name in [m for m in sys.modules if m.startswith(PACKAGE)]:
        del sys.modules[name]
    out = tmp_path / "report.json"
    args = ["conformance", "--provider", NAME, "--format", "json", "--output", str(out), "-q", *extra]
    code = CliRunner().invoke(conformance_main, args).exit_code
    cases = json.loads(out.read_text(encoding="utf-8"))["providers"][NAME]["cases"]
    return code, {
        (case["case"], check["name"]): (check["status"], check["message"])
        for case in cases
        for check in case["checks"]
    }


def test_a_plugin_generated_with_settings_passes_conformance_with_its_merge_frames(
    generated: Path, tmp_path: Path
) -> None:
    from modelport_conformance.cases import discover_suites

    suites, problems = discover_suites([NAME])
    suite = suites[NAME]
    assert suite is not None, problems and suite.merge_frames is not None
    assert suite.credential_env == ("OPT_SERVICE_KEY",)
    from modelport_opt_llm.provider import OptLlmProvider

    # The key's header is a credential header, declared by the kit as the class was defined.
    assert OptLlmProvider.credential_headers == frozenset({"x-opt-key"})
    assert "x-opt-key" in credential_headers()
    code, checks = _checks(tmp_path, "--strict")
    assert code == 0
    assert {key for key, (status, _) in checks.items() if status == "fail"} == set()
    assert {case: checks[case, "merged"][0] for case in STREAMS} == {
        "stream-cut-short": "skip",
        "stream-text": "pass",
        "stream-tool-call": "pass",
    }


def test_merged_catches_a_whole_answer_decoder_that_drops_usage_after_regenerate(
    generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)  # an author regenerating at their desk: CI refuses it
    mapping = generated / "mapping.py"
    text = mapping.read_text(encoding="utf-8")
    good = '("stop_reason", "usage", "sources", "citations")'
    assert text.count(good) == 1
    mapping.write_text(text.replace(good, '("stop_reason", "sources", "citations")'), encoding="utf-8")
    _checks(tmp_path, "--regenerate")
    _checks(tmp_path, "--accept")
    _, checks = _checks(tmp_path)
    failed = {key: message for key, (status, message) in checks.items() if status == "fail"}
    assert failed["stream-text", "merged"].splitlines()[0] == (
        "usage.input_tokens of the stream is 8, of the same answer decoded whole None"
    )
    assert ("stream-tool-call", "merged") in failed
    assert ("generate-text", "expected") not in failed  # the goldens took the bug
