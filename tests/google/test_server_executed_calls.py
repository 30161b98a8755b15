"""Server-executed calls (issue 13): a ``functionCall`` answered by a ``functionResponse`` inside the
same model turn (server-side MCP tools) is a provider-executed call with its result, not a call for
the application; the finish reason is not ``tool-calls`` because of it. Generate, stream and replay
agree. (No recording in the corpus has such a turn; the parts follow the REST reference's shapes.)"""

from __future__ import annotations

from typing import Any

from modelport.events import ToolCallEvent, ToolCallStartEvent, accumulate
from modelport.types import TextPart, ToolCallPart, ToolResultPart
from modelport_google._stream import merge_frames

from . import corpus as c
from .mock import SSE, model, response

CALL = {
    "functionCall": {"id": "mcp-1", "name": "mcp_weather", "args": {"city": "Paris"}},
    "thoughtSignature": "c2ln",
}
ANSWER = {"functionResponse": {"id": "mcp-1", "name": "mcp_weather", "response": {"temp": 21}}}
OWN_CALL = {"functionCall": {"name": "book_table", "args": {"time": "20:00"}}}


def body(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}


def frames(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = [{"candidates": [{"content": {"role": "model", "parts": [p]}}]} for p in parts]
    out[-1]["candidates"][0]["finishReason"] = "STOP"
    return out


SERVER_TURN = [CALL, ANSWER, {"text": "It is 21 °C in Paris."}]
EXPECTED = [
    ToolCallPart(
        id="mcp-1",
        name="mcp_weather",
        args={"city": "Paris"},
        provider_executed=True,
        provider_metadata={"google": {"thoughtSignature": "c2ln"}},
    ),
    ToolResultPart(call_id="mcp-1", name="mcp_weather", output={"temp": 21}, provider_executed=True),
    TextPart(text="It is 21 °C in Paris."),
]


def test_generate_marks_the_answered_call_provider_executed() -> None:
    m, _ = model([response(200, body(SERVER_TURN))])
    result = m.generate(prompt="Weather in Paris?")
    assert result.content == EXPECTED
    assert result.tool_calls == [] and result.finish_reason == "stop"


def test_stream_agrees_with_generate() -> None:
    m, _ = model([response(200, c.sse_body(frames(SERVER_TURN)), SSE)])
    events = list(m.stream(prompt="Weather in Paris?"))
    assert not any(isinstance(e, ToolCallStartEvent) for e in events)
    assert [e.part for e in events if isinstance(e, ToolCallEvent)] == [EXPECTED[0]]
    result = accumulate(events)
    assert result.content == EXPECTED and result.finish_reason == "stop"
    m, _ = model([response(200, merge_frames(frames(SERVER_TURN)))])
    assert m.generate(prompt="x").content == result.content


def test_an_unanswered_call_is_still_the_applications() -> None:
    parts = [CALL, ANSWER, {"text": "Booking."}, OWN_CALL]
    m, _ = model([response(200, body(parts)), response(200, c.sse_body(frames(parts)), SSE)])
    for result in (m.generate(prompt="x"), m.stream(prompt="x").result()):
        assert [(p.name, p.provider_executed) for p in result.content if isinstance(p, ToolCallPart)] == [
            ("mcp_weather", True),
            ("book_table", False),
        ]
        assert [p.name for p in result.tool_calls] == ["book_table"]
        assert result.finish_reason == "tool-calls"


def test_a_response_without_id_pairs_by_name() -> None:
    call = {"functionCall": {"name": "lookup", "args": {}}}
    answer = {"functionResponse": {"name": "lookup", "response": {"ok": True}}}
    m, _ = model([response(200, body([call, answer, {"text": "done"}]))])
    result = m.generate(prompt="x")
    tool_call, tool_result, _ = result.content
    assert isinstance(tool_call, ToolCallPart) and tool_call.provider_executed and tool_call.id == "call-0"
    assert isinstance(tool_result, ToolResultPart) and tool_result.call_id == "call-0"


def test_the_turn_replays_verbatim() -> None:
    m, recorder = model([response(200, body(SERVER_TURN)), response(200, body([{"text": "ok"}]))])
    first = m.generate(prompt="Weather in Paris?")
    m.generate(
        messages=[
            {"role": "user", "content": "Weather in Paris?"},
            first.message,
            {"role": "user", "content": "Thanks"},
        ]
    )
    assert recorder.body["contents"][1] == {"role": "model", "parts": SERVER_TURN}
