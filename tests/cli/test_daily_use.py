"""Issue 30: the command as a daily tool, against an OpenAI-compatible server on loopback: any
server (--base-url) and key (--key), its model list, a conversation continued with -c, and the
local log, which never holds the key in any encoding."""

from __future__ import annotations

import base64
import binascii
import json
import sys
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import main

from .openai_server import ANSWER, MODELS, OpenAIServer

KEY = "sk-loopback-0123456789abcdefghij"
MODEL = "openai-compatible/x"


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


def encodings(secret: str) -> dict[str, bytes]:
    """``secret`` as it could be written: raw, in the header, base64 (standard and URL-safe), percent
    encoded, hex, UTF-16, JSON-escaped."""
    raw = secret.encode()
    bearer = f"Bearer {secret}".encode()
    return {
        "raw": raw,
        "base64": base64.b64encode(raw).rstrip(b"="),
        "base64url": base64.urlsafe_b64encode(raw).rstrip(b"="),
        "base64 bearer": base64.b64encode(bearer).rstrip(b"="),
        "percent": urllib.parse.quote(secret, safe="").encode(),
        "hex": binascii.hexlify(raw),
        "utf-16-le": secret.encode("utf-16-le"),
        "utf-16-be": secret.encode("utf-16-be"),
        "json": json.dumps(secret).encode(),
    }


def assert_no_key(directory: Path, allowed: frozenset[str] = frozenset()) -> None:
    files = [p for p in directory.rglob("*") if p.is_file() and p.name not in allowed]
    assert files, "nothing was written"
    for path in files:
        data = path.read_bytes()
        for name, encoded in encodings(KEY).items():
            assert encoded not in data, f"the key ({name}) is in {path.name}"


def test_generate_against_any_server_prints_the_answer(_command_home: Path) -> None:
    with OpenAIServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--key", KEY, "hi")
    assert (result.exit_code, result.output) == (0, ANSWER + "\n")
    (request,) = server.received
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert json.loads(request.body) == {"model": "x", "messages": [{"role": "user", "content": "hi"}]}


def test_models_lists_the_servers_own_models_and_caches_them_briefly() -> None:
    with OpenAIServer() as server:
        listed = run("models", "openai-compatible", "--base-url", server.base_url)
        again = run("models", "openai-compatible", "--base-url", server.base_url, "--json")
        refreshed = run("models", "openai-compatible", "--base-url", server.base_url, "--refresh")
    assert (listed.exit_code, listed.output) == (0, "openai-compatible/x\nopenai-compatible/llama-3.2-1b\n")
    assert [(r.method, r.path) for r in server.received] == [
        ("GET", "/v1/models")
    ] * 2  # the --json one was cached
    assert json.loads(again.output) == [
        {"id": m["id"], "display_name": None, "description": None, "created": m["created"],
         "owned_by": "local", "input_token_limit": None, "output_token_limit": None}
        for m in MODELS["data"]
    ]  # fmt: skip
    assert refreshed.output == listed.output


def test_continue_sends_the_previous_turn_and_the_log_has_both_calls_without_the_key(
    _command_home: Path,
) -> None:
    with OpenAIServer() as server:
        first = run("generate", MODEL, "--base-url", server.base_url, "--key", KEY, "hi")
        second = run("generate", "-c", "--key", KEY, "Shorter, please.")
    assert (first.exit_code, second.exit_code) == (0, 0)
    # -c takes the model and the server from the logged conversation, and sends the previous turn.
    assert server.bodies()[1]["messages"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": ANSWER},
        {"role": "user", "content": "Shorter, please."},
    ]
    logged = run("logs", "list", "--json")
    assert logged.exit_code == 0
    calls = json.loads(logged.output)
    assert [(c["prompt"], c["response"], c["model"]) for c in calls] == [
        ("Shorter, please.", ANSWER, MODEL),
        ("hi", ANSWER, MODEL),
    ]
    assert calls[0]["conversation_id"] == calls[1]["conversation_id"]
    assert calls[1]["usage"] == {
        "input_tokens": 16,
        "output_tokens": 363,
        "reasoning_tokens": 0,
        "total_tokens": 379,
        "cache_read_input_tokens": 0,
        "cached_input_tokens": 0,
    }
    assert calls[1]["base_url"] == server.base_url
    assert calls[1]["finish_reason"] == "stop"
    assert KEY not in logged.output
    assert_no_key(_command_home)
    database = _command_home / "logs.db"
    assert database.stat().st_mode & 0o777 == 0o600  # prompts and answers are private
    for encoded in encodings(KEY).values():
        assert encoded not in database.read_bytes()


def test_cid_continues_a_named_conversation_and_search_show_find_calls() -> None:
    with OpenAIServer() as server:
        run("generate", MODEL, "--base-url", server.base_url, "first conversation")
        cid = json.loads(run("logs", "list", "--json").output)[0]["conversation_id"]
        run("generate", MODEL, "--base-url", server.base_url, "second conversation")
        result = run("generate", "--cid", cid, "more")
    assert result.exit_code == 0
    assert [m["content"] for m in server.bodies()[2]["messages"]] == ["first conversation", ANSWER, "more"]
    found = json.loads(run("logs", "search", "CONVERSATION", "--json").output)
    assert [c["prompt"] for c in found] == ["second conversation", "first conversation"]
    assert json.loads(run("logs", "search", "%", "--json").output) == []  # LIKE wildcards are literal
    shown = run("logs", "show", str(found[1]["id"]))
    assert shown.exit_code == 0
    assert shown.output.splitlines()[1:3] == [
        "  prompt: first conversation",
        f"  response: {ANSWER.splitlines()[0]}",
    ]
    assert run("logs", "show", "999").exit_code == 1
    listed = run("logs", "list", "-n", "1").output.splitlines()
    assert listed[0].startswith("#3  ") and listed[0].endswith(" ms")
    assert listed[1:] == [
        "  prompt: more",
        f"  response: {ANSWER.splitlines()[0].strip()} …",
        "  usage: input 16, output 363, reasoning 0, total 379, cache_read_input 0, cached_input 0 (tokens)",
    ]


def test_logs_off_stops_logging_and_on_resumes(_command_home: Path) -> None:
    with OpenAIServer() as server:
        assert run("logs", "off").exit_code == 0
        run("generate", MODEL, "--base-url", server.base_url, "unlogged")
        assert run("logs", "on").exit_code == 0
        run("generate", MODEL, "--base-url", server.base_url, "logged")
        run("generate", MODEL, "--base-url", server.base_url, "--no-log", "not this one")
    assert [c["prompt"] for c in json.loads(run("logs", "list", "--json").output)] == ["logged"]
    assert run("logs", "path").output == f"{_command_home / 'logs.db'}\n"


def test_a_failed_call_is_logged_with_its_error_and_a_refused_one_is_not() -> None:
    with OpenAIServer() as server:
        failed = run("generate", "openai-compatible/x", "--base-url", server.url + "/nowhere", "hi")
        refused = run("generate", MODEL, "--base-url", server.base_url, "-o", "temperature=-1", "hi")
    assert (failed.exit_code, refused.exit_code) == (1, 1)
    (call,) = json.loads(run("logs", "list", "--json").output)
    assert call["response"] == ""
    assert "no route /nowhere/chat/completions" in call["error"]


def test_keys_set_stores_a_0600_file_used_when_the_environment_has_none(
    _command_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("keys", "set", "openai-compatible", input=KEY + "\n").exit_code == 0
    path = _command_home / "keys.json"
    assert path.stat().st_mode & 0o777 == 0o600
    assert _command_home.stat().st_mode & 0o777 == 0o700
    assert json.loads(path.read_text()) == {"openai-compatible": KEY}
    assert run("keys", "path").output == f"{path}\n"
    assert run("keys", "list").output == "openai-compatible: ****ghij\n"
    assert run("keys", "get", "openai-compatible").output == "openai-compatible: ****ghij\n"
    with OpenAIServer() as server:
        assert run("generate", MODEL, "--base-url", server.base_url, "hi").exit_code == 0
        monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "from-the-environment")
        assert run("generate", MODEL, "--base-url", server.base_url, "hi").exit_code == 0
    assert [r.headers["authorization"] for r in server.received] == [
        f"Bearer {KEY}",
        "Bearer from-the-environment",
    ]
    assert_no_key(_command_home, allowed=frozenset({"keys.json"}))
    assert run("keys", "remove", "openai-compatible").exit_code == 0
    assert json.loads(path.read_text()) == {}


def test_without_a_key_the_error_names_the_command_line_forms() -> None:
    result = run("generate", "openai/gpt-4.1-nano", "hi")
    assert result.exit_code == 1
    assert result.output == (
        "error: No credentials for provider 'openai': pass api_key=... or set OPENAI_API_KEY. From the "
        "command line: pass --key, or store one with `modelport keys set openai`.\n"
    )
    assert json.loads(run("logs", "list", "--json").output) == []  # refused before any I/O: not logged


class _FakeKeyring:
    """A keyring backend in memory (the ``keyring`` package's API: priority, get/set/delete)."""

    priority = 1.0

    def __init__(self) -> None:
        self.passwords: dict[tuple[str, str], str] = {}

    def get_keyring(self) -> _FakeKeyring:
        return self

    def set_password(self, service: str, name: str, value: str) -> None:
        self.passwords[(service, name)] = value

    def get_password(self, service: str, name: str) -> str | None:
        return self.passwords.get((service, name))

    def delete_password(self, service: str, name: str) -> None:
        del self.passwords[(service, name)]


def test_keys_go_to_the_keyring_when_one_is_installed(
    _command_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keyring = _FakeKeyring()
    monkeypatch.setitem(sys.modules, "keyring", keyring)
    assert run("keys", "set", "openai-compatible", input=KEY + "\n").exit_code == 0
    assert keyring.passwords == {("modelport", "openai-compatible"): KEY}
    assert_no_key(_command_home)
    assert run("keys", "get", "openai-compatible").output == "openai-compatible: ****ghij\n"
    assert run("keys", "path").output.startswith("system keyring (_FakeKeyring)")
    monkeypatch.setenv("MODELPORT_KEYRING", "0")  # turned off: the file (where this key is not)
    assert run("keys", "get", "openai-compatible").exit_code == 1


def test_the_default_model_and_aliases() -> None:
    assert run("generate", "hi").exit_code == 2  # no model and no default
    assert run("aliases", "set", "local", MODEL).exit_code == 0
    assert run("aliases", "set", "bad", "no-slash").exit_code == 2
    assert run("aliases").output == f"local: {MODEL}\n"
    assert run("default-model", "local").exit_code == 0
    assert run("default-model").output == "local\n"
    with OpenAIServer() as server:
        by_default = run("generate", "--base-url", server.base_url, "hi")
        by_alias = run("generate", "-m", "local", "--base-url", server.base_url, "hi")
    assert (by_default.exit_code, by_alias.exit_code) == (0, 0)
    assert [b["model"] for b in server.bodies()] == ["x", "x"]
    assert run("aliases", "remove", "local").exit_code == 0
    assert run("default-model", "--clear").exit_code == 0
    assert run("default-model").exit_code == 1


def test_the_directory_is_modelport_home_else_xdg_config_home_else_the_platforms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MODELPORT_HOME", str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert run("logs", "path").output == f"{tmp_path / 'explicit' / 'logs.db'}\n"
    monkeypatch.delenv("MODELPORT_HOME")
    assert run("keys", "path").output == f"{tmp_path / 'xdg' / 'modelport' / 'keys.json'}\n"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    expected = tmp_path / "home" / ".config" / "modelport" / "keys.json"
    if sys.platform.startswith("linux"):
        assert run("keys", "path").output == f"{expected}\n"
