"""``count_tokens`` on ``bedrock``: Bedrock's CountTokens API (``POST /model/{id}/count-tokens``)
takes the Converse body's messages, system and tools in ``input.converse``; pydantic-ai's
recordings of it (a count of 375, and a 400 for an unknown model)."""

from __future__ import annotations

import json

import httpx
import pytest

import modelport
from modelport.errors import ProviderRequestError
from tests.aws.replay import answering, keys, recorded

WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "Get the weather for a location",
    "parameters": {"type": "object", "properties": {"location": {"type": "string"}}},
}


def test_a_count_sends_the_converse_fields_and_reads_input_tokens() -> None:
    sent, answer = recorded("test_bedrock_count_tokens_tool_config.yaml")
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "bedrock/anthropic.claude-sonnet-4-20250514-v1:0", transport=answering(answer, seen=seen), **keys()
    )
    count = model.count_tokens(
        prompt="What is the weather in Paris?",
        tools=[WEATHER],
        max_output_tokens=100,
        temperature=0.5,
        provider_options={"bedrock": {"system": [], "toolConfig": {"toolChoice": {"auto": {}}}}},
    )
    assert count.input_tokens == 375 and count.cached_input_tokens is None
    (request,) = seen
    assert str(request.url) == (
        "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-20250514-v1%3A0/count-tokens"
    )
    assert json.loads(request.content) == sent  # no inferenceConfig: CountTokens takes none
    assert request.headers["authorization"].startswith("AWS4-HMAC-SHA256 ")


def test_a_count_for_an_unknown_model_is_a_request_error() -> None:
    _, answer = recorded("test_bedrock_count_tokens_error.yaml")
    model = modelport.get_model(
        "bedrock/does-not-exist-model-v1:0", transport=answering(answer, 400), max_retries=0, **keys()
    )
    with pytest.raises(ProviderRequestError) as info:
        model.count_tokens(prompt="hello")
    assert info.value.status_code == 400
    assert "The provided model identifier is invalid." in str(info.value)
