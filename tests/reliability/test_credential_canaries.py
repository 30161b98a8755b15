"""Q5 / C6: credentials never appear in exceptions, reprs, logs, CLI output or written cassettes.

Every scenario runs with two fake keys: :data:`CANARY` (shaped like a real Gemini key) and
:data:`CANARY_PLAIN` (no recognisable shape, so only exact scrubbing of the configured secret can
hide it). Servers here are hostile: they echo the key back in error messages, details, frames and
bodies. Logs are captured at DEBUG for every logger.
"""

from __future__ import annotations

import asyncio
import json
import logging
import pickle
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

import modelport
from modelport.errors import ModelportError, ProviderError

from .conftest import CANARY, CANARY_PLAIN, frame, google, is_stream, json_response, sse_response, text_frame

KEYS = pytest.mark.parametrize("key", [CANARY, CANARY_PLAIN], ids=["aiza", "plain"])


def key_of(request: httpx.Request) -> str:
    """The credential the request carried: the Gemini key, or the Vertex bearer token."""
    if "x-goog-api-key" in request.headers:
        return request.headers["x-goog-api-key"]
    return request.headers["authorization"].removeprefix("Bearer ")


def ok(request: httpx.Request) -> httpx.Response:
    if is_stream(request):
        return sse_response([frame(text_frame("Hello")), frame(text_frame("!", finish="STOP"))])
    return json_response(
        {"candidates": [{"content": {"parts": [{"text": "Hello!"}]}, "finishReason": "STOP"}]}
    )


def invalid_key(request: httpx.Request) -> httpx.Response:
    key = key_of(request)
    return json_response(
        {
            "error": {
                "code": 400,
                "message": f"API key not valid: {key}. Please pass a valid API key.",
                "status": "INVALID_ARGUMENT",
                "details": [
                    {
                        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                        "reason": "API_KEY_INVALID",
                        "metadata": {"key": key},
                    },
                    {"@type": "type.googleapis.com/google.rpc.DebugInfo", "detail": f"x-goog-api-key={key}"},
                ],
            }
        },
        status=400,
    )


def rate_limited(request: httpx.Request) -> httpx.Response:
    key = key_of(request)
    return json_response(
        {
            "error": {
                "code": 429,
                "message": f"quota for key {key} exhausted",
                "status": "RESOURCE_EXHAUSTED",
                "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}],
            }
        },
        status=429,
        headers={"retry-after": "1"},
    )


def huge_html(request: httpx.Request) -> httpx.Response:
    return httpx.Response(502, content=(f"<html>upstream {key_of(request)} failed " + "x" * 100_000).encode())


def error_mid_stream(request: httpx.Request) -> httpx.Response:
    error = {"error": {"code": 500, "message": f"backend saw key {key_of(request)}", "status": "INTERNAL"}}
    return sse_response([frame(text_frame("Hel")), frame(error)])


def bare_error_mid_stream(request: httpx.Request) -> httpx.Response:
    error = json.dumps(
        {"error": {"code": 499, "message": f"cancelled for {key_of(request)}", "status": "CANCELLED"}}
    )
    return sse_response([frame(text_frame("Hel")), error.encode() + b"\n"])


def garbage_frame(request: httpx.Request) -> httpx.Response:
    return sse_response([frame(text_frame("Hel")), f"data: {{not json {key_of(request)}\r\n\r\n".encode()])


def garbage_body(request: httpx.Request) -> httpx.Response:
    if is_stream(request):
        return garbage_frame(request)
    return httpx.Response(200, content=f"<html>proxy login for {key_of(request)}</html>".encode())


def reset_with_key(request: httpx.Request) -> httpx.Response:
    # What h11 says about an illegal header value, e.g. a key read from a file with its newline.
    raise httpx.LocalProtocolError(f"Illegal header value {key_of(request).encode()!r}")


def reset_mid_stream_with_key(request: httpx.Request) -> httpx.Response:
    return sse_response([frame(text_frame("Hel")), httpx.ReadError(f"proxy dropped {key_of(request)}")])


SCENARIOS: dict[str, Callable[[httpx.Request], httpx.Response]] = {
    "ok": ok,
    "invalid-key-echo": invalid_key,
    "429-echo": rate_limited,
    "huge-html-echo": huge_html,
    "error-frame-echo": error_mid_stream,
    "bare-error-echo": bare_error_mid_stream,
    "garbage-echo": garbage_body,
    "transport-error-echo": reset_with_key,
    "reset-mid-stream-echo": reset_mid_stream_with_key,
}
ENTRY_POINTS = ["generate", "stream", "agenerate", "astream"]


def run(model: modelport.Model, entry: str) -> tuple[Any, BaseException | None]:
    async def consume() -> Any:
        stream = model.astream(prompt="hi")
        return [event async for event in stream]

    try:
        if entry == "generate":
            return model.generate(prompt="hi"), None
        if entry == "stream":
            return list(model.stream(prompt="hi")), None
        if entry == "agenerate":
            return asyncio.run(model.agenerate(prompt="hi")), None
        return asyncio.run(consume()), None
    except ModelportError as error:
        return None, error


def everything_said_about(error: BaseException) -> str:
    """All the text an application could show or log about an error."""
    texts = [str(error), repr(error), "".join(traceback.format_exception(error))]
    if isinstance(error, ProviderError):
        texts += [str(error.body_excerpt), repr(error.details), error.message, str(vars(error))]
        if error.partial is not None:
            texts.append(error.partial.model_dump_json())
        texts.append(str(pickle.loads(pickle.dumps(error))))
    return "\n".join(texts)


def assert_clean(text: str, key: str) -> None:
    assert key not in text
    assert key[8:-4] not in text  # not even a recognisable piece of it


#: Found here and fixed in ``modelport_google._transport``: a transport error's text (and the httpx
#: exception chained to it) and the excerpt of a non-JSON body or frame were scrubbed only of
#: key-shaped strings, so a plain key echoed by a server or a proxy leaked.
CANARY_CASES = [
    pytest.param(scenario, entry, key, id=f"{scenario}-{entry}-{label}")
    for scenario in SCENARIOS
    for entry in ENTRY_POINTS
    for key, label in ((CANARY, "aiza"), (CANARY_PLAIN, "plain"))
]


@pytest.mark.parametrize("scenario, entry, key", CANARY_CASES)
def test_no_exception_repr_or_log_carries_the_key(
    key: str, entry: str, scenario: str, caplog: pytest.LogCaptureFixture, sleeps: list[float]
) -> None:
    caplog.set_level(logging.DEBUG)
    model = google(SCENARIOS[scenario], api_key=key, max_retries=1)
    outcome, error = run(model, entry)
    if scenario == "ok":
        assert error is None
        assert_clean(
            json.dumps(
                [o.model_dump(mode="json") for o in outcome]
                if isinstance(outcome, list)
                else outcome.model_dump(mode="json")
            ),
            key,
        )
    else:
        assert error is not None
        assert_clean(everything_said_about(error), key)
    for text in (repr(model), repr(model.provider), repr(model.provider.config), str(model.provider.config)):
        assert_clean(text, key)
    assert_clean(
        "\n".join(f"{r.name} {r.levelname} {r.getMessage()} {r.args!r}" for r in caplog.records), key
    )
    assert_clean(caplog.text, key)


@KEYS
def test_a_missing_or_wrong_backend_never_shows_the_key(key: str) -> None:
    vertex = modelport.get_model(
        "google-vertex/gemini-2.5-flash", api_key=key, project="p", transport=httpx.MockTransport(ok)
    )
    for text in (repr(vertex), repr(vertex.provider), repr(vertex.provider.config)):
        assert_clean(text, key)
    with pytest.raises(TypeError):
        pickle.dumps(vertex.provider.config.api_key)


@pytest.mark.parametrize("source", ["credential", "GOOGLE_API_KEY", "GEMINI_API_KEY"])
@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s != "ok"])
def test_a_key_from_options_or_the_environment_is_scrubbed_too(
    source: str, scenario: str, monkeypatch: pytest.MonkeyPatch, sleeps: list[float]
) -> None:
    options: dict[str, Any] = {}
    if source == "credential":
        options["credential"] = CANARY_PLAIN
    else:
        monkeypatch.setenv(source, CANARY_PLAIN)
    model = modelport.get_model(
        "google/gemini-2.5-flash",
        transport=httpx.MockTransport(SCENARIOS[scenario]),
        max_retries=0,
        **options,
    )
    for entry in ("generate", "stream"):
        _, error = run(model, entry)
        assert error is not None
        assert_clean(everything_said_about(error), CANARY_PLAIN)
    assert_clean(repr(model.provider.config), CANARY_PLAIN)


#: A Vertex access token (``ya29.`` shape) and a plain one, as ``token=`` and from a ``token_provider``.
VERTEX_TOKENS = ["ya29.CANARY-" + "a1b2c3d4e5" * 4, CANARY_PLAIN]


@pytest.mark.parametrize("token", VERTEX_TOKENS, ids=["ya29", "plain"])
@pytest.mark.parametrize("how", ["token", "token_provider"])
@pytest.mark.parametrize("entry", ["generate", "astream"])
@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s != "ok"])
def test_no_vertex_error_carries_the_token(
    token: str, how: str, entry: str, scenario: str, caplog: pytest.LogCaptureFixture, sleeps: list[float]
) -> None:
    caplog.set_level(logging.DEBUG)
    option: dict[str, Any] = {"token": token} if how == "token" else {"token_provider": lambda: token}
    model = modelport.get_model(
        "google-vertex/gemini-2.5-flash",
        project="p",
        location="us-central1",
        transport=httpx.MockTransport(SCENARIOS[scenario]),
        max_retries=1,
        **option,
    )
    _, error = run(model, entry)
    assert error is not None
    assert_clean(everything_said_about(error), token)
    for text in (repr(model), repr(model.provider), repr(model.provider.config)):
        assert_clean(text, token)
    assert_clean(caplog.text, token)


# --------------------------------------------------------------------------- written cassettes


@pytest.mark.parametrize("scenario", ["ok", "invalid-key-echo", "error-frame-echo"])
def test_a_recorded_cassette_never_contains_the_key(tmp_path: Path, scenario: str) -> None:
    vcr = pytest.importorskip("vcr")
    from modelport_conformance.cassette import serializer
    from modelport_conformance.credentials import scan_text

    recorder = vcr.VCR(record_mode="all")
    recorder.register_serializer("modelport", serializer)
    path = tmp_path / "cassette.yaml"
    model = google(SCENARIOS[scenario], api_key=CANARY)
    with recorder.use_cassette(str(path), serializer="modelport"):
        run(model, "generate")
        run(model, "stream")
    text = path.read_text(encoding="utf-8")
    assert "interactions" in text and ":streamGenerateContent" in text
    assert_clean(text, CANARY)
    for interaction in yaml.safe_load(text)["interactions"]:
        headers = {name.lower(): value for name, value in interaction["request"]["headers"].items()}
        assert set(headers) <= {"content-type", "accept", "x-goog-api-key"}
        # The credential header is kept by name, so replay can check it is sent; never its value.
        assert headers["x-goog-api-key"] == ["<credential>"]
    assert scan_text(text) == []


def test_a_recorded_cassette_drops_a_plain_key_header(tmp_path: Path) -> None:
    vcr = pytest.importorskip("vcr")
    from modelport_conformance.cassette import serializer

    recorder = vcr.VCR(record_mode="all")
    recorder.register_serializer("modelport", serializer)
    path = tmp_path / "cassette.yaml"
    with recorder.use_cassette(str(path), serializer="modelport"):
        run(google(ok, api_key=CANARY_PLAIN), "generate")
    assert_clean(path.read_text(encoding="utf-8"), CANARY_PLAIN)


# --------------------------------------------------------------------------- CLI output


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """Run the ``modelport`` CLI in-process with ``GOOGLE_API_KEY`` set to a canary and HTTP mocked."""
    testing = pytest.importorskip("click.testing")
    cli_module = pytest.importorskip("modelport_conformance.cli")
    real_get_model = modelport.get_model

    def invoke(args: list[str], handler: Callable[[httpx.Request], httpx.Response], key: str) -> Any:
        monkeypatch.setenv("GOOGLE_API_KEY", key)

        def get_model(model_id: str, **kwargs: Any) -> modelport.Model:
            kwargs.setdefault("transport", httpx.MockTransport(handler))
            kwargs.setdefault("max_retries", 0)
            return real_get_model(model_id, **kwargs)

        monkeypatch.setattr(modelport, "get_model", get_model)
        return testing.CliRunner().invoke(cli_module.main, args, catch_exceptions=True)

    return invoke


CLI_RUNS = [
    (["generate", "google/gemini-2.5-flash", "hi"], "ok"),
    (["generate", "google/gemini-2.5-flash", "hi", "--stream"], "ok"),
    (["generate", "google/gemini-2.5-flash", "hi", "--json"], "ok"),
    (["generate", "google/gemini-2.5-flash", "hi"], "invalid-key-echo"),
    (["generate", "google/gemini-2.5-flash", "hi", "--stream"], "error-frame-echo"),
    (["generate", "google/gemini-2.5-flash", "hi", "--stream", "--json"], "garbage-echo"),
    (["generate", "google/gemini-2.5-flash", "hi"], "transport-error-echo"),
    (["providers"], "ok"),
    (["providers", "--format", "json"], "ok"),
]


CLI_CASES = [
    pytest.param(args, scenario, key, id=f"{' '.join(args[:1] + args[3:])}-{scenario}-{label}")
    for args, scenario in CLI_RUNS
    for key, label in ((CANARY, "aiza"), (CANARY_PLAIN, "plain"))
]


@pytest.mark.parametrize("args, scenario, key", CLI_CASES)
def test_cli_output_never_shows_the_key(
    cli: Any, args: list[str], scenario: str, key: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    result = cli(args, SCENARIOS[scenario], key)
    output = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert_clean(output, key)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert_clean(everything_said_about(result.exception), key)
    assert_clean(caplog.text, key)
    if scenario == "ok" and args[0] == "generate":
        assert result.exit_code == 0, output
        assert "Hello" in output


def test_cli_refuses_a_cassette_holding_a_key_without_printing_it(cli: Any, tmp_path: Path) -> None:
    cassette = tmp_path / "leaky.yaml"
    cassette.write_text(
        "version: 1\ninteractions:\n- request:\n    method: POST\n"
        f"    uri: https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent?key={CANARY}\n"
        "    headers: {}\n    body: null\n  response:\n    status: {code: 200, message: OK}\n    headers: {}\n"
        "    body: {json: {}}\n",
        encoding="utf-8",
    )
    result = cli(
        ["generate", "google/gemini-2.5-flash", "hi", "--cassette", str(cassette)], ok, "unused-key-123"
    )
    assert result.exit_code == 1
    assert "credential" in result.output
    assert_clean(result.output, CANARY)


# --------------------------------------------------------------------------- real sockets, real logs


def test_debug_logs_of_a_real_http_exchange_never_show_the_key(caplog: pytest.LogCaptureFixture) -> None:
    """httpx and httpcore log at DEBUG on a real connection; none of it may carry the key."""
    import http.server
    import threading

    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            seen.append(self.headers.get("x-goog-api-key", ""))
            self.rfile.read(int(self.headers["content-length"]))
            body = json.dumps(
                {"error": {"code": 400, "message": "API key not valid.", "status": "INVALID_ARGUMENT"}}
            )
            self.send_response(400)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    caplog.set_level(logging.DEBUG)
    try:
        for key in (CANARY, CANARY_PLAIN):
            model = modelport.get_model(
                "google/gemini-2.5-flash",
                api_key=key,
                base_url=f"http://127.0.0.1:{server.server_address[1]}/v1beta",
                timeout=5.0,
                max_retries=0,
            )
            with pytest.raises(ProviderError):
                model.generate(prompt="hi")
            with pytest.raises(ProviderError):
                list(model.stream(prompt="hi"))
            model.close()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
    assert seen == [CANARY, CANARY, CANARY_PLAIN, CANARY_PLAIN]  # the key was really sent
    assert any(r.name.startswith(("httpx", "httpcore")) for r in caplog.records)
    for key in (CANARY, CANARY_PLAIN):
        assert_clean(caplog.text, key)
        assert_clean("\n".join(repr(r.__dict__) for r in caplog.records), key)
