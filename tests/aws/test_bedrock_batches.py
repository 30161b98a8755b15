"""Batches on ``bedrock`` and ``anthropic-bedrock``: refused before any I/O, the error saying why.
Bedrock's batch inference (CreateModelInvocationJob) reads and writes S3 buckets the caller owns,
runs under an IAM service role and has a minimum of records per job: it does not fit the batch
contract without an S3 client (docs/bedrock.md, "Batches")."""

from __future__ import annotations

import httpx
import pytest
from modelport_aws.provider import BATCH_REFUSAL

import modelport
from modelport.errors import InvalidRequestError
from tests.aws.replay import answering, keys

MODELS = (
    "bedrock/us.amazon.nova-micro-v1:0",
    "anthropic-bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0",
)


@pytest.mark.parametrize("model_id", MODELS)
def test_a_batch_is_refused_before_any_request_saying_why(model_id: str) -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(model_id, transport=answering({}, seen=seen), **keys())
    provider = model_id.split("/")[0]
    with pytest.raises(InvalidRequestError) as info:
        model.submit_batch([{"prompt": "Hi"}, {"prompt": "Bye"}])
    assert str(info.value) == f"provider {provider!r} has no batch API: {BATCH_REFUSAL}"
    for why in ("S3 buckets you own", "IAM service role", "minimum of records", "no S3 client"):
        assert why in str(info.value)
    with pytest.raises(InvalidRequestError, match="has no batch API: Bedrock batch inference"):
        model.get_batch("arn:aws:bedrock:us-east-1:123456789012:model-invocation-job/abc123")
    assert seen == []

