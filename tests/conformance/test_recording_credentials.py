"""Recording through a local server: credentials removed by value, URLs stored against the provider's
default base URL, credential headers kept by name, and a cassette that still holds a secret refused.

The provider here is a small OpenAI-style plugin on the public HTTP kit, registered in the test.
Every key is built at run time (no token-shaped literal in git).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar
from urllib.parse import quote, quote_plus

import httpx
import pytest
import yaml

import modelport
from modelport import hookimpl
from modelport.http import HttpProvider, HttpRequest
from modelport.provider import Capabilities
from modelport.types import Request, Result, TextPart, Usage
from modelport_conformance.cases import Suite, load_cases
from modelport_conformance.recording import UnsafeRecordingError, modelport_vcr, record_case
from modelport_conformance.runner import run_case
from modelport_conformance.scrub import Scrubber, rewrite_base_url

from .servers import Answer, LocalServer, Seen
from .servers import plugin_module as _plugin

ECHO_BASE = "https://api.echo.test/v1"
SK_PROJ = "sk-proj-" + "A1b2C3d4" * 6  # sk-proj- plus 48 characters
PLAIN = "pl+in/T0ken=16ch"  # a plain 16-character token, no known shape
assert len(SK_PROJ) == 56 and len(PLAIN) == 16


class EchoProvider(HttpProvider):
    """An OpenAI-style adapter: POST /responses, bearer key."""

    id: ClassVar[str] = "echo"
    display_name: ClassVar[str] = "Echo"
    capabilities: ClassVar[Capabilities] = Capabilities(generate=True, stream=False)
    default_base_url: ClassVar[str | None] = ECHO_BASE

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        return HttpRequest("/responses", {"model": model_name, "input": request.messages[-1].text})

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        return Result(
            content=[TextPart(text=data["output_text"])],
            finish_reason="stop",
            usage=Usage(input_tokens=data["usage"]["input"], output_tokens=data["usage"]["output"]),
            response_id=data["id"],
        )


class NoAuthEchoProvider(EchoProvider):
    """The same adapter with its authentication forgotten."""

    id: ClassVar[str] = "echo-noauth"

    def auth(self) -> Any:
        return None


@hookimpl
def _register_providers(register: Any) -> None:
    register(EchoProvider)
    register(NoAuthEchoProvider)


ECHO_PLUGIN = _plugin(modelport_register_providers=_register_providers)


@pytest.fixture
def echo_registered(fresh_registry: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODELPORT_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("MODELPORT_RECORD_BASE_URL", raising=False)
    modelport.register_plugin(ECHO_PLUGIN, name="echo-test-plugin")


def _case_dir(root: Path, name: str, prompt: str = "hi") -> Path:
    directory = root / "cases" / name
    directory.mkdir(parents=True)
    (directory / "case.yaml").write_text(f"method: generate\nmodel: echo-1\nrequest: {{prompt: {prompt}}}\n")
    return directory


def _bearer(seen: Seen) -> str:
    return seen.headers.get("authorization", "").removeprefix("Bearer ")


def _echoing_error(seen: Seen) -> Answer:
    """A server that rejects the key and echoes it back every way it can."""
    key = _bearer(seen)
    error = {
        "message": f"Incorrect API key provided: {key}. You passed api_key={quote(key, safe='')}",
        "type": "invalid_request_error",
        "param": key,
        "escaped": json.dumps({"key": key}),
        "plus": quote_plus(key),
    }
    return Answer(
        401,
        json.dumps({"error": error}).encode(),
        {"content-type": "application/json", "x-request-id": f"req_{key}", "x-echo-key": key},
        reason=f"Unauthorized {key}",
    )


def _all_forms(key: str) -> set[str]:
    return {key, quote(key, safe=""), quote(key), quote_plus(key), json.dumps(key)[1:-1]}


@pytest.mark.parametrize("key", [SK_PROJ, PLAIN], ids=["sk-proj", "plain-16"])
def test_an_echoed_key_leaves_no_trace_and_the_case_replays_without_base_url(echo_registered, tmp_path, key):
    directory = _case_dir(tmp_path, "auth-error")
    suite = Suite("echo", load_cases(tmp_path / "cases"))
    with LocalServer(_echoing_error) as server:
        outcome = record_case(suite, suite.cases[0], api_key=key, base_url=f"{server.url}/v1")
        assert [(s.path, _bearer(s)) for s in server.seen] == [("/v1/responses", key)]
    assert outcome.status == "pass", outcome.message
    files = {p.name: p.read_text() for p in directory.iterdir()}
    assert sorted(files) == ["case.yaml", "cassette.yaml", "expected.json"]
    leaks = [(name, form) for name, text in files.items() for form in _all_forms(key) if form in text]
    assert leaks == []
    assert key not in outcome.message and "127.0.0.1" not in files["cassette.yaml"]

    [interaction] = yaml.safe_load(files["cassette.yaml"])["interactions"]
    request, response = interaction["request"], interaction["response"]
    assert request["uri"] == "https://api.echo.test/v1/responses"
    assert request["headers"]["authorization"] == ["<credential>"]
    assert request["body"] == {"json": {"model": "echo-1", "input": "hi"}}
    assert response["status"] == {"code": 401, "message": "Unauthorized REDACTED"}
    assert response["headers"] == {"content-type": ["application/json"], "x-request-id": ["req_REDACTED"]}
    assert response["body"] == {
        "json": {
            "error": {
                "message": "Incorrect API key provided: REDACTED. You passed api_key=REDACTED",
                "type": "invalid_request_error",
                "param": "REDACTED",
                "escaped": '{"key": "REDACTED"}',
                "plus": "REDACTED",
            }
        }
    }
    assert json.loads(files["expected.json"]) == {
        "error": {
            "type": "ProviderAuthError",
            "status_code": 401,
            "provider_status": "invalid_request_error",
            "retryable": False,
        }
    }
    # Replayed as committed: no base_url, no edits, every check.
    replay = run_case(suite, load_cases(tmp_path / "cases")[0])
    assert (replay.status, replay.message) == ("pass", "")
    assert [(c.name, c.status) for c in replay.checks] == [
        ("credentials", "pass"),
        ("request", "pass"),
        ("expected", "pass"),
        ("invariants", "pass"),
        ("chunked", "skip"),
        ("merged", "skip"),
        ("async", "pass"),
        ("cut", "skip"),
        ("unterminated", "skip"),
        ("history", "skip"),
        ("metamorphic", "skip"),  # the test's provider declares no wire map
        ("request-edits", "skip"),
    ]


def _answering(seen: Seen) -> Answer:
    body = {
        "id": "resp_1",
        "output_text": "echo " + json.loads(seen.body)["input"],
        "usage": {"input": 1, "output": 2},
    }
    return Answer(
        200, json.dumps(body).encode(), {"content-type": "application/json", "x-request-id": "req_77"}
    )


def test_a_case_recorded_through_a_local_base_url_replays_unchanged(echo_registered, tmp_path):
    directory = _case_dir(tmp_path, "hello", prompt="ping")
    suite = Suite("echo", load_cases(tmp_path / "cases"))
    with LocalServer(_answering) as server:
        recorded = record_case(suite, suite.cases[0], api_key=SK_PROJ, base_url=f"{server.url}/v1/")
    assert recorded.status == "pass", recorded.message
    cassette = yaml.safe_load((directory / "cassette.yaml").read_text())
    [interaction] = cassette["interactions"]
    assert interaction["request"]["uri"] == "https://api.echo.test/v1/responses"
    assert interaction["response"]["headers"] == {
        "content-type": ["application/json"],
        "x-request-id": ["req_77"],
    }
    assert json.loads((directory / "expected.json").read_text())["result"]["text"] == "echo ping"
    replay = run_case(suite, load_cases(tmp_path / "cases")[0])
    assert (replay.status, replay.message) == ("pass", "")


def test_the_base_url_comes_from_the_environment_too(echo_registered, tmp_path, monkeypatch):
    directory = _case_dir(tmp_path, "hello")
    suite = Suite("echo", load_cases(tmp_path / "cases"))
    with LocalServer(_answering) as server:
        monkeypatch.setenv("MODELPORT_RECORD_BASE_URL", f"{server.url}/v1")
        record_case(suite, suite.cases[0], api_key=SK_PROJ)
        assert len(server.seen) == 1
    uri = yaml.safe_load((directory / "cassette.yaml").read_text())["interactions"][0]["request"]["uri"]
    assert uri == "https://api.echo.test/v1/responses"


def test_a_plugin_that_drops_its_auth_header_fails_its_cases(echo_registered, tmp_path):
    _case_dir(tmp_path, "hello", prompt="ping")
    suite = Suite("echo", load_cases(tmp_path / "cases"))
    with LocalServer(_answering) as server:
        record_case(suite, suite.cases[0], api_key=SK_PROJ, base_url=f"{server.url}/v1")
    [case] = load_cases(tmp_path / "cases")
    assert run_case(suite, case).status == "pass"
    outcome = run_case(Suite("echo-noauth", [case]), case)
    assert outcome.status == "fail"
    assert outcome.message == (
        "[request] request POST https://api.echo.test/v1/responses does not match recorded interaction #1:\n"
        "  header authorization: missing (expected '<credential>')\n"
        "  the recording sent a credential in that header; this request sends none\n"
        "recorded interaction #1 (POST https://api.echo.test/v1/responses) was never played"
    )


def test_a_cassette_that_still_holds_a_secret_is_not_written(echo_registered, tmp_path):
    directory = _case_dir(tmp_path, "debug-echo")
    suite = Suite("echo", load_cases(tmp_path / "cases"))

    def echo_headers(seen: Seen) -> Answer:  # a debugging server that echoes the request's auth
        text = f"You sent:\nAuthorization: {seen.headers['authorization']}\n"
        return Answer(200, text.encode(), {"content-type": "text/plain"})

    with LocalServer(echo_headers) as server, pytest.raises(UnsafeRecordingError) as info:
        record_case(suite, suite.cases[0], api_key=PLAIN, base_url=f"{server.url}/v1")
    path = directory / "cassette.yaml"
    assert str(info.value) == (
        f"refusing to write {path}: after scrubbing, the recording still holds 1 secret(s):\n"
        "  cassette.yaml:29: credential header (Auth…)"
    )
    assert sorted(p.name for p in directory.iterdir()) == ["case.yaml"]
    assert PLAIN not in str(info.value)


def test_a_short_key_cannot_be_recorded(echo_registered, tmp_path):
    _case_dir(tmp_path, "hello")
    suite = Suite("echo", load_cases(tmp_path / "cases"))
    with pytest.raises(Exception) as info:
        record_case(suite, suite.cases[0], api_key="short")
    assert str(info.value) == "a credential shorter than 8 characters cannot be removed from a recording"


def test_scrubber_findings_name_a_known_value_left_in_any_form():
    scrubber = Scrubber([PLAIN])
    assert scrubber.text(f"a={quote(PLAIN, safe='')} b={PLAIN}") == "a=REDACTED b=REDACTED"
    findings = scrubber.findings(f"body:\n  string: {quote_plus(PLAIN)}\n")
    assert [f.describe("cassette.yaml") for f in findings] == [
        "cassette.yaml:2: the recording's credential (pl%2…)"
    ]


def test_an_mcp_servers_credentials_in_a_request_body_are_removed():
    """A Responses mcp tool's header value and an Anthropic connector's token have no key shape:
    the recorder learns them from the body it records and removes them from it and the answer."""
    header = "-".join(["fake", "team", "header", "77"])
    token = "-".join(["fake", "oauth", "token", "88"])
    body = json.dumps(
        {
            "tools": [{"type": "mcp", "server_label": "d", "headers": {"X-Team": header}}],
            "mcp_servers": [{"type": "url", "name": "d", "authorization_token": token}],
        }
    )
    request = SimpleNamespace(headers={}, uri="https://api.echo.test/v1/x", body=body.encode())
    scrubber = Scrubber()
    scrubber.request(request)
    recorded = request.body.decode()
    assert header not in recorded and token not in recorded
    assert json.loads(recorded)["tools"][0]["headers"] == {"X-Team": "REDACTED"}
    assert json.loads(recorded)["mcp_servers"][0]["authorization_token"] == "REDACTED"
    response = {"headers": {}, "body": {"string": f"echo {header} {token}"}}
    assert scrubber.response(response)["body"]["string"] == "echo REDACTED REDACTED"


def test_base_url_rewriting_keeps_whole_segments():
    assert rewrite_base_url("http://127.0.0.1:1/v1/x?a=1", "http://127.0.0.1:1/v1", ECHO_BASE) == (
        "https://api.echo.test/v1/x?a=1"
    )
    assert rewrite_base_url("http://127.0.0.1:1/v10/x", "http://127.0.0.1:1/v1", ECHO_BASE) == (
        "http://127.0.0.1:1/v10/x"
    )


class NoDefaultEchoProvider(EchoProvider):
    """An adapter that declares no default base URL."""

    id: ClassVar[str] = "echo-nodefault"
    default_base_url: ClassVar[str | None] = None


def test_without_default_base_url_the_url_is_kept_with_a_warning(echo_registered, tmp_path):
    modelport.register_plugin(
        _plugin(modelport_register_providers=hookimpl(lambda register: register(NoDefaultEchoProvider))),
        name="nodefault",
    )
    directory = _case_dir(tmp_path, "hello")
    suite = Suite("echo-nodefault", load_cases(tmp_path / "cases"))
    with LocalServer(_answering) as server:
        base = f"{server.url}/v1"
        with pytest.warns(UserWarning) as warned:
            record_case(suite, suite.cases[0], api_key=SK_PROJ, base_url=base)
    assert [str(w.message) for w in warned] == [
        f"provider 'echo-nodefault' declares no default_base_url: the cassette keeps {base}"
    ]
    uri = yaml.safe_load((directory / "cassette.yaml").read_text())["interactions"][0]["request"]["uri"]
    assert uri == f"{base}/responses"


def test_modelport_vcr_used_directly_keeps_credential_headers_by_name(tmp_path):
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, json={"error": f"bad key {request.headers['x-api-key']}"})

    path = tmp_path / "c.yaml"
    with (
        modelport_vcr("all").use_cassette(str(path)),
        httpx.Client(transport=httpx.MockTransport(answer)) as client,
    ):
        client.post(
            "https://api.echo.test/v1/x", json={"a": 1}, headers={"x-api-key": PLAIN, "cookie": "s=1"}
        )
    [interaction] = yaml.safe_load(path.read_text())["interactions"]
    assert interaction["request"]["headers"]["x-api-key"] == ["<credential>"]
    assert "cookie" not in interaction["request"]["headers"]
    assert interaction["response"]["body"] == {"json": {"error": "bad key REDACTED"}}
    assert PLAIN not in path.read_text()
