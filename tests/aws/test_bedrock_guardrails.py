"""Guardrails on ``bedrock``: ``guardrailConfig`` is a raw Converse field
(``provider_options``), and the guardrail's ``trace`` comes back in
``provider_metadata["bedrock"]["trace"]``, on pydantic-ai's recording of a call with trace enabled."""

from __future__ import annotations

import json

import httpx
from modelport_aws._stream import ConverseStream

import modelport
from tests.aws.replay import answering, keys, recorded


def test_the_guardrail_trace_is_provider_metadata() -> None:
    sent, answer = recorded("test_bedrock_model_guardrail_config.yaml")
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "bedrock/us.amazon.nova-micro-v1:0", transport=answering(answer, seen=seen), **keys()
    )
    config = {"guardrailIdentifier": "xbgw7g293v7o", "guardrailVersion": "DRAFT", "trace": "enabled"}
    result = model.generate(
        messages=[
            {"role": "system", "content": "You are a helpful chatbot."},
            {"role": "user", "content": "What is the capital of France?"},
        ],
        provider_options={"bedrock": {"inferenceConfig": {}, "guardrailConfig": config}},
    )
    assert json.loads(seen[0].content) == sent
    trace = result.provider_metadata["bedrock"]["trace"]["guardrail"]
    assert trace == answer["trace"]["guardrail"]
    assert trace["actionReason"] == "No action."
    coverage = trace["inputAssessment"]["xbgw7g293v7o"]["invocationMetrics"]["guardrailCoverage"]
    assert coverage == {"textCharacters": {"guarded": 30, "total": 30}}
    output = trace["outputAssessments"]["xbgw7g293v7o"][0]["invocationMetrics"]["guardrailCoverage"]
    assert output["textCharacters"]["guarded"] == 345
    assert result.provider_metadata["bedrock"]["metrics"] == {"latencyMs": 1257}
    assert (result.finish_reason, result.usage.input_tokens) == ("stop", 13)


def test_a_streamed_trace_arrives_with_the_usage_in_metadata() -> None:
    # The stream's metadata frame carries the trace beside usage and metrics (the recorded trace).
    _, answer = recorded("test_bedrock_model_guardrail_config.yaml")
    decoder = ConverseStream()
    for frame in (
        {"event": "messageStop", "data": {"stopReason": "end_turn"}},
        {
            "event": "metadata",
            "data": {"usage": answer["usage"], "metrics": answer["metrics"], "trace": answer["trace"]},
        },
    ):
        assert list(decoder.feed(frame)) == []
    (finish,) = list(decoder.finish())
    assert finish.provider_metadata == {"bedrock": {"metrics": {"latencyMs": 1257}, "trace": answer["trace"]}}
