"""Anthropic's current MCP connector, ``mcp-client-2025-11-20``, as ``anthropic.mcp_server``'s
``version``: the ``mcp_servers`` entry carries no ``tool_configuration``; an ``mcp_toolset`` block in
``tools`` chooses the tools (every one by default; ``allowed_tools`` as ``default_config``
``{"enabled": false}`` and each named tool ``{"enabled": true}`` in ``configs``), with that beta.

The shapes are those of Anthropic's MCP connector page
(https://platform.claude.com/docs/en/agents-and-tools/mcp-connector); no recording of this version
exists (the conformance case ``generate-mcp-toolset`` is MOCK). The default stays the recorded
``mcp-client-2025-04-04`` shape.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from modelport_anthropic import tools as anthropic_tools

import modelport
from modelport import tool
from modelport.errors import InvalidRequestError

DEEPWIKI = "https://mcp.deepwiki.com/mcp"
TOKEN = "-".join(["fake", "mcp", "token", "0123456789"])
CURRENT = "mcp-client-2025-11-20"
ANSWER = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "ok"}],
    "stop_reason": "end_turn",
    "usage": {"input_tokens": 1, "output_tokens": 1},
}


@tool
def weather(city: str) -> str:
    """The weather in a city."""
    return city


def _sent(*tools: Any, **options: Any) -> list[httpx.Request]:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(200, json=ANSWER)

    model = modelport.get_model(
        "anthropic/claude-sonnet-4-5", api_key="k" * 24, transport=httpx.MockTransport(handler), **options
    )
    model.generate(prompt="Hi", tools=list(tools))
    return requests


def test_an_allowlist_is_an_mcp_toolset_block_and_the_entry_has_no_tool_configuration() -> None:
    server = anthropic_tools.mcp_server(
        url=DEEPWIKI, name="deepwiki", allowed_tools=["ask_question", "read_wiki_structure"],
        authorization_token=TOKEN, version=CURRENT,
    )  # fmt: skip
    (request,) = _sent(weather, server)
    body = json.loads(request.content)
    assert body["mcp_servers"] == [
        {"type": "url", "url": DEEPWIKI, "name": "deepwiki", "authorization_token": TOKEN}
    ]
    assert body["tools"] == [
        {
            "name": "weather",
            "description": "The weather in a city.",
            "input_schema": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": False,
            },
        },
        {
            "type": "mcp_toolset",
            "mcp_server_name": "deepwiki",
            "default_config": {"enabled": False},
            "configs": {"ask_question": {"enabled": True}, "read_wiki_structure": {"enabled": True}},
        },
    ]
    assert request.headers["anthropic-beta"] == CURRENT


def test_every_tool_of_the_server_by_default() -> None:
    server = anthropic_tools.mcp_server(url=DEEPWIKI, name="deepwiki", version=CURRENT)
    (request,) = _sent(server, beta="files-api-2025-04-14")
    body = json.loads(request.content)
    assert body["mcp_servers"] == [{"type": "url", "url": DEEPWIKI, "name": "deepwiki"}]
    assert body["tools"] == [{"type": "mcp_toolset", "mcp_server_name": "deepwiki"}]
    assert request.headers["anthropic-beta"] == f"files-api-2025-04-14,{CURRENT}"


def test_the_default_is_still_the_recorded_2025_04_04_shape() -> None:
    server = anthropic_tools.mcp_server(url=DEEPWIKI, name="deepwiki", allowed_tools=["ask_question"])
    (request,) = _sent(server)
    body = json.loads(request.content)
    assert body["mcp_servers"] == [
        {
            "type": "url",
            "url": DEEPWIKI,
            "name": "deepwiki",
            "tool_configuration": {"enabled": True, "allowed_tools": ["ask_question"]},
        }
    ]
    assert "tools" not in body
    assert request.headers["anthropic-beta"] == "mcp-client-2025-04-04"


def _refused(*tools: Any) -> str:
    def handler(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"a request was sent: {request.url}")

    model = modelport.get_model(
        "anthropic/claude-sonnet-4-5", api_key="k" * 24, transport=httpx.MockTransport(handler)
    )
    with pytest.raises(InvalidRequestError) as refused:
        model.generate(prompt="Hi", tools=list(tools))
    return str(refused.value)


def test_an_unknown_version_is_refused_before_io() -> None:
    problem = _refused(
        anthropic_tools.mcp_server(url=DEEPWIKI, name="deepwiki", version="mcp-client-2026-01-01")
    )
    assert "version" in problem and "'mcp-client-2025-04-04' or 'mcp-client-2025-11-20'" in problem
