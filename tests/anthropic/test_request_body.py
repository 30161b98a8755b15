"""The canonical request → Messages API body, headers, and the rules checked before any I/O."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from modelport.errors import InvalidRequestError
from modelport.types import FilePart, FunctionTool, Message, TextPart

from .fakes import KEY, message, model

WEATHER = FunctionTool(name="weather", description="Weather of a city", parameters={"type": "object"})
CLOCK = FunctionTool(name="clock", parameters={"type": "object", "properties": {}})


def sent(
    name: str = "claude-sonnet-4-5", options: dict[str, Any] | None = None, **request: Any
) -> tuple[Any, Any]:
    """(the body sent, the result, the HTTP request) for one generate call."""
    m, answers = model([httpx.Response(200, json=message())], name=name, **(options or {}))
    request.setdefault("prompt", "Hi")
    result = m.generate(**request)
    return answers.body(), result, answers.requests[0]


def test_headers_carry_the_key_the_version_and_the_betas() -> None:
    _, _, request = sent(options={"beta": ["files-api-2025-04-14", "context-1m-2025-08-07"]})
    assert request.url == "https://api.anthropic.com/v1/messages"
    assert request.headers["x-api-key"] == KEY
    assert "authorization" not in request.headers
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert request.headers["anthropic-beta"] == "files-api-2025-04-14,context-1m-2025-08-07"


def test_the_base_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://gateway.example/anthropic")
    _, _, request = sent()
    assert str(request.url) == "https://gateway.example/anthropic/v1/messages"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("claude-sonnet-4-5", 64000),
        ("claude-opus-4-1-20250805", 32000),
        ("claude-3-5-haiku-latest", 8192),
        ("claude-3-haiku-20240307", 4096),
        ("some-new-model", 4096),
    ],
)
def test_max_tokens_defaults_to_the_family_limit(name: str, expected: int) -> None:
    body, _, _ = sent(name=name)
    assert body["max_tokens"] == expected


def test_system_sampling_stop_and_user() -> None:
    body, result, _ = sent(
        system="Be brief.",
        max_output_tokens=300,
        temperature=0.2,
        top_p=0.9,
        top_k=40,
        stop_sequences=["END"],
        user_id="user-7",
        seed=3,
    )
    assert body == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 300,
        "messages": [{"role": "user", "content": "Hi"}],
        "system": "Be brief.",
        "temperature": 0.2,
        "top_k": 40,
        "top_p": 0.9,
        "stop_sequences": ["END"],
        "metadata": {"user_id": "user-7"},
    }
    assert [(w.type, w.setting) for w in result.warnings] == [("unsupported-setting", "seed")]


def test_several_system_messages_are_text_blocks() -> None:
    messages = [
        Message(role="system", content=[TextPart(text="One.")]),
        Message(role="system", content=[TextPart(text="Two.")]),
        Message(role="user", content=[TextPart(text="Hi")]),
    ]
    body, _, _ = sent(messages=messages, prompt=None)
    assert body["system"] == [{"type": "text", "text": "One."}, {"type": "text", "text": "Two."}]


def test_images_and_pdfs_are_blocks() -> None:
    parts = [
        TextPart(text="Compare"),
        FilePart(media_type="image/png", data=b"\x89PNG"),
        FilePart(media_type="application/pdf", uri="https://example.com/a.pdf"),
    ]
    body, _, _ = sent(messages=[Message(role="user", content=parts)], prompt=None)
    assert body["messages"][0]["content"] == [
        {"type": "text", "text": "Compare"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw=="}},
        {"type": "document", "source": {"type": "url", "url": "https://example.com/a.pdf"}},
    ]


def test_thinking_budget_drops_temperature_and_top_k_with_warnings() -> None:
    body, result, _ = sent(
        reasoning={"budget_tokens": 2048}, temperature=0.5, top_k=5, max_output_tokens=4096
    )
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert "temperature" not in body and "top_k" not in body
    assert [w.setting for w in result.warnings] == ["temperature", "top_k"]


@pytest.mark.parametrize(
    ("reasoning", "thinking"),
    [
        ({"effort": "low"}, {"type": "enabled", "budget_tokens": 2048}),
        ({"effort": "high"}, {"type": "enabled", "budget_tokens": 16384}),
        ({"enabled": True}, {"type": "enabled", "budget_tokens": 8192}),
        ({"enabled": False}, {"type": "disabled"}),
    ],
)
def test_reasoning_maps_to_thinking(reasoning: dict[str, Any], thinking: dict[str, Any]) -> None:
    body, _, _ = sent(reasoning=reasoning)
    assert body["thinking"] == thinking


@pytest.mark.parametrize(
    ("request_", "message_"),
    [
        ({"reasoning": {"budget_tokens": 512}}, "at least 1024"),
        ({"reasoning": {"budget_tokens": 4096}, "max_output_tokens": 4096}, "below max_tokens 4096"),
        ({"provider_options": {"anthropic": {"extra_body": {"messages": []}}}}, "cannot set messages"),
        ({"provider_options": {"anthropic": {"thinkng": {}}}}, "invalid provider_options"),
    ],
)
def test_bad_requests_fail_before_any_io(request_: dict[str, Any], message_: str) -> None:
    m, answers = model([])
    with pytest.raises(InvalidRequestError, match=message_):
        m.generate(prompt="Hi", **request_)
    assert answers.requests == []


@pytest.mark.parametrize(
    ("choice", "options", "expected"),
    [
        ("auto", {}, {"type": "auto"}),
        ("none", {}, {"type": "none"}),
        ("any", {}, {"type": "any"}),
        ("required", {}, {"type": "any"}),
        ({"type": "tool", "name": "clock"}, {}, {"type": "tool", "name": "clock"}),
        (None, {"disable_parallel_tool_use": True}, {"type": "auto", "disable_parallel_tool_use": True}),
        ("any", {"disable_parallel_tool_use": True}, {"type": "any", "disable_parallel_tool_use": True}),
    ],
)
def test_every_tool_choice(choice: Any, options: dict[str, Any], expected: dict[str, Any]) -> None:
    request: dict[str, Any] = {"tools": [WEATHER, CLOCK], "provider_options": {"anthropic": options}}
    if choice is not None:
        request["tool_choice"] = choice
    body, _, _ = sent(**request)
    assert body["tools"] == [
        {"name": "weather", "description": "Weather of a city", "input_schema": {"type": "object"}},
        {"name": "clock", "input_schema": {"type": "object", "properties": {}}},
    ]
    assert body["tool_choice"] == expected


def test_a_tool_subset_sends_only_those_tools() -> None:
    body, _, _ = sent(tools=[WEATHER, CLOCK], tool_choice={"type": "tools", "names": ["clock"]})
    assert [t["name"] for t in body["tools"]] == ["clock"]
    assert body["tool_choice"] == {"type": "tool", "name": "clock"}


def test_count_tokens_posts_the_input_only() -> None:
    m, answers = model([httpx.Response(200, json={"input_tokens": 14})])
    count = m.count_tokens(prompt="Hi", system="Be brief.", max_output_tokens=10, temperature=0.3)
    assert count.input_tokens == 14
    assert answers.requests[0].url == "https://api.anthropic.com/v1/messages/count_tokens"
    assert answers.body() == {
        "model": "claude-sonnet-4-5",
        "messages": [{"role": "user", "content": "Hi"}],
        "system": "Be brief.",
    }
