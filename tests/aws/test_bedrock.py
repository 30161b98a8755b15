"""The ``bedrock`` provider (modelport-aws) on recorded Bedrock traffic (tests/corpus/bedrock):
usage with cache counts, SigV4 on every request, credentials in no error or repr, a Bedrock API
key as Bearer, what is refused before any I/O, and a cut stream. Credentials are built at run time.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from modelport_aws._frames import merge_frames
from modelport_aws._request import build_request

import modelport
from modelport.errors import (
    InvalidRequestError,
    MissingCredentialsError,
    ProviderAuthError,
    ProviderRateLimitError,
    StreamInterruptedError,
)
from modelport.types import Request
from tests import recordings
from tests.aws.replay import ACCESS, MODEL, SECRET, TOKEN, answering, keys, recorded


@pytest.mark.parametrize(("index", "read", "write"), [(0, 0, 1322), (1, 1322, 0)])
def test_usage_counts_the_cache_in_the_input(index: int, read: int, write: int) -> None:
    _, body = recorded("test_bedrock_cache_write_and_read.yaml", index)
    model = modelport.get_model(MODEL, transport=answering(body), max_retries=0, **keys())
    result = model.generate(prompt="What is 7 * 3?")
    assert result.text == "21"
    usage = result.usage
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (2 + 1322, 5, 1329)
    assert (usage.cache_read_input_tokens, usage.cache_write_input_tokens) == (read, write)
    assert result.provider_metadata["bedrock"]["metrics"]["latencyMs"] == (2023, 1990)[index]


def test_every_request_is_signed_for_the_region(monkeypatch: pytest.MonkeyPatch) -> None:
    _, body = recorded("test_bedrock_model.yaml")
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "bedrock/us.amazon.nova-micro-v1:0",
        transport=answering(body, seen=seen),
        **keys(aws_session_token=TOKEN),
    )
    assert model.generate(prompt="Hello!").finish_reason == "stop"
    (request,) = seen
    assert (
        str(request.url)
        == "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.amazon.nova-micro-v1%3A0/converse"
    )
    auth = request.headers["authorization"]
    assert auth.startswith(f"AWS4-HMAC-SHA256 Credential={ACCESS}/")
    assert (
        "/us-east-1/bedrock/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date;x-amz-security-token,"
        in auth
    )
    assert request.headers["x-amz-security-token"] == TOKEN


def test_the_standard_chain_supplies_keys_and_region(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_REGION", "eu-west-3")
    _, body = recorded("test_bedrock_model.yaml")
    seen: list[httpx.Request] = []
    model = modelport.get_model("bedrock/eu.amazon.nova-micro-v1:0", transport=answering(body, seen=seen))
    model.generate(prompt="Hello!")
    assert seen[0].url.host == "bedrock-runtime.eu-west-3.amazonaws.com"
    assert "/eu-west-3/bedrock/aws4_request" in seen[0].headers["authorization"]


def test_a_bedrock_api_key_is_sent_as_bearer(monkeypatch: pytest.MonkeyPatch) -> None:
    key = "ABSK" + "c" * 40
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", key)
    _, body = recorded("test_bedrock_model.yaml")
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "bedrock/us.amazon.nova-micro-v1:0", region="us-east-1", transport=answering(body, seen=seen)
    )
    model.generate(prompt="Hello!")
    assert seen[0].headers["authorization"] == f"Bearer {key}"


def test_no_credentials_is_missing_credentials_before_any_request() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "bedrock/us.amazon.nova-micro-v1:0", region="us-east-1", transport=answering({}, seen=seen)
    )
    with pytest.raises(MissingCredentialsError):
        model.generate(prompt="Hello!")
    assert seen == []


def test_an_error_that_echoes_the_credentials_names_none_of_them() -> None:
    echoed = {"message": f"The security token {TOKEN} for {ACCESS} with {SECRET} is invalid."}
    headers = {
        "x-amzn-errortype": "UnrecognizedClientException:http://internal.amazon.com/coral/",
        "x-amzn-requestid": "r-1",
    }
    model = modelport.get_model(
        MODEL, transport=answering(echoed, 403, headers), max_retries=0, **keys(aws_session_token=TOKEN)
    )
    with pytest.raises(ProviderAuthError) as info:
        model.generate(prompt="Hi")
    error = info.value
    assert (error.status_code, error.provider_status, error.request_id) == (
        403,
        "UnrecognizedClientException",
        "r-1",
    )
    for text in (str(error), repr(error), error.body_excerpt or "", str(error.details), repr(model)):
        for value in (ACCESS, SECRET, TOKEN):
            assert value not in text


def test_throttling_is_a_retryable_rate_limit() -> None:
    body = {"message": "Too many requests, please wait before trying again."}  # MOCK: none recorded
    headers = {"x-amzn-errortype": "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/"}
    model = modelport.get_model(MODEL, transport=answering(body, 429, headers), max_retries=0, **keys())
    with pytest.raises(ProviderRateLimitError) as info:
        model.generate(prompt="Hi")
    assert info.value.retryable and info.value.provider_status == "ThrottlingException"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"top_k": 5}, "top_k is not a Converse setting"),
        ({"seed": 1}, "seed is not supported"),
        ({"tool_choice": "none", "tools": [{"type": "function", "name": "f"}]}, 'no tool_choice "none"'),
        (
            {"tool_choice": {"type": "tool", "name": "g"}, "tools": [{"type": "function", "name": "f"}]},
            "not in .tools.: g",
        ),
        ({"provider_options": {"bedrock": {"messages": []}}}, "cannot set 'messages'"),
    ],
)
def test_what_converse_cannot_carry_is_refused_before_any_request(
    change: dict[str, Any], message: str
) -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(MODEL, transport=answering({}, seen=seen), **keys())
    with pytest.raises(InvalidRequestError, match=message):
        model.generate(prompt="Hi", **change)
    assert seen == []


def test_turns_of_one_role_are_joined_and_tool_results_are_user_turns() -> None:
    request = Request.model_validate(
        {
            "messages": [
                {"role": "user", "content": "a"},
                {"role": "user", "content": "b"},
                {
                    "role": "assistant",
                    "content": [{"type": "tool-call", "id": "t1", "name": "f", "args": {"x": 1}}],
                },
                {
                    "role": "tool",
                    "content": [
                        {
                            "type": "tool-result",
                            "call_id": "t1",
                            "name": "f",
                            "output": {"y": 2},
                            "is_error": True,
                        }
                    ],
                },
            ],
            "tools": [{"type": "function", "name": "f"}],
            "tool_choice": {"type": "tool", "name": "f"},
            "stop_sequences": ["END"],
        }
    )
    spec = build_request("m", request, stream=True)
    assert spec.url == "/model/m/converse-stream"
    assert spec.body["messages"] == [
        {"role": "user", "content": [{"text": "a"}, {"text": "b"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {"x": 1}}}]},
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": "t1", "content": [{"json": {"y": 2}}], "status": "error"}}
            ],
        },
    ]
    assert spec.body["toolConfig"]["toolChoice"] == {"tool": {"name": "f"}}
    assert spec.body["inferenceConfig"] == {"stopSequences": ["END"]}


def _frames_of(body: bytes) -> list[Any]:
    from modelport.http.event_stream import EventStreamParser

    return list(EventStreamParser(provider="bedrock", on_error=lambda s, t: AssertionError(t)).feed(body))


def test_the_merged_stream_decodes_as_the_stream_did() -> None:
    _, body = recorded("test_bedrock_model_iter_stream.yaml")
    merged = merge_frames(_frames_of(body))
    assert merged["stopReason"] == "tool_use"
    assert merged["output"]["message"]["content"][1] == {
        "toolUse": {
            "name": "get_temperature",
            "toolUseId": "tooluse_lAG_zP8QRHmSYOwZzzaCqA",
            "input": {"city": "Paris"},
        }
    }
    streamed = modelport.get_model(MODEL, transport=answering(body), **keys()).stream(prompt="Hi")
    for _ in streamed:
        pass
    whole = modelport.get_model(MODEL, transport=answering(merged), **keys()).generate(prompt="Hi")
    assert streamed.result().content == whole.content
    assert (
        streamed.result().usage
        == whole.usage
        == whole.usage.model_copy(update={"input_tokens": 471, "output_tokens": 91, "total_tokens": 562})
    )


def test_a_stream_cut_before_its_metadata_keeps_the_partial() -> None:
    _, body = recorded("test_bedrock_model_stream.yaml")
    frames = _frames_of(body)
    assert frames[-1]["event"] == "metadata"
    cut = body[: len(body) - 262]  # the metadata frame is the last 262 bytes
    assert [f["event"] for f in _frames_of(cut)][-1] == "messageStop"
    stream = modelport.get_model(MODEL, transport=answering(cut), max_retries=0, **keys()).stream(prompt="Hi")
    with pytest.raises(StreamInterruptedError) as info:
        for _ in stream:
            pass
    partial = info.value.partial
    assert partial is not None and partial.text.endswith('or "The City of Love."')


def test_async_calls_are_signed_and_stream_alike() -> None:
    import asyncio

    _, whole = recorded("test_bedrock_model.yaml")
    _, streamed_body = recorded("test_bedrock_model_stream.yaml")
    seen: list[httpx.Request] = []

    async def run() -> tuple[str, str]:
        one = modelport.get_model(MODEL, transport=answering(whole, seen=seen), **keys())
        two = modelport.get_model(MODEL, transport=answering(streamed_body, seen=seen), **keys())
        result = await one.agenerate(prompt="Hello!")
        stream = two.astream(prompt="Hi")
        async for _ in stream:
            pass
        return result.text, (await stream.result()).text

    text, streamed = asyncio.run(run())
    assert text.startswith("Hello! How can I assist you today?")
    assert streamed.startswith("The capital of France is Paris.")
    assert [r.url.path.rsplit("/", 1)[-1] for r in seen] == ["converse", "converse-stream"]
    assert all(r.headers["authorization"].startswith("AWS4-HMAC-SHA256 ") for r in seen)


def test_reported_zero_cache_counts_stay_zero() -> None:
    body = json.loads(
        recordings.bedrock(
            "vercel__ai/packages__amazon-bedrock__src____fixtures____amazon-bedrock-text.json"
        ).read_text()
    )
    result = modelport.get_model(MODEL, transport=answering(body), **keys()).generate(prompt="Count the r's.")
    assert result.text.endswith('There are **3** "r"s in "strawberry."')
    assert result.usage.model_dump(exclude_none=True, exclude={"cached_input_tokens"}) == {
        "input_tokens": 22,
        "output_tokens": 57,
        "total_tokens": 79,
        "cache_read_input_tokens": 0,
        "cache_write_input_tokens": 0,
    }
