"""``count_tokens`` on ``anthropic-bedrock``: Bedrock's CountTokens API in its InvokeModel form
(``POST /model/{id}/count-tokens``, ``{"input": {"invokeModel": {"body": base64(...)}}}``) carries
the very body ``generate`` sends to ``/invoke``; the answer ``{"inputTokens": N}`` is read by the
kit (:mod:`modelport.http.aws_count_tokens`, shared with ``bedrock``). No recording of that form
exists: the answers here are written, except the 400, which is pydantic-ai's recorded one for an
unknown model id (tests/corpus/anthropic-bedrock)."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest
import yaml

import modelport
from modelport.errors import InvalidRequestError, ProviderRequestError, ProviderResponseError
from modelport.types import ProviderTool
from tests import recordings
from tests.anthropic.test_bedrock import HI, WEATHER, answering, keys

COUNTED = "anthropic-bedrock/anthropic.claude-haiku-4-5-20251001-v1:0"
URL = "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-haiku-4-5-20251001-v1%3A0"
UNKNOWN = "pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__test_bedrock_count_tokens_error.yaml"


def inner(request: httpx.Request) -> bytes:
    body = json.loads(request.content)
    assert list(body) == ["input"] and list(body["input"]) == ["invokeModel"]
    return base64.b64decode(body["input"]["invokeModel"]["body"], validate=True)


def test_a_count_sends_the_invoke_model_body_generate_sends() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(COUNTED, transport=answering(b'{"inputTokens": 403}', seen=seen), **keys())
    count = model.count_tokens(messages=HI, tools=[WEATHER], max_output_tokens=64)
    assert (count.input_tokens, count.cached_input_tokens) == (403, None)

    sent: list[httpx.Request] = []
    answer = b'{"id":"msg_bdrk_1","type":"message","role":"assistant","content":[],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}'
    generating = modelport.get_model(COUNTED, transport=answering(answer, seen=sent), **keys())
    generating.generate(messages=HI, tools=[WEATHER], max_output_tokens=64)

    (request,) = seen
    assert str(request.url) == URL + "/count-tokens"
    assert request.method == "POST"
    assert request.headers["authorization"].startswith("AWS4-HMAC-SHA256 ")
    assert "/bedrock/aws4_request" in request.headers["authorization"]
    assert json.loads(inner(request)) == json.loads(sent[0].content)
    assert inner(request) == (
        b'{"anthropic_version":"bedrock-2023-05-31","max_tokens":64,"messages":[{"content":"Say hi in '
        b'Portuguese","role":"user"}],"system":"You are a helpful assistant","tools":[{"description":'
        b'"Get weather information for a location","input_schema":{"properties":{"location":'
        b'{"description":"the city","type":"string"}},"required":["location"],"type":"object"},'
        b'"name":"weather"}]}'
    )


def test_the_body_is_key_sorted_utf8_so_a_request_is_always_the_same_bytes() -> None:
    from modelport.http.aws_count_tokens import invoke_model_count_body

    assert invoke_model_count_body({"b": "olá", "a": [1, {"z": None, "y": True}]}) == {
        "input": {
            "invokeModel": {
                "body": base64.b64encode('{"a":[1,{"y":true,"z":null}],"b":"olá"}'.encode()).decode()
            }
        }
    }
    with pytest.raises(InvalidRequestError, match="not JSON"):
        invoke_model_count_body({"t": float("nan")})


def test_what_generate_refuses_a_count_refuses_before_any_request() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(COUNTED, transport=answering(b"{}", seen=seen), **keys())
    with pytest.raises(InvalidRequestError, match="offers no server tools"):
        model.count_tokens(prompt="Hi", tools=[ProviderTool(id="anthropic.web_search", args={})])
    with pytest.raises(InvalidRequestError, match="has no Files API"):
        model.count_tokens(
            messages=[
                {
                    "role": "user",
                    "content": [{"type": "file", "media_type": "image/png", "uri": "file_011CN"}],
                }
            ]
        )
    assert seen == []


def test_response_format_is_counted_as_the_answer_tool_generate_sends() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(COUNTED, transport=answering(b'{"inputTokens": 9}', seen=seen), **keys())
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    model.count_tokens(
        prompt="Where?",
        max_output_tokens=32,
        response_format={"type": "json_schema", "name": "place", "schema": schema},
    )
    body = json.loads(inner(seen[0]))
    assert [t["name"] for t in body["tools"]] == ["place"]
    assert body["tool_choice"] == {"type": "tool", "name": "place"}


def recorded_unknown() -> tuple[int, dict[str, Any]]:
    data = yaml.safe_load(recordings.anthropic_bedrock(UNKNOWN).read_text(encoding="utf-8"))
    response = data["interactions"][0]["response"]
    return response["status"]["code"], response["parsed_body"]


def test_the_recorded_400_for_an_unknown_model_is_a_request_error() -> None:
    status, body = recorded_unknown()
    model = modelport.get_model(
        "anthropic-bedrock/does-not-exist-model-v1:0",
        transport=answering(json.dumps(body).encode(), status),
        max_retries=0,
        **keys(),
    )
    with pytest.raises(ProviderRequestError) as info:
        model.count_tokens(prompt="hello", max_output_tokens=64)
    assert (info.value.status_code, info.value.retryable, info.value.provider_status) == (400, False, None)
    assert "The provided model identifier is invalid." in str(info.value)


def test_a_validation_exception_names_its_type() -> None:
    model = modelport.get_model(
        COUNTED,
        transport=answering(
            b'{"message": "The provided model doesn\'t support counting tokens."}',
            400,
            headers={
                "x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/"
            },
        ),
        max_retries=0,
        **keys(),
    )
    with pytest.raises(ProviderRequestError) as info:
        model.count_tokens(prompt="hello", max_output_tokens=64)
    assert info.value.provider_status == "ValidationException"


def test_an_answer_without_input_tokens_is_a_response_error() -> None:
    model = modelport.get_model(COUNTED, transport=answering(b'{"input_tokens": 5}'), max_retries=0, **keys())
    with pytest.raises(ProviderResponseError):
        model.count_tokens(prompt="hello", max_output_tokens=64)
