"""``api_version=`` of the ``anthropic`` provider: ``2023-06-01`` (the default, every recording's)
sends the key as ``x-api-key``; ``2026-10-21`` sends ``anthropic-version: 2026-10-21`` and the key as
``Authorization: Bearer``, and refuses ``temperature``, ``top_p`` and ``top_k`` before any I/O.

MOCK: no recording of ``2026-10-21`` exists; the answers are the minimal ``message`` body of
:mod:`.fakes`, and the 401 body is the shape recorded in the corpus
(``Mirascope__mirascope/…test_authentication_error_stream…``) with the key echoed into it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import ConfigurationError, InvalidRequestError, ProviderAuthError

from .fakes import message

NEW = "2026-10-21"
# Built at runtime: an obviously fake key of the Anthropic shape (so the scrubber knows it).
FAKE_KEY = "-".join(["sk", "ant", "fake"]) + "-" + "0" * 24


class Sent:
    """Answers every request with one response, keeping what was sent."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(
            self.response.status_code, headers=self.response.headers, content=self.response.content
        )


def _model(response: httpx.Response | None = None, **options: Any) -> tuple[Any, Sent]:
    sent = Sent(response or httpx.Response(200, json=message()))
    built = modelport.get_model(
        "anthropic/claude-sonnet-4-5",
        api_key=FAKE_KEY,
        transport=httpx.MockTransport(sent),
        max_retries=0,
        **options,
    )
    return built, sent


def _auth_headers(request: httpx.Request) -> dict[str, str]:
    return {
        k: v for k, v in request.headers.items() if k in {"anthropic-version", "x-api-key", "authorization"}
    }


@pytest.mark.parametrize("options", [{}, {"api_version": "2023-06-01"}, {"api_version": None}])
def test_the_default_version_is_unchanged(options: dict[str, Any]) -> None:
    m, sent = _model(**options)
    m.generate(prompt="Hi", temperature=0.5, top_p=0.9, top_k=40, max_output_tokens=16)
    (request,) = sent.requests
    assert _auth_headers(request) == {"anthropic-version": "2023-06-01", "x-api-key": FAKE_KEY}
    assert json.loads(request.content) == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 16,
        "messages": [{"role": "user", "content": "Hi"}],
        "temperature": 0.5,
        "top_k": 40,
        "top_p": 0.9,
    }


def test_the_new_version_sends_its_header_and_a_bearer_key() -> None:
    m, sent = _model(api_version=NEW)
    result = m.generate(prompt="Hi", max_output_tokens=16, stop_sequences=["END"])
    assert result.text == "ok"
    (request,) = sent.requests
    assert request.url == "https://api.anthropic.com/v1/messages"
    assert _auth_headers(request) == {"anthropic-version": NEW, "authorization": f"Bearer {FAKE_KEY}"}
    assert json.loads(request.content) == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 16,
        "messages": [{"role": "user", "content": "Hi"}],
        "stop_sequences": ["END"],
    }


def test_the_new_version_counts_tokens_with_the_same_headers() -> None:
    m, sent = _model(httpx.Response(200, json={"input_tokens": 9}), api_version=NEW)
    assert m.count_tokens(prompt="Hi").input_tokens == 9
    (request,) = sent.requests
    assert request.url == "https://api.anthropic.com/v1/messages/count_tokens"
    assert _auth_headers(request) == {"anthropic-version": NEW, "authorization": f"Bearer {FAKE_KEY}"}


def _call(m: Any, how: str, **request: Any) -> None:
    if how == "agenerate":
        asyncio.run(m.agenerate(**request))
    elif how == "stream":
        m.stream(**request).result()
    elif how == "batch":
        m.submit_batch([request])
    else:
        m.generate(**request)


@pytest.mark.parametrize("how", ["generate", "agenerate", "stream", "batch"])
@pytest.mark.parametrize(("setting", "value"), [("temperature", 0.0), ("top_p", 0.5), ("top_k", 1)])
def test_the_new_version_refuses_sampling_settings_before_any_request(
    how: str, setting: str, value: Any
) -> None:
    m, sent = _model(api_version=NEW)
    with pytest.raises(InvalidRequestError) as info:
        _call(m, how, prompt="Hi", **{setting: value})
    assert str(info.value) == (
        f"{setting} is not accepted by the Anthropic API version {NEW} (api_version=): "
        "unset it, or use api_version='2023-06-01'"
    )
    assert sent.requests == []


def test_the_new_version_refuses_a_sampling_setting_through_extra_body() -> None:
    m, sent = _model(api_version=NEW)
    with pytest.raises(
        InvalidRequestError, match=r"^top_k is not accepted by the Anthropic API version 2026-10-21"
    ):
        m.generate(prompt="Hi", provider_options={"anthropic": {"extra_body": {"top_k": 5}}})
    assert sent.requests == []


def test_the_new_version_refuses_temperature_with_thinking_on_too() -> None:
    # Under 2023-06-01 temperature is dropped with a warning when thinking is on; here it is refused.
    m, sent = _model(api_version=NEW)
    with pytest.raises(InvalidRequestError, match=r"^temperature is not accepted"):
        m.generate(prompt="Hi", temperature=1.0, reasoning={"budget_tokens": 2048}, max_output_tokens=4096)
    assert sent.requests == []


@pytest.mark.parametrize(
    ("version", "shown"), [("2026-10-22", "'2026-10-22'"), ("", "''"), (20261021, "20261021")]
)
def test_an_unknown_version_is_refused_with_the_known_ones(version: Any, shown: str) -> None:
    with pytest.raises(ConfigurationError) as info:  # at get_model: nothing can be sent
        _model(api_version=version)
    assert type(info.value) is ConfigurationError
    assert str(info.value) == (
        f"api_version= takes one of 2023-06-01, 2026-10-21 (the Anthropic API's known versions), got {shown}"
    )


@pytest.mark.parametrize(
    ("key", "echo", "shown"),
    [
        (FAKE_KEY, "invalid bearer token Bearer {key}", "invalid bearer token [REDACTED]"),
        # A key of no known shape: only the provider's own secrets can scrub it.
        ("modelport-fake-" + "q" * 24, "invalid token {key}", "invalid token [REDACTED]"),
    ],
    ids=["anthropic-shaped", "no-known-shape"],
)
def test_the_bearer_key_is_scrubbed_from_errors_and_reprs(key: str, echo: str, shown: str) -> None:
    echoed = {
        "type": "error",
        "error": {"type": "authentication_error", "message": echo.format(key=key)},
        "request_id": "req_011CWdMFGmmtqDd5uETFt98k",
    }
    sent = Sent(httpx.Response(401, json=echoed))
    m = modelport.get_model(
        "anthropic/claude-sonnet-4-5",
        api_key=key,
        api_version=NEW,
        transport=httpx.MockTransport(sent),
        max_retries=0,
    )
    with pytest.raises(ProviderAuthError) as info:
        m.generate(prompt="Hi")
    assert sent.requests[0].headers["authorization"] == f"Bearer {key}"
    assert "x-api-key" not in sent.requests[0].headers
    assert str(info.value) == (
        f"anthropic: {shown} (HTTP 401, authentication_error, request id req_011CWdMFGmmtqDd5uETFt98k)"
    )
    for text in (str(info.value), repr(info.value), repr(m), repr(m.provider), str(vars(info.value))):
        assert key not in text
        assert key[12:] not in text


def test_a_saved_batch_connection_keeps_the_version() -> None:
    m, _ = _model(api_version=NEW)
    assert m.provider.saved_connection() == {
        "api_version": NEW,
        "base_url": "https://api.anthropic.com",
    }


@pytest.mark.parametrize("provider", ["anthropic-vertex", "anthropic-bedrock"])
def test_the_cloud_providers_take_no_api_version(provider: str) -> None:
    # Their version goes in the body (vertex-2023-10-16, bedrock-2023-05-31), fixed by the cloud.
    with pytest.raises(ConfigurationError, match="api_version"):
        modelport.get_model(f"{provider}/claude-sonnet-4-5", api_version=NEW)
