"""Anthropic's server tools: registered as provider tools, validated strictly before any request,
sent as the tool block of their version; their calls and results come back as provider-executed
parts and go back unchanged in the next turn (checked against a recorded turn 2)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from modelport_anthropic.tools import code_execution, web_fetch, web_search

from modelport.errors import ProviderToolError
from modelport.provider_tools import get_provider_tool
from modelport.types import Message, TextPart, ToolCallPart, ToolResultPart

from . import corpus
from .fakes import message, model

WEB_SEARCH = (
    "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_web_search_tool.yaml"
)


def sent_tools(*tools: Any) -> list[dict[str, Any]]:
    m, answers = model([httpx.Response(200, json=message())])
    m.generate(prompt="Hi", tools=list(tools))
    return list(answers.body()["tools"])


def test_the_three_tools_are_registered() -> None:
    assert [get_provider_tool(i).name for i in ("anthropic.web_search", "anthropic.web_fetch")] == [
        "web_search",
        "web_fetch",
    ]
    assert get_provider_tool("anthropic.code_execution").namespace == "anthropic"


def test_each_tool_is_its_version_block() -> None:
    location = {"city": "Paris", "country": "FR", "timezone": "Europe/Paris"}
    assert sent_tools(
        web_search(max_uses=3, blocked_domains=["example.com"], user_location=location),
        web_fetch(allowed_domains=["docs.python.org"], citations={"enabled": True}, max_content_tokens=5000),
        code_execution(),
    ) == [
        {
            "type": "web_search_20250305",
            "name": "web_search",
            "max_uses": 3,
            "blocked_domains": ["example.com"],
            "user_location": {
                "type": "approximate",
                "city": "Paris",
                "country": "FR",
                "timezone": "Europe/Paris",
            },
        },
        {
            "type": "web_fetch_20250910",
            "name": "web_fetch",
            "allowed_domains": ["docs.python.org"],
            "citations": {"enabled": True},
            "max_content_tokens": 5000,
        },
        {"type": "code_execution_20250825", "name": "code_execution"},
    ]


def test_the_recorded_web_search_tool_block_is_what_the_default_sends() -> None:
    recorded = corpus.interactions(WEB_SEARCH)[0].request
    assert recorded is not None
    given = {k: v for k, v in recorded["tools"][0].items() if v is not None}
    assert sent_tools(web_search()) == [given]


@pytest.mark.parametrize(
    ("tool", "problem"),
    [
        (web_search(allowed_domains=["a.com"], blocked_domains=["b.com"]), "not both"),
        (web_search(max_uses=0), "max_uses"),
        (web_search(max_uses="3"), "max_uses"),
        (web_search(version="web_search_20240101"), "version"),
        (web_fetch(citations=True), "citations"),
        (code_execution(timeout=5), "timeout"),
    ],
)
def test_bad_arguments_fail_before_any_io(tool: Any, problem: str) -> None:
    m, answers = model([])
    with pytest.raises(ProviderToolError, match=problem):
        m.generate(prompt="Hi", tools=[tool])
    assert answers.requests == []


def test_search_calls_and_results_go_back_as_recorded() -> None:
    first, second = corpus.interactions(WEB_SEARCH)[:2]
    assert first.request is not None and second.request is not None
    m, _ = model([httpx.Response(200, headers=first.headers, content=first.body)])
    result = m.generate(prompt="What is the weather in San Francisco today?", tools=[web_search()])
    call = next(p for p in result.content if isinstance(p, ToolCallPart))
    found = next(p for p in result.content if isinstance(p, ToolResultPart))
    recorded_call = next(b for b in first.json()["content"] if b["type"] == "server_tool_use")
    assert (call.id, call.name, call.args, call.provider_executed) == (
        recorded_call["id"],
        "web_search",
        recorded_call["input"],
        True,
    )
    assert (found.call_id, found.name, found.provider_executed) == (recorded_call["id"], "web_search", True)
    m, answers = model([httpx.Response(200, json=message())])
    m.generate(
        messages=[Message(role="user", content=[TextPart(text="again")]), result.message],
        tools=[web_search()],
    )
    sent = answers.body()["messages"][1]["content"]
    expected = second.request["messages"][1]["content"]
    server = ("server_tool_use", "web_search_tool_result")
    assert [b for b in sent if b["type"] in server] == [b for b in expected if b["type"] in server]
    # Text blocks go back as text (their citations stay in the result, not in the next request).
    assert [b["text"] for b in sent if b["type"] == "text"] == [
        b["text"] for b in expected if b["type"] == "text"
    ]


PAUSED = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_pause_turn_web_search_vcr.yaml"


def test_a_paused_turn_continues_by_sending_its_message_back() -> None:
    first, second = corpus.interactions(PAUSED)[:2]
    assert first.request is not None and second.request is not None
    prompt = first.request["messages"][0]["content"][0]["text"]
    m, _ = model([httpx.Response(200, headers=first.headers, content=first.body)])
    paused = m.generate(prompt=prompt, tools=[web_search()], reasoning={"budget_tokens": 4096})
    assert (paused.finish_reason, paused.raw_finish_reason) == ("other", "pause_turn")
    m, answers = model([httpx.Response(200, headers=second.headers, content=second.body)])
    resumed = m.generate(
        messages=[Message(role="user", content=[TextPart(text=prompt)]), paused.message],
        tools=[web_search()],
        reasoning={"budget_tokens": 4096},
    )
    sent, expected = answers.body()["messages"][1]["content"], second.request["messages"][1]["content"]
    # Every block goes back as the recording tool sent it (text without its citations: see above).
    assert [b["type"] for b in sent] == [b["type"] for b in expected]
    assert [b for b in sent if b["type"] != "text"] == [b for b in expected if b["type"] != "text"]
    assert resumed.raw_finish_reason == "end_turn"
