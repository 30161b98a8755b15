"""Errors: each status typed like Google's, 429 retried with the server's delay unless the quota is
spent, in-stream errors keep the partial result, and no credential in any message."""

from __future__ import annotations

import pytest

from modelport.errors import (
    ProviderAuthError,
    ProviderError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
)

from .fakes import KEY, completion, model, no_sleep, response, sse


def _error(code: str, message: str = "no", kind: str = "invalid_request_error") -> dict[str, object]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, ProviderRequestError),
        (401, ProviderAuthError),
        (403, ProviderAuthError),
        (404, ProviderRequestError),
        (409, ProviderRequestError),
        (422, ProviderRequestError),
        (500, ProviderOverloadedError),
        (502, ProviderOverloadedError),
        (503, ProviderOverloadedError),
    ],
)
def test_statuses_are_typed(status: int, cls: type[ProviderError]) -> None:
    m, _ = model(
        [response(status, _error("some_code", "It failed."), {"x-request-id": "req_1"})], max_retries=0
    )
    with pytest.raises(cls) as caught:
        m.generate(prompt="Hi")
    error = caught.value
    assert (error.status_code, error.provider_status, error.request_id, error.message) == (
        status,
        "some_code",
        "req_1",
        "It failed.",
    )


def test_rate_limit_is_retried_after_the_servers_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    delays = no_sleep(monkeypatch)
    limited = _error("rate_limit_exceeded", "Rate limit reached", "requests")
    m, recorder = model(
        [
            response(429, limited, {"retry-after-ms": "250", "content-type": "application/json"}),
            response(429, limited, {"retry-after": "2", "content-type": "application/json"}),
            response(body=completion("done")),
        ]
    )
    assert m.generate(prompt="Hi").text == "done"
    assert delays == [0.25, 2.0] and len(recorder.requests) == 3


def test_a_spent_quota_is_never_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    delays = no_sleep(monkeypatch)
    quota = _error("insufficient_quota", "You exceeded your current quota.", "insufficient_quota")
    m, recorder = model([response(429, quota)])
    with pytest.raises(ProviderQuotaError) as caught:
        m.generate(prompt="Hi")
    assert caught.value.provider_status == "insufficient_quota" and not caught.value.retryable
    assert delays == [] and len(recorder.requests) == 1


def test_rate_limit_error_carries_retry_after() -> None:
    m, _ = model(
        [
            response(
                429,
                _error("rate_limit_exceeded"),
                {"retry-after-ms": "1500", "content-type": "application/json"},
            )
        ],
        max_retries=0,
    )
    with pytest.raises(ProviderRateLimitError) as caught:
        m.generate(prompt="Hi")
    assert caught.value.retry_after == 1.5


def test_an_error_inside_a_stream_keeps_the_partial_result() -> None:
    frames = [
        {"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "Hel"}}]},
        {"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "lo"}}]},
        {"id": "c1", "error": {"code": 502, "message": "Upstream died"}},
    ]
    m, _ = model([sse(frames, done=False)], max_retries=0)
    with pytest.raises(ProviderError) as caught, m.stream(prompt="Hi") as s:
        list(s)
    assert caught.value.status_code == 502 and caught.value.message == "Upstream died"
    assert caught.value.partial is not None and caught.value.partial.text == "Hello"


def test_groq_in_stream_error_uses_its_own_status_code() -> None:
    body = (
        'data: {"id":"c","choices":[{"index":0,"delta":{"reasoning":"We"}}]}\n\n'
        'event: error\ndata: {"error":{"message":"Tool call validation failed","type":"invalid_request_error",'
        '"code":"tool_use_failed","status_code":400}}\n\n'
    )
    m, _ = model(
        [response(200, body, {"content-type": "text/event-stream"})],
        "groq/openai/gpt-oss-120b",
        max_retries=0,
    )
    with pytest.raises(ProviderRequestError) as caught, m.stream(prompt="Hi") as s:
        list(s)
    assert (caught.value.status_code, caught.value.provider_status) == (400, "tool_use_failed")
    assert caught.value.partial is not None and caught.value.partial.reasoning_text == "We"


def test_no_credential_in_any_message() -> None:
    echo = _error("invalid_api_key", f"Incorrect API key provided: {KEY}.")
    m, _ = model([response(401, echo, {"x-request-id": KEY})])
    with pytest.raises(ProviderAuthError) as caught:
        m.generate(prompt="Hi")
    error = caught.value
    for text in (str(error), repr(error), error.message, error.body_excerpt or "", error.request_id or ""):
        assert KEY not in text
