"""The credential scan knows the common key shapes, a plugin adds its own, and a planted key fails the
case before anything of it is replayed or reported. Every key is built at run time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import modelport
from modelport import hookimpl, plugins
from modelport_conformance.cases import Suite, discover_suites, load_cases
from modelport_conformance.cli import main
from modelport_conformance.credentials import redact, scan_text
from modelport_conformance.runner import run_case
from modelport_conformance.scrub import Scrubber
from modelport_conformance.suites import conformance_suites

from .servers import plugin_module as _plugin

ALNUM = "Zx9Qw3Er7Ty1Ui5Op2As6Df4Gh8Jk0Lz"  # 32 characters

#: (kind, a key of that shape, its masked form)
SHAPES = [
    ("Google API key", "AIza" + ALNUM + "abc", "AIza…"),
    ("Google OAuth access token", "ya29." + ALNUM, "ya29…"),
    ("OpenAI API key", "sk-" + ALNUM + "T3BlbkFJ" + ALNUM[:8], "sk-Z…"),
    ("OpenAI API key", "sk-proj-" + ALNUM + ALNUM[:16], "sk-p…"),
    ("Anthropic API key", "sk-ant-api03-" + ALNUM + ALNUM, "sk-a…"),
    ("Groq API key", "gsk_" + ALNUM + ALNUM[:20], "gsk_…"),
    ("xAI API key", "xai-" + ALNUM * 2 + ALNUM[:16], "xai-…"),
    ("OpenRouter API key", "sk-or-v1-" + "0123456789abcdef" * 4, "sk-o…"),
    ("AWS access key id", "AKIA" + "IOSFODNN7EXAMPL2", "AKIA…"),
    ("AWS access key id", "ASIA" + "Q3EGRTVOTEXAMPL3", "ASIA…"),
    ("JSON web token", "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0." + ALNUM, "eyJh…"),
    ("bearer token", "Bearer " + ALNUM, "Bear…"),
    ("private key", "-----BEGIN RSA PRIVATE KEY-----", "BEGI…"),
]
IDS = [f"{kind}-{key[:6]}" for kind, key, _ in SHAPES]

CASSETTE = """version: 1
interactions:
- request:
    method: POST
    uri: https://api.example.test/v1/generate
    headers: {{}}
    body: {{json: {{model: tiny-1}}}}
  response:
    status: {{code: 200, message: OK}}
    headers: {{}}
    body:
      json:
        note: '{planted}'
"""


def _planted_case(root: Path, planted: str) -> Path:
    directory = root / "cases" / "planted"
    directory.mkdir(parents=True)
    (directory / "case.yaml").write_text("method: generate\nmodel: tiny-1\nrequest: {prompt: hi}\n")
    (directory / "cassette.yaml").write_text(CASSETTE.format(planted=planted))
    return directory


@pytest.mark.parametrize(("kind", "key", "masked"), SHAPES, ids=IDS)
def test_scan_finds_each_key_shape(kind, key, masked):
    assert [(f.kind, f.line, f.masked) for f in scan_text(f"a: 1\nb: '{key}'\n")] == [(kind, 2, masked)]
    assert redact(f"x {key} y") in {"x REDACTED y", "x Bearer REDACTED y"}


@pytest.mark.parametrize(("kind", "key", "masked"), SHAPES, ids=IDS)
def test_a_planted_key_fails_the_case_unreplayed_and_masked(example_installed, tmp_path, kind, key, masked):
    directory = _planted_case(tmp_path, key)
    suite = Suite("example", load_cases(tmp_path / "cases"))
    outcome = run_case(suite, suite.cases[0])
    assert (outcome.status, [c.name for c in outcome.checks]) == ("fail", ["credentials"])
    assert outcome.message == f"[credentials] planted/cassette.yaml:13: {kind} ({masked})"
    assert key not in outcome.message
    cli = CliRunner().invoke(
        main, ["generate", "example/tiny-1", "hi", "--cassette", str(directory / "cassette.yaml")]
    )
    assert (cli.exit_code, cli.output) == (
        1,
        f"error: the cassette contains credential-looking strings:\n  cassette.yaml:13: {kind} ({masked})\n",
    )


def test_credential_headers_are_findings_unless_they_hold_the_placeholder():
    kept = "headers:\n  authorization:\n  - <credential>\n  x-api-key: ['<credential>']\n"
    assert scan_text(kept) == []
    real = "headers:\n  authorization:\n  - token-value\n  x-api-key: [abc]\n"
    assert [(f.line, f.kind) for f in scan_text(real)] == [(2, "credential header"), (4, "credential header")]


def test_shapes_inside_longer_tokens_are_not_findings():
    # base64 blobs (thought signatures) contain anything; a key shape glued to letters is no key.
    assert scan_text("sig: Cq" + SHAPES[0][1] + "xyz") == []
    assert scan_text("sig: Cqsk-proj-" + ALNUM + " task-" + ALNUM) == []


def test_a_finding_names_its_line_and_never_holds_the_key():
    key = SHAPES[0][1]  # a Google API key
    findings = scan_text(f"uri: https://x.test/v1?alt=sse\nbody: '{key}'\n")
    assert [(f.kind, f.line, f.masked) for f in findings] == [("Google API key", 2, "AIza…")]
    assert key not in findings[0].describe("cassette.yaml")


def test_credential_headers_urls_and_bearer_tokens_are_found():
    text = "\n".join(
        [
            "x-goog-api-key: [abc]",
            "token: "
            + "ya29."
            + "a0AfH6SMBx1234567890abcdef",  # built at run time: no token-shaped literal in git
            "uri: https://h.test/v1/models?key=0123456789abcdef",
            "Authorization: Bearer abcdefghijklmnopqrstuvwx",
        ]
    )
    kinds = [(f.line, f.kind) for f in scan_text(text)]
    assert kinds == [
        (1, "credential header"),
        (2, "Google OAuth access token"),
        (3, "credential in URL"),
        (4, "credential header"),
        (4, "bearer token"),
    ]


EXAMPLE_KEY = {"Example key": r"exk_[0-9a-f]{32}"}
EXK = "exk_" + "0123456789abcdef" * 2


@hookimpl
def _suites_with_patterns(register: Any) -> None:
    register("example", Path("/nonexistent"), secret_patterns=EXAMPLE_KEY)


def test_a_plugin_registers_its_own_key_shapes(example_installed, tmp_path):
    assert scan_text(f"k: {EXK}") == []
    assert [f.kind for f in scan_text(f"k: {EXK}", EXAMPLE_KEY)] == ["Example key"]
    modelport.register_plugin(_plugin(modelport_conformance_suites=_suites_with_patterns), name="patterns")
    [_, extra] = conformance_suites()["example"]
    assert extra.secret_patterns == EXAMPLE_KEY
    suites, _ = discover_suites(["example"])
    assert suites["example"].secret_patterns == EXAMPLE_KEY  # merged with the example's own suite
    directory = _planted_case(tmp_path, EXK)
    suite = Suite("example", load_cases(tmp_path / "cases"), secret_patterns=EXAMPLE_KEY)
    outcome = run_case(suite, suite.cases[0])
    assert outcome.message == "[credentials] planted/cassette.yaml:13: Example key (exk_…)"
    cli = CliRunner().invoke(
        main, ["generate", "example/tiny-1", "hi", "--cassette", str(directory / "cassette.yaml")]
    )
    assert cli.output.splitlines()[-1] == "  cassette.yaml:13: Example key (exk_…)"
    assert Scrubber(patterns=EXAMPLE_KEY).text(f"id={EXK}") == "id=REDACTED"


@hookimpl
def _suites_with_a_bad_pattern(register: Any) -> None:
    register("example", Path("/nonexistent"), secret_patterns={"Broken": "exk_[0-9"})


def test_a_pattern_that_does_not_compile_fails_registration(example_installed):
    plugins.providers()
    modelport.register_plugin(
        _plugin(modelport_conformance_suites=_suites_with_a_bad_pattern), name="bad-patterns"
    )
    found = conformance_suites().get("example", [])
    assert all("Broken" not in s.secret_patterns for s in found)
    errors = plugins.load_errors()
    assert any("secret pattern 'Broken' of the 'example' suite is not usable" in e for e in errors.values())


#: The well-known shapes among :data:`SHAPES` (those a first-party plugin declares too).
WELL_KNOWN = [
    (kind, key)
    for kind, key, _ in SHAPES
    if kind.startswith(("Google", "OpenAI", "Anthropic", "Groq", "xAI", "OpenRouter"))
]


def test_the_well_known_key_shapes_are_found_with_no_plugin_installed():
    """Found here: ``scan_text`` found OpenAI, Anthropic, Groq, xAI and OpenRouter keys only when the
    plugin declaring that shape was installed. A fresh interpreter loading no plugin at all (as a
    third party recording a gateway that takes OpenAI keys, with only its own plugin) finds each."""
    import json
    import os
    import subprocess
    import sys

    program = (
        "import json, sys\n"
        "from modelport import plugins, secrets\n"
        "from modelport_conformance.credentials import redact, scan_text\n"
        "assert plugins.providers() == {}, plugins.providers()\n"
        "declared = sorted(kind for kind, _ in secrets.all_patterns())\n"
        "found = [[f.kind for f in scan_text(f'a: {key}')] for _, key in json.loads(sys.argv[1])]\n"
        "cleaned = [redact(f'a: {key}') for _, key in json.loads(sys.argv[1])]\n"
        "print(json.dumps([declared, found, cleaned]))\n"
    )
    env = {**os.environ, "MODELPORT_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run(
        [sys.executable, "-c", program, json.dumps(WELL_KNOWN)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    declared, found, cleaned = json.loads(done.stdout)
    assert not any(kind.startswith(("Google", "OpenAI", "Anthropic")) for kind in declared)
    assert found == [[kind] for kind, _ in WELL_KNOWN]
    assert cleaned == ["a: REDACTED"] * len(WELL_KNOWN)
