"""Edited history (issue 13): when an assistant message's visible text or call arguments no longer
say what its stored raw parts say, the edited content is what is sent (signatures kept only on the
parts left unchanged), with a warning; a redaction reaches the wire. Turns come from recordings
(pydantic/pydantic-ai MIT, vercel/ai Apache-2.0; see tests/corpus/gemini/MANIFEST.md)."""

from __future__ import annotations

import pytest

from modelport.errors import InvalidRequestError
from modelport.events import StreamStartEvent
from modelport.types import Message, TextPart, ToolCallPart, ToolResultPart

from . import corpus as c
from .mock import SSE, model, response

THINKING_3 = "tests__models__cassettes__test_google__test_google_model_thinking_part.yaml"
TOOL_CALL_3 = "vercel__ai/packages__google__src____fixtures____google-tool-call-gemini3.json"
OK = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}


def recorded_turn() -> tuple[dict, list[dict]]:
    data = c.cassette(c.PYDANTIC, THINKING_3)[0].json()
    return data, data["candidates"][0]["content"]["parts"]


def test_a_redacted_text_reaches_the_wire_unsigned_with_a_warning() -> None:
    data, raw = recorded_turn()
    m, recorder = model(
        [response(200, data), response(200, OK), response(200, c.sse_body([OK]), SSE)],
        "google/gemini-3-pro-preview",
    )
    first = m.generate(prompt="How do I cross the street?")
    text = first.text
    word = next(w for w in text.split() if len(w) > 4)
    redacted = first.message.model_copy(
        update={
            "content": [
                p.model_copy(update={"text": p.text.replace(word, "[redacted]")})
                if isinstance(p, TextPart)
                else p
                for p in first.message.content
            ]
        }
    )
    history = [
        Message(role="user", content="How do I cross the street?"),
        redacted,
        Message(role="user", content="Thanks"),
    ]
    result = m.generate(messages=history)
    sent = recorder.bodies()[1]["contents"][1]["parts"]
    thought, answer = raw  # the recording: a thought part, then the signed answer
    assert sent == [thought, {"text": text.replace(word, "[redacted]")}]  # the thought keeps its form
    assert "thoughtSignature" in answer and word not in sent[1]["text"]
    assert [(w.type, w.setting) for w in result.warnings] == [("other", "messages.1")]
    # The stream sends the same body and reports the warning on stream-start.
    events = list(m.stream(messages=history))
    assert recorder.bodies()[2]["contents"] == recorder.bodies()[1]["contents"]
    assert isinstance(events[0], StreamStartEvent) and [w.setting for w in events[0].warnings] == [
        "messages.1"
    ]


def test_an_unchanged_turn_is_replayed_verbatim_without_a_warning() -> None:
    data, raw = recorded_turn()
    m, recorder = model([response(200, data), response(200, OK)], "google/gemini-3-pro-preview")
    first = m.generate(prompt="q")
    result = m.generate(
        messages=[Message(role="user", content="q"), first.message, Message(role="user", content="n")]
    )
    assert recorder.bodies()[1]["contents"][1]["parts"] == raw and result.warnings == []


def test_edited_call_arguments_are_sent_unsigned_and_keep_the_pairing() -> None:
    data = c.load_json(*TOOL_CALL_3.split("/", 1))
    raw = data["candidates"][0]["content"]["parts"]
    m, recorder = model([response(200, data), response(200, OK)], "google/gemini-3-pro-preview")
    first = m.generate(
        prompt="Weather?", tools=[{"type": "function", "name": raw[-1]["functionCall"]["name"]}]
    )
    (call,) = first.tool_calls
    edited_call = call.model_copy(update={"args": {**call.args, "location": "REDACTED"}})
    edited = first.message.model_copy(
        update={"content": [edited_call if p is call else p for p in first.message.content]}
    )
    result = m.generate(
        messages=[
            Message(role="user", content="Weather?"),
            edited,
            Message(role="tool", content=[ToolResultPart(call_id=call.id, name=call.name, output={"t": 1})]),
        ]
    )
    sent = recorder.bodies()[1]["contents"]
    function_call = next(p for p in sent[1]["parts"] if "functionCall" in p)
    assert function_call == {"functionCall": {"name": call.name, "args": edited_call.args}}  # no signature
    assert "thoughtSignature" in next(p for p in raw if "functionCall" in p)
    assert sent[2]["parts"][0]["functionResponse"]["name"] == call.name
    assert [w.setting for w in result.warnings] == ["messages.1"]


def test_changing_which_calls_were_made_is_still_an_error_before_any_request() -> None:
    data = c.load_json(*TOOL_CALL_3.split("/", 1))
    m, recorder = model([response(200, data)], "google/gemini-3-pro-preview")
    first = m.generate(prompt="Weather?")
    renamed = first.message.model_copy(
        update={
            "content": [
                ToolCallPart(id=p.id, name="other", args=p.args) if isinstance(p, ToolCallPart) else p
                for p in first.message.content
            ]
        }
    )
    with pytest.raises(InvalidRequestError, match="do not match its raw Gemini parts"):
        m.generate(messages=[Message(role="user", content="Weather?"), renamed])
    assert len(recorder.requests) == 1  # the first call only


def test_a_redaction_in_the_reasoning_reaches_the_wire_too() -> None:
    data, raw = recorded_turn()
    m, recorder = model([response(200, data), response(200, OK)], "google/gemini-3-pro-preview")
    first = m.generate(prompt="How do I cross the street?")
    thought = first.reasoning_text
    word = next(w for w in thought.split() if len(w) > 4)
    redacted = first.message.model_copy(
        update={
            "content": [
                p.model_copy(update={"text": p.text.replace(word, "[redacted]")})
                if p.type == "reasoning"
                else p
                for p in first.message.content
            ]
        }
    )
    result = m.generate(
        messages=[Message(role="user", content="q"), redacted, Message(role="user", content="next")]
    )
    sent = recorder.bodies()[1]["contents"][1]["parts"]
    assert sent[0] == {"text": thought.replace(word, "[redacted]"), "thought": True}  # unsigned
    assert sent[1] == raw[1]  # the unchanged answer keeps its signature
    assert [w.setting for w in result.warnings] == ["messages.1"]
