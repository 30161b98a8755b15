"""One base-URL check wherever the value comes from: ``base_url=``, an environment variable
(``OPENAI_BASE_URL``, ``OLLAMA_BASE_URL``, ``GOOGLE_GEMINI_BASE_URL``) or a provider's default.
A bad one is a ``ConfigurationError`` naming its source and never showing it, before any request."""

from __future__ import annotations

from typing import Any, ClassVar

import httpx
import pytest
from modelport_openai.provider import OpenAICompatibleProvider

import modelport
from modelport.errors import ConfigurationError
from modelport.provider import ProviderConfig

BAD = [
    ("http://user:pw@proxy.test/v1?x=1#frag", "cannot have a query or fragment ('?' or '#')"),
    ("http://user:pw@proxy.test/v1#frag", "cannot have a query or fragment ('?' or '#')"),
    ("ftp://user:pw@proxy.test/v1", "must be an http:// or https:// URL with a host (scheme: 'ftp')"),
    ("http://user:pw@proxy.test/v\t1", "cannot contain '\\t' (whitespace or control characters)"),
]


def _sent(model_id: str, **options: Any) -> list[httpx.Request]:
    seen: list[httpx.Request] = []

    def reply(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(500)

    model = modelport.get_model(model_id, transport=httpx.MockTransport(reply), max_retries=0, **options)
    with pytest.raises(modelport.ModelportError) as caught:
        model.generate(prompt="hi")
    if seen:
        return seen
    raise caught.value


@pytest.mark.parametrize(("url", "problem"), BAD)
@pytest.mark.parametrize(
    ("model_id", "variable", "options"),
    [
        ("openai/gpt-4o-mini", "OPENAI_BASE_URL", {"api_key": "k-1"}),
        ("ollama/llama3", "OLLAMA_BASE_URL", {}),
        ("google/gemini-2.5-flash", "GOOGLE_GEMINI_BASE_URL", {"api_key": "k-1"}),
    ],
)
def test_a_bad_base_url_in_the_environment_is_refused_before_any_request(
    model_id: str,
    variable: str,
    options: dict[str, Any],
    url: str,
    problem: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(variable, url)
    with pytest.raises(ConfigurationError) as caught:
        _sent(model_id, **options)
    assert str(caught.value) == f"{variable} {problem}"
    assert "pw" not in str(caught.value)


@pytest.mark.parametrize(("url", "problem"), BAD)
def test_the_same_value_as_base_url_is_refused_the_same_way(url: str, problem: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        modelport.get_model("openai/gpt-4o-mini", api_key="k-1", base_url=url)
    assert str(caught.value) == f"base_url {problem}"


def test_a_bad_default_base_url_is_refused() -> None:
    class Broken(OpenAICompatibleProvider):
        default_base_url: ClassVar[str | None] = "https://api.example/v1?tenant=1"

    with pytest.raises(ConfigurationError) as caught:
        Broken(ProviderConfig(provider_id="broken")).base_url()
    assert str(caught.value) == "Broken.default_base_url cannot have a query or fragment ('?' or '#')"


@pytest.mark.parametrize(
    ("model_id", "variable", "options", "url"),
    [
        (
            "openai/gpt-4o-mini",
            "OPENAI_BASE_URL",
            {"api_key": "k-1"},
            "https://proxy.test/v1/chat/completions",
        ),
        ("ollama/llama3", "OLLAMA_BASE_URL", {}, "https://proxy.test/v1/chat/completions"),
        (
            "google/gemini-2.5-flash",
            "GOOGLE_GEMINI_BASE_URL",
            {"api_key": "k-1"},
            "https://proxy.test/v1/models/gemini-2.5-flash:generateContent",
        ),
    ],
)
def test_a_good_base_url_in_the_environment_is_used(
    model_id: str, variable: str, options: dict[str, Any], url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, "https://proxy.test/v1/")
    assert str(_sent(model_id, **options)[0].url) == url
