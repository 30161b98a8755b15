"""A conversation holding provider-run MCP records, sent on to another provider's API.

The history is real traffic: the Responses API's recorded approval flow (vercel/ai
``openai-mcp-tool-approval``: an ``mcp_list_tools`` listing, an ``mcp_approval_request`` for zip1's
``create_short_url``, refused through the tool loop's ``approve=`` hook, then the answer saying so),
then its recorded ``mcp_call`` turn (``openai-mcp-tool``: a listing, a ``web_search_exa`` call and
its output, the answer); and Anthropic's recorded MCP connector answer (vercel/ai
``anthropic-mcp``: ``mcp_tool_use``, ``mcp_tool_result``, text). The prompts are the tests' own.

The rule (:mod:`modelport.reasoning`): another provider's other API cannot take these records
(before it, Anthropic sent a Responses call as a ``server_tool_use`` block and refused the
approval's answer, Chat Completions sent the records as function calls, Gemini refused the answer
to a call it never saw), so, as each plugin already leaves out another API's server-tool records,
the provider-executed parts are not sent, nor the approval's decision that answered one, nor a
message left empty; the answers' text is. Each left-out message is a warning; ``"strict"``
refuses before any I/O. The same API (another model of it) gets them all.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from modelport.types import Message
from tests.openai.test_responses_mcp_approval import ARGUMENTS, PROMPT, REQUEST_ID, ZIP1, Server
from tests.recordings import recording

MCP_CALL = "vercel__ai/packages__openai__src__responses____fixtures____openai-mcp-tool.1.json"
ANTHROPIC_MCP = "vercel__ai/packages__anthropic__src____fixtures____anthropic-mcp.1.json"
NEWS, SUMMARY = "Any NYC news?", "Summarize."
KEY = "test-key-0123456789abcdef"

#: A plain text answer in each target API's shape (only what the request is sent for matters).
ANSWERS: dict[str, dict[str, Any]] = {
    "anthropic/claude-sonnet-4-5": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    },
    "google/gemini-2.5-flash": {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP", "index": 0}
        ],
        "modelVersion": "gemini-2.5-flash",
    },
    "openai/gpt-4o-mini": {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    },
}
#: Where each API's body holds the conversation.
TURNS = {
    "anthropic/claude-sonnet-4-5": "messages",
    "google/gemini-2.5-flash": "contents",
    "openai/gpt-4o-mini": "messages",
}


def _json(provider: str, name: str) -> dict[str, Any]:
    return json.loads(recording(provider, name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _responses_history() -> list[Any]:
    """The approval flow (refused), then the ``mcp_call`` turn, then a question for the next model."""
    run = Server().model().run(prompt=PROMPT, tools=[ZIP1], approve=lambda call: False)
    answer = _json("openai-responses", MCP_CALL)
    model = modelport.get_model(
        "openai-responses/gpt-5-mini",
        api_key=KEY,
        transport=httpx.MockTransport(lambda r: httpx.Response(200, json=answer)),
    )
    news = model.generate(messages=[*run.messages, {"role": "user", "content": NEWS}])
    return [
        *run.messages,
        {"role": "user", "content": NEWS},
        news.message,
        {"role": "user", "content": SUMMARY},
    ]


def _sent(model_id: str, messages: list[Any], **request: Any) -> tuple[dict[str, Any], Any]:
    bodies: list[dict[str, Any]] = []

    def answer(sent: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(sent.content))
        return httpx.Response(200, json=ANSWERS[model_id])

    model = modelport.get_model(model_id, api_key=KEY, transport=httpx.MockTransport(answer), max_retries=0)
    result = model.generate(messages=messages, **request)
    (body,) = bodies
    return body, result


def _texts() -> tuple[str, str]:
    """The recorded answers' text: after the refusal, and after the ``mcp_call``."""
    lines = recording(
        "openai-responses",
        "vercel__ai/packages__openai__src__responses____fixtures____openai-mcp-tool-approval.2.chunks.txt",
    ).read_text(encoding="utf-8")
    (done,) = [json.loads(line) for line in lines.splitlines() if '"response.completed"' in line]
    refused = [c["text"] for i in done["response"]["output"] if i["type"] == "message" for c in i["content"]]
    news = [
        c["text"]
        for i in _json("openai-responses", MCP_CALL)["output"]
        if i["type"] == "message"
        for c in i["content"]
    ]
    return "".join(refused), "".join(news)


def _expected(model_id: str) -> list[dict[str, Any]]:
    refused, news = _texts()
    turns = [("user", PROMPT), ("assistant", refused), ("user", NEWS), ("assistant", news), ("user", SUMMARY)]
    if model_id.startswith("google/"):
        return [{"role": "model" if r == "assistant" else r, "parts": [{"text": t}]} for r, t in turns]
    if model_id.startswith("anthropic/"):
        return [
            {"role": r, "content": [{"type": "text", "text": t}] if r == "assistant" else t} for r, t in turns
        ]
    return [{"role": r, "content": t} for r, t in turns]


def test_the_history_is_the_recorded_flow() -> None:
    history = _responses_history()
    shapes = [
        [
            (p.type, getattr(p, "name", None), getattr(p, "provider_executed", None))
            for p in Message.model_validate(m).content
        ]
        if isinstance(m, dict)
        else [(p.type, getattr(p, "name", None), getattr(p, "provider_executed", None)) for p in m.content]
        for m in history
    ]
    listing = [
        ("tool-call", "mcp_list_tools", True),
        ("tool-result", "mcp_list_tools", True),
        ("reasoning", None, None),
    ]
    assert shapes == [
        [("text", None, None)],
        [*listing, ("tool-call", "create_short_url", True)],
        [("tool-result", "create_short_url", False)],  # the refusal: the approval's decision
        [*listing, ("text", None, None)],
        [("text", None, None)],
        [*listing, ("tool-call", "web_search_exa", True), ("tool-result", "web_search_exa", True),
         ("reasoning", None, None), ("text", None, None)],
        [("text", None, None)],
    ]  # fmt: skip
    assert history[1].content[3].approval == "requested" and history[2].content[0].call_id == REQUEST_ID


@pytest.mark.parametrize("model_id", list(ANSWERS))
def test_another_api_gets_the_text_without_the_mcp_records(model_id: str) -> None:
    body, result = _sent(model_id, _responses_history())
    assert body[TURNS[model_id]] == _expected(model_id)
    assert "tools" not in body and "mcp_servers" not in body
    target = f"{model_id} ({'messages' if 'anthropic' in model_id else 'generate-content' if 'google' in model_id else 'chat-completions'})"
    origin = "openai-responses/gpt-5-mini (responses)"
    why = "(another provider's API: reasoning state and server tool records are not portable)"
    opaque = "opaque state (provider_metadata of openai-responses)"
    assert [w.details for w in result.warnings] == [
        f"messages.1: 1 reasoning part, 3 provider-executed tool parts and {opaque} from {origin} not sent to {target} {why}",
        f"messages.2: 1 answer to a provider-executed call of another provider's API not sent to {target} (the call "
        "is not sent either)",
        f"messages.3: 1 reasoning part, 2 provider-executed tool parts and {opaque} from {origin} not sent to {target} {why}",
        f"messages.5: 2 reasoning parts, 4 provider-executed tool parts and {opaque} from {origin} not sent to {target} {why}",
    ]  # fmt: skip


@pytest.mark.parametrize("model_id", list(ANSWERS))
def test_drop_sends_the_same_without_warnings(model_id: str) -> None:
    body, result = _sent(model_id, _responses_history(), reasoning_replay="drop")
    assert body[TURNS[model_id]] == _expected(model_id)
    assert result.warnings == []


def test_strict_refuses_before_any_request() -> None:
    bodies: list[bytes] = []
    model = modelport.get_model(
        "anthropic/claude-sonnet-4-5",
        api_key=KEY,
        transport=httpx.MockTransport(lambda r: bodies.append(r.content) or httpx.Response(500)),
    )
    with pytest.raises(InvalidRequestError) as refused:
        model.generate(messages=_responses_history(), reasoning_replay="strict")
    assert str(refused.value).startswith(
        "messages.1: 1 reasoning part, 3 provider-executed tool parts and opaque state (provider_metadata of "
        "openai-responses) from openai-responses/gpt-5-mini (responses) cannot be sent to "
        "anthropic/claude-sonnet-4-5 (messages) exactly (another provider's API: reasoning state and server "
        "tool records are not portable); reasoning_replay='strict' refuses the request."
    )
    assert bodies == []


def test_another_model_of_the_same_api_gets_the_approval_flow_whole() -> None:
    history = _responses_history()[:4]  # up to the answer after the refusal
    bodies: list[dict[str, Any]] = []

    def answer(sent: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(sent.content))
        return httpx.Response(200, json=_json("openai-responses", MCP_CALL))

    model = modelport.get_model("openai-responses/gpt-5", api_key=KEY, transport=httpx.MockTransport(answer))
    model.generate(messages=[*history, {"role": "user", "content": NEWS}])
    # Not stored: the request goes back whole (its item id and server label kept across models),
    # then the decision that answers it; the other model's reasoning and listings are left out.
    assert bodies[0]["input"][:3] == [
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
    assert [i.get("type") for i in bodies[0]["input"][3:]] == ["message", None]


@pytest.mark.parametrize("model_id", ["openai/gpt-4o-mini", "google/gemini-2.5-flash"])
def test_anthropics_recorded_mcp_connector_turn_goes_on_as_its_text(model_id: str) -> None:
    recorded = _json("anthropic", ANTHROPIC_MCP)
    model = modelport.get_model(
        "anthropic/claude-sonnet-4-5",
        api_key=KEY,
        transport=httpx.MockTransport(lambda r: httpx.Response(200, json=recorded)),
    )
    echoed = model.generate(prompt="Echo 'hello world'.")
    assert [(p.type, getattr(p, "provider_executed", None)) for p in echoed.content] == [
        ("tool-call", True),
        ("tool-result", True),
        ("text", None),
    ]
    body, result = _sent(model_id, [{"role": "user", "content": "Echo 'hello world'."}, echoed.message,
                                    {"role": "user", "content": SUMMARY}])  # fmt: skip
    (text,) = [b["text"] for b in recorded["content"] if b["type"] == "text"]
    turns = [("user", "Echo 'hello world'."), ("assistant", text), ("user", SUMMARY)]
    if model_id.startswith("google/"):
        assert body["contents"] == [
            {"role": "model" if r == "assistant" else r, "parts": [{"text": t}]} for r, t in turns
        ]
    else:
        assert body["messages"] == [{"role": r, "content": t} for r, t in turns]
    (warning,) = result.warnings
    assert warning.details.startswith(
        "messages.1: 2 provider-executed tool parts and opaque state (provider_metadata of anthropic)"
    )
