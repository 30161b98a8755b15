"""Error bodies → typed errors, and retries honouring the server's delay (G18, C9).

Bodies are the recorded ones (FirebaseExtended/vertexai-sdk-test-data Apache-2.0, vercel/ai
Apache-2.0, pydantic/pydantic-ai MIT; see tests/corpus/gemini/MANIFEST.md) unless noted.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from modelport.errors import (
    MissingCredentialsError,
    ProviderAuthError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
)
from modelport_google._errors import error_from_response, parse_duration, parse_retry_after

from . import corpus as c
from .mock import KEY, model, no_sleep, response

OK = {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
# The Gemini API's 503 body (message as Google sends it; no 503 is recorded in the corpus).
OVERLOADED = {
    "error": {
        "code": 503,
        "message": "The model is overloaded. Please try again later.",
        "status": "UNAVAILABLE",
    }
}


def retry_info() -> dict[str, Any]:
    return c.load_json(c.VERCEL, "packages__google__src____fixtures____google-429-retry-info.json")


def test_api_key_invalid_is_auth_error_without_the_key() -> None:
    body = c.raw(c.FIREBASE, "mock-responses__googleai__unary-failure-api-key.json")
    m, recorder = model([response(400, body)], max_retries=2)
    with pytest.raises(ProviderAuthError) as info:
        m.generate(prompt="hi")
    error = info.value
    assert (error.status_code, error.provider_status) == (400, "INVALID_ARGUMENT")
    assert error.message == "API key not valid. Please pass a valid API key."
    assert KEY not in str(error) and KEY not in repr(error) and KEY not in (error.body_excerpt or "")
    assert len(recorder.requests) == 1  # not retried


def test_key_echoed_in_a_body_is_scrubbed() -> None:
    echo = {"error": {"code": 400, "message": f"bad key {KEY}", "status": "INVALID_ARGUMENT"}}
    m, _ = model([response(400, echo)])
    with pytest.raises(ProviderRequestError) as info:
        m.generate(prompt="hi")
    assert KEY not in str(info.value) and KEY not in (info.value.body_excerpt or "")


@pytest.mark.parametrize("status", [401, 403])
def test_401_403_are_auth_errors(status: int) -> None:
    error = error_from_response(
        status, {}, json.dumps({"error": {"code": status, "message": "no"}}), provider="google"
    )
    assert isinstance(error, ProviderAuthError)


def test_429_with_retry_info_is_rate_limited_with_the_delay() -> None:
    error = error_from_response(429, {}, json.dumps(retry_info()), provider="google")
    assert isinstance(error, ProviderRateLimitError)
    assert error.retry_after == pytest.approx(34.4)
    assert error.provider_status == "RESOURCE_EXHAUSTED"
    assert type(error).retryable


def test_429_retry_info_fractional_delay() -> None:
    body = retry_info()
    body["error"]["details"][1]["retryDelay"] = "17.30897372s"
    error = error_from_response(429, {}, json.dumps(body), provider="google")
    assert error.retry_after == pytest.approx(17.30897372)


def test_429_without_delay_is_quota_exhausted() -> None:
    body = c.raw(c.FIREBASE, "mock-responses__vertexai__unary-failure-quota-exceeded.json")
    error = error_from_response(429, {}, body, provider="google")
    assert isinstance(error, ProviderQuotaError)
    assert not type(error).retryable
    assert error.retry_after is None


def test_retry_after_header_wins_seconds_and_date() -> None:
    body = json.dumps(retry_info())
    assert error_from_response(429, {"retry-after": "3"}, body, provider="g").retry_after == 3.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("nonsense") is None
    assert parse_retry_after("-5") == 0.0
    quota = c.raw(c.FIREBASE, "mock-responses__vertexai__unary-failure-quota-exceeded.json")
    assert isinstance(
        error_from_response(429, {"retry-after": "2"}, quota, provider="g"), ProviderRateLimitError
    )


@pytest.mark.parametrize(
    ("text", "seconds"), [("42s", 42.0), ("17.30897372s", 17.30897372), ("0s", 0.0), ("5m", None), (5, None)]
)
def test_parse_duration(text: Any, seconds: float | None) -> None:
    assert parse_duration(text) == seconds


def test_503_is_overloaded_and_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    delays = no_sleep(monkeypatch)
    m, recorder = model([response(503, OVERLOADED), response(200, OK)])
    assert m.generate(prompt="hi").text == "ok"
    assert len(recorder.requests) == 2 and len(delays) == 1


def test_503_retries_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    no_sleep(monkeypatch)
    m, recorder = model([response(503, OVERLOADED)] * 3, max_retries=2)
    with pytest.raises(ProviderOverloadedError) as info:
        m.generate(prompt="hi")
    assert info.value.message == "The model is overloaded. Please try again later."
    assert len(recorder.requests) == 3


def test_429_retry_waits_the_server_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    delays = no_sleep(monkeypatch)
    m, _ = model([response(429, retry_info()), response(200, OK)])
    m.generate(prompt="hi")
    assert delays == [pytest.approx(34.4)]


def test_429_delay_over_the_cap_is_raised_not_waited(monkeypatch: pytest.MonkeyPatch) -> None:
    delays = no_sleep(monkeypatch)
    m, recorder = model([response(429, retry_info())], max_retry_delay=10)
    with pytest.raises(ProviderRateLimitError):
        m.generate(prompt="hi")
    assert delays == [] and len(recorder.requests) == 1


def test_quota_error_is_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    no_sleep(monkeypatch)
    body = c.raw(c.FIREBASE, "mock-responses__vertexai__unary-failure-quota-exceeded.json")
    m, recorder = model([response(429, body)])
    with pytest.raises(ProviderQuotaError):
        m.generate(prompt="hi")
    assert len(recorder.requests) == 1


@pytest.mark.parametrize(
    "name",
    [
        "packages__google__src____fixtures____issue-8943-gemini-2.5-flash-error.json",
        "packages__google__src____fixtures____google-embedding-batch-limit-error.json",
    ],
)
def test_other_400_are_request_errors(name: str) -> None:
    body = c.raw(c.VERCEL, name)
    error = error_from_response(400, {}, body, provider="google")
    assert isinstance(error, ProviderRequestError)
    assert error.message == json.loads(body)["error"]["message"]


def test_404_not_found_recorded() -> None:
    recorded = c.cassette(c.PYDANTIC, "tests__cassettes__test_embeddings__TestGoogle.test_embed_error.yaml")[
        0
    ]
    m, _ = model([response(recorded.status, recorded.body, recorded.headers)], "google/nonexistent-model")
    with pytest.raises(ProviderRequestError) as info:
        m.embed(["a", "b"])
    assert (info.value.status_code, info.value.provider_status) == (404, "NOT_FOUND")
    assert info.value.message.startswith("models/nonexistent-model is not found for API version v1beta")


def test_non_json_error_body_and_bounded_excerpt() -> None:
    error = error_from_response(502, {}, "<html>" + "x" * 10_000, provider="google")
    assert type(error) is ProviderOverloadedError
    assert error.message == "HTTP 502 error"
    assert len(error.body_excerpt or "") < 2_100


def test_name_option_is_used_in_errors() -> None:
    m, _ = model([response(503, copy.deepcopy(OVERLOADED))], max_retries=0, name="my-gemini")
    with pytest.raises(ProviderOverloadedError) as info:
        m.generate(prompt="hi")
    assert info.value.provider == "my-gemini"
    assert str(info.value).startswith("my-gemini: ")


def test_missing_key_names_the_env_vars() -> None:
    m, recorder = model([], api_key=None)
    with pytest.raises(MissingCredentialsError) as info:
        m.generate(prompt="hi")
    assert info.value.env_vars == ["GOOGLE_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"]
    assert "GOOGLE_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GEMINI_API_KEY" in str(info.value)
    assert recorder.requests == []


@pytest.mark.parametrize(
    "status, kind", [(500, "INTERNAL"), (504, "DEADLINE_EXCEEDED"), (503, "UNAVAILABLE")]
)
def test_transient_server_errors_are_retryable(status: int, kind: str) -> None:
    body = {"error": {"code": status, "message": "try again", "status": kind}}
    error = error_from_response(status, {}, json.dumps(body), provider="google")
    assert type(error) is ProviderOverloadedError
    assert (error.status_code, error.provider_status, type(error).retryable) == (status, kind, True)


def test_other_4xx_are_request_errors() -> None:
    body = {"error": {"code": 400, "message": "Penalty is not enabled", "status": "INVALID_ARGUMENT"}}
    error = error_from_response(400, {}, json.dumps(body), provider="google")
    assert type(error) is ProviderRequestError
    assert type(error).retryable is False
