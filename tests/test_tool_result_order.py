"""A tool result that does not follow the calls it answers is refused before any request, by every
first-party provider alike.

Each API refuses such a history with HTTP 400: Gemini "Please ensure that function response turn
comes immediately after a function call turn", Chat Completions "messages with role 'tool' must be a
response to a preceeding message with 'tool_calls'", Anthropic a ``tool_result`` with no
``tool_use`` in the message before it, the Responses API "No tool call found for function call
output with call_id ..." (unless the request continues a stored conversation, whose calls the
result may answer: that stays allowed). The histories are MOCK (built here; what is tested is that
nothing is sent).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from modelport.types import Message, ToolCallPart, ToolResultPart

MODELS = [
    "google/gemini-2.5-flash",
    "openai/gpt-4o",
    "openai-responses/gpt-4o",
    "anthropic/claude-sonnet-4-5",
]
RESULT = ToolResultPart(call_id="call_1", name="lookup", output={"city": "Paris"})
TOOL = Message(role="tool", content=[RESULT])
USER = Message(role="user", content="q")
CALL = Message(role="assistant", content=[ToolCallPart(id="call_1", name="lookup", args={})])

HISTORIES = {
    "a history starting with a tool message": [TOOL, USER],
    "a tool message after a user turn": [USER, TOOL],
    "a tool message after an answer without calls": [USER, Message(role="assistant", content="hi"), TOOL],
    "results in a user message, first": [Message(role="user", content=[RESULT]), USER],
}


class Nothing:
    """A transport that must not be reached."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(500)


def _model(model_id: str, transport: Any) -> modelport.Model:
    return modelport.get_model(
        model_id, api_key="test-key", transport=httpx.MockTransport(transport), max_retries=0
    )


@pytest.mark.parametrize("history", sorted(HISTORIES))
@pytest.mark.parametrize("model_id", MODELS)
def test_results_not_after_their_calls_are_refused_before_any_request(model_id: str, history: str) -> None:
    server = Nothing()
    model = _model(model_id, server)
    message = "a tool result must follow the assistant message whose tool calls it answers"
    with pytest.raises(InvalidRequestError, match=message):
        model.generate(messages=HISTORIES[history])
    with pytest.raises(InvalidRequestError, match=message):
        model.stream(messages=HISTORIES[history]).result()
    assert server.requests == []


@pytest.mark.parametrize("model_id", MODELS)
def test_results_right_after_their_calls_are_sent(model_id: str) -> None:
    server = Nothing()
    with pytest.raises(modelport.errors.ProviderError):  # the 500: the request went out
        _model(model_id, server).generate(messages=[USER, CALL, TOOL])
    assert len(server.requests) == 1


def test_a_stateful_responses_call_may_answer_a_stored_call() -> None:
    server = Nothing()
    model = _model("openai-responses/gpt-4o", server)
    options = {"openai-responses": {"previous_response_id": "resp_1"}}
    with pytest.raises(modelport.errors.ProviderError):
        model.generate(messages=[TOOL], provider_options=options)
    assert len(server.requests) == 1
