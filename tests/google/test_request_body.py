"""Exact request bodies for every G3-G12 option, as sent through the provider."""

from __future__ import annotations

from typing import Any

import pytest

from modelport.errors import InvalidRequestError
from modelport.types import CallWarning, FilePart, Message, TextPart

from .mock import model, response

OK = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
USER = {"role": "user", "parts": [{"text": "hi"}]}


def sent(**kwargs: Any) -> dict[str, Any]:
    m, recorder = model([response(200, OK)])
    kwargs.setdefault("prompt", "hi")
    m.generate(**kwargs)
    return recorder.body  # type: ignore[no-any-return]


def test_minimal_body() -> None:
    assert sent() == {"contents": [USER]}


def test_generation_config_g3() -> None:
    body = sent(max_output_tokens=100, temperature=0.5, top_p=0.9, top_k=40, stop_sequences=["END"], seed=7)
    assert body == {
        "contents": [USER],
        "generationConfig": {
            "maxOutputTokens": 100,
            "temperature": 0.5,
            "topP": 0.9,
            "topK": 40,
            "stopSequences": ["END"],
            "seed": 7,
        },
    }


def test_system_roles_and_files_g3() -> None:
    body = sent(
        prompt=None,
        messages=[
            Message(role="system", content="be brief"),
            Message(role="system", content="be kind"),
            Message(
                role="user",
                content=[
                    TextPart(text="look"),
                    FilePart(media_type="image/png", data=b"\x89PNG"),
                    FilePart(media_type="application/pdf", uri="gs://b/f.pdf"),
                ],
            ),
            Message(role="assistant", content="seen"),
            Message(role="user", content="and?"),
        ],
    )
    assert body == {
        "contents": [
            {
                "role": "user",
                "parts": [
                    {"text": "look"},
                    {"inlineData": {"mimeType": "image/png", "data": "iVBORw=="}},
                    {"fileData": {"mimeType": "application/pdf", "fileUri": "gs://b/f.pdf"}},
                ],
            },
            {"role": "model", "parts": [{"text": "seen"}]},
            {"role": "user", "parts": [{"text": "and?"}]},
        ],
        "systemInstruction": {"parts": [{"text": "be brief"}, {"text": "be kind"}]},
    }


def test_system_message_with_a_file_is_rejected() -> None:
    m, recorder = model([])
    with pytest.raises(InvalidRequestError, match="system messages may only contain text"):
        m.generate(messages=[Message(role="system", content=[FilePart(media_type="a/b", uri="u")])])
    assert recorder.requests == []


@pytest.mark.parametrize(
    ("reasoning", "thinking"),
    [
        ({"effort": "low"}, {"thinkingBudget": 512, "includeThoughts": True}),
        ({"effort": "medium"}, {"thinkingBudget": 2048, "includeThoughts": True}),
        ({"effort": "high"}, {"thinkingBudget": 8192, "includeThoughts": True}),
        ({"effort": "max"}, {"thinkingBudget": -1, "includeThoughts": True}),
        ({"effort": "low", "budget_tokens": 1000}, {"thinkingBudget": 1000, "includeThoughts": True}),
        ({"budget_tokens": 0}, {"thinkingBudget": 0, "includeThoughts": True}),
        ({"enabled": True}, {"includeThoughts": True}),
        ({"enabled": False}, {"thinkingBudget": 0}),
    ],
)
def test_thinking_config_g4(reasoning: dict[str, Any], thinking: dict[str, Any]) -> None:
    assert sent(reasoning=reasoning)["generationConfig"] == {"thinkingConfig": thinking}


@pytest.mark.parametrize(
    ("reasoning", "message"),
    [
        ({"budget_tokens": -1}, "budget_tokens"),
        ({"budget_tokens": 2**53}, "budget_tokens"),
        ({"budget_tokens": 1.5}, "budget_tokens"),
        ({"budget_tokens": True}, "budget_tokens"),
        ({"enabled": False, "effort": "high"}, "cannot be combined"),
    ],
)
def test_thinking_budget_validation_g4(reasoning: dict[str, Any], message: str) -> None:
    m, recorder = model([])
    with pytest.raises(InvalidRequestError, match=message):
        m.generate(prompt="hi", reasoning=reasoning)
    assert recorder.requests == []


def test_budget_minus_one_names_effort_max() -> None:
    from modelport.types import ReasoningConfig
    from modelport_google._request import check_reasoning

    with pytest.raises(InvalidRequestError, match="effort='max'"):
        check_reasoning(ReasoningConfig.model_construct(budget_tokens=-1))


def test_cached_content_g6() -> None:
    body = sent(provider_options={"google": {"cached_content": "cachedContents/abc"}})
    assert body == {"contents": [USER], "cachedContent": "cachedContents/abc"}


def test_safety_settings_g7() -> None:
    settings = [{"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "BLOCK_LOW_AND_ABOVE"}]
    body = sent(provider_options={"google": {"safety_settings": settings}})
    assert body == {"contents": [USER], "safetySettings": settings}


def test_json_response_format_g8() -> None:
    assert sent(response_format="json")["generationConfig"] == {"responseMimeType": "application/json"}


def test_json_schema_response_format_g8() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    body = sent(
        response_format={
            "type": "json_schema",
            "schema": schema,
            "name": "n",
            "description": "d",
            "strict": True,
        }
    )
    assert body["generationConfig"] == {"responseMimeType": "application/json", "responseJsonSchema": schema}


def test_provider_generation_config_replaces_wholesale_then_format_reapplied_g8_g9() -> None:
    schema = {"type": "object"}
    body = sent(
        temperature=0.1,
        response_format={"type": "json_schema", "schema": schema},
        provider_options={
            "google": {"generationConfig": {"candidateCount": 1, "responseMimeType": "text/plain"}}
        },
    )
    assert body["generationConfig"] == {
        "candidateCount": 1,
        "responseMimeType": "application/json",
        "responseJsonSchema": schema,
    }


def test_provider_options_merge_after_standard_fields_g9() -> None:
    body = sent(
        tool_choice="none",
        tools=[{"type": "function", "name": "f"}],
        user_id="u1",
        provider_options={
            "google": {"toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}, "labels": {"team": "x"}},
            "other-provider": {"ignored": True},
        },
    )
    assert body["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"}}
    assert body["labels"] == {"team": "x"}
    assert list(body) == ["contents", "tools", "toolConfig", "labels"]


def test_unknown_provider_option_is_rejected() -> None:
    m, recorder = model([])
    with pytest.raises(InvalidRequestError, match="cache_content"):
        m.generate(prompt="hi", provider_options={"google": {"cache_content": "x"}})
    assert recorder.requests == []


def test_service_tier_and_extra_body_are_merged_last_g9() -> None:
    body = sent(
        max_output_tokens=5,
        provider_options={
            "google": {
                "service_tier": "flex",
                "extra_body": {
                    "futureField": {"on": True},
                    "generationConfig": {"mediaResolution": "MEDIA_RESOLUTION_LOW"},
                },
            }
        },
    )
    assert body == {
        "contents": [USER],
        "generationConfig": {"mediaResolution": "MEDIA_RESOLUTION_LOW"},
        "serviceTier": "flex",
        "futureField": {"on": True},
    }


def test_labels_g10() -> None:
    assert sent(user_id="u1")["labels"] == {"user_id": "u1"}
    assert sent(user_id="u1", request_labels={"app": "a"})["labels"] == {"app": "a"}
    assert "labels" not in sent()


def test_penalties_dropped_with_warnings_g11() -> None:
    m, recorder = model([response(200, OK)])
    result = m.generate(prompt="hi", presence_penalty=0.5, frequency_penalty=0.2)
    assert recorder.body == {"contents": [USER]}
    assert result.warnings == [
        CallWarning(type="unsupported-setting", setting="presence_penalty", details="Gemini does not support presence_penalty; it was not sent"),
        CallWarning(type="unsupported-setting", setting="frequency_penalty", details="Gemini does not support frequency_penalty; it was not sent"),
    ]  # fmt: skip


def test_penalty_warnings_on_stream_start_g11() -> None:
    from .mock import SSE

    body = b'data: {"candidates": [{"content": {"parts": [{"text": "x"}]}, "finishReason": "STOP"}]}\r\n\r\n'
    m, _ = model([response(200, body, SSE)])
    stream = m.stream(prompt="hi", presence_penalty=1.0)
    events = list(stream)
    assert events[0].type == "stream-start"
    assert [w.setting for w in events[0].warnings] == ["presence_penalty"]
    assert [w.setting for w in stream.accumulator.result().warnings] == ["presence_penalty"]


TOOLS = [
    {"type": "function", "name": "get_weather", "description": "Weather.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
    {"type": "function", "name": "get_time"},
]  # fmt: skip


@pytest.mark.parametrize(
    ("choice", "config"),
    [
        ("auto", {"mode": "AUTO"}),
        ("any", {"mode": "ANY"}),
        ("required", {"mode": "ANY"}),
        ("none", {"mode": "NONE"}),
        ({"type": "tool", "name": "get_time"}, {"mode": "ANY", "allowedFunctionNames": ["get_time"]}),
        (
            {"type": "tools", "names": ["get_time", "get_weather"]},
            {"mode": "ANY", "allowedFunctionNames": ["get_time", "get_weather"]},
        ),
    ],
)
def test_tool_choice_g12(choice: Any, config: dict[str, Any]) -> None:
    body = sent(tools=TOOLS, tool_choice=choice)
    assert body["toolConfig"] == {"functionCallingConfig": config}
    assert body["tools"] == [
        {
            "functionDeclarations": [
                {
                    "name": "get_weather",
                    "description": "Weather.",
                    "parametersJsonSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
                },
                {"name": "get_time", "parametersJsonSchema": {"type": "object", "properties": {}}},
            ]
        }
    ]


def test_provider_tools_first_then_function_declarations() -> None:
    body = sent(
        tools=[
            {"type": "function", "name": "get_time"},
            {"type": "provider", "id": "google.google_search"},
            {"type": "provider", "id": "google.code_execution"},
        ]
    )
    assert body["tools"] == [
        {"googleSearch": {}},
        {"codeExecution": {}},
        {
            "functionDeclarations": [
                {"name": "get_time", "parametersJsonSchema": {"type": "object", "properties": {}}}
            ]
        },
    ]


def test_same_body_for_generate_and_stream() -> None:
    from .mock import SSE

    kwargs: dict[str, Any] = {
        "prompt": "hi",
        "temperature": 0.3,
        "reasoning": {"effort": "low"},
        "tools": TOOLS,
        "tool_choice": "auto",
        "response_format": "json",
        "user_id": "u",
    }
    m, recorder = model(
        [
            response(200, OK),
            response(200, b'data: {"candidates": [{"finishReason": "STOP"}]}\r\n\r\n', SSE),
        ]
    )
    m.generate(**kwargs)
    m.stream(**kwargs).result()
    first, second = recorder.bodies()
    assert first == second


def test_vertex_reads_google_then_google_vertex_options() -> None:
    m, recorder = model(
        [response(200, OK)], "google-vertex/gemini-2.5-flash", api_key=None, token="t", project="p"
    )
    m.generate(
        prompt="hi",
        provider_options={
            "google": {"cached_content": "cachedContents/a", "labels": {"a": "1"}},
            "google-vertex": {"labels": {"b": "2"}},
        },
    )
    # Vertex expects the full cached-content name (issue 13): the short one is expanded.
    assert recorder.body == {
        "contents": [USER],
        "cachedContent": "projects/p/locations/us-central1/cachedContents/a",
        "labels": {"b": "2"},
    }
