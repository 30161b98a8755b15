"""Vertex AI endpoints and names (issue 13): express mode on the global host, multi-region hosts,
full resource names used as is, short cached-content names expanded, labels validated, one instance
per ``:predict`` call for the Gemini embedding models, and the ADC extra's HTTP transport."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from modelport.errors import ConfigurationError, InvalidRequestError
from modelport.types import CallWarning

from . import corpus as c
from .mock import Recorder, model, response

OK = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
VERTEX = {"api_key": None, "token": "tok", "project": "p"}


def vertex_call(
    model_id: str = "google-vertex/gemini-2.5-flash", request: dict[str, Any] | None = None, **options: Any
) -> tuple[str, Any]:
    m, recorder = model([response(200, OK)], model_id, **{**VERTEX, **options})
    m.generate(prompt="hi", **(request or {}))
    return str(recorder.requests[0].url), recorder.body


def test_express_mode_uses_the_global_endpoint() -> None:
    m, recorder = model([response(200, OK)], "google-vertex/gemini-2.5-flash", api_key="vkey")
    m.generate(prompt="hi")
    assert str(recorder.requests[0].url) == (
        "https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-flash:generateContent"
    )
    assert recorder.requests[0].headers["x-goog-api-key"] == "vkey"


def test_express_mode_with_an_explicit_location_stays_regional() -> None:
    m, recorder = model(
        [response(200, OK)], "google-vertex/gemini-2.5-flash", api_key="vkey", location="europe-west4"
    )
    m.generate(prompt="hi")
    assert str(recorder.requests[0].url).startswith(
        "https://europe-west4-aiplatform.googleapis.com/v1/publishers/"
    )


@pytest.mark.parametrize(
    ("location", "host"),
    [
        ("eu", "aiplatform.eu.rep.googleapis.com"),
        ("us", "aiplatform.us.rep.googleapis.com"),
        ("global", "aiplatform.googleapis.com"),
        ("europe-west4", "europe-west4-aiplatform.googleapis.com"),
    ],
)
def test_location_hosts(location: str, host: str) -> None:
    url, _ = vertex_call(location=location)
    assert url == (
        f"https://{host}/v1/projects/p/locations/{location}/publishers/google/models/gemini-2.5-flash:generateContent"
    )


@pytest.mark.parametrize(
    ("model_name", "path"),
    [
        (
            "projects/other/locations/europe-west4/endpoints/123",
            "https://europe-west4-aiplatform.googleapis.com/v1/projects/other/locations/europe-west4/endpoints/123",
        ),
        (
            "projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash",
            "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash",
        ),
        (
            "endpoints/456",
            "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/endpoints/456",
        ),
        (
            "models/gemini-2.5-flash",
            "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash",
        ),
    ],
)
def test_resource_names_are_not_doubled(model_name: str, path: str) -> None:
    url, _ = vertex_call(f"google-vertex/{model_name}")
    assert url == f"{path}:generateContent"
    assert url.count("projects/") == 1


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        ("cachedContents/123", "projects/p/locations/us-central1/cachedContents/123"),
        ("123", "projects/p/locations/us-central1/cachedContents/123"),
        ("projects/q/locations/eu/cachedContents/9", "projects/q/locations/eu/cachedContents/9"),
    ],
)
def test_cached_content_names_are_expanded_on_vertex(given: str, sent: str) -> None:
    _, body = vertex_call(request={"provider_options": {"google": {"cached_content": given}}})
    assert body["cachedContent"] == sent


def test_cached_content_short_name_on_the_gemini_api_matches_the_recording() -> None:
    recorded = c.cassette(
        c.PYDANTIC, "tests__models__google__cassettes__test_cache__test_google_model_cached_content.yaml"
    )
    name = recorded[1].request_body["cachedContent"]
    assert name.startswith("cachedContents/")
    m, recorder = model([response(200, OK)] * 2)
    m.generate(prompt="hi", provider_options={"google": {"cached_content": name}})
    m.generate(prompt="hi", provider_options={"google": {"cached_content": name.split("/", 1)[1]}})
    assert [b["cachedContent"] for b in recorder.bodies()] == [name, name]


def test_user_id_is_normalised_into_a_valid_label_with_a_warning() -> None:
    m, recorder = model([response(200, OK)], "google-vertex/gemini-2.5-flash", **VERTEX)
    result = m.generate(prompt="hi", user_id="Alice.Smith@example.com")
    assert recorder.body["labels"] == {"user_id": "alice_smith_example_com"}
    assert [w.setting for w in result.warnings] == ["user_id"]
    assert isinstance(result.warnings[0], CallWarning) and "alice_smith_example_com" in (
        result.warnings[0].details or ""
    )
    # A valid one is sent unchanged, without a warning.
    m, recorder = model([response(200, OK)], "google-vertex/gemini-2.5-flash", **VERTEX)
    assert m.generate(prompt="hi", user_id="alice-42").warnings == []
    assert recorder.body["labels"] == {"user_id": "alice-42"}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"request_labels": {"Team": "a"}},
        {"request_labels": {"team": "Alice.Smith"}},
        {"request_labels": {"team": "x" * 64}},
        {"request_labels": {"1team": "a"}},
        {"request_labels": {f"k{i}": "v" for i in range(65)}},
        {"provider_options": {"google": {"labels": {"bad key": "v"}}}},
    ],
)
def test_invalid_labels_are_rejected_before_any_request(kwargs: dict[str, Any]) -> None:
    m, recorder = model([], "google-vertex/gemini-2.5-flash", **VERTEX)
    with pytest.raises(InvalidRequestError, match="label"):
        m.generate(prompt="hi", **kwargs)
    assert recorder.requests == []


def test_gemini_embedding_001_sends_one_instance_per_request() -> None:
    answer = {"predictions": [{"embeddings": {"values": [0.5], "statistics": {"token_count": 2}}}]}
    recorder = Recorder([response(200, answer)] * 3)
    m, _ = model(recorder, "google-vertex/gemini-embedding-001", **VERTEX)
    result = m.embed(["a", "b", "c"])
    assert [b["instances"] for b in recorder.bodies()] == [[{"content": v}] for v in "abc"]
    assert result.embeddings == [[0.5]] * 3 and result.usage.input_tokens == 6
    # text-embedding models still batch.
    batch = {"predictions": [{"embeddings": {"values": [0.1]}}] * 3}
    m, recorder = model([response(200, batch)], "google-vertex/text-embedding-005", **VERTEX)
    m.embed(["a", "b", "c"])
    assert len(recorder.requests) == 1 and len(recorder.body["instances"]) == 3


def test_the_vertex_extra_installs_the_adc_transport() -> None:
    # Application default credentials refresh through google-auth's requests transport: the extra
    # must install it (google-auth alone fails at the first token refresh).
    pyproject = (Path(__file__).resolve().parents[2] / "plugins/google/pyproject.toml").read_text()
    (line,) = [x for x in pyproject.splitlines() if x.startswith("vertex = ")]
    assert '"google-auth[requests]>=2.20"' in line


def test_adc_without_the_transport_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    class Credentials:
        valid = False

    google = types.ModuleType("google")
    auth = types.ModuleType("google.auth")
    auth.default = lambda scopes: (Credentials(), "adc-project")  # type: ignore[attr-defined]
    google.auth = auth  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "google", google)
    monkeypatch.setitem(sys.modules, "google.auth", auth)
    monkeypatch.setitem(sys.modules, "google.auth.transport", None)  # an import of it fails
    monkeypatch.setitem(sys.modules, "google.auth.transport.requests", None)
    m, recorder = model([], "google-vertex/gemini-2.5-flash", api_key=None)
    with pytest.raises(ConfigurationError, match="requests"):
        m.generate(prompt="hi")
    assert recorder.requests == []


def test_a_failed_adc_refresh_is_a_typed_auth_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from modelport.errors import ProviderAuthError

    exceptions = types.ModuleType("google.auth.exceptions")
    base = type("GoogleAuthError", (Exception,), {})
    exceptions.GoogleAuthError = base  # type: ignore[attr-defined]
    exceptions.RefreshError = type("RefreshError", (base,), {})  # type: ignore[attr-defined]

    class Credentials:
        valid = False

        def refresh(self, request: object) -> None:
            raise exceptions.RefreshError("invalid_grant: secret-refresh-token-0123 rejected")  # type: ignore[attr-defined]

    google = types.ModuleType("google")
    auth = types.ModuleType("google.auth")
    transport = types.ModuleType("google.auth.transport")
    requests = types.ModuleType("google.auth.transport.requests")
    requests.Request = object  # type: ignore[attr-defined]
    auth.default = lambda scopes: (Credentials(), "adc-project")  # type: ignore[attr-defined]
    auth.exceptions = exceptions  # type: ignore[attr-defined]
    auth.transport = transport  # type: ignore[attr-defined]
    transport.requests = requests  # type: ignore[attr-defined]
    google.auth = auth  # type: ignore[attr-defined]
    for name, module in {
        "google": google,
        "google.auth": auth,
        "google.auth.exceptions": exceptions,
        "google.auth.transport": transport,
        "google.auth.transport.requests": requests,
    }.items():
        monkeypatch.setitem(sys.modules, name, module)
    m, recorder = model([], "google-vertex/gemini-2.5-flash", api_key=None)
    with pytest.raises(ProviderAuthError, match="RefreshError") as info:
        m.generate(prompt="hi")
    assert "secret-refresh-token" not in str(info.value)
    assert recorder.requests == []
