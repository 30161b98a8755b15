"""Neutral provider tools (``modelport.tools``): one ``web_search``, ``web_fetch`` and
``code_execution`` compiled to each provider's own tool before any request.

What is checked: the compiled ``tools[]`` entry is the provider's own body (the recorded request
bodies of pydantic-ai and charmbracelet/fantasy for the defaults; the body the provider's own
tool sends for the options); every (option, backend) pair a backend cannot express is refused
before any I/O, naming both, or with ``best_effort=True`` left out with a warning; a neutral tool
a provider lacks fails before any I/O.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

import modelport
from modelport import tools
from modelport.errors import InvalidRequestError
from modelport.types import ProviderTool
from tests.anthropic import corpus as anthropic_corpus
from tests.anthropic.fakes import message
from tests.google import corpus as google_corpus
from tests.openai import responses_corpus

MODELS = {
    "google": "google/gemini-2.5-flash",
    "google-vertex": "google-vertex/gemini-2.5-flash",
    "openai-responses": "openai-responses/gpt-5",
    "anthropic": "anthropic/claude-sonnet-4-5",
}
WINDOW = ("2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z")
LOCATION = {"city": "Paris", "country": "FR", "timezone": "Europe/Paris"}
#: One value for every neutral option.
VALUES: dict[str, Any] = {
    "allowed_domains": ["example.com"],
    "blocked_domains": ["example.org"],
    "user_location": LOCATION,
    "max_uses": 3,
    "time_range": WINDOW,
    "context_size": "low",
    "max_content_tokens": 1000,
}
#: What each backend cannot express, written from each provider's API reference.
REFUSED = {
    ("web_search", "google"): [
        "allowed_domains",
        "blocked_domains",
        "user_location",
        "max_uses",
        "context_size",
    ],
    ("web_search", "google-vertex"): [
        "allowed_domains",
        "user_location",
        "max_uses",
        "time_range",
        "context_size",
    ],
    ("web_search", "openai-responses"): ["blocked_domains", "max_uses", "time_range"],
    ("web_search", "anthropic"): ["time_range", "context_size"],
    ("web_fetch", "google"): ["allowed_domains", "blocked_domains", "max_uses", "max_content_tokens"],
    ("web_fetch", "google-vertex"): ["allowed_domains", "blocked_domains", "max_uses", "max_content_tokens"],
}
BACKENDS = {"google": " (backend 'gemini')", "google-vertex": " (backend 'vertex')"}


def _no_io(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"a request was sent: {request.url}")


def model(provider: str, handler: Any = _no_io) -> modelport.Model:
    extra = {"project": "p", "location": "us-central1"} if provider == "google-vertex" else {}
    return modelport.get_model(MODELS[provider], api_key="k", transport=httpx.MockTransport(handler), **extra)


def sent_tools(provider: str, *given: Any) -> list[dict[str, Any]]:
    """The ``tools[]`` of the body the provider would send."""
    m = model(provider)
    prepared = m.provider.prepare(m.name, m.prepare(prompt="Hi", tools=list(given)))
    return list(prepared.wire.body["tools"])


def _without_nulls(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if value is not None}


# The compiled body is the provider's own -----------------------------------------------------


def test_google_defaults_are_the_recorded_bodies() -> None:
    def recorded(name: str) -> list[dict[str, Any]]:
        return list(google_corpus.cassette("pydantic__pydantic-ai", name)[0].request_body["tools"])

    search = recorded("tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml")
    fetch = recorded("tests__models__cassettes__test_google__test_google_model_web_fetch_tool_stream.yaml")
    code = recorded("tests__models__google__cassettes__test_code_execution__test_code_execution.yaml")
    assert (
        search == [{"googleSearch": {}}] and fetch == [{"urlContext": {}}] and code == [{"codeExecution": {}}]
    )
    for provider in ("google", "google-vertex"):
        assert sent_tools(provider, tools.web_search()) == search
        assert sent_tools(provider, tools.web_fetch()) == fetch
        assert sent_tools(provider, tools.code_execution()) == code


def test_google_options_are_google_search_options_per_backend() -> None:
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    gemini = sent_tools("google", tools.web_search(time_range=(start, start + timedelta(days=31))))
    assert gemini == [{"googleSearch": {"timeRangeFilter": {"startTime": WINDOW[0], "endTime": WINDOW[1]}}}]
    own = ProviderTool(
        id="google.google_search", args={"timeRangeFilter": dict(zip(("startTime", "endTime"), WINDOW))}
    )
    assert gemini == sent_tools("google", own)
    vertex = sent_tools("google-vertex", tools.web_search(blocked_domains=["example.org"]))
    assert vertex == [{"googleSearch": {"excludeDomains": ["example.org"]}}]


def test_openai_defaults_are_the_recorded_bodies() -> None:
    search = responses_corpus.exchanges(
        "charmbracelet__fantasy/providertests__testdata__TestOpenAIWebSearch__generate.yaml"
    )[0].request["tools"]
    code = responses_corpus.exchanges(
        "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__"
        "test_openai_responses_thinking_with_code_execution_tool_stream.yaml"
    )[0].request["tools"]
    assert search == [{"type": "web_search"}]
    assert code == [{"container": {"type": "auto"}, "type": "code_interpreter"}]
    assert sent_tools("openai-responses", tools.web_search()) == search
    assert sent_tools("openai-responses", tools.code_execution()) == code


def test_openai_options_are_web_search_options() -> None:
    neutral = tools.web_search(allowed_domains=["example.com"], user_location=LOCATION, context_size="low")
    assert sent_tools("openai-responses", neutral) == [
        {
            "type": "web_search",
            "search_context_size": "low",
            "user_location": {"type": "approximate", **LOCATION},
            "filters": {"allowed_domains": ["example.com"]},
        }
    ]


def test_anthropic_defaults_are_the_recorded_bodies() -> None:
    def recorded(name: str) -> list[dict[str, Any]]:
        request = anthropic_corpus.interactions(f"pydantic__pydantic-ai/{name}")[0].request
        assert request is not None
        return [_without_nulls(entry) for entry in request["tools"]]

    search = recorded("tests__models__cassettes__test_anthropic__test_anthropic_web_search_tool.yaml")
    fetch = recorded("tests__models__cassettes__test_anthropic__test_anthropic_web_fetch_tool.yaml")
    assert search == [{"name": "web_search", "type": "web_search_20250305"}]
    assert fetch == [{"name": "web_fetch", "type": "web_fetch_20250910"}]
    assert sent_tools("anthropic", tools.web_search()) == search
    assert sent_tools("anthropic", tools.web_fetch()) == fetch
    assert sent_tools("anthropic", tools.code_execution()) == [
        {"type": "code_execution_20250825", "name": "code_execution"}
    ]


def test_anthropic_options_are_server_tool_options() -> None:
    search = tools.web_search(blocked_domains=["example.org"], user_location=LOCATION, max_uses=3)
    fetch = tools.web_fetch(allowed_domains=["example.com"], max_uses=2, max_content_tokens=1000)
    assert sent_tools("anthropic", search, fetch) == [
        {
            "type": "web_search_20250305",
            "name": "web_search",
            "max_uses": 3,
            "blocked_domains": ["example.org"],
            "user_location": {"type": "approximate", **LOCATION},
        },
        {
            "type": "web_fetch_20250910",
            "name": "web_fetch",
            "max_uses": 2,
            "allowed_domains": ["example.com"],
            "max_content_tokens": 1000,
        },
    ]


# Refused before any I/O ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "provider", "option"),
    [(name, provider, option) for (name, provider), options in REFUSED.items() for option in options],
)
def test_an_option_the_backend_lacks_is_refused_naming_both(name: str, provider: str, option: str) -> None:
    tool = getattr(tools, name)(**{option: VALUES[option]})
    with pytest.raises(InvalidRequestError) as caught:
        model(provider).generate(prompt="Hi", tools=[tool])  # the transport fails on any request
    where = f"provider {provider!r}" + BACKENDS.get(provider, "")
    assert f"{name} option {option!r} not supported by {where} (it supports: " in str(caught.value)


@pytest.mark.parametrize(("name", "provider"), [("web_fetch", "openai-responses"), ("web_search", "openai")])
def test_a_neutral_tool_the_provider_lacks_fails_before_io(name: str, provider: str) -> None:
    m = modelport.get_model(f"{provider}/gpt-5", api_key="k", transport=httpx.MockTransport(_no_io))
    assert getattr(m.provider.capabilities, name) is False
    with pytest.raises(InvalidRequestError, match=f"provider {provider!r} has no {name} tool"):
        m.generate(prompt="Hi", tools=[getattr(tools, name)()])


def test_capabilities_list_the_neutral_tools() -> None:
    def has(provider: str) -> list[str]:
        caps = model(provider).provider.capabilities
        return [name for name in ("web_search", "web_fetch", "code_execution") if getattr(caps, name)]

    assert (
        has("google")
        == has("google-vertex")
        == has("anthropic")
        == ["web_search", "web_fetch", "code_execution"]
    )
    assert has("openai-responses") == ["web_search", "code_execution"]


def test_best_effort_leaves_the_option_out_with_a_warning() -> None:
    sent: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=message())

    tool = tools.web_search(max_uses=2, time_range=WINDOW, best_effort=True)
    result = model("anthropic", answer).generate(prompt="Hi", tools=[tool])
    assert sent[0]["tools"] == [{"type": "web_search_20250305", "name": "web_search", "max_uses": 2}]
    (warning,) = [w for w in result.warnings if w.setting == "web_search.time_range"]
    assert warning.type == "unsupported-setting"
    assert (
        warning.details
        == "provider 'anthropic' cannot express web_search option 'time_range'; it is not sent"
    )


def test_the_mapping_form_compiles_like_the_builder() -> None:
    given = {"type": "neutral", "name": "web_search", "options": {"allowed_domains": ["example.com"]}}
    assert sent_tools("openai-responses", given) == sent_tools(
        "openai-responses", tools.web_search(allowed_domains=["example.com"])
    )


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"allowed_domains": ["a.com"], "blocked_domains": ["b.com"]}, "not both"),
        ({"time_range": (WINDOW[1], WINDOW[0])}, "start must be before end"),
        ({"time_range": (datetime(2025, 1, 1), datetime(2025, 2, 1))}, "timezone"),
        ({"allowed_domains": "a.com"}, "must be a list of domains"),
        ({"max_uses": 0}, "greater than or equal to 1"),
        ({"context_size": "huge"}, "context_size"),
    ],
)
def test_bad_options_are_refused_when_the_tool_is_made(kwargs: dict[str, Any], problem: str) -> None:
    with pytest.raises(InvalidRequestError, match=problem):
        tools.web_search(**kwargs)
