"""The ``POST /v1/responses`` body of ``openai-responses``: every canonical setting, and the settings
the Responses API does not take (a warning, or a typed error before any request is sent)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from modelport.types import FilePart, Message, ProviderTool, TextPart

from .replay import KEY

ANSWER = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "model": "gpt-4o-2024-08-06",
    "output": [],
    "usage": {"input_tokens": 1, "output_tokens": 0, "total_tokens": 1},
}
WEATHER = {
    "type": "function",
    "name": "weather",
    "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
WIRE_WEATHER = {**WEATHER, "strict": False}


def _sent(model: str = "gpt-4o", **request: Any) -> tuple[dict[str, Any], Any]:
    bodies: list[dict[str, Any]] = []

    def handler(sent: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(sent.content))
        assert sent.url.path == "/v1/responses"
        return httpx.Response(200, json=ANSWER)

    m = modelport.get_model(f"openai-responses/{model}", api_key=KEY, transport=httpx.MockTransport(handler))
    result = m.generate(**request)
    return bodies[0], result


def test_text_request_with_system_and_sampling() -> None:
    body, result = _sent(
        system="Be brief.",
        prompt="Hi",
        max_output_tokens=50,
        temperature=0.2,
        top_p=0.9,
        user_id="u-1",
        request_labels={"team": "a"},
    )
    assert body == {
        "model": "gpt-4o",
        "input": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
        "max_output_tokens": 50,
        "temperature": 0.2,
        "top_p": 0.9,
        "user": "u-1",
        "metadata": {"team": "a"},
        "store": False,
    }
    assert result.warnings == []
    assert (result.finish_reason, result.raw_finish_reason) == ("stop", "completed")


def test_reasoning_model_gets_developer_encrypted_state_and_no_sampling() -> None:
    body, result = _sent(
        "gpt-5",
        system="Be brief.",
        prompt="Hi",
        temperature=0.2,
        reasoning={"effort": "max"},
        stop_sequences=["x"],
    )
    assert body["input"][0] == {"role": "developer", "content": "Be brief."}
    assert body["reasoning"] == {"effort": "high", "summary": "auto"}
    assert body["include"] == ["reasoning.encrypted_content"] and body["store"] is False
    assert "temperature" not in body and "stop" not in body
    assert [w.setting for w in result.warnings] == ["temperature", "stop_sequences", "reasoning.effort"]
    newer, _ = _sent("gpt-5.2", prompt="Hi", reasoning={"effort": "max"})
    assert newer["reasoning"] == {"effort": "xhigh", "summary": "auto"}


@pytest.mark.parametrize(
    ("choice", "wire"),
    [
        ("auto", "auto"),
        ("none", "none"),
        ("any", "required"),
        ({"type": "tool", "name": "weather"}, {"type": "function", "name": "weather"}),
        (
            {"type": "tools", "names": ["weather"]},
            {"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "weather"}]},
        ),
    ],
)
def test_function_tools_and_every_tool_choice(choice: Any, wire: Any) -> None:
    body, _ = _sent(prompt="Weather?", tools=[WEATHER], tool_choice=choice)
    assert body["tools"] == [WIRE_WEATHER]
    assert body["tool_choice"] == wire


def test_json_schema_as_strict_text_format() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    body, _ = _sent(
        prompt="City?",
        response_format={"type": "json_schema", "name": "City", "schema": schema, "strict": True},
    )
    assert body["text"] == {
        "format": {
            "type": "json_schema",
            "name": "City",
            "schema": {**schema, "additionalProperties": False},
            "strict": True,
        }
    }
    json_mode, _ = _sent(prompt="City?", response_format={"type": "json"})
    assert json_mode["text"] == {"format": {"type": "json_object"}}


def test_provider_options_under_their_responses_names() -> None:
    options = {
        "store": True,
        "service_tier": "flex",
        "verbosity": "low",
        "reasoning_effort": "minimal",
        "parallel_tool_calls": False,
    }
    body, _ = _sent("gpt-5", prompt="Hi", provider_options={"openai-responses": options})
    assert body["store"] is True and "include" not in body
    assert body["text"] == {"verbosity": "low"}
    assert body["reasoning"] == {"effort": "minimal"}
    assert (body["service_tier"], body["parallel_tool_calls"]) == ("flex", False)


def test_typed_responses_only_options() -> None:
    options = {
        "truncation": "auto",
        "reasoning_summary": "detailed",
        "include": ["web_search_call.action.sources"],
    }
    body, _ = _sent(
        "gpt-5", prompt="Hi", reasoning={"effort": "low"}, provider_options={"openai-responses": options}
    )
    assert body["truncation"] == "auto"
    assert body["reasoning"] == {"effort": "low", "summary": "detailed"}  # replaces the "auto" default
    assert body["include"] == ["reasoning.encrypted_content", "web_search_call.action.sources"]
    assert "reasoning_summary" not in body


def test_images_and_pdfs_as_input_content() -> None:
    user = Message(
        role="user",
        content=[
            TextPart(text="Describe"),
            FilePart(media_type="image/png", uri="https://example.com/a.png"),
            FilePart(media_type="application/pdf", data=b"%PDF"),
        ],
    )
    body, _ = _sent(messages=[user])
    assert body["input"] == [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "Describe"},
                {"type": "input_image", "image_url": "https://example.com/a.png"},
                {
                    "type": "input_file",
                    "filename": "document.pdf",
                    "file_data": "data:application/pdf;base64,JVBERg==",
                },
            ],
        }
    ]


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"provider_options": {"openai-responses": {"logprobs": True}}}, "has no logprobs"),
        ({"tools": [ProviderTool(id="openai.file_search")]}, "vector_store_ids"),
        ({"provider_options": {"openai-responses": {"truncation": "on"}}}, "truncation"),
        ({"provider_options": {"openai-responses": {"reasoning_summary": "long"}}}, "reasoning_summary"),
        ({"provider_options": {"openai-responses": {"include": ["everything"]}}}, "include"),
    ],
)
def test_what_cannot_be_sent_is_refused_before_any_request(request_: dict[str, Any], message: str) -> None:
    def handler(sent: httpx.Request) -> httpx.Response:
        raise AssertionError("no request may be sent")

    m = modelport.get_model("openai-responses/gpt-4o", api_key=KEY, transport=httpx.MockTransport(handler))
    with pytest.raises(InvalidRequestError, match=message):
        m.generate(prompt="Hi", **request_)
