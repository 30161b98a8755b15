"""A local server as a first-class target: an alias or the default model keeps the URL of the server
it lives on, so ``modelport generate -m local "hi"`` and ``modelport chat`` reach it with no
``--base-url``; ``--base-url`` given on the command line still wins. Against the loopback
OpenAI-compatible server (recorded OpenAI answers, tests/cli/openai_server.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from modelport.cli import main

from .openai_server import ANSWER, OpenAIServer

MODEL = "openai-compatible/x"


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


def settings(home: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((home / "settings.json").read_text(encoding="utf-8"))
    return data


def test_an_alias_keeps_its_server_and_generate_reaches_it(_command_home: Path) -> None:
    with OpenAIServer() as server:
        assert run("aliases", "set", "local", MODEL, "--base-url", server.base_url + "/").exit_code == 0
        result = run("generate", "-m", "local", "--no-stream", "hi")
        assert (result.exit_code, result.output) == (0, ANSWER + "\n")
        assert [body["model"] for body in server.bodies()] == ["x"]
        listed = run("aliases").output
    assert listed == f"local: {MODEL} at {server.base_url}\n"  # kept without the trailing slash
    assert settings(_command_home)["aliases"] == {"local": {"model": MODEL, "base_url": server.base_url}}


def test_the_default_model_keeps_its_server(_command_home: Path) -> None:
    with OpenAIServer() as server:
        assert run("default-model", MODEL, "--base-url", server.base_url).exit_code == 0
        result = run("generate", "--no-stream", "hi")
        assert (result.exit_code, result.output) == (0, ANSWER + "\n")
        assert run("default-model").output == f"{MODEL} at {server.base_url}\n"
        chat = run("chat", "--no-stream", input="hello\n")
        assert chat.exit_code == 0, chat.output
        assert ANSWER in chat.output
        assert len(server.bodies()) == 2
    assert settings(_command_home)["default_base_url"] == server.base_url
    assert run("default-model", "--clear").exit_code == 0
    assert "default_base_url" not in settings(_command_home)


def test_a_default_that_names_an_alias_uses_the_aliases_server() -> None:
    with OpenAIServer() as server:
        assert run("aliases", "set", "local", MODEL, "--base-url", server.base_url).exit_code == 0
        assert run("default-model", "local").exit_code == 0
        assert run("generate", "--no-stream", "hi").exit_code == 0
        assert len(server.bodies()) == 1


def test_base_url_on_the_command_line_wins_over_the_kept_one() -> None:
    with OpenAIServer() as kept, OpenAIServer() as given:
        assert run("aliases", "set", "local", MODEL, "--base-url", kept.base_url).exit_code == 0
        result = run("generate", "-m", "local", "--base-url", given.base_url, "--no-stream", "hi")
        assert result.exit_code == 0, result.output
        assert (len(kept.bodies()), len(given.bodies())) == (0, 1)


def test_a_bad_url_is_refused_when_kept_in_one_line(_command_home: Path) -> None:
    for args in (
        ("aliases", "set", "local", MODEL, "--base-url", "ftp://host/v1"),
        ("aliases", "set", "local", MODEL, "--base-url", "http://host/v 1"),
        ("default-model", MODEL, "--base-url", "not a url"),
    ):
        result = run(*args)
        assert result.exit_code == 2, args
        assert "'--base-url'" in result.output
        assert "Traceback" not in result.output
    assert not (_command_home / "settings.json").exists()


def test_a_password_in_the_kept_url_is_masked_when_listed() -> None:
    url = "http://me:" + "p" * 12 + "@127.0.0.1:9/v1"
    assert run("aliases", "set", "gw", MODEL, "--base-url", url).exit_code == 0
    assert run("aliases").output == f"gw: {MODEL} at http://***@127.0.0.1:9/v1\n"


def test_setting_an_alias_again_without_a_url_forgets_the_url(_command_home: Path) -> None:
    assert run("aliases", "set", "local", MODEL, "--base-url", "http://127.0.0.1:9/v1").exit_code == 0
    assert run("aliases", "set", "local", MODEL).exit_code == 0
    assert settings(_command_home)["aliases"] == {"local": MODEL}
    assert run("aliases", "set", "local", MODEL, "--base-url", "http://127.0.0.1:9/v1").exit_code == 0
    assert run("aliases", "remove", "local").exit_code == 0
    assert settings(_command_home)["aliases"] == {}


def test_an_alias_of_the_wrong_shape_in_the_file_is_one_line_of_error(_command_home: Path) -> None:
    _command_home.mkdir(parents=True, exist_ok=True)
    (_command_home / "settings.json").write_text(json.dumps({"aliases": {"x": {"base_url": "u"}}}))
    result = run("generate", "-m", "x", "hi")
    assert result.exit_code != 0
    assert "alias 'x' needs a string 'model'" in result.output
    assert "Traceback" not in result.output
