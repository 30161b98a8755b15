"""Backends and configuration (G1, G2), credentials hygiene (Q5), and the package's public names (L4)."""

from __future__ import annotations

from typing import Any

import pytest

import modelport
import modelport.errors
import modelport_google
from modelport.errors import ConfigurationError, MissingCredentialsError
from tests.google_auth import fake_google_auth

from .mock import model, response

OK = {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
GEMINI = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"


def call(model_id: str = "google/gemini-2.5-flash", **options: Any) -> Any:
    m, recorder = model([response(200, OK)], model_id, **options)
    m.generate(prompt="hi")
    return recorder.requests[0]


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"GEMINI_API_KEY": "k3"}, "k3"),
        ({"GEMINI_API_KEY": "k3", "GOOGLE_GENERATIVE_AI_API_KEY": "k2"}, "k2"),
        ({"GEMINI_API_KEY": "k3", "GOOGLE_GENERATIVE_AI_API_KEY": "k2", "GOOGLE_API_KEY": "k1"}, "k1"),
    ],
)
def test_api_key_environment_order(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    request = call(api_key=None)
    assert request.headers["x-goog-api-key"] == expected
    assert "key=" not in str(request.url)


def test_explicit_key_and_credential_option(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "env")
    assert call(api_key="explicit").headers["x-goog-api-key"] == "explicit"
    assert call(api_key=None, credential="cred").headers["x-goog-api-key"] == "cred"
    assert call(api_key="explicit", credential="cred").headers["x-goog-api-key"] == "explicit"


def test_the_credential_option_is_the_kits_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """``credential=`` is read once, as ``api_key=``: scrubbed as the key is, checked as it is."""
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    echo = {"error": {"code": 400, "message": "bad key cred-9f2e41", "status": "INVALID_ARGUMENT"}}
    m, _ = model([response(400, echo)], api_key=None, credential="cred-9f2e41")
    with pytest.raises(modelport.errors.ProviderError) as info:
        m.generate(prompt="hi")
    assert "cred-9f2e41" not in str(info.value)
    with pytest.raises(ConfigurationError, match="^credentials must be strings$"):
        model([], api_key=None, credential=42)


def test_base_url_env_applies_to_chat_and_embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", "https://proxy.example/v1alpha/")
    assert str(call().url) == "https://proxy.example/v1alpha/models/gemini-2.5-flash:generateContent"
    m, recorder = model([response(200, {"embedding": {"values": [1.0]}})], "google/text-embedding-004")
    m.embed("x")
    assert (
        str(recorder.requests[0].url)
        == "https://proxy.example/v1alpha/models/text-embedding-004:embedContent"
    )
    assert str(call(base_url="https://other.example/v1").url).startswith("https://other.example/v1/models/")


def test_default_url_and_tuned_model_path() -> None:
    assert str(call().url) == GEMINI
    assert str(call("google/tunedModels/my-tune").url) == (
        "https://generativelanguage.googleapis.com/v1beta/tunedModels/my-tune:generateContent"
    )


def test_missing_key_error_lists_every_variable() -> None:
    m, recorder = model([], api_key=None)
    with pytest.raises(
        MissingCredentialsError, match="GOOGLE_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GEMINI_API_KEY"
    ):
        m.generate(prompt="hi")
    assert recorder.requests == []


def test_vertex_url_token_and_location() -> None:
    request = call(
        "google-vertex/gemini-2.5-pro",
        api_key=None,
        token="ya29.tok",
        project="proj",
        location="europe-west4",
    )
    assert str(request.url) == (
        "https://europe-west4-aiplatform.googleapis.com/v1/projects/proj/locations/europe-west4/"
        "publishers/google/models/gemini-2.5-pro:generateContent"
    )
    assert request.headers["authorization"] == "Bearer ya29.tok"
    assert "x-goog-api-key" not in request.headers


def test_vertex_global_location_has_no_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "envproj")
    monkeypatch.setenv("GOOGLE_CLOUD_LOCATION", "global")
    request = call("google-vertex/gemini-2.5-flash", api_key=None, token="t")
    assert str(request.url) == (
        "https://aiplatform.googleapis.com/v1/projects/envproj/locations/global/"
        "publishers/google/models/gemini-2.5-flash:generateContent"
    )


def test_vertex_default_location_and_stream_url() -> None:
    from .mock import SSE

    m, recorder = model(
        [response(200, b'data: {"candidates": [{"finishReason": "STOP"}]}\r\n\r\n', SSE)],
        "google-vertex/gemini-2.5-flash",
        api_key=None,
        token="t",
        project="p",
    )
    m.stream(prompt="hi").result()
    assert str(recorder.requests[0].url) == (
        "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/"
        "publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    )


def test_vertex_token_provider_sync_and_async() -> None:
    calls: list[int] = []

    def provide() -> str:
        calls.append(1)
        return f"tok{len(calls)}"

    m, recorder = model(
        [response(200, OK), response(200, OK)],
        "google-vertex/g",
        api_key=None,
        token_provider=provide,
        project="p",
    )
    m.generate(prompt="a")
    m.generate(prompt="b")
    assert [r.headers["authorization"] for r in recorder.requests] == ["Bearer tok1", "Bearer tok2"]


@pytest.mark.asyncio
async def test_vertex_async_token_provider() -> None:
    async def provide() -> str:
        return "atok"

    m, recorder = model(
        [response(200, OK)],
        "google-vertex/g",
        api_key=None,
        token_provider=provide,
        project="p",
        asynchronous=True,
    )
    await m.agenerate(prompt="a")
    assert recorder.requests[0].headers["authorization"] == "Bearer atok"


def test_async_token_provider_rejected_for_sync_calls() -> None:
    async def provide() -> str:
        return "atok"

    m, _ = model([], "google-vertex/g", api_key=None, token_provider=provide, project="p")
    with pytest.raises(ConfigurationError, match="async token_provider"):
        m.generate(prompt="a")


def test_vertex_without_credentials_names_env_vars_and_extra() -> None:
    m, recorder = model([], "google-vertex/g", api_key=None)
    with pytest.raises(MissingCredentialsError) as info:
        m.generate(prompt="a")
    assert info.value.env_vars == ["GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"]
    assert "modelport-google[vertex]" in str(info.value)
    assert recorder.requests == []


def test_vertex_token_without_project_is_missing_credentials() -> None:
    m, _ = model([], "google-vertex/g", api_key=None, token="t")
    with pytest.raises(MissingCredentialsError, match="GOOGLE_CLOUD_PROJECT"):
        m.generate(prompt="a")


def test_vertex_express_mode_api_key() -> None:
    # Express endpoints are on the global host (issue 13), not us-central1.
    request = call("google-vertex/gemini-2.5-flash", api_key="vkey")
    assert str(request.url) == (
        "https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-flash:generateContent"
    )
    assert request.headers["x-goog-api-key"] == "vkey"


def _fake_google_auth(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return fake_google_auth(monkeypatch, "ya29.adc")


def test_vertex_application_default_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    refreshed = _fake_google_auth(monkeypatch)
    m, recorder = model([response(200, OK), response(200, OK)], "google-vertex/g", api_key=None)
    m.generate(prompt="a")
    m.generate(prompt="b")
    assert recorder.requests[0].headers["authorization"] == "Bearer ya29.adc"
    assert "/projects/adc-project/locations/us-central1/" in str(recorder.requests[0].url)
    assert refreshed == ["refresh"]  # cached while valid


def test_key_never_in_reprs() -> None:
    m, _ = model([], api_key="AIzaSyCANARY000000000000000000000000")
    assert (
        "CANARY" not in repr(m)
        and "CANARY" not in repr(m.provider)
        and "CANARY" not in repr(m.provider.config)
    )


def test_public_names() -> None:
    assert sorted(modelport_google.__all__) == [
        "API_KEY_ENV_VARS",
        "BASE_URL_ENV_VAR",
        "BATCH_LIMIT",
        "EFFORT_BUDGETS",
        "GEMINI_BASE_URL",
        "GoogleOptions",
        "GoogleProvider",
        "MAX_REPLAY_BYTES",
        "MAX_REPLAY_PARTS",
        "VERTEX_ENV_VARS",
        "VertexProvider",
        "caches",
        "code_execution",
        "enterprise_web_search",
        "file_search",
        "files",
        "google_maps",
        "google_search",
        "url_context",
    ]
    for name in modelport_google.__all__:
        assert getattr(modelport_google, name) is not None
    assert modelport_google.API_KEY_ENV_VARS == (
        "GOOGLE_API_KEY",
        "GOOGLE_GENERATIVE_AI_API_KEY",
        "GEMINI_API_KEY",
    )
    assert modelport_google.EFFORT_BUDGETS == {"low": 512, "medium": 2048, "high": 8192, "max": -1}
    assert (modelport_google.MAX_REPLAY_PARTS, modelport_google.MAX_REPLAY_BYTES) == (4096, 8 * 1024 * 1024)
    with pytest.raises(AttributeError):
        modelport_google.nope  # noqa: B018


def test_capabilities_and_ids() -> None:
    from modelport_google import GoogleProvider, VertexProvider

    assert (GoogleProvider.id, GoogleProvider.backend) == ("google", "gemini")
    assert (VertexProvider.id, VertexProvider.backend) == ("google-vertex", "vertex")
    assert GoogleProvider.capabilities.as_dict() == {
        "generate": True,
        "stream": True,
        "embed": True,
        "function_tools": True,
        "provider_tools": True,
        "reasoning": True,
        "structured_output": True,
        "count_tokens": True,
        "list_models": True,
        "batch": True,
        "prompt_cache": False,
        "web_search": True,
        "web_fetch": True,
        "code_execution": True,
        "mcp_server": False,
        "documents": False,
    }
