"""``generate --cassette`` is a transport modelport-conformance contributes through the entry-point
group ``modelport.transports``: the core imports nothing of it, names the package to install when it
is absent, and builds the model on whatever transport the contribution returns."""

from __future__ import annotations

import sys
import types
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from modelport.cli import main, transports
from modelport.cli.transports import TRANSPORTS_GROUP, Replay

from .conftest import EXAMPLE_CASES

CASSETTE = EXAMPLE_CASES / "generate-basic" / "cassette.yaml"


def _only(monkeypatch: pytest.MonkeyPatch, *eps: metadata.EntryPoint) -> None:
    """The installed transports are ``eps`` alone (the real modelport-conformance one hidden)."""
    real = metadata.entry_points

    def entry_points(**params: Any) -> Any:
        if params.get("group") == TRANSPORTS_GROUP:
            return list(eps)
        return real(**params)

    monkeypatch.setattr(transports.metadata, "entry_points", entry_points)


def test_without_modelport_conformance_the_error_names_the_package(example_installed, monkeypatch):
    _only(monkeypatch)
    for name in [m for m in sys.modules if m.partition(".")[0] == "modelport_conformance"]:
        monkeypatch.setitem(sys.modules, name, None)  # not importable either
    result = CliRunner().invoke(
        main, ["generate", "example/tiny-1", "Say hello.", "--cassette", str(CASSETTE)]
    )
    assert (result.exit_code, result.output) == (
        1,
        "error: --cassette needs modelport-conformance (pip install modelport-conformance)\n",
    )


def test_with_modelport_conformance_the_cassette_replays(example_installed):
    [ep] = [ep for ep in metadata.entry_points(group=TRANSPORTS_GROUP) if ep.name == "cassette"]
    assert ep.value == "modelport_conformance.cli:cassette_transport"
    args = ["generate", "example/tiny-1", "Say hello.", "--system", "Be brief.", "--cassette", str(CASSETTE)]
    result = CliRunner().invoke(main, [*args, "-o", "max_output_tokens=20", "-o", "temperature=0.5"])
    assert (result.exit_code, result.output) == (0, "Hello!\n")


def test_a_file_that_is_no_cassette_is_a_clear_error(example_installed, tmp_path):
    for name, text, problem in [
        ("notes.md", 'title: "Notes\n', "found unexpected end of stream (line 2)"),
        ("list.yaml", "- 1\n- 2\n", "a cassette is a mapping with an 'interactions' list"),
    ]:
        (tmp_path / name).write_text(text)
        result = CliRunner().invoke(
            main, ["generate", "example/tiny-1", "hi", "--cassette", str(tmp_path / name)]
        )
        assert (result.exit_code, result.output) == (1, f"error: {name} is not a cassette: {problem}\n")


def test_a_transport_that_fails_to_load_is_reported(example_installed, monkeypatch):
    _only(monkeypatch, metadata.EntryPoint("cassette", "modelport_no_such_module:opener", TRANSPORTS_GROUP))
    result = CliRunner().invoke(main, ["generate", "example/tiny-1", "hi", "--cassette", str(CASSETTE)])
    assert (result.exit_code, result.output) == (
        1,
        "error: the --cassette transport failed to load: ModuleNotFoundError: "
        "No module named 'modelport_no_such_module'\n",
    )


def test_the_model_is_built_on_the_contributed_transport(example_installed, monkeypatch):
    """Any package may serve ``--cassette``: the core builds the model on the transport it returns,
    with its ``get_model`` keywords, and prints what the recording did not match."""
    seen: list[Any] = []
    mismatches: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append((str(request.url), request.headers.get("authorization")))
        body = {"output": [{"type": "text", "text": "From the tape."}], "stop_reason": "end"}
        return httpx.Response(200, json=body)

    def opener(model_id: str, path: Path) -> Replay:
        seen.append((model_id, path))
        return Replay(httpx.MockTransport(answer), {"api_key": "tape-key"}, lambda: list(mismatches))

    module = types.ModuleType("modelport_tape")
    module.opener = opener  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "modelport_tape", module)
    _only(monkeypatch, metadata.EntryPoint("cassette", "modelport_tape:opener", TRANSPORTS_GROUP))
    args = ["generate", "example/tiny-1", "hi", "--cassette", str(CASSETTE)]
    result = CliRunner().invoke(main, args)
    assert (result.exit_code, result.output) == (0, "From the tape.\n")
    assert seen == [
        ("example/tiny-1", CASSETTE),
        ("https://api.example.test/v1/generate", "Bearer tape-key"),
    ]
    mismatches.append("  $.temperature: missing (expected 0.5)")
    result = CliRunner().invoke(main, args)
    assert (result.exit_code, result.output) == (
        1,
        "error: the request does not match the cassette:\n  $.temperature: missing (expected 0.5)\n",
    )


def test_a_contribution_must_return_a_replay(example_installed, monkeypatch):
    module = types.ModuleType("modelport_tape")
    module.opener = lambda model_id, path: "not a replay"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "modelport_tape", module)
    _only(monkeypatch, metadata.EntryPoint("cassette", "modelport_tape:opener", TRANSPORTS_GROUP))
    result = CliRunner().invoke(main, ["generate", "example/tiny-1", "hi", "--cassette", str(CASSETTE)])
    assert (result.exit_code, result.output) == (
        1,
        "error: modelport_tape:opener returned a str, not a Replay\n",
    )
