"""The provider template's cases come from its recordings, by ``modelport conformance import``:
in a generated project, its recorder run against its fake server writes exactly the committed
recordings (a vcrpy cassette that vcrpy itself reads, raw event streams and their request bodies),
and its importer, one ``modelport conformance import`` per case, turns them into exactly the
committed cases, byte for byte, with the name's defaults and with the API settings given as
options. A recorded request the plugin no longer sends fails its import.

The generated project's ``tests`` package is loaded as ``generated_tests`` (this repository has a
``tests`` package of its own); that the project passes its own pytest, these tests included, is
tests/cli/test_new_provider_ci.py.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from modelport._registry import reset_registry
from modelport.cli import main
from modelport_conformance.cli import main as conformance_main
from tests.conformance.conftest import install_alone

NAME = "rec-llm"
PACKAGE = "modelport_rec_llm"
SETTINGS = {
    "defaults": [],
    "options": ["--key-env", "REC_KEY", "--base-url", "https://gw.rec.example:8443/api/v2", "--auth", "header:X-Rec-Key"],
}  # fmt: skip
STREAMS = ["stream-cited", "stream-cut-short", "stream-text", "stream-tool-call"]
CASES = sorted(
    ["embed-texts", "error-400", "error-401", "error-429", "error-500", "generate-cited", "generate-text"]
    + ["generate-tool-call", "generate-tool-result", "generate-unsupported-setting", *STREAMS]
)


def _forget() -> None:
    for name in [m for m in sys.modules if m.startswith((PACKAGE, "generated_tests"))]:
        del sys.modules[name]


@pytest.fixture(params=sorted(SETTINGS))
def project(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> Iterator[Path]:
    """A project generated with the defaults or with options, its plugin installed by entry point."""
    _forget()
    root = tmp_path / "project"
    result = CliRunner().invoke(
        main, ["new-provider", NAME, "--directory", str(root), *SETTINGS[request.param]]
    )
    assert result.exit_code == 0, result.output
    install_alone(
        monkeypatch, tmp_path / "site", f"modelport-{NAME}", {NAME: f"{PACKAGE}._plugin"}, root / "src"
    )
    reset_registry()  # new-provider read the installed plugins (to refuse a taken name) before this one
    yield root
    _forget()
    reset_registry()


def _generated(root: Path, module: str) -> ModuleType:
    """``tests.<module>`` of the generated project, as ``generated_tests.<module>``."""
    if "generated_tests" not in sys.modules:
        init = root / "tests" / "__init__.py"
        spec = importlib.util.spec_from_file_location("generated_tests", init, submodule_search_locations=[])
        assert spec is not None and spec.loader is not None and spec.submodule_search_locations is not None
        spec.submodule_search_locations.append(str(root / "tests"))
        package = importlib.util.module_from_spec(spec)
        sys.modules["generated_tests"] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"generated_tests.{module}")


def test_recording_again_gives_the_committed_recordings(project: Path, tmp_path: Path) -> None:
    recorder = _generated(project, "record_traffic")
    written = recorder.record_against_fake(tmp_path / "fresh")
    streams = ("stream-text", "stream-tool-call", "stream-cited", "stream-cut-short")  # in CALLS order
    assert written == ["demo-api.yaml", *(f"{s}.{x}" for s in streams for x in ("sse", "request.json"))]
    committed = project / "recordings"
    assert sorted(p.name for p in committed.iterdir()) == sorted([*written, "README.md"])
    for name in written:
        assert (tmp_path / "fresh" / name).read_bytes() == (committed / name).read_bytes(), name
    assert b"fake-key-of-the-local-server" not in b"".join(p.read_bytes() for p in committed.iterdir())


def test_the_cassette_is_one_vcrpy_reads(project: Path) -> None:
    from vcr.serialize import deserialize
    from vcr.serializers import yamlserializer

    provider = _generated(project, "record_traffic").PROVIDER
    text = (project / "recordings" / "demo-api.yaml").read_text(encoding="utf-8")
    requests, responses = deserialize(text, yamlserializer)
    assert [r["status"]["code"] for r in responses] == [200, 200, 200, 200, 200, 400, 401, 429, 500, 200]
    assert {(r.method, r.uri) for r in requests[:-1]} == {("POST", f"{provider.default_base_url}/generate")}
    assert (requests[-1].method, requests[-1].uri) == ("POST", f"{provider.default_base_url}/embed")
    assert requests[0].headers[provider.api_key_header] == "FILTERED"
    assert json.loads(requests[0].body)["system"] == "Be brief."
    assert json.loads(responses[6]["body"]["string"]) == {
        "error": {"type": "authentication", "message": "The API key is not valid."}
    }


def test_importing_the_recordings_gives_the_committed_cases_byte_for_byte(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    importer = _generated(project, "import_cases")
    assert importer.run(tmp_path / "cases", accept=True) == [0] * len(CASES)
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("modelport ")]
    assert len(printed) == len(CASES)
    recordings = project / "recordings"
    assert printed[0] == (
        f"modelport conformance import {recordings / 'demo-api.yaml'} --provider {NAME} --name generate-text "
        '--interaction 1 --request-body recorded --method generate --request \'{"prompt": "Say hello.", '
        '"system": "Be brief.", "max_output_tokens": 20, "temperature": 0.5}\' --description \'A text answer; '
        'system= arrives as a system-role message and is sent as "system".\' --path recordings/demo-api.yaml '
        "--note 'MOCK: recorded from tests/fake_server.py, a fake of a fictional example API' --force "
        f"--into {tmp_path / 'cases'} --accept"
    )
    assert printed[-1].startswith(
        f"modelport conformance import {recordings / 'stream-cut-short.sse'} --provider {NAME} --name "
        f"stream-cut-short --wire-request {recordings / 'stream-cut-short.request.json'} --method stream "
    )
    committed = project / "src" / PACKAGE / "cases"
    assert sorted(p.name for p in committed.iterdir()) == CASES
    assert sorted(p.name for p in (tmp_path / "cases").iterdir()) == CASES
    for case in CASES:
        for file in ("case.yaml", "cassette.yaml", "expected.json"):
            fresh = (tmp_path / "cases" / case / file).read_bytes()
            assert fresh == (committed / case / file).read_bytes(), f"{case}/{file}"


def test_the_imported_cases_pass_conformance_strict(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    args = ["conformance", "--provider", NAME, "--strict", "--format", "json", "--output", str(out), "-q"]
    assert CliRunner().invoke(conformance_main, args).exit_code == 0
    cases = json.loads(out.read_text(encoding="utf-8"))["providers"][NAME]["cases"]
    assert sorted(case["case"] for case in cases) == CASES
    failed = [(c["case"], k["name"]) for c in cases for k in c["checks"] if k["status"] == "fail"]
    assert failed == []


def test_a_recorded_request_the_plugin_no_longer_sends_fails_its_import(
    project: Path, tmp_path: Path
) -> None:
    importer = _generated(project, "import_cases")
    recording = tmp_path / "demo-api.yaml"
    text = (project / "recordings" / "demo-api.yaml").read_text(encoding="utf-8")
    assert text.count('"system":"Be\n      brief."') == 1
    recording.write_text(
        text.replace('"system":"Be\n      brief."', '"system":"Be\n      terse."'), encoding="utf-8"
    )
    args = importer.command(importer.CALLS[0], 1, tmp_path / "cases", accept=True)
    args[2] = str(recording)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    provider = _generated(project, "record_traffic").PROVIDER
    assert result.output.splitlines()[1:] == [
        f"  [request] request POST {provider.default_base_url}/generate does not match recorded interaction #1:",
        "    $.system: expected 'Be terse.', got 'Be brief.'",
        f"  recorded interaction #1 (POST {provider.default_base_url}/generate) was never played",
        "1 case(s) imported, 1 failing, 0 expected.json written",
    ]
    assert not (tmp_path / "cases" / "generate-text" / "expected.json").exists()
