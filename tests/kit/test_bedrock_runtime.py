"""What the providers on the Bedrock runtime share (:mod:`modelport.http.bedrock_runtime`): one
definition each, which ``bedrock`` (Converse) and ``anthropic-bedrock`` (InvokeModel) both use."""

from __future__ import annotations

import pytest
from modelport_anthropic import bedrock as claude_bedrock
from modelport_anthropic.bedrock import BedrockAnthropicProvider, bedrock_model_path
from modelport_aws import provider as converse_bedrock
from modelport_aws._request import model_path as converse_model_path
from modelport_aws.provider import BedrockProvider

from modelport.errors import InvalidRequestError
from modelport.http import bedrock_runtime
from modelport.http.bedrock_runtime import (
    BATCH_REFUSAL,
    BEARER_ENV,
    BEDROCK_SERVICE,
    BedrockTokenCount,
    model_path,
)
from modelport.provider import TokenCount

ARN = "arn:aws:bedrock:us-east-1::foundation-model/amazon.titan-embed-text-v2:0"
PROVIDERS = (BedrockProvider, BedrockAnthropicProvider)


def test_the_model_id_is_percent_encoded_whole() -> None:
    assert model_path("us.amazon.nova-micro-v1:0", "converse", provider="bedrock") == (
        "/model/us.amazon.nova-micro-v1%3A0/converse"
    )
    assert model_path(ARN, "invoke", provider="bedrock") == (
        "/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A%3Afoundation-model%2Famazon.titan-embed-text-v2%3A0/invoke"
    )


def test_each_provider_picks_its_own_actions() -> None:
    haiku = "us.anthropic.claude-haiku-4-5-20251001-v1:0"
    assert converse_model_path(haiku, stream=True) == (
        "/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/converse-stream"
    )
    assert bedrock_model_path(haiku, stream=True) == (
        "/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke-with-response-stream"
    )
    assert bedrock_model_path(haiku, stream=False, action="count-tokens") == (
        "/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/count-tokens"
    )


@pytest.mark.parametrize(
    "model_id", ["", " us.amazon.nova-micro-v1:0", "us.amazon.nova-micro-v1:0\n", "a\x00b"]
)
def test_a_bad_model_id_is_refused_naming_the_provider(model_id: str) -> None:
    with pytest.raises(InvalidRequestError) as info:
        model_path(model_id, "converse", provider="anthropic-bedrock")
    assert str(info.value) == f"anthropic-bedrock: not a model id: {model_id!r}"
    with pytest.raises(InvalidRequestError, match=r"^bedrock: not a model id"):
        converse_model_path(model_id, stream=False)


def test_the_names_both_providers_use() -> None:
    assert BEDROCK_SERVICE == "bedrock"
    assert BEARER_ENV == "AWS_BEARER_TOKEN_BEDROCK"
    assert BATCH_REFUSAL.startswith("Bedrock batch inference (CreateModelInvocationJob) reads its requests")
    assert BATCH_REFUSAL.endswith("so write the JSONL to S3 and start the job with boto3")
    for provider in PROVIDERS:
        assert provider.signing_service == "bedrock"
        assert provider.api_key_env == ("AWS_BEARER_TOKEN_BEDROCK",)
        assert provider.capabilities.batch is False
        assert provider.unsupported_reasons == {"batch": BATCH_REFUSAL}


def test_the_plugins_names_are_the_shared_ones_not_copies() -> None:
    for module in (converse_bedrock, claude_bedrock):
        assert module.BATCH_REFUSAL is bedrock_runtime.BATCH_REFUSAL
        assert module.BEDROCK_SERVICE is bedrock_runtime.BEDROCK_SERVICE
        assert module.BEARER_ENV is bedrock_runtime.BEARER_ENV


def test_both_providers_decode_count_tokens_with_the_mixin() -> None:
    for provider in PROVIDERS:
        assert provider.decode_token_count is BedrockTokenCount.decode_token_count
    decoder = BedrockTokenCount()
    assert decoder.decode_token_count({"inputTokens": 7}, None) == TokenCount(input_tokens=7)  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        decoder.decode_token_count({"input_tokens": 7}, None)  # type: ignore[arg-type]
