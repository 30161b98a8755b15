"""The server's delay is honoured on every retryable status that carries one (issue 22, C9): a 503
with ``Retry-After: 5`` used to be retried after 0.45 s of jitter (only a 429's delay was read).
``Retry-After`` as seconds, as an HTTP date and as ``retry-after-ms``, and Google's ``RetryInfo``,
on the OpenAI and Google plugins, for generate and stream. A ``max_retry_delay`` above the default
deadline is now waited for (the default deadline grows with it).
"""

from __future__ import annotations

import asyncio
import email.utils
import time

import httpx
import pytest

import modelport
from modelport.errors import ProviderOverloadedError, ProviderRateLimitError
from modelport.http import status_error

OPENAI_OK = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "model": "gpt-4o-mini",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
}
GOOGLE_OK = {
    "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}],
}
GOOGLE_UNAVAILABLE = {
    "error": {
        "code": 503,
        "message": "The model is overloaded. Please try again later.",
        "status": "UNAVAILABLE",
        "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "7s"}],
    }
}


def scripted(*replies: httpx.Response) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    sent: list[httpx.Request] = []
    queue = list(replies)

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return queue.pop(0)

    return httpx.MockTransport(handler), sent


def unavailable(headers: dict[str, str]) -> httpx.Response:
    return httpx.Response(
        503, headers=headers, json={"error": {"message": "overloaded", "type": "server_error"}}
    )


@pytest.mark.parametrize(
    ("headers", "delay"),
    [
        ({"retry-after": "5"}, 5.0),
        ({"retry-after-ms": "1500"}, 1.5),
        ({"retry-after": "<in 30 s>"}, 30.0),
    ],
)
def test_a_503_is_retried_after_the_delay_the_server_gave(
    headers: dict[str, str], delay: float, sleeps: list[float]
) -> None:
    if headers.get("retry-after") == "<in 30 s>":  # an HTTP date, made when the test runs
        headers = {"retry-after": email.utils.formatdate(time.time() + 30, usegmt=True)}
    transport, sent = scripted(unavailable(headers), httpx.Response(200, json=OPENAI_OK))
    m = modelport.get_model("openai/gpt-4o-mini", api_key="sk-test", transport=transport)
    assert m.generate(prompt="hi").text == "ok"
    assert len(sent) == 2
    assert len(sleeps) == 1 and delay - 1.0 < sleeps[0] <= delay  # an HTTP date is whole seconds


@pytest.mark.parametrize("status", [500, 502, 503, 504, 529, 408])
def test_every_transient_status_carries_the_servers_delay(status: int) -> None:
    error = status_error(status, {"retry-after": "12"}, "", provider="acme")
    assert type(error) is ProviderOverloadedError
    assert error.retry_after == 12.0
    assert str(error) == f"acme: HTTP {status} error (HTTP {status}, retry after 12s)"
    assert status_error(status, {}, "", provider="acme").retry_after is None


def test_a_google_503_is_retried_after_its_retry_info(sleeps: list[float]) -> None:
    transport, sent = scripted(
        httpx.Response(503, json=GOOGLE_UNAVAILABLE), httpx.Response(200, json=GOOGLE_OK)
    )
    m = modelport.get_model("google/gemini-2.5-flash", api_key="k", transport=transport)
    assert m.generate(prompt="hi").text == "ok"
    assert sleeps == [7.0] and len(sent) == 2


STREAM_DONE = (
    b'data: {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}\r\n\r\n'
)


def stream_replies(seconds: str) -> list[httpx.Response]:
    return [
        httpx.Response(503, headers={"retry-after": seconds}, json=GOOGLE_UNAVAILABLE),
        httpx.Response(200, headers={"content-type": "text/event-stream"}, content=STREAM_DONE),
    ]


def test_a_stream_is_retried_after_the_delay_too(sleeps: list[float]) -> None:
    transport, sent = scripted(*stream_replies("3"))
    m = modelport.get_model("google/gemini-2.5-flash", api_key="k", transport=transport)
    assert m.stream(prompt="hi").result().text == "ok"
    assert sleeps == [3.0] and len(sent) == 2  # Retry-After wins over RetryInfo, as on a 429

    queue = stream_replies("4")

    async def handler(request: httpx.Request) -> httpx.Response:
        return queue.pop(0)

    async def main() -> str:
        client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        m = modelport.get_model("google/gemini-2.5-flash", api_key="k", async_http_client=client)
        return (await m.astream(prompt="hi").result()).text

    assert asyncio.run(main()) == "ok"
    assert sleeps == [3.0, 4.0] and queue == []


def test_a_delay_above_max_retry_delay_fails_at_once_with_the_delay(sleeps: list[float]) -> None:
    transport, sent = scripted(unavailable({"retry-after": "90"}), httpx.Response(200, json=OPENAI_OK))
    m = modelport.get_model("openai/gpt-4o-mini", api_key="sk-test", transport=transport)
    with pytest.raises(ProviderOverloadedError) as info:
        m.generate(prompt="hi")
    assert info.value.retry_after == 90.0
    assert str(info.value) == "openai: overloaded (HTTP 503, server_error, retry after 90s)"
    assert sleeps == [] and len(sent) == 1


def test_a_max_retry_delay_above_the_default_deadline_is_waited_for(sleeps: list[float]) -> None:
    # 700 s is past the default 600 s deadline; allowing it with max_retry_delay=900 makes the
    # default deadline 1,500 s, so the wait is made. Before, the retry was silently not made.
    rate_limited = httpx.Response(429, headers={"retry-after": "700"}, json={"error": {"message": "slow"}})
    transport, sent = scripted(rate_limited, httpx.Response(200, json=OPENAI_OK))
    m = modelport.get_model("openai/gpt-4o-mini", api_key="sk-test", transport=transport, max_retry_delay=900)
    assert m.generate(prompt="hi").text == "ok"
    assert sleeps == [700.0] and len(sent) == 2


def test_an_explicit_deadline_still_caps_a_long_allowed_delay(sleeps: list[float]) -> None:
    rate_limited = httpx.Response(429, headers={"retry-after": "700"}, json={"error": {"message": "slow"}})
    transport, sent = scripted(rate_limited, httpx.Response(200, json=OPENAI_OK))
    m = modelport.get_model(
        "openai/gpt-4o-mini", api_key="sk-test", transport=transport, max_retry_delay=900, deadline=600
    )
    with pytest.raises(ProviderRateLimitError) as info:
        m.generate(prompt="hi")
    assert info.value.retry_after == 700.0 and "retry after 700s" in str(info.value)
    assert sleeps == [] and len(sent) == 1
