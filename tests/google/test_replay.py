"""Exact replay of assistant turns (G5): signatures sent back as received, ids, bounds, mismatches.

Responses are real recordings (pydantic/pydantic-ai MIT, simonw/llm-gemini Apache-2.0,
FirebaseExtended/vertexai-sdk-test-data Apache-2.0; see tests/corpus/gemini/MANIFEST.md).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from modelport.errors import InvalidRequestError
from modelport.types import Message, ReasoningPart, TextPart, ToolCallPart, ToolResultPart
from modelport_google import MAX_REPLAY_BYTES, MAX_REPLAY_PARTS
from modelport_google._decode import decode_response
from modelport_google._request import build_body

from . import corpus as c
from .mock import SSE, model, response

TOOL_STREAM = "tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml"
THINKING_3 = "tests__models__cassettes__test_google__test_google_model_thinking_part.yaml"
CODE_3 = "tests__models__google__cassettes__test_code_execution__test_code_execution.yaml"
LLM_TOOLS = "tests__cassettes__test_gemini__test_tools_with_gemini_3_thought_signatures.yaml"
PARALLEL = "mock-responses__vertexai__unary-success-function-call-parallel-calls.json"


def tool_message(*results: ToolResultPart) -> Message:
    return Message(role="tool", content=list(results))


def test_two_turn_function_calling_streamed_carries_the_signature_back_exactly() -> None:
    first, second = c.cassette(c.PYDANTIC, TOOL_STREAM)
    m, recorder = model(
        [response(200, first.body, SSE), response(200, second.body, SSE)], "google/gemini-3-pro-preview"
    )
    question = "What is the capital of the user country? Call the tool"
    turn1 = m.stream(prompt=question).result()
    (call,) = turn1.tool_calls
    assert (call.id, call.name, call.args) == ("call-0", "get_country", {})
    sent_part = first.frames()[0]["candidates"][0]["content"]["parts"][0]
    turn2 = m.stream(
        messages=[
            Message(role="user", content=question),
            turn1.message,
            tool_message(ToolResultPart(call_id=call.id, name="get_country", output="Mexico")),
        ]
    ).result()
    assert turn2.text == "The capital of Mexico is Mexico City."
    body = recorder.bodies()[1]
    assert body["contents"] == [
        {"role": "user", "parts": [{"text": question}]},
        {"role": "model", "parts": [sent_part]},
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "get_country", "response": {"result": "Mexico"}}}],
        },
    ]
    # The opaque string as the API sent it (standard base64), not re-encoded as the recording's client did.
    assert body["contents"][1]["parts"][0]["thoughtSignature"] == sent_part["thoughtSignature"]
    assert "+" in sent_part["thoughtSignature"]
    assert second.request_body["contents"][1]["parts"][0]["thoughtSignature"] != sent_part["thoughtSignature"]


def test_gemini_3_multi_turn_tools_replay_from_json_array_stream() -> None:
    first, _second = c.cassette(c.LLM_GEMINI, LLM_TOOLS)
    frames = first.json()  # llm-gemini streams a JSON array; the frames are the same objects
    m, recorder = model(
        [response(200, c.sse_body(frames), SSE), response(200, c.sse_body(_second.json()), SSE)],
        "google/gemini-3-flash-preview",
    )
    turn1 = m.stream(prompt="What is 5 times 3?").result()
    (call,) = turn1.tool_calls
    assert call.args == {"y": 3, "x": 5}
    turn2 = m.stream(
        messages=[
            Message(role="user", content="What is 5 times 3?"),
            turn1.message,
            tool_message(ToolResultPart(call_id=call.id, name="multiply", output="15")),
        ]
    ).result()
    assert turn2.text == "5 times 3 is 15."
    signed = frames[0]["candidates"][0]["content"]["parts"][0]
    assert recorder.bodies()[1]["contents"][1] == {"role": "model", "parts": [signed]}
    assert turn2.usage.input_tokens == 121  # the last frame's count, not the first's 89


def test_gemini_3_thinking_turn_replayed_verbatim() -> None:
    first = c.cassette(c.PYDANTIC, THINKING_3)[0].json()
    result = decode_response(first)
    body, _ = build_body(
        _request([Message(role="user", content="q"), result.message, Message(role="user", content="next")]),
        backend="gemini",
    )
    assert body["contents"][1] == {"role": "model", "parts": first["candidates"][0]["content"]["parts"]}


def test_code_execution_and_server_side_parts_replayed_verbatim() -> None:
    first = c.cassette(c.PYDANTIC, CODE_3)[0].json()
    result = decode_response(first)
    body, _ = build_body(
        _request([Message(role="user", content="q"), result.message, Message(role="user", content="n")]),
        backend="gemini",
    )
    assert body["contents"][1]["parts"] == first["candidates"][0]["content"]["parts"]


def test_parallel_calls_one_content_and_responses_in_one_content() -> None:
    data = c.load_json(c.FIREBASE, PARALLEL)
    data["candidates"][0]["content"]["parts"][0]["thoughtSignature"] = "Zmlyc3Q="
    result = decode_response(data)
    results = [
        ToolResultPart(call_id=p.id, name=p.name, output={"sum": i}) for i, p in enumerate(result.tool_calls)
    ]
    messages = [
        Message(role="user", content="q"),
        result.message,
        tool_message(*results[:2]),
        tool_message(results[2]),
    ]
    body, _ = build_body(_request(messages), backend="gemini")
    model_content, responses = body["contents"][1], body["contents"][2]
    assert [("thoughtSignature" in p) for p in model_content["parts"]] == [True, False, False]
    assert responses == {
        "role": "user",
        "parts": [
            {"functionResponse": {"name": "sum", "response": {"sum": 0}}},
            {"functionResponse": {"name": "sum", "response": {"sum": 1}}},
            {"functionResponse": {"name": "sum", "response": {"sum": 2}}},
        ],
    }
    assert len(body["contents"]) == 3


def test_function_response_carries_the_gemini_3_id() -> None:
    frames = c.chunks(c.VERCEL, "packages__google__src____fixtures____issue-10781.1.chunks.txt")
    m, recorder = model([response(200, c.sse_body(frames), SSE), response(200, {"candidates": []})])
    turn1 = m.stream(prompt="weather?").result()
    (call,) = turn1.tool_calls
    m.generate(
        messages=[
            Message(role="user", content="weather?"),
            turn1.message,
            tool_message(ToolResultPart(call_id=call.id, name=call.name, output={"t": 20})),
        ]
    )
    fr = recorder.bodies()[1]["contents"][2]["parts"][0]["functionResponse"]
    assert fr == {"name": call.name, "response": {"t": 20}, "id": call.id}


def test_canonical_history_without_raw_parts_keeps_part_signatures() -> None:
    messages = [
        Message(role="user", content="q"),
        Message(
            role="assistant",
            content=[
                ReasoningPart(text="hmm", signature="cmVhc29u"),
                TextPart(text="", provider_metadata={"google": {"thoughtSignature": "ZW1wdHk="}}),
                ToolCallPart(
                    id="x1",
                    name="f",
                    args={"a": 1},
                    provider_metadata={"google": {"thoughtSignature": "Y2FsbA=="}},
                ),
                ToolCallPart(id="x2", name="f", args={"a": 2}),
            ],
        ),
        tool_message(
            ToolResultPart(call_id="x1", name="f", output=[1]),
            ToolResultPart(call_id="x2", name="f", output="boom", is_error=True),
        ),
    ]
    body, _ = build_body(_request(messages), backend="gemini")
    assert body["contents"][1:] == [
        {
            "role": "model",
            "parts": [
                {"text": "hmm", "thought": True, "thoughtSignature": "cmVhc29u"},
                {"text": "", "thoughtSignature": "ZW1wdHk="},
                {"functionCall": {"name": "f", "args": {"a": 1}}, "thoughtSignature": "Y2FsbA=="},
                {"functionCall": {"name": "f", "args": {"a": 2}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "f", "response": {"result": [1]}}},
                {"functionResponse": {"name": "f", "response": {"error": "boom"}}},
            ],
        },
    ]


def _request(messages: list[Message], **kwargs: Any) -> Any:
    from modelport._model import build_request

    return build_request({"messages": messages, **kwargs})


def _turn() -> Any:
    frames = c.cassette(c.PYDANTIC, TOOL_STREAM)[0].frames()
    from modelport_google._stream import merge_frames

    return decode_response(merge_frames(frames))


def test_edited_tool_call_is_rejected_before_any_request() -> None:
    turn = _turn()
    edited = Message(
        role="assistant",
        content=[ToolCallPart(id="call-0", name="get_city", args={})],
        provider_metadata=turn.message.provider_metadata,
    )
    m, recorder = model([])
    with pytest.raises(InvalidRequestError, match="do not match its raw Gemini parts"):
        m.generate(messages=[Message(role="user", content="q"), edited])
    assert recorder.requests == []


def test_results_out_of_order_or_missing_are_rejected() -> None:
    data = c.load_json(c.FIREBASE, PARALLEL)
    result = decode_response(data)
    calls = result.tool_calls
    swapped = [ToolResultPart(call_id=p.id, name=p.name, output=1) for p in reversed(calls)]
    m, recorder = model([])
    with pytest.raises(InvalidRequestError, match="do not match the replayed assistant turn's calls"):
        m.generate(messages=[Message(role="user", content="q"), result.message, tool_message(*swapped)])
    with pytest.raises(InvalidRequestError, match="every call needs one result"):
        m.generate(messages=[Message(role="user", content="q"), result.message, tool_message(*swapped[:1])])
    assert recorder.requests == []


def test_malformed_raw_parts_are_rejected() -> None:
    bad = Message(role="assistant", content="x", provider_metadata={"google": {"parts": "nope"}})
    with pytest.raises(InvalidRequestError, match="must be a list of Gemini parts"):
        build_body(_request([Message(role="user", content="q"), bad]), backend="gemini")


def test_replay_bound_on_part_count() -> None:
    parts = [{"text": "a"}] * (MAX_REPLAY_PARTS + 1)
    over = Message(role="assistant", content="a", provider_metadata={"google": {"parts": parts}})
    with pytest.raises(InvalidRequestError, match="4097 raw parts"):
        build_body(_request([Message(role="user", content="q"), over]), backend="gemini")
    result = decode_response({"candidates": [{"content": {"parts": parts}, "finishReason": "STOP"}]})
    assert result.replay is None
    assert result.warnings[0].setting == "replay"
    exact = decode_response({"candidates": [{"content": {"parts": parts[:MAX_REPLAY_PARTS]}}]})
    assert exact.replay is not None


def test_replay_bound_on_bytes() -> None:
    parts = [{"text": "x" * (MAX_REPLAY_BYTES // 2)}, {"text": "y" * (MAX_REPLAY_BYTES // 2)}]
    over = Message(role="assistant", content="a", provider_metadata={"google": {"parts": parts}})
    with pytest.raises(InvalidRequestError, match="bytes of raw parts"):
        build_body(_request([Message(role="user", content="q"), over]), backend="gemini")


def test_stream_and_replay_share_tool_call_ids() -> None:
    data = c.load_json(c.FIREBASE, PARALLEL)
    frames = [copy.deepcopy(data)]
    from modelport_google._stream import StreamDecoder

    decoder = StreamDecoder()
    events = [e for f in frames for e in decoder.feed(f)] + decoder.finish()
    ids = [e.call_id for e in events if e.type == "tool-call-start"]
    assert ids == [p.id for p in decode_response(data).tool_calls] == ["call-0", "call-1", "call-2"]


RESULT = ToolResultPart(call_id="call-0", name="get_city", output={"city": "Paris"})
CALL = Message(role="assistant", content=[ToolCallPart(id="call-0", name="get_city", args={})])
USER = Message(role="user", content="q")

#: Gemini answers a functionResponse turn that does not follow a functionCall turn with HTTP 400
#: "Please ensure that function response turn comes immediately after a function call turn".
MISPLACED_RESULTS = {
    "first": [tool_message(RESULT), USER],
    "after a user turn": [USER, tool_message(RESULT)],
    "after an answer without calls": [USER, Message(role="assistant", content="hi"), tool_message(RESULT)],
    "after a user turn that follows the calls": [USER, CALL, USER, tool_message(RESULT)],
    "after only a system message": [Message(role="system", content="s"), tool_message(RESULT)],
}


@pytest.mark.parametrize("case", sorted(MISPLACED_RESULTS))
def test_tool_results_not_after_calls_are_refused_before_any_request(case: str) -> None:
    m, recorder = model([])
    message = "a tool result must follow the assistant message whose tool calls it answers"
    with pytest.raises(InvalidRequestError, match=message):
        m.generate(messages=MISPLACED_RESULTS[case])
    with pytest.raises(InvalidRequestError, match=message):
        m.stream(messages=MISPLACED_RESULTS[case]).result()
    assert recorder.requests == []


def test_tool_results_right_after_their_calls_are_sent() -> None:
    m, recorder = model([response(200, {"candidates": [{"content": {"parts": [{"text": "ok"}]}}]})])
    m.generate(messages=[USER, CALL, tool_message(RESULT), tool_message(RESULT.model_copy())])
    assert [c["role"] for c in recorder.body["contents"]] == ["user", "model", "user"]
