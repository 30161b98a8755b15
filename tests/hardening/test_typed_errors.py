"""Issue 14 item 6: no untyped exception escapes, and invalid input never reaches the network.

(``generate()`` after ``close()`` is covered with the client lifecycle, not here.)
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import (
    ConfigurationError,
    InvalidRequestError,
    ProviderResponseError,
    ProviderToolError,
    UnknownModelError,
)

KEY = "test-key-not-a-secret"
MODEL_ID = "google/gemini-2.5-flash"
OK = {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}


class Counting(httpx.MockTransport):
    """Records every request; answers ``body`` (JSON) with 200."""

    def __init__(self, body: Any = OK) -> None:
        self.requests: list[httpx.Request] = []

        def handle(request: httpx.Request) -> httpx.Response:
            self.requests.append(request)
            content = body if isinstance(body, bytes) else json.dumps(body).encode()
            return httpx.Response(200, content=content, headers={"content-type": "application/json"})

        super().__init__(handle)


def model(transport: httpx.MockTransport, model_id: str = MODEL_ID, **options: Any) -> modelport.Model:
    options.setdefault("api_key", KEY)
    return modelport.get_model(model_id, transport=transport, max_retries=0, **options)


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": 1}
    for _ in range(depth - 1):
        value = {"x": value}
    return value


# --------------------------------------------------------------------------- request side


def test_a_time_range_that_overflows_is_a_provider_tool_error() -> None:
    transport = Counting()
    tool = {
        "type": "provider",
        "id": "google.google_search",
        "args": {
            "timeRangeFilter": {"startTime": "2024-01-01T00:00:00Z", "endTime": "9999-12-31T23:59:59-23:59"}
        },
    }
    with pytest.raises(ProviderToolError) as info:
        model(transport).generate(prompt="x", tools=[tool])
    assert type(info.value) is ProviderToolError
    assert str(info.value) == (
        "provider tool 'google.google_search': invalid arguments: timeRangeFilter.endTime: Value error, "
        "'9999-12-31T23:59:59-23:59' is outside the years 1 to 9999 once in UTC"
    )
    assert transport.requests == []


@pytest.mark.parametrize(
    ("where", "kwargs"),
    [
        (
            "messages.1.provider_metadata",
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {
                        "role": "assistant",
                        "content": "yo",
                        "provider_metadata": {"google": {"parts": [{"text": "yo", "x": nested(500)}]}},
                    },
                ]
            },
        ),
        (
            "messages.1.content.0.args",
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {
                        "role": "assistant",
                        "content": [{"type": "tool-call", "id": "c", "name": "f", "args": nested(500)}],
                    },
                ]
            },
        ),
        ("provider_options", {"prompt": "x", "provider_options": {"google": nested(500)}}),
        (
            "tools.0",
            {
                "prompt": "x",
                "tools": [
                    {"type": "function", "name": "f", "parameters": {"type": "object", "x": nested(500)}}
                ],
            },
        ),
    ],
)
def test_values_nested_500_deep_are_invalid_requests(where: str, kwargs: dict[str, Any]) -> None:
    transport = Counting()
    expected = f"invalid request: request: Value error, {where} is nested deeper than 128 levels"
    with pytest.raises(InvalidRequestError) as info:
        model(transport).generate(**kwargs)
    assert (type(info.value), str(info.value)) == (InvalidRequestError, expected)
    with pytest.raises(InvalidRequestError) as ainfo:
        asyncio.run(model(transport).agenerate(**kwargs))
    assert str(ainfo.value) == expected
    assert transport.requests == []


def test_nesting_up_to_the_bound_is_accepted() -> None:
    transport = Counting()
    model(transport).generate(
        prompt="x", tools=[{"type": "function", "name": "f", "parameters": nested(128)}]
    )
    assert len(transport.requests) == 1


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (None, "embed values must be a string or a list of strings, got NoneType"),
        (5, "embed values must be a string or a list of strings, got int"),
        ({"a": 1}, "embed values must be a string or a list of strings, got dict"),
        ({"a", "b"}, "embed values must be a string or a list of strings, got set"),
        (b"bytes", "embed values must be a string or a list of strings, got bytes"),
        (["ok", None], "embed values must be strings, got NoneType"),
        ([], "embed needs at least one value"),
    ],
)
def test_embed_rejects_values_that_are_not_strings(values: Any, message: str) -> None:
    transport = Counting()
    with pytest.raises(InvalidRequestError) as info:
        model(transport).embed(values)
    assert (type(info.value), str(info.value)) == (InvalidRequestError, message)
    with pytest.raises(InvalidRequestError):
        asyncio.run(model(transport).aembed(values))
    assert transport.requests == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"output_dimensionality": 10**400},
            "output_dimensionality must be a positive integer (at most 9007199254740991)",
        ),
        ({"task_type": 5}, "task_type must be a string, got int"),
        (
            {"provider_options": {"google": 5}},
            "provider_options must map provider ids to mappings of options, e.g. {'google': {...}}",
        ),
    ],
)
def test_embed_rejects_bad_options(kwargs: dict[str, Any], message: str) -> None:
    transport = Counting()
    with pytest.raises(InvalidRequestError) as info:
        model(transport).embed("x", **kwargs)
    assert str(info.value) == message
    assert transport.requests == []


# --------------------------------------------------------------------------- get_model


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"api_key": 12345}, "api_key must be a string, got int"),
        ({"api_key": b"key"}, "api_key must be a string, got bytes"),
        ({"base_url": 123}, "base_url must be a string, got int"),
        (
            {"base_url": "ftp://example.com/v1"},
            "base_url must be an http:// or https:// URL with a host (scheme: 'ftp')",
        ),
        (
            {"base_url": "example.com/v1"},
            "base_url must be an http:// or https:// URL with a host (scheme: 'none')",
        ),
        (
            {"base_url": "https:///v1"},
            "base_url must be an http:// or https:// URL with a host (scheme: 'https')",
        ),
        ({"base_url": "https://example.com/v1?x=1"}, "base_url cannot have a query or fragment ('?' or '#')"),
        (
            {"base_url": "https://example.com/v1\n"},
            "base_url cannot contain '\\n' (whitespace or control characters)",
        ),
        ({"http_client": "x"}, "http_client must be an httpx.Client, got str"),
        ({"async_http_client": "x"}, "async_http_client must be an httpx.AsyncClient, got str"),
        ({"transport": "x"}, "transport must be an httpx.BaseTransport or httpx.AsyncBaseTransport, got str"),
        ({"timeout": "5"}, "timeout must be a positive number of seconds or an httpx.Timeout, got str"),
        ({"timeout": -1}, "timeout must be a positive number of seconds or an httpx.Timeout, got -1"),
        ({"timeout": 0}, "timeout must be a positive number of seconds or an httpx.Timeout, got 0"),
        (
            {"timeout": float("nan")},
            "timeout must be a positive number of seconds or an httpx.Timeout, got nan",
        ),
        ({"timeout": True}, "timeout must be a positive number of seconds or an httpx.Timeout, got bool"),
    ],
)
def test_get_model_checks_the_types_of_its_keywords(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        modelport.get_model(MODEL_ID, **kwargs)
    assert (type(info.value), str(info.value)) == (ConfigurationError, message)


def test_clients_in_the_wrong_keyword_are_named() -> None:
    async_client, sync_client = httpx.AsyncClient(), httpx.Client()
    try:
        with pytest.raises(ConfigurationError) as info:
            modelport.get_model(MODEL_ID, http_client=async_client)  # type: ignore[arg-type]
        assert str(info.value) == (
            "http_client must be an httpx.Client; pass an httpx.AsyncClient as async_http_client="
        )
        with pytest.raises(ConfigurationError) as info:
            modelport.get_model(MODEL_ID, async_http_client=sync_client)  # type: ignore[arg-type]
        assert str(info.value) == (
            "async_http_client must be an httpx.AsyncClient; pass an httpx.Client as http_client="
        )
    finally:
        sync_client.close()
        asyncio.run(async_client.aclose())


def test_valid_connection_keywords_are_accepted() -> None:
    with httpx.Client() as client:
        modelport.get_model(
            MODEL_ID, api_key=KEY, base_url="http://127.0.0.1:8080/v1beta", http_client=client, timeout=5
        )
    modelport.get_model(MODEL_ID, timeout=httpx.Timeout(3.0), transport=httpx.MockTransport(lambda r: None))  # type: ignore[arg-type,return-value]


def test_a_control_character_in_a_model_id_is_a_configuration_error() -> None:
    with pytest.raises(UnknownModelError) as info:
        modelport.get_model("google/gemini\x00-2.5-flash", api_key=KEY)
    assert str(info.value) == (
        "model id 'google/gemini\\x00-2.5-flash': a model name cannot contain '\\x00' "
        "(no query, fragment, percent, backslash, whitespace or control characters)"
    )


# --------------------------------------------------------------------------- response side


def test_an_embedding_value_too_large_for_a_float_is_a_response_error() -> None:
    body = b'{"embedding": {"values": [0.5, ' + b"9" * 400 + b"]}}"
    with pytest.raises(ProviderResponseError) as info:
        model(Counting(body)).embed("x")
    assert str(info.value) == "google: malformed embedding response: int too large to convert to float"


def test_an_infinite_vertex_token_count_is_a_response_error() -> None:
    body = b'{"predictions": [{"embeddings": {"values": [0.5], "statistics": {"token_count": 1e999}}}]}'
    vertex = model(Counting(body), "google-vertex/text-embedding-005", api_key=None, token="t", project="p")
    with pytest.raises(ProviderResponseError) as info:
        vertex.embed("x")
    assert str(info.value) == (
        "google-vertex: the response body is not valid JSON: a number is too large for a double"
    )
