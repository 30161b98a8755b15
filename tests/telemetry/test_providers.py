"""Span attributes across providers: the GenAI provider names, the server, and no credential anywhere."""

from __future__ import annotations

import json

import pytest

from modelport import ProviderAuthError
from tests.openai import corpus, fakes

from .conftest import Otel


@pytest.mark.parametrize(
    ("model_id", "options", "provider_name", "server"),
    [
        ("openai/gpt-4o-mini", {}, "openai", {"server.address": "api.openai.com", "server.port": 443}),
        ("mistral/mistral-small", {}, "mistral_ai", {"server.address": "api.mistral.ai", "server.port": 443}),
        ("xai/grok-3", {}, "x_ai", {"server.address": "api.x.ai", "server.port": 443}),
        (
            "openai-compatible/my-model",
            {"base_url": "http://127.0.0.1:8000/v1"},
            "openai-compatible",
            {"server.address": "127.0.0.1", "server.port": 8000},
        ),
    ],
)
def test_provider_name_and_server(
    otel: Otel, model_id: str, options: dict[str, str], provider_name: str, server: dict[str, object]
) -> None:
    model, _ = fakes.model([fakes.response(200, fakes.completion("Hi"))], model_id, **options)
    model.generate(prompt="Hi", max_output_tokens=5)
    span = otel.span()
    provider_id, name = model_id.split("/")
    assert span.name == f"chat {name}"
    attributes = dict(span.attributes or {})
    assert {
        k: attributes[k] for k in ("gen_ai.provider.name", "modelport.provider", "gen_ai.request.model")
    } == {
        "gen_ai.provider.name": provider_name,
        "modelport.provider": provider_id,
        "gen_ai.request.model": name,
    }
    assert {k: v for k, v in attributes.items() if k.startswith("server.")} == server
    assert attributes["gen_ai.request.max_tokens"] == 5
    assert attributes["gen_ai.response.finish_reasons"] == ("stop",)
    assert attributes["gen_ai.response.id"] == "chatcmpl-1"


def test_usage_attributes_of_a_prompt_cache_write(otel: Otel) -> None:
    # The recorded first call of a cached prompt: 4012 of its 4020 input tokens written to the cache.
    name = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_prompt_cache__test_openai_chat_prompt_cache_e2e.yaml"
    write = corpus.cassette(name)[0]
    model, _ = fakes.model([fakes.response(200, write.body)], "openai/gpt-5.6-sol")
    model.generate(prompt="Hi")
    attributes = dict(otel.span().attributes or {})
    assert {k: v for k, v in attributes.items() if k.startswith("gen_ai.usage.")} == {
        "gen_ai.usage.input_tokens": 4020,
        "gen_ai.usage.output_tokens": 4,
        "gen_ai.usage.cache_read.input_tokens": 0,
        "gen_ai.usage.cache_creation.input_tokens": 4012,
        "gen_ai.usage.reasoning.output_tokens": 0,
    }


def test_no_credential_in_a_failed_span(otel: Otel) -> None:
    body = {"error": {"message": f"Incorrect API key provided: {fakes.KEY}", "type": "invalid_request_error"}}
    model, _ = fakes.model([fakes.response(401, body)])
    with pytest.raises(ProviderAuthError):
        model.generate(prompt="Hi")
    span = otel.span()
    assert dict(span.attributes or {})["error.type"] == "ProviderAuthError"
    dumped = span.to_json()
    assert fakes.KEY not in dumped
    assert "[REDACTED]" in json.loads(dumped)["status"]["description"]
