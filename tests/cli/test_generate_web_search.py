"""``modelport generate --tool web_search`` on all three providers: the neutral tool's name first
(compiled to each provider's own web search), then the provider's own names; the recorded grounded
answer of each provider prints with numbered sources.

The answers are real recordings (pydantic-ai's cassettes: gpt-5.2 on the Responses API, Claude
Sonnet 4.5 and Gemini 2.5 Pro with their web-search tools), replayed through ``httpx.MockTransport``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

import modelport
from modelport.cli import main
from tests.anthropic import corpus as anthropic_corpus
from tests.google import corpus as google_corpus
from tests.openai import responses_corpus

PYDANTIC_AI = "pydantic__pydantic-ai"


def _openai() -> bytes:
    name = "tests__models__cassettes__test_openai_responses__test_openai_include_raw_annotations_non_streaming.yaml"
    return responses_corpus.exchanges(f"{PYDANTIC_AI}/{name}")[0].body


def _anthropic() -> bytes:
    name = "tests__models__cassettes__test_anthropic__test_anthropic_web_search_tool.yaml"
    return anthropic_corpus.interactions(f"{PYDANTIC_AI}/{name}")[0].body


def _google() -> bytes:
    name = "tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml"
    return google_corpus.cassette(PYDANTIC_AI, name)[0].body


#: model, recorded answer, the web-search tool each provider is sent, the numbered sources printed.
LEGS: dict[str, tuple[str, Callable[[], bytes], list[dict[str, Any]], list[str]]] = {
    "openai-responses": (
        "openai-responses/gpt-5.2",
        _openai,
        [{"type": "web_search"}],
        [
            "[1] Mount Columbia | mountain, Alberta, Canada | Britannica - "
            "https://www.britannica.com/place/Mount-Columbia?utm_source=openai"
        ],
    ),
    "anthropic": (
        "anthropic/claude-sonnet-4-5",
        _anthropic,
        [{"type": "web_search_20250305", "name": "web_search"}],
        [
            "[1] San Francisco, CA Weather Forecast | AccuWeather - "
            "https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629",
            "[2] San Francisco, CA Weather Conditions | Weather Underground - "
            "https://www.wunderground.com/weather/us/ca/san-francisco",
            "[3] San Francisco, CA Hourly Weather Forecast | Weather Underground - "
            "https://www.wunderground.com/hourly/us/ca/san-francisco",
        ],
    ),
    "google": (
        "google/gemini-2.5-pro",
        _google,
        [{"googleSearch": {}}],
        [
            "[1] Weather information for San Francisco, CA, US - "
            "https://www.google.com/search?q=weather+in+San Francisco, CA,+US",
            "[2] weather.gov - https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQF_uq",
            "[3] wunderground.com - https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQFywi",
        ],
    ),
}


def run(
    monkeypatch: pytest.MonkeyPatch, args: list[str], answer: bytes | None = None
) -> tuple[Any, list[dict[str, Any]]]:
    sent: list[dict[str, Any]] = []
    real_get_model = modelport.get_model

    def reply(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        assert answer is not None, "no request may be sent"
        return httpx.Response(200, content=answer, headers={"content-type": "application/json"})

    def get_model(model_id: str, **options: Any) -> modelport.Model:
        return real_get_model(
            model_id, **{**options, "transport": httpx.MockTransport(reply), "max_retries": 0}
        )

    for variable in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.setenv(variable, "test-key-not-a-secret")
    monkeypatch.setattr(modelport, "get_model", get_model)
    return CliRunner().invoke(main, ["generate", *args, "--no-log"]), sent


@pytest.mark.parametrize("provider", sorted(LEGS))
def test_web_search_works_on_every_provider_with_numbered_sources(
    monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    model_id, answer, tools, sources = LEGS[provider]
    result, sent = run(monkeypatch, [model_id, "Search the web", "--tool", "web_search"], answer())
    assert result.exit_code == 0, result.output
    assert sent[0]["tools"] == tools
    printed = result.output.splitlines()
    block = printed[printed.index("Sources:") + 1 :]
    # A grounding redirect is long: its first 10 characters of token tell it apart.
    assert [
        line[: line.index("redirect/") + 19] if "redirect/" in line else line for line in block if line
    ] == sources


@pytest.mark.parametrize(
    ("provider", "names", "tools"),
    [
        ("openai-responses", ["openai.web_search"], [{"type": "web_search"}]),
        ("google", ["web_search", "url_context"], [{"googleSearch": {}}, {"urlContext": {}}]),
        (
            "anthropic",
            ["code_execution", "anthropic.web_fetch"],
            [
                {"type": "code_execution_20250825", "name": "code_execution"},
                {"type": "web_fetch_20250910", "name": "web_fetch"},
            ],
        ),
    ],
)
def test_own_names_resolve_beside_the_neutral_ones_in_order(
    monkeypatch: pytest.MonkeyPatch, provider: str, names: list[str], tools: list[dict[str, Any]]
) -> None:
    model_id, answer, _, _ = LEGS[provider]
    result, sent = run(
        monkeypatch, [model_id, "Hi", *(arg for name in names for arg in ("--tool", name))], answer()
    )
    assert result.exit_code == 0, result.output
    assert sent[0]["tools"] == tools


def test_a_neutral_tool_the_provider_lacks_fails_before_any_request(monkeypatch: pytest.MonkeyPatch) -> None:
    result, sent = run(monkeypatch, ["openai-responses/gpt-5.2", "Read it", "--tool", "web_fetch"])
    assert (result.exit_code, sent) == (1, [])
    assert result.output == "error: provider 'openai-responses' has no web_fetch tool\n"
