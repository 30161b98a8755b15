"""The canonical ``prompt_cache`` keyword on every provider: Anthropic places ``cache_control``
breakpoints, OpenAI sends its cache key and retention, and a provider that cannot cache per
request (Gemini, most Chat Completions servers, any plugin without the capability) says so in an
``unsupported-setting`` warning instead of dropping it. All fakes are MOCK bodies: the request
side is under test."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from modelport_openai import OpenAIProvider, OpenAIResponsesProvider
from modelport_openai.presets import PRESETS

import modelport
from modelport.errors import InvalidRequestError
from modelport.types import FunctionTool, Message, TextPart
from tests.anthropic.fakes import message
from tests.anthropic.fakes import model as anthropic_model
from tests.openai.fakes import chunk, completion, sse
from tests.openai.fakes import model as openai_model
from tests.openai.test_cross_provider import GOOGLE, _model

WEATHER = FunctionTool(name="weather", description="Weather of a city", parameters={"type": "object"})
CLOCK = FunctionTool(name="clock", parameters={"type": "object", "properties": {}})
ONE_HOUR = {"type": "ephemeral", "ttl": "1h"}
RESPONSE = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "model": "gpt-5",
    "output": [
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "ok", "annotations": []}],
        }
    ],
    "usage": {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4},
}


def _anthropic(**request: Any) -> tuple[dict[str, Any], Any]:
    m, answers = anthropic_model([httpx.Response(200, json=message())])
    result = m.generate(**request)
    return answers.body(), result


def test_anthropic_breakpoints_end_the_system_the_tools_and_the_last_user_turn() -> None:
    history = [
        Message(role="system", content=[TextPart(text="You are a travel agent.")]),
        Message(role="user", content=[TextPart(text="Hi")]),
        Message(role="assistant", content=[TextPart(text="Hello!")]),
        Message(role="user", content=[TextPart(text="Book Paris"), TextPart(text="for two")]),
    ]
    body, result = _anthropic(messages=history, tools=[WEATHER, CLOCK], prompt_cache={"ttl": "1h"})
    assert body["system"] == [{"type": "text", "text": "You are a travel agent.", "cache_control": ONE_HOUR}]
    assert [t.get("cache_control") for t in body["tools"]] == [None, ONE_HOUR]
    assert body["messages"] == [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "Hello!"}]},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Book Paris"},
                {"type": "text", "text": "for two", "cache_control": ONE_HOUR},
            ],
        },
    ]
    assert "prompt_cache" not in body and result.warnings == []


def test_anthropic_breakpoints_only_where_asked() -> None:
    body, _ = _anthropic(prompt="Hi", system="Be brief.", prompt_cache={"at": ["system"]})
    assert body["system"] == [
        {"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral", "ttl": "5m"}}
    ]
    assert body["messages"] == [{"role": "user", "content": "Hi"}]


def test_anthropic_refuses_a_ttl_it_has_not_before_any_request() -> None:
    m, answers = anthropic_model([])
    with pytest.raises(InvalidRequestError, match=r"prompt_cache.ttl '24h': Anthropic caches for 5m or 1h"):
        m.generate(prompt="Hi", prompt_cache={"ttl": "24h"})
    assert answers.requests == []


def test_anthropic_has_no_cache_key_and_says_so() -> None:
    body, result = _anthropic(prompt="Hi", prompt_cache={"key": "tenant-7", "at": ["messages"]})
    assert "tenant-7" not in json.dumps(body)
    assert [(w.type, w.setting) for w in result.warnings] == [("unsupported-setting", "prompt_cache.key")]


def test_anthropic_breakpoint_by_hand_on_a_user_part() -> None:
    control = {"type": "ephemeral", "ttl": "5m"}
    by_hand = TextPart(text="A long contract.", provider_metadata={"anthropic": {"cache_control": control}})
    body, _ = _anthropic(messages=[Message(role="user", content=[by_hand])])
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "A long contract.", "cache_control": control}]}
    ]


@pytest.mark.parametrize(
    ("cache", "fields"),
    [
        ({}, {}),
        ({"ttl": "1h", "key": "tenant-7"}, {"prompt_cache_key": "tenant-7", "prompt_cache_retention": "24h"}),
        ({"ttl": "24h", "at": ["system"]}, {"prompt_cache_retention": "24h"}),
    ],
)
def test_openai_sends_the_key_and_the_retention(cache: dict[str, Any], fields: dict[str, str]) -> None:
    chat, chat_sent = openai_model([httpx.Response(200, json=completion())])
    responses, responses_sent = openai_model(
        [httpx.Response(200, json=RESPONSE)], model_id="openai-responses/gpt-5"
    )
    for m, sent in ((chat, chat_sent), (responses, responses_sent)):
        result = m.generate(prompt="Hi", prompt_cache=cache)
        assert {k: v for k, v in sent.body.items() if k.startswith("prompt_cache")} == fields
        assert result.warnings == []


def test_providers_without_per_request_caching_warn_and_send_nothing() -> None:
    google, seen = _model("google/gemini-2.5-flash", list(GOOGLE["text"]))
    result = google.generate(prompt="Weather in Paris?", prompt_cache={"ttl": "1h"})
    assert [(w.type, w.setting, w.details) for w in result.warnings] == [
        (
            "unsupported-setting",
            "prompt_cache",
            "Google has no per-request prompt caching; prompt_cache is not sent",
        )
    ]
    assert "cache" not in seen[0].content.decode().lower()
    replies = [httpx.Response(200, json=completion()), sse([chunk({"content": "Hi"}, "stop")])]
    groq, sent = openai_model(replies, model_id="groq/llama-3.3-70b")
    answered = groq.generate(prompt="Hi", prompt_cache={"key": "tenant-7"})
    streamed = groq.stream(prompt="Hi", prompt_cache={"key": "tenant-7"}).result()
    for result in (answered, streamed):
        assert [(w.type, w.setting) for w in result.warnings] == [("unsupported-setting", "prompt_cache")]
    assert all("prompt_cache_key" not in body for body in sent.bodies())


def test_each_openai_provider_maps_prompt_cache_exactly_when_it_says_it_can() -> None:
    providers = [OpenAIProvider, OpenAIResponsesProvider, *PRESETS]
    assert {p.id: p.capabilities.prompt_cache for p in providers} == {
        p.id: p.quirks.prompt_cache for p in providers
    }
    assert OpenAIProvider.capabilities.prompt_cache and OpenAIResponsesProvider.capabilities.prompt_cache


def test_prompt_cache_is_validated_with_the_request() -> None:
    m = modelport.get_model("anthropic/claude-sonnet-4-5", api_key="sk-ant-test-0123456789abcdefghij")
    with pytest.raises(InvalidRequestError, match="prompt_cache.at names a place twice"):
        m.prepare(prompt="Hi", prompt_cache={"at": ["system", "system"]})
    with pytest.raises(InvalidRequestError, match="prompt_cache.ttl"):
        m.prepare(prompt="Hi", prompt_cache={"ttl": "2h"})
