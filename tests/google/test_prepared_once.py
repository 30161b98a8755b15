"""A call's wire request is built once, for the pre-flight check and every attempt, and a provider
tool's arguments are parsed once, by the core, and carried to the plugin (``ProviderTool.parsed_args``).
Recorded Gemini traffic served by ``httpx.MockTransport``."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from modelport._runtime import retry as _retry
from modelport.provider_tools import ProviderToolSpec
from modelport.types import ProviderTool
from modelport_google.provider import GoogleProvider
from modelport_google.tools import GoogleSearchArgs, UrlContextArgs

from . import corpus as c
from . import mock

GROUNDED = "mock-responses__googleai__unary-success-google-search-grounding.json"
STREAMED = "mock-responses__googleai__streaming-success-url-context.txt"
SEARCH = {"type": "provider", "id": "google.google_search"}
URL_CONTEXT = {"type": "provider", "id": "google.url_context"}


def overloaded() -> httpx.Response:
    error = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    return mock.response(503, error)


def generated() -> httpx.Response:
    return mock.response(200, c.load_json(c.FIREBASE, GROUNDED))


def streamed() -> httpx.Response:
    return mock.response(200, c.raw(c.FIREBASE, STREAMED), mock.SSE)


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Every wire request the Google plugin builds (its ``stream`` flag) and every argument parse."""
    seen: dict[str, list[Any]] = {"built": [], "parsed": []}
    build, parse = GoogleProvider.build_request, ProviderToolSpec.validate_args

    def counting_build(self: Any, model_name: str, request: Any, *, stream: bool) -> Any:
        seen["built"].append(stream)
        return build(self, model_name, request, stream=stream)

    def counting_parse(self: Any, args: Any, backend: str) -> Any:
        seen["parsed"].append(self.id)
        return parse(self, args, backend)

    monkeypatch.setattr(GoogleProvider, "build_request", counting_build)
    monkeypatch.setattr(ProviderToolSpec, "validate_args", counting_parse)
    mock.no_sleep(monkeypatch)
    monkeypatch.setattr(_retry.random, "random", lambda: 1.0)
    return seen


def test_generate_builds_once_and_parses_once(counts: dict[str, list[Any]]) -> None:
    model, recorder = mock.model([overloaded(), generated()])
    result = model.generate(prompt="What is the weather in London?", tools=[SEARCH])
    assert result.text.startswith("The current weather in London, United Kingdom is cloudy.")
    assert len(recorder.requests) == 2  # one retry: it resends what was built
    assert counts == {"built": [False], "parsed": ["google.google_search"]}


def test_a_stream_builds_its_streaming_request_once(counts: dict[str, list[Any]]) -> None:
    model, recorder = mock.model([overloaded(), streamed()])
    result = model.stream(prompt="Describe https://google.com", tools=[URL_CONTEXT]).result()
    assert result.finish_reason == "stop"
    assert [r.url.path for r in recorder.requests] == [
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
    ] * 2
    # Before: a non-streaming body for the check, then a streaming one per attempt (3 builds, 3 parses).
    assert counts == {"built": [True], "parsed": ["google.url_context"]}


def test_async_calls_build_once(counts: dict[str, list[Any]]) -> None:
    async def calls() -> None:
        model, _ = mock.model([generated(), streamed()], asynchronous=True)
        await model.agenerate(prompt="What is the weather in London?", tools=[SEARCH])
        await model.astream(prompt="Describe https://google.com").result()

    asyncio.run(calls())
    assert counts == {"built": [False, True], "parsed": ["google.google_search"]}


def test_validated_tools_carry_their_parsed_arguments() -> None:
    model, recorder = mock.model([])
    given = ProviderTool(
        id="google.google_search",
        args={"timeRangeFilter": {"startTime": "2025-01-01T00:00:00Z", "endTime": "2025-02-01T00:00:00Z"}},
    )
    assert given.parsed_args is None  # no call validated it yet
    request = model.prepare(prompt="x", tools=[given, URL_CONTEXT])
    search, url = request.tools or []
    assert isinstance(search, ProviderTool) and isinstance(url, ProviderTool)
    assert search.parsed_args == GoogleSearchArgs.model_validate(given.args)
    assert url.parsed_args == UrlContextArgs()
    # The parse rides beside the fields: equality, hashing and dumps see the fields only.
    assert search == ProviderTool(id="google.google_search", args=given.args)
    assert search.model_dump() == {
        "type": "provider",
        "id": "google.google_search",
        "name": "google_search",
        "args": {"timeRangeFilter": {"startTime": "2025-01-01T00:00:00Z", "endTime": "2025-02-01T00:00:00Z"}},
    }
    assert recorder.requests == []
