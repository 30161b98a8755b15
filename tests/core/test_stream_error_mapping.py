"""One mapping for a provider error inside a stream, whoever sends it (docs/errors.md).

An error object in the SSE body raises the class its type maps to (``modelport.http.ERROR_TYPES``;
the HTTP status decides when the object carries one), with that status or ``None``, never an
invented 500, and ``partial`` set to what had arrived. ``StreamInterruptedError`` is only a broken
transport. A decoder's ``error`` event is typed by the same table.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import modelport
from modelport import testing
from modelport.errors import (
    ProviderAuthError,
    ProviderError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
)
from modelport.events import ErrorEvent, StreamStartEvent, TextDeltaEvent, TextStartEvent
from modelport.http import ERROR_TYPES, error_class
from tests.openai.fakes import SSE, model, response

TEXT = {"id": "gen-1", "model": "m", "choices": [{"index": 0, "delta": {"content": "Hello"}}]}


def stream_ending_in(error_block: str) -> Any:
    return response(200, f"data: {json.dumps(TEXT)}\n\n{error_block}", SSE)


# (what the server sent after one text chunk, class, status_code, provider_status)
CASES = [
    # OpenRouter documents mid-stream errors with a string code and no status (MOCK: from its docs).
    (
        'data: {"id":"gen-1","error":{"code":"server_error","message":"Provider disconnected"},'
        '"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}\n\n',
        ProviderOverloadedError,
        None,
        "server_error",
    ),
    # Anthropic-style error event (MOCK: the shape of its documented overloaded_error event).
    (
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
        ProviderOverloadedError,
        None,
        "overloaded_error",
    ),
    (
        'data: {"error":{"message":"Rate limit reached","type":"rate_limit_error"}}\n\n',
        ProviderRateLimitError,
        None,
        "rate_limit_error",
    ),
    (
        'data: {"error":{"message":"bad","type":"invalid_request_error","code":null}}\n\n',
        ProviderRequestError,
        None,
        "invalid_request_error",
    ),
    # A type nobody documents: the base class, status None (MOCK).
    (
        'data: {"error":{"message":"strange","type":"flux_capacitor"}}\n\n',
        ProviderError,
        None,
        "flux_capacitor",
    ),
    # With its own status the status decides (real OpenRouter and Groq shapes, see the corpus).
    (
        'data: {"id":"gen-1","error":{"code":400,"message":"Token limit reached"}}\n\n',
        ProviderRequestError,
        400,
        None,
    ),
    (
        'data: {"error":{"message":"busy","type":"invalid_request_error","status_code":503}}\n\n',
        ProviderOverloadedError,
        503,
        "invalid_request_error",
    ),
]


@pytest.mark.parametrize(("sent", "cls", "status", "provider_status"), CASES)
def test_an_error_object_in_the_stream_maps_by_the_table(
    sent: str, cls: type[ProviderError], status: int | None, provider_status: str | None
) -> None:
    m, _ = model([stream_ending_in(sent)], "openrouter/some/model", max_retries=0)
    with pytest.raises(ProviderError) as info:
        m.stream(prompt="Hi").result()
    error = info.value
    assert type(error) is cls
    assert (error.status_code, error.provider_status) == (status, provider_status)
    assert error.partial is not None and error.partial.text == "Hello"
    assert "HTTP 500" not in str(error)


def test_an_error_object_first_is_retried_when_its_type_is_transient(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.openai.fakes import no_sleep, sse

    no_sleep(monkeypatch)
    failing = response(200, 'data: {"error":{"type":"server_error","message":"hiccup"}}\n\n', SSE)
    m, recorder = model(
        [failing, sse([TEXT, {**TEXT, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}])]
    )
    assert m.stream(prompt="Hi").result().text == "Hello"
    assert len(recorder.requests) == 2


def test_a_decoder_error_event_maps_by_the_same_table(scripted: testing.Script) -> None:
    scripted.streams.append(
        [
            StreamStartEvent(),
            TextStartEvent(id="0"),
            TextDeltaEvent(id="0", delta="so far"),
            ErrorEvent(error={"message": "slow down", "type": "rate_limit_error"}),
        ]
    )
    with pytest.raises(ProviderRateLimitError) as info:
        modelport.get_model("scripted/m", script=scripted).stream(prompt="x").result()
    assert info.value.status_code is None
    assert info.value.partial is not None and info.value.partial.text == "so far"


@pytest.mark.parametrize(
    ("status", "kinds", "cls"),
    [
        (None, ["UNAVAILABLE"], ProviderOverloadedError),
        (None, ["RESOURCE_EXHAUSTED"], ProviderRateLimitError),
        (None, ["insufficient_quota"], ProviderQuotaError),
        (None, ["PERMISSION_DENIED"], ProviderAuthError),
        (None, [None, "not-a-type", "INVALID_ARGUMENT"], ProviderRequestError),
        (None, [], ProviderError),
        (429, ["insufficient_quota"], ProviderQuotaError),
        (429, ["rate_limit_exceeded"], ProviderRateLimitError),
        (503, ["invalid_request_error"], ProviderOverloadedError),
        (401, [], ProviderAuthError),
        (418, ["server_error"], ProviderRequestError),
    ],
)
def test_error_class_follows_the_status_then_the_type(
    status: int | None, kinds: list[Any], cls: type[ProviderError]
) -> None:
    assert error_class(status, kinds) is cls


def test_every_class_of_the_table_is_a_provider_error() -> None:
    assert set(ERROR_TYPES.values()) == {
        ProviderOverloadedError,
        ProviderRateLimitError,
        ProviderQuotaError,
        ProviderAuthError,
        ProviderRequestError,
    }
