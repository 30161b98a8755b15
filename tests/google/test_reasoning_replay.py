"""The reasoning replay policy on real shapes: Gemini thought signatures sent back to the model that
made them (G5), the turn's origin kept through JSON (C5), Google's rule for another Gemini model,
reasoning dropped (and said so) for another provider, ``reasoning_replay="strict"`` refused before
any I/O and ``"drop"``.

Responses are real recordings: pydantic/pydantic-ai (MIT), simonw/llm-gemini (Apache-2.0) and
vercel/ai (Apache-2.0); see tests/corpus/gemini/MANIFEST.md and tests/corpus/openai/MANIFEST.md.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from modelport.types import CallWarning, Message, Origin, Result, ToolResultPart
from tests.openai import corpus as openai_corpus

from . import corpus as c
from .mock import KEY, SSE, Recorder, model, response

THINKING_3 = "tests__models__cassettes__test_google__test_google_model_thinking_part.yaml"
LLM_TOOLS = "tests__cassettes__test_gemini__test_tools_with_gemini_3_thought_signatures.yaml"
DEEPSEEK = "vercel__ai/packages__deepseek__src__chat____fixtures____deepseek-reasoning.json"
QUESTION = "How do I cross the street?"
ANSWER = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
CHAT_ANSWER = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "model": "gpt-4o-mini",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
}


def _thinking_turn() -> tuple[Result, list[dict[str, Any]]]:
    """A gemini-3-pro-preview answer with a thought and a signed text part, as generated."""
    recorded = c.cassette(c.PYDANTIC, THINKING_3)[0].json()
    m, _ = model([response(200, recorded)], "google/gemini-3-pro-preview")
    return m.generate(prompt=QUESTION), recorded["candidates"][0]["content"]["parts"]


def _tool_turn() -> Result:
    """A gemini-3-flash-preview stream whose function call carries a thought signature."""
    first = c.cassette(c.LLM_GEMINI, LLM_TOOLS)[0]
    m, _ = model([response(200, c.sse_body(first.json()), SSE)], "google/gemini-3-flash-preview")
    return m.stream(prompt="What is 5 times 3?").result()


def _history(turn: Result) -> list[Message]:
    return [Message(role="user", content=QUESTION), turn.message, Message(role="user", content="next")]


def _tool_history(turn: Result) -> list[Message]:
    (call,) = turn.tool_calls
    return [
        Message(role="user", content="What is 5 times 3?"),
        turn.message,
        Message(role="tool", content=[ToolResultPart(call_id=call.id, name=call.name, output=15)]),
    ]


def _openai(recorder: Recorder) -> modelport.Model:
    client = httpx.Client(transport=httpx.MockTransport(recorder))
    return modelport.get_model("openai/gpt-4o-mini", api_key=KEY, http_client=client)


def _refusing_transport(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"no request may be sent, got {request.method} {request.url}")


def _replay_warnings(result: Result) -> list[CallWarning]:
    return [w for w in result.warnings if w.setting == "reasoning_replay"]


def test_the_result_and_its_message_know_where_they_came_from() -> None:
    turn, _ = _thinking_turn()
    origin = Origin(provider="google", api="generate-content", model="gemini-3-pro-preview")
    assert turn.origin == origin and turn.message.origin == origin
    assert _tool_turn().message.origin == Origin(
        provider="google", api="generate-content", model="gemini-3-flash-preview"
    )
    dumped = json.loads(turn.message.model_dump_json())
    assert dumped["origin"] == {
        "provider": "google",
        "api": "generate-content",
        "model": "gemini-3-pro-preview",
    }
    assert Message.model_validate_json(turn.message.model_dump_json()) == turn.message


def test_same_model_gets_the_turn_back_exactly_after_a_json_round_trip() -> None:
    turn, recorded_parts = _thinking_turn()
    saved = [Message.model_validate_json(m.model_dump_json()) for m in _history(turn)]
    m, recorder = model([response(200, ANSWER)], "google/gemini-3-pro-preview")
    result = m.generate(messages=saved, reasoning_replay="strict")
    assert recorder.body["contents"] == [
        {"role": "user", "parts": [{"text": QUESTION}]},
        {"role": "model", "parts": recorded_parts},
        {"role": "user", "parts": [{"text": "next"}]},
    ]
    assert _replay_warnings(result) == []


def test_a_history_saved_without_origins_is_still_valid_and_sent_as_it_is() -> None:
    turn, recorded_parts = _thinking_turn()
    legacy = [m.model_dump(mode="json", exclude={"origin"}) for m in _history(turn)]
    assert "origin" not in legacy[1]
    m, recorder = model([response(200, ANSWER)], "google/gemini-2.5-flash")
    result = m.generate(messages=legacy, reasoning_replay="strict")
    assert recorder.body["contents"][1] == {"role": "model", "parts": recorded_parts}
    assert _replay_warnings(result) == []


def test_another_gemini_3_model_gets_googles_stand_in_signature_on_the_call() -> None:
    turn = _tool_turn()
    m, recorder = model([response(200, ANSWER)], "google/gemini-3-pro-preview")
    result = m.generate(messages=_tool_history(turn))
    assert recorder.body["contents"][1] == {
        "role": "model",
        "parts": [
            {
                "functionCall": {"name": "multiply", "args": {"y": 3, "x": 5}},
                "thoughtSignature": "skip_thought_signature_validator",
            }
        ],
    }
    assert recorder.body["contents"][2] == {
        "role": "user",
        "parts": [{"functionResponse": {"name": "multiply", "response": {"result": 15}}}],
    }
    assert _replay_warnings(result) == [
        CallWarning(
            type="other",
            setting="reasoning_replay",
            details="messages.1: opaque state (provider_metadata of google) from "
            "google/gemini-3-flash-preview (generate-content) not sent to google/gemini-3-pro-preview "
            "(generate-content) (another model of google: its rule for reasoning across models)",
        )
    ]


def test_a_gemini_2_5_model_gets_the_thoughts_and_signatures_of_another_model_dropped() -> None:
    turn, recorded_parts = _thinking_turn()
    m, recorder = model([response(200, ANSWER)], "google/gemini-2.5-flash")
    result = m.generate(messages=_history(turn))
    assert recorder.body["contents"][1] == {"role": "model", "parts": [{"text": recorded_parts[1]["text"]}]}
    (warning,) = _replay_warnings(result)
    assert warning.details is not None
    assert warning.details.startswith(
        "messages.1: 1 reasoning part and opaque state (provider_metadata of google) from "
        "google/gemini-3-pro-preview (generate-content) not sent to google/gemini-2.5-flash"
    )


def test_google_history_to_openai_drops_the_reasoning_and_says_so() -> None:
    turn, recorded_parts = _thinking_turn()
    recorder = Recorder([response(200, CHAT_ANSWER)])
    result = _openai(recorder).generate(messages=_history(turn))
    assert recorder.body["messages"] == [
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": recorded_parts[1]["text"]},
        {"role": "user", "content": "next"},
    ]
    assert _replay_warnings(result) == [
        CallWarning(
            type="other",
            setting="reasoning_replay",
            details="messages.1: 1 reasoning part and opaque state (provider_metadata of google) from "
            "google/gemini-3-pro-preview (generate-content) not sent to openai/gpt-4o-mini "
            "(chat-completions) (another provider: reasoning state is not portable)",
        )
    ]


def test_deepseek_reasoning_to_google_is_dropped_from_the_request_and_the_stream_says_so() -> None:
    recorded = openai_corpus.load_json(DEEPSEEK)
    client = httpx.Client(transport=httpx.MockTransport(Recorder([response(200, recorded)])))
    deepseek = modelport.get_model("deepseek/deepseek-reasoner", api_key=KEY, http_client=client)
    turn = deepseek.generate(prompt="How many 'r's are in the word 'strawberry'?")
    assert turn.reasoning_text.startswith("We are asked")
    m, recorder = model([response(200, c.sse_body([ANSWER]), SSE)], "google/gemini-2.5-flash")
    result = m.stream(messages=_history(turn)).result()
    assert recorder.body["contents"][1] == {
        "role": "model",
        "parts": [{"text": recorded["choices"][0]["message"]["content"]}],
    }
    assert [w.details for w in _replay_warnings(result)] == [
        "messages.1: 1 reasoning part from deepseek/deepseek-reasoner (chat-completions) not sent to "
        "google/gemini-2.5-flash (generate-content) (another provider: reasoning state is not portable)"
    ]


def test_strict_refuses_before_any_io_for_another_provider_and_another_model() -> None:
    turn, _ = _thinking_turn()
    openai = modelport.get_model(
        "openai/gpt-4o-mini",
        api_key=KEY,
        http_client=httpx.Client(transport=httpx.MockTransport(_refusing_transport)),
    )
    with pytest.raises(
        InvalidRequestError, match=r"messages\.1: 1 reasoning part and opaque state .*'strict' refuses"
    ):
        openai.generate(messages=_history(turn), reasoning_replay="strict")
    with pytest.raises(InvalidRequestError, match="reasoning_replay='strict'"):
        openai.stream(messages=_history(turn), reasoning_replay="strict")
    gemini, recorder = model(Recorder([]), "google/gemini-3-flash-preview")
    with pytest.raises(InvalidRequestError, match="another model of google"):
        gemini.generate(messages=_history(turn), reasoning_replay="strict")
    assert recorder.requests == []


def test_drop_sends_no_reasoning_state_even_to_the_same_model() -> None:
    turn, recorded_parts = _thinking_turn()
    m, recorder = model([response(200, ANSWER)], "google/gemini-3-pro-preview")
    result = m.generate(messages=_history(turn), reasoning_replay="drop")
    assert recorder.body["contents"][1] == {"role": "model", "parts": [{"text": recorded_parts[1]["text"]}]}
    assert _replay_warnings(result) == []


def test_the_keyword_is_validated() -> None:
    m, recorder = model(Recorder([]), "google/gemini-3-pro-preview")
    with pytest.raises(InvalidRequestError, match="reasoning_replay"):
        m.generate(prompt="hi", reasoning_replay="sometimes")
    assert recorder.requests == []


@pytest.mark.asyncio
async def test_async_calls_apply_the_same_policy() -> None:
    turn, recorded_parts = _thinking_turn()
    answer = response(200, ANSWER)
    streamed = response(200, c.sse_body([ANSWER]), SSE)
    m, recorder = model([answer, streamed], "google/gemini-2.5-flash", asynchronous=True)
    generated = await m.agenerate(messages=_history(turn))
    stream = m.astream(messages=_history(turn))
    result = await stream.result()
    unsigned = {"role": "model", "parts": [{"text": recorded_parts[1]["text"]}]}
    assert [body["contents"][1] for body in recorder.bodies()] == [unsigned, unsigned]
    assert len(_replay_warnings(generated)) == len(_replay_warnings(result)) == 1
    assert (
        result.origin
        == generated.origin
        == Origin(provider="google", api="generate-content", model="gemini-2.5-flash")
    )
    with pytest.raises(InvalidRequestError, match="reasoning_replay='strict'"):
        m.astream(messages=_history(turn), reasoning_replay="strict")
    assert len(recorder.requests) == 2


def test_a_conversation_that_visits_openai_comes_back_to_gemini_with_its_signatures() -> None:
    google_turn, recorded_parts = _thinking_turn()
    openai_recorder = Recorder([response(200, CHAT_ANSWER)])
    openai_turn = _openai(openai_recorder).generate(messages=_history(google_turn))
    assert openai_turn.origin == Origin(provider="openai", api="chat-completions", model="gpt-4o-mini")
    history = [*_history(google_turn), openai_turn.message, Message(role="user", content="and now?")]
    m, recorder = model([response(200, ANSWER)], "google/gemini-3-pro-preview")
    result = m.generate(messages=history, reasoning_replay="strict")
    assert recorder.body["contents"] == [
        {"role": "user", "parts": [{"text": QUESTION}]},
        {"role": "model", "parts": recorded_parts},
        {"role": "user", "parts": [{"text": "next"}]},
        {"role": "model", "parts": [{"text": "ok"}]},
        {"role": "user", "parts": [{"text": "and now?"}]},
    ]
    assert _replay_warnings(result) == []
