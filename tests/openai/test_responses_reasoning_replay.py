"""Reasoning items go back to the Responses API exactly, ahead of the items they precede.

The next request is built from ``result.message`` of a recorded answer and compared with what the
recording's own next request sent (pydantic-ai's cassettes, whose second turns the API accepted):
each reasoning item with its id, every summary and its ``encrypted_content``, then the item that
followed it (a ``function_call`` or ``message``; with its ``fc_`` / ``msg_`` id only when ``store``
is on: an unstored item's id is refused, "Item with id 'msg_…' not found"). A reasoning item that would be refused
("Item of type 'reasoning' was provided without its required following item", or an id nothing
stored) is never sent; another model's reasoning follows the contract's replay policy.
"""

from __future__ import annotations

from typing import Any

import pytest

from modelport.errors import InvalidRequestError
from modelport.types import (
    FunctionTool,
    Message,
    Origin,
    ReasoningPart,
    Result,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)

from . import responses_corpus as corpus
from .responses_corpus import Recorded

P = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__"
PLAN = FunctionTool(
    name="update_plan",
    parameters={
        "type": "object",
        "properties": {"plan": {"type": "string"}},
        "required": ["plan"],
        "additionalProperties": False,
    },
)


def _without(item: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k not in keys}


@pytest.mark.parametrize("store", [False, True])
def test_tool_turn_sends_reasoning_then_its_function_call(store: bool) -> None:
    exchanges = corpus.exchanges(P + "test_openai_responses_thinking_with_tool_calls.yaml")
    recorded = Recorded(exchanges)
    model = recorded.model()
    options = {"openai-responses": {"store": True}} if store else None
    first = model.generate(prompt="Compose a poem", tools=[PLAN], provider_options=options)
    assert isinstance(first, Result)
    (call,) = first.tool_calls
    answer = Message(
        role="tool", content=[ToolResultPart(call_id=call.id, name=call.name, output="plan updated")]
    )
    model.generate(
        messages=[Message(role="user", content=[TextPart(text="Compose a poem")]), first.message, answer],
        tools=[PLAN],
        provider_options=options,
    )
    sent = recorded.sent[1]["input"]
    expected = exchanges[1].request["input"]
    assert [item.get("type", "message") for item in sent] == [
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
    ]
    assert sent[1] == expected[1]  # id, five summaries and encrypted_content, as recorded
    if store:  # the recording's own request (pydantic-ai's default store: on): fc_ id kept
        assert sent[2] == _without(expected[2], "status")
        assert "include" not in recorded.sent[1]
    else:  # nothing stored: call_id, name and arguments, no fc_ id to look up
        assert sent[2] == _without(expected[2], "status", "id")
        assert recorded.sent[1]["include"] == ["reasoning.encrypted_content"]
    assert sent[3] == expected[3]
    assert recorded.sent[1]["store"] is store


def test_text_turn_sends_reasoning_then_its_message() -> None:
    exchanges = corpus.exchanges(P + "test_openai_responses_model_thinking_part.yaml")
    recorded = Recorded(exchanges)
    model = recorded.model()
    first = model.generate(prompt="How do I cross the street?")
    follow_up = exchanges[1].request["input"][3]["content"]
    model.generate(
        messages=[
            Message(role="user", content=[TextPart(text="How do I cross the street?")]),
            first.message,
            Message(role="user", content=[TextPart(text=follow_up)]),
        ]
    )
    sent = recorded.sent[1]["input"]
    expected = exchanges[1].request["input"]
    assert sent[1] == expected[1]
    assert sent[2] == _without(expected[2], "status", "id")  # store is off: no msg_ id
    assert [item.get("id") for item in sent] == [None, expected[1]["id"], None, None]


def test_streamed_turn_replays_the_same_items() -> None:
    # fantasy's gpt-5 stream: summary deltas, encrypted reasoning, a function call (store: false).
    name = (
        "charmbracelet__fantasy/providertests__testdata__TestOpenAIResponsesWithSummaryThinking__"
        "openai-gpt-5__thinking-streaming.yaml"
    )
    exchanges = corpus.exchanges(name)
    recorded = Recorded(exchanges)
    model = recorded.model()
    with model.stream(prompt="What's the weather in Florence, Italy?") as stream:
        for _ in stream:
            pass
        first = stream.result()
    done = [f["item"] for f in exchanges[0].frames() if f.get("type") == "response.output_item.done"]
    (call,) = first.tool_calls
    answer = Message(role="tool", content=[ToolResultPart(call_id=call.id, name=call.name, output="40 C")])
    with model.stream(
        messages=[Message(role="user", content=[TextPart(text="weather?")]), first.message, answer]
    ) as s:
        assert s.result().text == exchanges[1].final()["output"][-1]["content"][0]["text"]
    sent = recorded.sent[1]["input"]
    assert sent[1] == {
        "type": "reasoning",
        "id": done[0]["id"],
        "summary": done[0]["summary"],
        "encrypted_content": done[0]["encrypted_content"],
    }
    assert sent[2] == {
        "type": "function_call",
        "call_id": done[1]["call_id"],
        "name": "weather",
        "arguments": done[1]["arguments"],
    }


def _sent_for(history: list[Message], **request: Any) -> dict[str, Any]:
    exchanges = corpus.exchanges(P + "test_openai_responses_model_simple_response.yaml")
    recorded = Recorded(exchanges)
    recorded.model(request.pop("model", "gpt-5")).generate(messages=history, **request)
    return recorded.sent[0]


USER = Message(role="user", content=[TextPart(text="Hi")])
STATE = {"openai-responses": {"item_id": "rs_1"}}
CALL = ToolCallPart(
    id="call_1",
    name="update_plan",
    args={"plan": "x"},
    provider_metadata={"openai-responses": {"item_id": "fc_1"}},
)
RESULT = Message(role="tool", content=[ToolResultPart(call_id="call_1", name="update_plan", output="ok")])
GPT5 = Origin(provider="openai-responses", api="responses", model="gpt-5")


def test_reasoning_with_nothing_after_it_is_not_sent() -> None:
    # A turn cut after its reasoning (or edited down to it) would be refused by the API.
    alone = Message(
        role="assistant", content=[ReasoningPart(text="", signature="enc", provider_metadata=STATE)]
    )
    sent = _sent_for([USER, alone, USER])
    assert [item.get("type", "message") for item in sent["input"]] == ["message", "message"]


def test_reasoning_without_its_encrypted_state_is_not_sent_when_nothing_is_stored() -> None:
    bare = Message(role="assistant", content=[ReasoningPart(text="thought", provider_metadata=STATE), CALL])
    sent = _sent_for([USER, bare, RESULT])
    assert [item.get("type", "message") for item in sent["input"]] == [
        "message",
        "function_call",
        "function_call_output",
    ]
    # With store on, the id alone refers to the stored item.
    stored = _sent_for([USER, bare, RESULT], provider_options={"openai-responses": {"store": True}})
    assert stored["input"][1] == {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "thought"}],
    }
    assert "include" not in stored


def test_another_models_reasoning_is_dropped_with_a_warning() -> None:
    turn = Message(
        role="assistant",
        content=[ReasoningPart(text="", signature="enc", provider_metadata=STATE), CALL],
        origin=GPT5,
    )
    exchanges = corpus.exchanges(P + "test_openai_responses_model_simple_response.yaml")
    recorded = Recorded(exchanges)
    result = recorded.model("gpt-5-mini").generate(messages=[USER, turn, RESULT])
    assert [item.get("type", "message") for item in recorded.sent[0]["input"]] == [
        "message",
        "function_call",
        "function_call_output",
    ]
    assert recorded.sent[0]["input"][1] == {
        "type": "function_call",
        "call_id": "call_1",
        "name": "update_plan",
        "arguments": '{"plan":"x"}',
    }
    assert [w.setting for w in result.warnings] == ["reasoning_replay"]
    with pytest.raises(InvalidRequestError, match="reasoning_replay='strict'"):
        recorded.model("gpt-5-mini").generate(messages=[USER, turn, RESULT], reasoning_replay="strict")
    # The same model gets it back exactly.
    same = _sent_for([USER, turn, RESULT])
    assert same["input"][1] == {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "enc"}


@pytest.mark.parametrize("store", [False, True])
def test_text_parts_of_one_message_go_back_as_that_message(store: bool) -> None:
    """Two text parts of one ``msg_`` item (a message with two ``output_text`` contents) go back
    as one message with both contents, stored or not: unstored, the id is not sent but still
    groups them (it was sent as two assistant messages before)."""
    from modelport_openai._responses_input import input_items

    meta = {"openai-responses": {"item_id": "msg_1"}}
    turn = Message(
        role="assistant",
        content=[
            ReasoningPart(
                text="", signature="gAAA", provider_metadata={"openai-responses": {"item_id": "rs_1"}}
            ),
            TextPart(text="First paragraph.\n\n", provider_metadata=meta),
            TextPart(text="Second paragraph.", provider_metadata=meta),
            TextPart(text="Another item.", provider_metadata={"openai-responses": {"item_id": "msg_2"}}),
        ],
    )
    sent = input_items([turn], developer=True, stored=store)
    assert [item["type"] for item in sent] == ["reasoning", "message", "message"]
    assert [c["text"] for c in sent[1]["content"]] == ["First paragraph.\n\n", "Second paragraph."]
    assert [c["text"] for c in sent[2]["content"]] == ["Another item."]
    assert [item.get("id") for item in sent[1:]] == (["msg_1", "msg_2"] if store else [None, None])
