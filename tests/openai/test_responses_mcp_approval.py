"""A remote MCP server's call that OpenAI runs only once approved (``require_approval="always"``),
answered through the tool loop's ``approve=`` hook.

The answers are vercel/ai's recorded approval flow (tests/corpus/openai-responses/vercel__ai,
body-only): turn 1 ends in an ``mcp_approval_request`` (``mcpr_…``) for zip1's
``create_short_url``; turn 2, after the call was not approved, is the streamed answer saying so (its
``response.completed`` response, which the non-streamed turn returns whole). The prompt is
reconstructed (the recordings hold no request). What is checked: the request decoded as a
provider-executed call with ``approval="requested"`` and no result, the hook asked with it, and the
next request carrying the request item whole and the ``mcp_approval_response`` that answers it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport import tools
from modelport.errors import InvalidRequestError
from modelport.loop.approval import Approval, Refusal
from modelport.types import ToolCallPart
from tests.recordings import recording

SAVED = "vercel__ai/packages__openai__src__responses____fixtures____openai-mcp-tool-approval."
REQUEST_ID = "mcpr_04f6b17429cf2b02006949a6712b1081968b3c7a72dec695d8"
ARGUMENTS = {"alias": "", "description": "", "max_clicks": 100, "password": "", "url": "https://ai-sdk.dev/"}
PROMPT = "Shorten https://ai-sdk.dev/ with zip1, at most 100 clicks."
ZIP1 = tools.mcp_server(
    url="https://zip1.io/mcp", name="zip1", description="Link shortener", require_approval="always"
)


def _first() -> dict[str, Any]:
    return json.loads(recording("openai-responses", SAVED + "1.json").read_text(encoding="utf-8"))


def _second() -> dict[str, Any]:
    lines = recording("openai-responses", SAVED + "2.chunks.txt").read_text(encoding="utf-8").splitlines()
    (done,) = [json.loads(line) for line in lines if '"response.completed"' in line]
    return dict(done["response"])


class Server:
    """Answers turn 1, then turn 2, keeping each request body."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.bodies.append(json.loads(request.content))
        return httpx.Response(200, json=_first() if len(self.bodies) == 1 else _second())

    def model(self) -> modelport.Model:
        return modelport.get_model(
            "openai-responses/gpt-5-mini", api_key="k" * 24, transport=httpx.MockTransport(self)
        )


def test_the_approval_request_is_a_provider_executed_call_without_a_result() -> None:
    result = Server().model().generate(prompt=PROMPT, tools=[ZIP1])
    calls = [p for p in result.content if isinstance(p, ToolCallPart)]
    assert [(c.name, c.approval) for c in calls] == [
        ("mcp_list_tools", None),
        ("create_short_url", "requested"),
    ]
    asked = calls[1]
    assert asked.id == REQUEST_ID
    assert asked.args == ARGUMENTS
    assert asked.provider_executed is True
    assert asked.provider_metadata == {
        "openai-responses": {
            "item_id": REQUEST_ID,
            "item_type": "mcp_approval_request",
            "server_label": "zip1",
        }
    }
    assert REQUEST_ID not in {p.call_id for p in result.content if p.type == "tool-result"}
    assert result.finish_reason == "tool-calls"  # the answer waits for the decision
    assert result.tool_calls == []  # nothing for the application to run itself
    assert result.usage.server_tool_calls is None  # listing the tools ran none; the call has not run


def test_a_refusal_goes_back_as_an_mcp_approval_response() -> None:
    server = Server()
    asked: list[ToolCallPart] = []

    def approve(call: ToolCallPart) -> bool:
        asked.append(call)
        return False

    run = server.model().run(prompt=PROMPT, tools=[ZIP1], approve=approve)
    assert [c.id for c in asked] == [REQUEST_ID]
    assert len(server.bodies) == 2
    assert server.bodies[0]["tools"] == [
        {
            "type": "mcp",
            "server_label": "zip1",
            "server_url": "https://zip1.io/mcp",
            "server_description": "Link shortener",
            "require_approval": "always",
        }
    ]
    # Not stored: the listing is left out, the reasoning item (no encrypted_content) too, the
    # approval request goes back whole and its answer follows it.
    assert server.bodies[1]["input"] == [
        {"role": "user", "content": PROMPT},
        {
            "type": "mcp_approval_request",
            "id": REQUEST_ID,
            "name": "create_short_url",
            "server_label": "zip1",
            "arguments": json.dumps(ARGUMENTS, separators=(",", ":")),
        },
        {
            "type": "mcp_approval_response",
            "approval_request_id": REQUEST_ID,
            "approve": False,
            "reason": "the call was refused by the user",
        },
    ]
    assert run.stop_reason == "answer"
    assert run.text.startswith("I wasn’t able to create the short link because the URL-shortening tool call")
    (answer,) = run.steps[0].tool_results
    assert (answer.call_id, answer.is_error, answer.output) == (
        REQUEST_ID,
        True,
        "the call was refused by the user",
    )


def test_an_approval_goes_back_approved_without_a_reason() -> None:
    server = Server()
    server.model().run(prompt=PROMPT, tools=[ZIP1], approve=lambda call: True, max_steps=2)
    (answer,) = [item for item in server.bodies[1]["input"] if item.get("type") == "mcp_approval_response"]
    assert answer == {"type": "mcp_approval_response", "approval_request_id": REQUEST_ID, "approve": True}


def test_a_stored_conversation_refers_to_the_request() -> None:
    server = Server()
    options = {"openai-responses": {"store": True}}
    server.model().run(
        prompt=PROMPT, tools=[ZIP1], approve=lambda call: Refusal("not now"), provider_options=options
    )
    items = [item for item in server.bodies[1]["input"] if item.get("type") != "reasoning"]
    assert items[-2:] == [
        {"type": "item_reference", "id": REQUEST_ID},
        {
            "type": "mcp_approval_response",
            "approval_request_id": REQUEST_ID,
            "approve": False,
            "reason": "not now",
        },
    ]


def test_without_a_hook_the_run_ends_at_the_request() -> None:
    server = Server()
    run = server.model().run(prompt=PROMPT, tools=[ZIP1])
    assert len(server.bodies) == 1
    assert run.stop_reason == "answer"
    assert run.steps[0].tool_results == []
    assert [p.id for p in run.result.content if getattr(p, "approval", None) == "requested"] == [REQUEST_ID]


def test_an_edit_of_the_arguments_is_refused() -> None:
    server = Server()
    with pytest.raises(InvalidRequestError, match="approve cannot edit the arguments of 'create_short_url'"):
        server.model().run(prompt=PROMPT, tools=[ZIP1], approve=lambda call: Approval(args={"url": "x"}))
    assert len(server.bodies) == 1


def test_an_async_hook_answers_in_arun() -> None:
    server = Server()

    async def approve(call: ToolCallPart) -> Refusal:
        return Refusal("not today")

    run = asyncio.run(server.model().arun(prompt=PROMPT, tools=[ZIP1], approve=approve))
    assert run.steps[0].tool_results[0].output == "not today"
    assert server.bodies[1]["input"][-1]["reason"] == "not today"
