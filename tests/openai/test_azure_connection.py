"""Azure OpenAI: routes, endpoint and API-version resolution, the credential chosen, and where the
credentials may go. Every request goes to an ``httpx.MockTransport`` (never the network)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from modelport_openai.azure import AzureOpenAIProvider, AzureOpenAIResponsesProvider

import modelport
from modelport.errors import ConfigurationError, InvalidRequestError, MissingCredentialsError
from modelport.http import HttpRequest

ENDPOINT = "https://contoso.openai.azure.com"
KEY = "a" * 16 + "0123456789abcdef"  # the 32-hex shape of an Azure key, built at run time
ANSWER = {
    "id": "chatcmpl-1",
    "model": "gpt-4o-2024-11-20",
    "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Hi"}}],
}
RESPONSE = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "model": "gpt-5-mini",
    "output": [
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Hi"}],
        }
    ],
}


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY", "OPENAI_API_VERSION", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


class Seen:
    def __init__(self, answer: Any = ANSWER) -> None:
        self.requests: list[httpx.Request] = []
        self.answer = answer

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(200, json=self.answer)


def _model(
    provider: str = "azure-openai", deployment: str = "gpt-4o", seen: Seen | None = None, **options: Any
):
    transport = httpx.MockTransport(seen or Seen())
    return modelport.get_model(f"{provider}/{deployment}", transport=transport, max_retries=0, **options)


# Routes ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("api_version", "url"),
    [
        (None, f"{ENDPOINT}/openai/v1/chat/completions"),
        ("v1", f"{ENDPOINT}/openai/v1/chat/completions"),
        ("preview", f"{ENDPOINT}/openai/v1/chat/completions?api-version=preview"),
        ("2024-10-21", f"{ENDPOINT}/openai/deployments/my-gpt-4o/chat/completions?api-version=2024-10-21"),
    ],
)
def test_chat_route_follows_the_api_version(api_version: str | None, url: str) -> None:
    seen = Seen()
    options = {"api_version": api_version} if api_version else {}
    result = _model(deployment="my-gpt-4o", seen=seen, endpoint=ENDPOINT, api_key=KEY, **options).generate(
        prompt="Hi"
    )
    assert result.text == "Hi"
    assert str(seen.requests[0].url) == url
    # The deployment name is the body's model on every route (as the official Azure client sends it).
    assert json.loads(seen.requests[0].content)["model"] == "my-gpt-4o"


@pytest.mark.parametrize(
    ("api_version", "url"),
    [
        (None, f"{ENDPOINT}/openai/v1/responses"),
        ("2025-03-01-preview", f"{ENDPOINT}/openai/responses?api-version=2025-03-01-preview"),
    ],
)
def test_responses_route_follows_the_api_version(api_version: str | None, url: str) -> None:
    seen = Seen(RESPONSE)
    options = {"api_version": api_version} if api_version else {}
    model = _model("azure-openai-responses", "gpt-5-mini", seen, endpoint=ENDPOINT, api_key=KEY, **options)
    assert model.generate(prompt="Hi").text == "Hi"
    assert str(seen.requests[0].url) == url


def test_embeddings_take_the_deployment_route() -> None:
    provider = AzureOpenAIProvider(_config(api_version="2024-10-21"))
    (spec,) = provider.embed_requests("emb", _embed_request())
    assert spec.url == "/openai/deployments/emb/embeddings?api-version=2024-10-21"


def test_aliases_resolve_to_the_azure_providers() -> None:
    assert modelport.get_model("azure/x", endpoint=ENDPOINT, api_key=KEY).provider.id == "azure-openai"
    responses = modelport.get_model("azure-responses/x", endpoint=ENDPOINT, api_key=KEY)
    assert responses.provider.id == "azure-openai-responses"


@pytest.mark.parametrize("given", [f"{ENDPOINT}/", f"{ENDPOINT}/openai", f"{ENDPOINT}/openai/v1/"])
def test_an_endpoint_with_the_openai_path_is_the_resource_root(given: str) -> None:
    assert AzureOpenAIProvider(_config(endpoint=given)).base_url() == ENDPOINT


def test_resource_names_the_endpoint() -> None:
    assert AzureOpenAIProvider(_config(endpoint=None, resource="contoso")).base_url() == ENDPOINT
    with pytest.raises(ConfigurationError, match="name only"):
        AzureOpenAIProvider(_config(endpoint=None, resource="contoso.evil.example")).base_url()


@pytest.mark.parametrize("deployment", ["../models", "a?b=c", "a#b", "a%2e"])
def test_a_deployment_name_cannot_leave_its_route(deployment: str) -> None:
    provider = AzureOpenAIProvider(_config(api_version="2024-10-21"))
    with pytest.raises((InvalidRequestError, ConfigurationError)):
        provider.build_request(deployment, modelport.Request(prompt="Hi"), stream=False)


def test_a_bad_api_version_is_refused_before_io() -> None:
    seen = Seen()
    with pytest.raises(ConfigurationError, match="not an Azure OpenAI API version"):
        _model(seen=seen, endpoint=ENDPOINT, api_key=KEY, api_version="2024&x=1").generate(prompt="Hi")
    assert seen.requests == []


# The environment ---------------------------------------------------------------------------------


def test_endpoint_key_and_version_come_from_the_standard_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://fromenv.openai.azure.com/")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-10-21")
    seen = Seen()
    _model(seen=seen).generate(prompt="Hi")
    request = seen.requests[0]
    assert str(request.url) == (
        "https://fromenv.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21"
    )
    assert request.headers["api-key"] == KEY
    assert "authorization" not in request.headers


def test_arguments_win_over_the_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://fromenv.openai.azure.com")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "e" * 32)
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-10-21")
    seen = Seen()
    _model(seen=seen, endpoint=ENDPOINT, api_key=KEY, api_version="v1").generate(prompt="Hi")
    assert str(seen.requests[0].url) == f"{ENDPOINT}/openai/v1/chat/completions"
    assert seen.requests[0].headers["api-key"] == KEY


def test_no_endpoint_is_a_typed_error_before_io() -> None:
    seen = Seen()
    with pytest.raises(ConfigurationError, match="AZURE_OPENAI_ENDPOINT"):
        _model(seen=seen, api_key=KEY).generate(prompt="Hi")
    assert seen.requests == []


def test_no_credential_is_a_typed_error_before_io(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "azure.identity", None)  # the [azure] extra not installed
    seen = Seen()
    with pytest.raises(MissingCredentialsError, match=r"AZURE_OPENAI_API_KEY.*modelport-openai\[azure\]"):
        _model(seen=seen, endpoint=ENDPOINT).generate(prompt="Hi")
    assert seen.requests == []


# Which credential, in which header ---------------------------------------------------------------


def test_a_fixed_entra_token_is_a_bearer_header() -> None:
    token = "eyJ0" + "x" * 40
    seen = Seen()
    _model(seen=seen, endpoint=ENDPOINT, token=token).generate(prompt="Hi")
    assert seen.requests[0].headers["authorization"] == f"Bearer {token}"
    assert "api-key" not in seen.requests[0].headers


def test_an_api_key_wins_over_entra_options() -> None:
    seen = Seen()
    _model(seen=seen, endpoint=ENDPOINT, api_key=KEY, token="t" * 40).generate(prompt="Hi")
    assert seen.requests[0].headers["api-key"] == KEY
    assert "authorization" not in seen.requests[0].headers


def test_a_token_provider_is_called_for_each_request_sync_and_async() -> None:
    calls: list[str] = []

    def provider() -> str:
        calls.append("call")
        return f"tok{len(calls)}" + "z" * 30

    seen = Seen()
    model = _model(seen=seen, endpoint=ENDPOINT, token_provider=provider)
    model.generate(prompt="Hi")
    asyncio.run(model.agenerate(prompt="Hi"))
    assert [r.headers["authorization"] for r in seen.requests] == [
        f"Bearer tok1{'z' * 30}",
        f"Bearer tok2{'z' * 30}",
    ]


def test_an_async_token_provider_is_refused_before_io() -> None:
    async def aprovider() -> str:
        return "atok" + "z" * 30

    seen = Seen()
    with pytest.raises(ConfigurationError, match="sync callable"):
        _model(seen=seen, endpoint=ENDPOINT, token_provider=aprovider).generate(prompt="Hi")
    assert seen.requests == []


class _Token:
    def __init__(self, token: str) -> None:
        self.token = token
        self.expires_on = 2**31


class FakeCredential:
    """An azure-identity ``TokenCredential`` (``get_token(*scopes)``)."""

    def __init__(self) -> None:
        self.scopes: list[tuple[str, ...]] = []

    def get_token(self, *scopes: str, **kwargs: Any) -> _Token:
        self.scopes.append(scopes)
        return _Token("entra" + "q" * 40)


def test_a_credential_is_asked_for_the_cognitive_services_scope() -> None:
    credential = FakeCredential()
    seen = Seen()
    _model(seen=seen, endpoint=ENDPOINT, credential=credential).generate(prompt="Hi")
    assert credential.scopes == [("https://cognitiveservices.azure.com/.default",)]
    assert seen.requests[0].headers["authorization"] == "Bearer entra" + "q" * 40


def test_default_azure_credential_when_the_extra_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    made: list[FakeCredential] = []

    def default() -> FakeCredential:
        made.append(FakeCredential())
        return made[-1]

    fake = types.ModuleType("azure.identity")
    fake.DefaultAzureCredential = default  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "azure.identity", fake)
    seen = Seen()
    model = _model(seen=seen, endpoint=ENDPOINT)
    model.generate(prompt="Hi")
    model.generate(prompt="Hi")
    assert len(made) == 1 and len(made[0].scopes) == 2  # one credential, asked per request (it caches)
    assert seen.requests[0].headers["authorization"] == "Bearer entra" + "q" * 40


def test_a_failing_credential_is_an_auth_error_without_its_text() -> None:
    class Broken:
        def get_token(self, *scopes: str, **kwargs: Any) -> Any:
            raise RuntimeError("secret-ish detail from the token exchange")

    seen = Seen()
    with pytest.raises(modelport.ProviderAuthError) as caught:
        _model(seen=seen, endpoint=ENDPOINT, credential=Broken()).generate(prompt="Hi")
    assert "secret-ish" not in str(caught.value)
    assert "cognitiveservices.azure.com" in str(caught.value)
    assert seen.requests == []


# Credentials go to the endpoint's own origin only ------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/openai/v1/chat/completions",
        "https://contoso.openai.azure.com.evil.example/openai/v1/chat/completions",
        "http://contoso.openai.azure.com/openai/v1/chat/completions",
        "https://other.openai.azure.com/openai/v1/chat/completions",
    ],
)
def test_no_request_with_credentials_leaves_the_endpoint_origin(url: str) -> None:
    seen = Seen()
    model = _model(seen=seen, endpoint=ENDPOINT, api_key=KEY)
    with pytest.raises(InvalidRequestError, match="refused to send credentials"):
        model.provider.call_json(HttpRequest(url, body={}))
    assert seen.requests == []


def test_a_redirect_to_another_origin_is_not_followed_with_the_key() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(307, headers={"location": "https://evil.example/steal"})

    model = modelport.get_model(
        "azure-openai/gpt-4o",
        endpoint=ENDPOINT,
        api_key=KEY,
        transport=httpx.MockTransport(handler),
        max_retries=0,
    )
    with pytest.raises(modelport.ModelportError):
        model.generate(prompt="Hi")
    assert [r.url.host for r in seen] == ["contoso.openai.azure.com"]


def test_the_key_is_in_no_repr_or_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, json={"error": {"code": "401", "message": f"bad key {KEY}"}})

    model = modelport.get_model(
        "azure-openai/gpt-4o",
        endpoint=ENDPOINT,
        api_key=KEY,
        transport=httpx.MockTransport(handler),
        max_retries=0,
    )
    with pytest.raises(modelport.ProviderAuthError) as caught:
        model.generate(prompt="Hi")
    assert KEY not in str(caught.value) and KEY not in repr(caught.value)
    assert KEY not in (caught.value.body_excerpt or "")
    assert KEY not in repr(model) and KEY not in repr(model.provider.endpoint())


# Helpers -----------------------------------------------------------------------------------------


def _config(**options: Any) -> Any:
    from modelport.provider import ProviderConfig, Secret

    merged = {"endpoint": ENDPOINT, **options}
    kept = {k: v for k, v in merged.items() if v is not None}
    return ProviderConfig(provider_id="azure-openai", api_key=Secret(KEY), options=kept)


def _embed_request() -> Any:
    from modelport.provider import EmbedRequest

    return EmbedRequest(values=["hello"], single=False)


def test_the_responses_class_reuses_the_responses_mapping() -> None:
    assert issubclass(AzureOpenAIResponsesProvider, modelport.http.HttpProvider)
    assert AzureOpenAIResponsesProvider.capabilities.count_tokens is False
