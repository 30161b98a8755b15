"""A model's :class:`modelport.http.Endpoint`: built once from the kit's hooks, then the only thing
the I/O reads. The I/O functions send for an endpoint made by hand, with no provider at all: they
take data and never call back into the kit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import httpx
import pytest

import modelport
from modelport._runtime.retry import RetryPolicy
from modelport.errors import MissingCredentialsError, ProviderError, ProviderRequestError
from modelport.http import Endpoint, HttpClients, HttpRequest, Limits
from modelport.http._async import asend_json
from modelport.http._sync import send, send_json
from modelport.provider import ProviderConfig

OK = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi."}]}, "finishReason": "STOP"}]}
FRAME = (
    b'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi."}]},"finishReason":"STOP"}]}\n\n'
)


def answer(request: httpx.Request) -> httpx.Response:
    if request.url.path.endswith(":streamGenerateContent"):
        return httpx.Response(200, content=FRAME, headers={"content-type": "text/event-stream"})
    return httpx.Response(200, json=OK)


def test_the_endpoint_is_built_once_per_model_from_the_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    model = modelport.get_model(
        "google/gemini-2.5-flash", api_key="k-123", transport=httpx.MockTransport(answer)
    )
    provider_class = type(model.provider)
    asked: list[str] = []
    for hook in ("auth", "secrets", "headers", "base_url"):
        original = getattr(provider_class, hook)

        def counted(self: Any, *args: Any, _original: Any = original, _hook: str = hook) -> Any:
            asked.append(_hook)
            return _original(self, *args)

        monkeypatch.setattr(provider_class, hook, counted)
    assert model.generate(prompt="one").text == "Hi."
    assert "".join(e.delta for e in model.stream(prompt="two") if e.type == "text-delta") == "Hi."
    assert model.generate(prompt="three").text == "Hi."
    # Each hook once (base_url is also read by the plugin's own build_request, per call).
    assert sorted(set(asked) - {"base_url"}) == ["auth", "headers", "secrets"]
    assert [asked.count(h) for h in ("auth", "headers", "secrets")] == [1, 1, 1]
    endpoint = model.provider.endpoint()
    assert endpoint is model.provider.endpoint()
    assert endpoint.credential == ("x-goog-api-key", "k-123")
    assert endpoint.secrets == ("k-123",)
    assert endpoint.base_url == "https://generativelanguage.googleapis.com/v1beta"
    assert "k-123" not in repr(endpoint)


def test_a_missing_credential_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    model = modelport.get_model("google/gemini-2.5-flash", transport=httpx.MockTransport(answer))
    with pytest.raises(MissingCredentialsError):
        model.generate(prompt="one")
    monkeypatch.setenv("GEMINI_API_KEY", "k-late")
    assert model.generate(prompt="two").text == "Hi."
    assert model.provider.endpoint().credential == ("x-goog-api-key", "k-late")


def _endpoint(
    handler: Any, *, error: Any = None, base_url: str | None = "https://api.acme.example/v1"
) -> Endpoint:
    def mapped(status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        return ProviderRequestError(f"acme says {status}: {body}", provider="acme", status_code=status)

    config = ProviderConfig(provider_id="acme", transport=handler)
    return Endpoint(
        name="acme",
        base_url=base_url,
        headers={"content-type": "application/json", "x-team": "blue"},
        credential=("authorization", "Bearer sk-acme-secret"),
        auth=None,
        limits=Limits(max_response_bytes=1024),
        deadline=30.0,
        follow_redirects=False,
        error_from_response=error or mapped,
        secrets=("sk-acme-secret",),
        credential_headers=frozenset({"authorization"}),
        retry=RetryPolicy(max_retries=0),
        clients=HttpClients(config),
        base_url_problem=None if base_url else "acme needs base_url=...",
    )


def test_the_sync_io_sends_for_an_endpoint_alone() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"echo": request.url.path})

    endpoint = _endpoint(httpx.MockTransport(handler))
    assert send_json(endpoint, HttpRequest("/chat", body=b"{}")) == {"echo": "/v1/chat"}
    sent = seen[0]
    assert (sent.headers["x-team"], sent.headers["authorization"]) == ("blue", "Bearer sk-acme-secret")
    assert sent.headers["content-type"] == "application/json"


def test_the_async_io_sends_for_an_endpoint_alone() -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"echo": request.url.path, "team": request.headers["x-team"]})

    endpoint = _endpoint(httpx.MockTransport(handler))
    data = asyncio.run(asend_json(endpoint, HttpRequest("https://api.acme.example/ping", method="GET")))
    assert data == {"echo": "/ping", "team": "blue"}


def test_the_endpoint_maps_errors_scrubs_and_bounds() -> None:
    def refused(request: httpx.Request) -> httpx.Response:
        return httpx.Response(403, text="bad key sk-acme-secret")

    with pytest.raises(ProviderRequestError) as caught:
        send(_endpoint(httpx.MockTransport(refused)), HttpRequest("chat", body=b"{}"))
    assert (caught.value.status_code, str(caught.value).count("sk-acme-secret")) == (403, 0)
    assert "acme says 403: bad key" in str(caught.value)

    def large(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"[" + b"1," * 600 + b"1]")

    with pytest.raises(modelport.errors.ProviderResponseError, match="larger than 1024 bytes"):
        send_json(_endpoint(httpx.MockTransport(large)), HttpRequest("chat"))


def test_a_url_without_a_base_url_says_why() -> None:
    endpoint = _endpoint(httpx.MockTransport(answer), base_url=None)
    # No API root, no origin credentials may go to: an absolute URL is not sent either.
    for url in ("chat", "https://api.acme.example/v1/chat"):
        with pytest.raises(modelport.errors.ConfigurationError, match="acme needs base_url"):
            endpoint.url(url)
