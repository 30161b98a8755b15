"""Token counts are read, never coerced (issue 34, Low): a count answer whose ``input_tokens`` is a
string, a boolean, a negative number, a float or past 2**53 is a typed ``ProviderResponseError``,
on every provider that counts (Anthropic took ``int()`` of anything; the Responses API kept the
value as it came). The check lives in the core's ``TokenCount``, so a third-party plugin gets it too.

The good shapes are the recorded ones: ``{"input_tokens": 1114}`` (Anthropic,
``count-tokens-cached-prefix``), ``{"object": "response.input_tokens", "input_tokens": 16}``
(Responses, ``count-tokens``), ``{"totalTokens": 2}`` (Gemini).
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import ProviderResponseError
from modelport.provider import TokenCount

KEYS = {
    "anthropic": "sk-ant-test-0123456789abcdefghij",
    "openai-responses": "sk-test-0123456789abcdefghijklmn",
    "google": "test-key-not-a-secret",
}
MODELS = {
    "anthropic": "anthropic/claude-sonnet-4-5",
    "openai-responses": "openai-responses/gpt-4.1",
    "google": "google/gemini-2.5-flash",
}
FIELD = {"anthropic": "input_tokens", "openai-responses": "input_tokens", "google": "totalTokens"}
RECORDED = {
    "anthropic": {"input_tokens": 1114},
    "openai-responses": {"object": "response.input_tokens", "input_tokens": 16},
    "google": {"totalTokens": 2},
}
NAMES = {"anthropic": "anthropic", "openai-responses": "openai-responses", "google": "google"}


def counted(provider: str, body: Any, *, run_async: bool = False) -> TokenCount:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=body))
    model = modelport.get_model(MODELS[provider], api_key=KEYS[provider], transport=transport, max_retries=0)
    if run_async:
        return asyncio.run(model.acount_tokens(prompt="Hello"))
    return model.count_tokens(prompt="Hello")


@pytest.mark.parametrize("provider", list(MODELS))
def test_the_recorded_counts_are_read(provider: str) -> None:
    expected = {"anthropic": 1114, "openai-responses": 16, "google": 2}[provider]
    assert counted(provider, RECORDED[provider]).input_tokens == expected


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("12", "str"),
        (True, "True"),
        (-5, "-5"),
        (12.0, "float"),
        (2**53, "9007199254740992"),
        (None, "None"),
        ([12], "list"),
    ],
)
@pytest.mark.parametrize("provider", ["anthropic", "openai-responses"])
@pytest.mark.parametrize("run_async", [False, True])
def test_a_count_that_is_no_count_is_a_response_error(
    provider: str, value: Any, shown: str, run_async: bool
) -> None:
    body = {**RECORDED[provider], FIELD[provider]: value}
    with pytest.raises(ProviderResponseError) as info:
        counted(provider, body, run_async=run_async)
    assert type(info.value) is ProviderResponseError
    assert str(info.value) == (
        f"{NAMES[provider]}: the response could not be decoded: "
        f"ValueError: input_tokens must be a non-negative integer, got {shown}"
    )


@pytest.mark.parametrize("value", ["12", True, -5, 12.0])
def test_gemini_refuses_the_same_counts(value: Any) -> None:
    with pytest.raises(ProviderResponseError) as info:
        counted("google", {"totalTokens": value})
    assert type(info.value) is ProviderResponseError
    assert str(info.value) == (
        "google: the response could not be decoded: ValueError: totalTokens must be a non-negative integer"
    )


def test_a_plugin_cannot_build_a_count_that_is_no_count() -> None:
    assert TokenCount(input_tokens=0, cached_input_tokens=0) == TokenCount(0, 0)
    with pytest.raises(ValueError, match=r"^cached_input_tokens must be a non-negative integer, got -1$"):
        TokenCount(input_tokens=3, cached_input_tokens=-1)
    with pytest.raises(ValueError, match=r"^input_tokens must be a non-negative integer, got True$"):
        TokenCount(input_tokens=True)
