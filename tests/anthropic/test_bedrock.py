"""``anthropic-bedrock`` (Claude on Bedrock's InvokeModel) on recorded Bedrock traffic
(tests/corpus/anthropic-bedrock): the body Bedrock takes, SigV4 by botocore's own signer, credentials
in no error, log line or repr, the recorded 403 and cache counts, and what is refused before any
I/O. The stream is in test_bedrock_stream.py. Credentials are built at run time."""

from __future__ import annotations

import base64
import datetime
import json
import logging
from collections.abc import Iterator
from functools import cache
from typing import Any

import httpx
import pytest
import yaml
from botocore.auth import SigV4Auth as BotocoreSigV4
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from modelport_anthropic.bedrock import BedrockAnthropicProvider, anthropic_model_name

import modelport
from modelport.errors import (
    InvalidRequestError,
    MissingCredentialsError,
    ProviderAuthError,
    ProviderRateLimitError,
)
from modelport.types import ProviderTool
from tests import recordings

F = "charmbracelet__fantasy/providertests__testdata__TestBedrockCommon__bedrock-anthropic-"
TOOL = F + "claude-opus-4-6__tool.yaml"
STREAM = F + "claude-haiku-4-5__simple_streaming.yaml"
DENIED = "tmc__langchaingo/llms__bedrock__testdata__TestBedrockAnthropicToolCalling.httprr"
OPUS = "anthropic-bedrock/us.anthropic.claude-opus-4-6-v1"
HAIKU = "anthropic-bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0"
ACCESS = "AKIA" + "Q" * 16
SECRET = "w" * 20 + "/" + "e" * 19
TOKEN = "IQoJ" + "y" * 80
WHEN = datetime.datetime(2026, 12, 4, 9, 30, 0)
WEATHER = {
    "type": "function",
    "name": "weather",
    "description": "Get weather information for a location",
    "parameters": {
        "properties": {"location": {"description": "the city", "type": "string"}},
        "required": ["location"],
        "type": "object",
    },
}
SYSTEM = {"role": "system", "content": "You are a helpful assistant"}
HI = [SYSTEM, {"role": "user", "content": "Say hi in Portuguese"}]
HAIKU_TEXT = "Olá! 👋\n\nHow can I help you today?"


@cache
def recorded(saved: str, index: int = 0) -> tuple[dict[str, Any], bytes]:
    """(request body, response body bytes) of a go-vcr recording."""
    data = yaml.safe_load(recordings.anthropic_bedrock(saved).read_text(encoding="utf-8"))
    item = data["interactions"][index]
    body = item["response"]["body"]
    return json.loads(item["request"]["body"]), body if isinstance(body, bytes) else body.encode()


def keys(**extra: Any) -> dict[str, Any]:
    return {"region": "us-east-1", "aws_access_key_id": ACCESS, "aws_secret_access_key": SECRET, **extra}


def answering(
    body: bytes | Iterator[bytes],
    status: int = 200,
    headers: dict[str, str] | None = None,
    seen: list[Any] | None = None,
) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        kind = (
            "application/vnd.amazon.eventstream"
            if "response-stream" in request.url.path
            else "application/json"
        )
        return httpx.Response(status, content=body, headers={"content-type": kind, **(headers or {})})

    return httpx.MockTransport(handler)


def pieces(body: bytes, sizes: Iterator[int]) -> Iterator[bytes]:
    at = 0
    while at < len(body):
        size = next(sizes)
        yield body[at : at + size]
        at += size


def stream_events(body: bytes | Iterator[bytes]) -> list[Any]:
    model = modelport.get_model(HAIKU, transport=answering(body), max_retries=0, **keys())
    return list(model.stream(messages=HI, max_output_tokens=4000))


# The request --------------------------------------------------------------------------------------


def test_the_body_is_the_recorded_one_and_the_request_is_signed_by_botocore(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda: WHEN)
    sent, answer = recorded(TOOL)
    seen: list[httpx.Request] = []
    model = modelport.get_model(OPUS, transport=answering(answer, seen=seen), **keys(aws_session_token=TOKEN))
    result = model.generate(
        messages=[SYSTEM, {"role": "user", "content": "What's the weather in Florence,Italy?"}],
        tools=[WEATHER],
        tool_choice="auto",
        max_output_tokens=4000,
    )
    (call,) = result.tool_calls
    assert (call.id, call.name, call.args) == (
        "toolu_bdrk_01AsFGAk2weH9JHouimHMpFY",
        "weather",
        {"location": "Florence, Italy"},
    )
    (request,) = seen
    assert (
        str(request.url)
        == "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-opus-4-6-v1/invoke"
    )
    body = json.loads(request.content)
    assert body["anthropic_version"] == "bedrock-2023-05-31" and "model" not in body and "stream" not in body
    # The recorded client's tools, choice and budget; one text turn goes as a string, as the Messages
    # mapping sends it everywhere.
    assert (body["tools"], body["tool_choice"], body["max_tokens"]) == (
        sent["tools"],
        sent["tool_choice"],
        4000,
    )
    assert body["messages"] == [{"role": "user", "content": sent["messages"][0]["content"][0]["text"]}]
    assert "anthropic-version" not in request.headers and "x-api-key" not in request.headers
    # botocore's own signer, on the same request at the same time, signs the same.
    signed_names = ("accept", "content-type", "host", "x-amz-date", "x-amz-security-token")
    reference = AWSRequest(
        method="POST",
        url=str(request.url),
        data=request.content,
        headers={
            k: request.headers[k] for k in signed_names if k not in ("x-amz-date", "x-amz-security-token")
        },
    )
    BotocoreSigV4(Credentials(ACCESS, SECRET, TOKEN), "bedrock", "us-east-1").add_auth(reference)
    assert request.headers["authorization"] == reference.headers["Authorization"]
    assert request.headers["authorization"].startswith(
        f"AWS4-HMAC-SHA256 Credential={ACCESS}/20261204/us-east-1/bedrock/aws4_request, "
        "SignedHeaders=accept;content-type;host;x-amz-date;x-amz-security-token, Signature="
    )
    assert (request.headers["x-amz-date"], request.headers["x-amz-security-token"]) == (
        "20261204T093000Z",
        TOKEN,
    )


def test_a_stream_goes_to_invoke_with_response_stream_with_the_model_id_encoded() -> None:
    _, body = recorded(STREAM)
    seen: list[httpx.Request] = []
    model = modelport.get_model(HAIKU, transport=answering(body, seen=seen), **keys())
    assert model.stream(messages=HI, max_output_tokens=4000).result().text == HAIKU_TEXT
    assert (
        seen[0].url.raw_path
        == b"/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke-with-response-stream"
    )
    sent = json.loads(seen[0].content)
    assert sent == {
        **recorded(STREAM)[0],
        "system": "You are a helpful assistant",
        "messages": sent["messages"],
    }
    assert "stream" not in sent


def test_the_region_and_keys_come_from_the_standard_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_REGION", "eu-central-1")
    _, answer = recorded(TOOL, 1)
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "anthropic-bedrock/eu.anthropic.claude-haiku-4-5-20251001-v1:0",
        transport=answering(answer, seen=seen),
    )
    model.generate(prompt="Hi")
    assert seen[0].url.host == "bedrock-runtime.eu-central-1.amazonaws.com"
    assert "/eu-central-1/bedrock/aws4_request" in seen[0].headers["authorization"]


def test_a_bedrock_api_key_is_a_bearer_and_betas_go_in_the_body(monkeypatch: pytest.MonkeyPatch) -> None:
    key = "ABSK" + "d" * 40
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", key)
    _, answer = recorded(TOOL, 1)
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        OPUS, region="us-east-1", beta=["context-1m-2025-08-07"], transport=answering(answer, seen=seen)
    )
    assert model.generate(prompt="Hi").text.startswith(
        "The current weather in **Florence, Italy** is **40°C**"
    )
    assert seen[0].headers["authorization"] == f"Bearer {key}"
    assert json.loads(seen[0].content)["anthropic_beta"] == ["context-1m-2025-08-07"]
    assert "anthropic-beta" not in seen[0].headers


@pytest.mark.parametrize(
    ("model_id", "name"),
    [
        ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929"),
        ("anthropic.claude-3-haiku-20240307-v1:0", "claude-3-haiku-20240307"),
        ("us.anthropic.claude-opus-4-6-v1", "claude-opus-4-6"),
        ("global.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5-20251001"),
        ("us-gov.anthropic.claude-3-5-sonnet-20240620-v1:0", "claude-3-5-sonnet-20240620"),
        (
            "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0",
            "claude-sonnet-4-20250514",
        ),
    ],
)
def test_the_anthropic_model_name_is_read_from_the_console_id(model_id: str, name: str) -> None:
    assert anthropic_model_name(model_id) == name


# Refused before any I/O -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tools": [ProviderTool(id="anthropic.web_search", args={})]}, "offers no server tools"),
        (
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "file", "media_type": "image/png", "uri": "file_0123"}],
                    }
                ]
            },
            "has no Files API",
        ),
        ({"provider_options": {"anthropic": {"extra_body": {"mcp_servers": []}}}}, "the MCP connector"),
        ({"provider_options": {"anthropic": {"container": "c-1"}}}, "code-execution containers"),
        ({"provider_options": {"anthropic": {"service_tier": "auto"}}}, "service_tier"),
    ],
)
def test_what_bedrock_does_not_serve_is_refused_before_any_request(
    kwargs: dict[str, Any], message: str
) -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(HAIKU, transport=answering(b"{}", seen=seen), **keys())
    request = {"prompt": "Hi", **kwargs} if "messages" not in kwargs else kwargs
    with pytest.raises(InvalidRequestError, match=message):
        model.generate(**request)
    assert seen == []


def test_batches_are_refused_before_any_request() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(HAIKU, transport=answering(b"{}", seen=seen), **keys())
    with pytest.raises(InvalidRequestError, match="has no batch API: Bedrock batch inference"):
        model.submit_batch([{"prompt": "Hi"}])
    assert seen == []
    capabilities = BedrockAnthropicProvider.capabilities
    assert capabilities.count_tokens  # Bedrock's CountTokens: test_bedrock_count_tokens.py
    assert not (capabilities.batch or capabilities.provider_tools)
    assert (capabilities.web_search, capabilities.code_execution, capabilities.list_models) == (
        False,
        False,
        False,
    )


def test_no_credentials_is_missing_credentials_before_any_request() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(HAIKU, region="us-east-1", transport=answering(b"{}", seen=seen))
    with pytest.raises(MissingCredentialsError):
        model.generate(prompt="Hi")
    assert seen == []


# Errors and credentials -------------------------------------------------------------------------


def _denied() -> tuple[bytes, dict[str, str]]:
    """The recorded 403 of langchaingo's trace: its body and the AWS headers."""
    text = recordings.anthropic_bedrock(DENIED).read_bytes()
    response = text.split(b"HTTP/2.0 403 Forbidden\r\n", 1)[1].split(b"\r\n\r\n", 1)
    headers = dict(line.split(": ", 1) for line in response[0].decode().splitlines())
    return response[1][: int(headers["Content-Length"])], {k.lower(): v for k, v in headers.items()}


def test_the_recorded_access_denied_is_an_auth_error_with_its_type_and_request_id() -> None:
    body, headers = _denied()
    kept = {k: headers[k] for k in ("x-amzn-errortype", "x-amzn-requestid")}
    model = modelport.get_model(HAIKU, transport=answering(body, 403, kept), max_retries=0, **keys())
    with pytest.raises(ProviderAuthError) as info:
        model.generate(prompt="What's the weather like in New York?")
    error = info.value
    assert (error.status_code, error.provider_status, error.request_id) == (
        403,
        "AccessDeniedException",
        "f3070fed-7086-4c5f-b137-6aad63918364",
    )
    assert "You don't have access to the model with the specified model ID." in str(error)


def test_no_credential_reaches_an_error_a_log_line_or_a_repr(caplog: pytest.LogCaptureFixture) -> None:
    echoed = json.dumps({"message": f"token {TOKEN} of {ACCESS} signed with {SECRET} is invalid"}).encode()
    headers = {"x-amzn-errortype": "UnrecognizedClientException:http://internal.amazon.com/coral/"}
    model = modelport.get_model(
        HAIKU, transport=answering(echoed, 403, headers), max_retries=0, **keys(aws_session_token=TOKEN)
    )
    with caplog.at_level(logging.DEBUG):
        with pytest.raises(ProviderAuthError) as info:
            model.generate(prompt="Hi")
    signer = [r.getMessage() for r in caplog.records if r.name == "botocore.auth"]
    assert any(m.startswith("CanonicalRequest:") and "x-amz-security-token:[REDACTED]" in m for m in signer)
    error = info.value
    texts = [str(error), repr(error), error.body_excerpt or "", str(error.details), repr(model), caplog.text]
    for value in (ACCESS, SECRET, TOKEN):
        for form in (value, base64.b64encode(value.encode()).decode()):
            assert not any(form in text for text in texts)


def test_throttling_is_a_retryable_rate_limit() -> None:
    body = b'{"message":"Too many requests, please wait before trying again."}'  # MOCK: none recorded
    headers = {"x-amzn-errortype": "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/"}
    model = modelport.get_model(HAIKU, transport=answering(body, 429, headers), max_retries=0, **keys())
    with pytest.raises(ProviderRateLimitError) as info:
        model.generate(prompt="Hi")
    assert (info.value.provider_status, info.value.retryable) == ("ThrottlingException", True)


def test_the_recorded_cache_write_and_read_count_in_the_input_tokens() -> None:
    saved = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_cache_bedrock_real_api.yaml"
    item = yaml.safe_load(recordings.anthropic_bedrock(saved).read_text(encoding="utf-8"))["interactions"][1]
    sent, answer = item["request"]["parsed_body"], item["response"]["parsed_body"]
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "anthropic-bedrock/eu.anthropic.claude-haiku-4-5-20251001-v1:0",
        transport=answering(json.dumps(answer).encode(), seen=seen),
        **keys(region="eu-central-1"),
    )
    history = [{"role": m["role"], "content": m["content"][0]["text"]} for m in sent["messages"]]
    result = model.generate(
        messages=[{"role": "system", "content": sent["system"]}, *history],
        max_output_tokens=4096,
        prompt_cache={"at": ["messages"]},
    )
    usage = result.usage
    assert (usage.input_tokens, usage.cache_read_input_tokens, usage.cache_write_input_tokens) == (
        3 + 1956 + 9511,
        9511,
        1956,
    )
    assert usage.output_tokens == 44
    body = json.loads(seen[0].content)
    assert body["messages"][-1]["content"] == sent["messages"][-1]["content"]  # the recorded breakpoint
    assert seen[0].url.host == "bedrock-runtime.eu-central-1.amazonaws.com"


@pytest.mark.parametrize("token", [None, TOKEN], ids=["keys", "session-token"])
def test_a_sigv4_recording_keeps_no_credential_in_the_cassette(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, token: str | None
) -> None:
    import shutil
    from importlib.resources import files

    from modelport_conformance.cases import Suite, load_cases
    from modelport_conformance.recording import record_case

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    if token:
        monkeypatch.setenv("AWS_SESSION_TOKEN", token)
    source = files("modelport_anthropic") / "cassettes" / "anthropic-bedrock" / "generate-tool-result"
    shutil.copytree(str(source), tmp_path / "cases" / "generate-tool-result")
    suite = Suite(
        "anthropic-bedrock",
        load_cases(tmp_path / "cases"),
        options={"region": "us-east-1"},
        credential_env=("AWS_BEARER_TOKEN_BEDROCK",),
    )
    seen: list[httpx.Request] = []
    secrets = (ACCESS, SECRET, *([token] if token else []))
    transport = answering(recorded(TOOL, 1)[1], seen=seen)
    outcome = record_case(suite, suite.cases[0], transport=transport, secrets=secrets)
    assert seen[0].headers["authorization"].startswith(f"AWS4-HMAC-SHA256 Credential={ACCESS}/")
    text = (tmp_path / "cases" / "generate-tool-result" / "cassette.yaml").read_text(encoding="utf-8")
    for value in secrets:
        assert value not in text and base64.b64encode(value.encode()).decode() not in text
    headers = yaml.safe_load(text)["interactions"][0]["request"]["headers"]
    assert headers["authorization"] == ["<credential>"]
    if token is None:  # replayed with the suite's Bearer key: the same credential header, by name
        assert outcome.status == "pass", outcome
    else:  # kept by name too; a Bearer replay sends no session token, so such a case replays only signed
        assert headers["x-amz-security-token"] == ["<credential>"]
