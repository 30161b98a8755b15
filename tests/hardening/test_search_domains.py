"""Domain lists and use limits of web search and fetch (issue 34, Low):
``web_search(allowed_domains=["", "a b", "\\r\\nx.com"])`` and ``max_uses=10**30`` were sent as given.
Every domain entry is now checked by the core (``modelport.tools.args.DomainName`` /
``DomainPattern``) and ``max_uses`` is 1 to ``MAX_TOOL_USES``, before any request: for the neutral
tools on every provider, and for the provider tools given by hand (Anthropic's ``allowed_domains`` /
``blocked_domains``, OpenAI's ``filters.allowed_domains``, Google's ``excludeDomains``).

The forms each provider documents pass: a host name everywhere; on Anthropic also a path
(``example.com/blog``) with at most one ``*`` (``example.com/*/articles``).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import modelport
from modelport import tools
from modelport.errors import InvalidRequestError, ProviderToolError
from modelport.tools.args import MAX_TOOL_USES

MODELS = {
    "anthropic": "anthropic/claude-sonnet-4-5",
    "openai-responses": "openai-responses/gpt-4.1",
    "google": "google/gemini-2.5-flash",
    "google-vertex": "google-vertex/gemini-2.5-flash",
}
VERTEX = {"project": "p", "location": "us-central1", "token": "test-token-not-a-secret"}
HOST = "is not a domain name (e.g. 'example.com')"
HOST_OR_PATH = "is not a domain name (e.g. 'example.com' or 'example.com/blog')"


class Counting(httpx.MockTransport):
    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        super().__init__(lambda request: self.requests.append(request) or httpx.Response(500))


def model(provider: str, transport: httpx.MockTransport | None = None) -> Any:
    options = VERTEX if provider == "google-vertex" else {"api_key": "test-key-not-a-secret"}
    return modelport.get_model(MODELS[provider], transport=transport or Counting(), max_retries=0, **options)


def refused(provider: str, tool: Any) -> InvalidRequestError:
    """The error of a generate call with ``tool``, with nothing sent."""
    transport = Counting()
    with pytest.raises(InvalidRequestError) as info:
        model(provider, transport).generate(prompt="x", tools=[tool])
    assert transport.requests == []
    return info.value


@pytest.mark.parametrize(
    ("entry", "index"),
    [("", 0), ("a b", 1), ("\r\nx.com", 2), ("https://example.com", 0), ("*.example.com", 0)],
)
@pytest.mark.parametrize("builder", [tools.web_search, tools.web_fetch])
def test_a_neutral_domain_that_is_no_domain_is_refused(entry: str, index: int, builder: Any) -> None:
    domains = ["example.com"] * index + [entry]
    for key in ("allowed_domains", "blocked_domains"):
        with pytest.raises(InvalidRequestError) as info:
            builder(**{key: domains})
        assert type(info.value) is InvalidRequestError
        assert str(info.value) == (
            f"{builder.__name__}: invalid options: {key}.{index}: Value error, {entry!r} {HOST_OR_PATH}"
        )


@pytest.mark.parametrize(
    ("max_uses", "problem"),
    [
        (10**30, f"Input should be less than or equal to {MAX_TOOL_USES}"),
        (MAX_TOOL_USES + 1, "Input should be less than or equal to 1000"),
        (0, "Input should be greater than or equal to 1"),
        (-3, "Input should be greater than or equal to 1"),
        (True, "Input should be a valid integer"),
        ("3", "Input should be a valid integer"),
    ],
)
@pytest.mark.parametrize("builder", [tools.web_search, tools.web_fetch])
def test_a_use_limit_out_of_bounds_is_refused(max_uses: Any, problem: str, builder: Any) -> None:
    with pytest.raises(InvalidRequestError) as info:
        builder(max_uses=max_uses)
    assert str(info.value) == f"{builder.__name__}: invalid options: max_uses: {problem}"


@pytest.mark.parametrize("provider", list(MODELS))
def test_the_mapping_form_of_a_neutral_tool_is_checked_on_every_provider(provider: str) -> None:
    tool = {"type": "neutral", "name": "web_search", "options": {"allowed_domains": ["\r\nx.com"]}}
    error = refused(provider, tool)
    assert type(error) is InvalidRequestError
    assert str(error) == (
        f"invalid neutral tool: allowed_domains.0: Value error, '\\r\\nx.com' {HOST_OR_PATH}"
    )


@pytest.mark.parametrize(
    ("provider", "tool", "message"),
    [
        (
            "anthropic",
            {"type": "provider", "id": "anthropic.web_search", "args": {"allowed_domains": ["a b"]}},
            f"provider tool 'anthropic.web_search': invalid arguments: allowed_domains.0: Value error,"
            f" 'a b' {HOST_OR_PATH}",
        ),
        (
            "anthropic",
            {"type": "provider", "id": "anthropic.web_fetch", "args": {"blocked_domains": [""]}},
            f"provider tool 'anthropic.web_fetch': invalid arguments: blocked_domains.0: Value error,"
            f" '' {HOST_OR_PATH}",
        ),
        (
            "anthropic",
            {"type": "provider", "id": "anthropic.web_search", "args": {"max_uses": 10**30}},
            "provider tool 'anthropic.web_search': invalid arguments: max_uses: Input should be less than"
            " or equal to 1000",
        ),
        (
            "openai-responses",
            {
                "type": "provider",
                "id": "openai.web_search",
                "args": {"filters": {"allowed_domains": ["\r\nx.com"]}},
            },
            f"provider tool 'openai.web_search': invalid arguments: filters.allowed_domains.0: Value error,"
            f" '\\r\\nx.com' {HOST}",
        ),
        (
            "google-vertex",
            {"type": "provider", "id": "google.google_search", "args": {"excludeDomains": ["a b"]}},
            f"provider tool 'google.google_search': invalid arguments: excludeDomains.0: Value error, 'a b' {HOST}",
        ),
    ],
)
def test_provider_tools_given_by_hand_are_checked_the_same_way(
    provider: str, tool: Any, message: str
) -> None:
    error = refused(provider, tool)
    assert type(error) is ProviderToolError
    assert str(error) == message


@pytest.mark.parametrize(
    "entry", ["example.com/*/articles/x/*", "example.com/a b", "example.com/\r\n", "example.com/?q=1"]
)
def test_an_anthropic_path_takes_url_path_characters_and_one_wildcard(entry: str) -> None:
    with pytest.raises(InvalidRequestError) as info:
        tools.web_search(allowed_domains=[entry])
    assert str(info.value) == (
        f"web_search: invalid options: allowed_domains.0: Value error, {entry!r}: the path after the domain"
        " takes URL path characters and at most one '*'"
    )


def sent_tool(provider: str, tool: Any) -> dict[str, Any]:
    answers: list[httpx.Request] = []
    transport = httpx.MockTransport(lambda request: answers.append(request) or httpx.Response(500))
    with pytest.raises(modelport.ProviderError):
        model(provider, transport).generate(prompt="x", tools=[tool])
    tools_sent: list[dict[str, Any]] = json.loads(answers[0].content)["tools"]
    return tools_sent[0]


DOCUMENTED = ["example.com", "docs.example.com", "example.co.uk.", "xn--bcher-kva.example", "192.0.2.1"]


def test_the_documented_anthropic_forms_are_sent_as_given() -> None:
    domains = [*DOCUMENTED, "example.com/blog", "example.com/*/articles", "example.com/docs/*"]
    sent = sent_tool("anthropic", tools.web_search(allowed_domains=domains, max_uses=MAX_TOOL_USES))
    assert sent == {
        "type": "web_search_20250305",
        "name": "web_search",
        "max_uses": 1000,
        "allowed_domains": domains,
    }


def test_host_names_are_sent_to_openai_and_vertex() -> None:
    openai = sent_tool("openai-responses", tools.web_search(allowed_domains=DOCUMENTED))
    assert openai == {"type": "web_search", "filters": {"allowed_domains": DOCUMENTED}}
    vertex = sent_tool("google-vertex", tools.web_search(blocked_domains=DOCUMENTED))
    assert vertex == {"googleSearch": {"excludeDomains": DOCUMENTED}}


def test_a_path_is_refused_where_the_provider_takes_host_names_only() -> None:
    error = refused("openai-responses", tools.web_search(allowed_domains=["example.com/blog"]))
    assert type(error) is ProviderToolError
    assert str(error) == (
        "provider tool 'openai.web_search': invalid arguments: filters.allowed_domains.0: Value error,"
        f" 'example.com/blog' {HOST}"
    )
