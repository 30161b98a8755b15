"""C9 / Q3: retries under injected faults. 429 storms are retried with the server's delays (a
``Retry-After`` header first), bounded by ``max_retries``, sync and async; a 429 without a delay is a
spent quota, never retried; a stream is retried only before its first event, never duplicating one.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from modelport.errors import ProviderOverloadedError, ProviderQuotaError, ProviderRateLimitError
from modelport.types import TextPart

from .conftest import Counting, frame, google, json_response, sse_response
from .test_stream_faults import FINISH, HELLO, OK_BODY, WORLD, stream_of, sync_and_async


def rate_limited(delay: str) -> httpx.Response:
    return json_response(
        {
            "error": {
                "code": 429,
                "message": "Resource has been exhausted (e.g. check quota).",
                "status": "RESOURCE_EXHAUSTED",
                "details": [
                    {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": []},
                    {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay},
                ],
            }
        },
        status=429,
    )


def storm(delays: list[str], then: httpx.Response | None = None) -> Counting:
    """429 with RetryInfo for each delay in turn, then ``then`` (or 429 forever)."""

    def handler(request: httpx.Request) -> httpx.Response:
        index = len(transport.requests) - 1
        if index < len(delays):
            return rate_limited(delays[index])
        if then is None:
            return rate_limited(delays[-1])
        return then

    transport = Counting(handler)
    return transport


def test_a_429_storm_is_retried_with_the_server_delays_then_succeeds(sleeps: list[float]) -> None:
    transport = storm(["17.3s", "42s"], then=json_response(OK_BODY))
    result = google(transport, max_retries=2).generate(prompt="hi")
    assert result.text == "fine"
    assert sleeps == [17.3, 42.0]
    assert len(transport.requests) == 3


def test_a_429_storm_gives_up_after_max_retries(sleeps: list[float]) -> None:
    transport = storm(["1.5s"])
    with pytest.raises(ProviderRateLimitError) as info:
        google(transport, max_retries=3).generate(prompt="hi")
    assert info.value.retry_after == 1.5
    assert info.value.status_code == 429
    assert info.value.provider_status == "RESOURCE_EXHAUSTED"
    assert info.value.partial is None
    assert sleeps == [1.5, 1.5, 1.5]
    assert len(transport.requests) == 4


def test_async_429_storm_is_bounded_and_honours_delays(sleeps: list[float]) -> None:
    transport = storm(["3s", "0.25s", "9s"])
    with pytest.raises(ProviderRateLimitError):
        asyncio.run(google(transport, max_retries=2).agenerate(prompt="hi"))
    assert sleeps == [3.0, 0.25]
    assert len(transport.requests) == 3


def test_retry_after_header_wins_over_retry_info(sleeps: list[float]) -> None:
    calls = iter([rate_limited("30s"), json_response(OK_BODY)])

    def handler(request: httpx.Request) -> httpx.Response:
        response = next(calls)
        if response.status_code == 429:
            response.headers["retry-after"] = "7"
        return response

    assert google(Counting(handler), max_retries=1).generate(prompt="hi").text == "fine"
    assert sleeps == [7.0]


def test_429_without_a_delay_is_quota_and_not_retried(sleeps: list[float]) -> None:
    transport = Counting(
        lambda r: json_response(
            {"error": {"code": 429, "message": "Quota exceeded", "status": "RESOURCE_EXHAUSTED"}}, 429
        )
    )
    with pytest.raises(ProviderQuotaError):
        google(transport, max_retries=3).generate(prompt="hi")
    assert sleeps == []
    assert len(transport.requests) == 1


@sync_and_async
def test_a_stream_429_storm_before_any_event_is_retried_without_duplicates(
    asynchronous: bool, sleeps: list[float]
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if len(transport.requests) <= 2:
            return rate_limited("2s")
        return sse_response([HELLO, WORLD, FINISH])

    transport = Counting(handler)
    model = google(transport, max_retries=2)
    if asynchronous:

        async def arun() -> Any:
            stream = model.astream(prompt="hi")
            events = [event async for event in stream]
            return events, stream.accumulator.result()

        events, result = asyncio.run(arun())
    else:
        stream = model.stream(prompt="hi")
        events = list(stream)
        result = stream.accumulator.result()
    assert [e.type for e in events].count("stream-start") == 1
    assert result.text == "Hello, world!"
    assert result.content == [TextPart(text="Hello, world!")]
    assert sleeps == [2.0, 2.0]
    assert len(transport.requests) == 3


def test_a_retryable_error_after_the_first_event_is_not_retried(sleeps: list[float]) -> None:
    overloaded = frame({"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}})
    transport = stream_of(HELLO, overloaded)
    stream = google(transport, max_retries=5).stream(prompt="hi")
    received = []
    with pytest.raises(ProviderOverloadedError) as info:
        for event in stream:
            received.append(event)
    assert len(transport.requests) == 1
    assert sleeps == []
    assert info.value.partial is not None and info.value.partial.text == "Hello, "
    assert "".join(e.delta for e in received if e.type == "text-delta") == "Hello, "
