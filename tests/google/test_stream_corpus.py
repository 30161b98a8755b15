"""Every streamed recording in the corpus, replayed through the provider (G4, G5, G13-G16, C4).

For each one, the accumulated stream equals the non-streaming decode of the merged frames. Bodies are
sent as recorded (vcrpy ``body.string``, Firebase raw SSE) or, for vercel ``*.chunks.txt``, written back
as ``data:`` lines. Sources: pydantic/pydantic-ai (MIT), vercel/ai (Apache-2.0),
FirebaseExtended/vertexai-sdk-test-data (Apache-2.0), per tests/corpus/gemini/MANIFEST.md.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from modelport.events import (
    FinishEvent,
    ReasoningDeltaEvent,
    ReasoningEndEvent,
    ReasoningStartEvent,
    ResponseMetadataEvent,
    StreamStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from modelport.types import Origin, ReasoningPart, TextPart, ToolCallPart, ToolResultPart, Usage
from modelport_google._decode import decode_response
from modelport_google._stream import StreamDecoder, merge_frames

from . import corpus as c
from .mock import SSE, model, response

P = c.PYDANTIC
STREAMS: dict[str, tuple[str, str, int]] = {
    "web-fetch": (
        P,
        "tests__models__cassettes__test_google__test_google_model_web_fetch_tool_stream.yaml",
        0,
    ),
    "file-search-3": (
        P,
        "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml",
        0,
    ),
    "web-search": (
        P,
        "tests__models__cassettes__test_google__test_google_model_web_search_tool_stream.yaml",
        0,
    ),
    "thinking-25": (P, "tests__models__cassettes__test_google__test_google_model_thinking_part_iter.yaml", 0),
    "code-3": (
        P,
        "tests__models__google__cassettes__test_code_execution__test_code_execution_stream.yaml",
        0,
    ),
    "tool-call-3-turn-1": (
        P,
        "tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml",
        0,
    ),
    "tool-call-3-turn-2": (
        P,
        "tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml",
        1,
    ),
}
VERCEL_CHUNKS = [
    "packages__google__src____fixtures____google-reasoning-gemini3.chunks.txt",
    "packages__google__src____fixtures____google-text.chunks.txt",
    "packages__google__src____fixtures____google-tool-call-gemini3.chunks.txt",
    "packages__google__src____fixtures____issue-10781.1.chunks.txt",
    "packages__google__src____fixtures____issue-18073-empty-text-thought-signature.chunks.txt",
]
FIREBASE_SSE = [
    "mock-responses__googleai__streaming-failure-prompt-blocked-safety.txt",
    "mock-responses__googleai__streaming-failure-recitation-no-content.txt",
    "mock-responses__googleai__streaming-success-code-execution.txt",
    "mock-responses__googleai__streaming-success-thinking-function-call-thought-summary-signature.txt",
    "mock-responses__googleai__streaming-success-thinking-reply-thought-summary.txt",
    "mock-responses__googleai__streaming-success-url-context.txt",
    "mock-responses__vertexai__streaming-success-utf8.txt",
]


def recorded(key: str) -> tuple[bytes, list[Any]]:
    """The SSE body as recorded and its frames."""
    if key in STREAMS:
        source, name, index = STREAMS[key]
        interactions = [i for i in c.cassette(source, name) if "streamGenerateContent" in i.uri]
        interaction = interactions[index]
        return interaction.body, interaction.frames()
    if key in VERCEL_CHUNKS:
        frames = c.chunks(c.VERCEL, key)
        return c.sse_body(frames), frames
    body = c.raw(c.FIREBASE, key)
    return body, c.sse_payloads(body)


ALL = [*STREAMS, *VERCEL_CHUNKS, *FIREBASE_SSE]


def run_stream(body: bytes, model_id: str = "google/gemini-2.5-flash") -> tuple[list[Any], Any]:
    m, recorder = model([response(200, body, SSE)], model_id)
    stream = m.stream(prompt="hi")
    events = list(stream)
    return events, stream.accumulator.result()


def decoded(data: dict[str, Any], model_name: str = "gemini-2.5-flash") -> Any:
    """The non-streaming decode of ``data`` with the origin the core stamps on a call's result."""
    origin = Origin(provider="google", api="generate-content", model=model_name)
    return decode_response(data).model_copy(update={"origin": origin})


@pytest.mark.parametrize("key", ALL)
def test_accumulated_stream_equals_decode_of_merged_frames(key: str) -> None:
    body, frames = recorded(key)
    events, streamed = run_stream(body)
    expected = decoded(merge_frames(frames))
    assert isinstance(events[0], StreamStartEvent)
    assert isinstance(events[-1], FinishEvent)
    assert streamed.content == expected.content
    assert streamed.text == expected.text
    assert streamed.reasoning_text == expected.reasoning_text
    assert streamed.tool_calls == expected.tool_calls
    assert streamed.usage == expected.usage
    assert streamed.finish_reason == expected.finish_reason
    assert streamed.raw_finish_reason == expected.raw_finish_reason
    assert streamed.replay == expected.replay
    assert streamed == expected
    # Usage comes from the last frame that has it, never a sum (G15).
    with_usage = [f["usageMetadata"] for f in frames if "usageMetadata" in f]
    if with_usage:
        assert streamed.usage.total_tokens == with_usage[-1].get("totalTokenCount")
        last = with_usage[-1]
        # Input is billed as the prompt plus the tool-use prompt (contract 2.1).
        billed = [last.get(k) for k in ("promptTokenCount", "toolUsePromptTokenCount") if k in last]
        assert streamed.usage.input_tokens == (sum(billed) if billed else None)


@pytest.mark.parametrize("key", ["thinking-25", "code-3", VERCEL_CHUNKS[0]])
@pytest.mark.asyncio
async def test_async_stream_matches_sync(key: str) -> None:
    body, _frames = recorded(key)
    _events, expected = run_stream(body)
    m, _recorder = model([response(200, body, SSE)], asynchronous=True)
    stream = m.astream(prompt="hi")
    assert [e async for e in stream][-1].type == "finish"
    assert await stream.result() == expected


def test_stream_request_url_and_headers() -> None:
    body, _ = recorded(VERCEL_CHUNKS[1])
    m, recorder = model([response(200, body, SSE)], "google/gemini-3-pro-preview")
    m.stream(prompt="hi").result()
    request = recorder.requests[0]
    assert str(request.url) == (
        "https://generativelanguage.googleapis.com/v1beta/models/"
        "gemini-3-pro-preview:streamGenerateContent?alt=sse"
    )
    assert request.headers["accept"] == "text/event-stream"


def test_thinking_25_events_and_signature_on_first_text_frame() -> None:
    body, frames = recorded("thinking-25")
    events, result = run_stream(body)
    kinds = [e.type for e in events]
    assert kinds[:3] == ["stream-start", "response-metadata", "reasoning-start"]
    assert kinds.count("reasoning-start") == 1 and kinds.count("text-start") == 1
    assert kinds.index("reasoning-end") < kinds.index("text-start")
    assert sum(isinstance(e, ReasoningDeltaEvent) for e in events) == 4
    signed = next(
        p for f in frames for p in f["candidates"][0]["content"]["parts"] if "thoughtSignature" in p
    )
    start = next(e for e in events if isinstance(e, TextStartEvent))
    assert start.provider_metadata == {"google": {"thoughtSignature": signed["thoughtSignature"]}}
    reasoning, text = result.content
    assert isinstance(reasoning, ReasoningPart) and isinstance(text, TextPart)
    assert text.text.startswith(signed["text"])
    metadata = next(e for e in events if isinstance(e, ResponseMetadataEvent))
    assert metadata.model_version == frames[0]["modelVersion"]
    assert metadata.response_id == frames[0]["responseId"]


@pytest.mark.parametrize("key", [VERCEL_CHUNKS[0], VERCEL_CHUNKS[1], VERCEL_CHUNKS[4]])
def test_gemini_3_signature_on_final_empty_text_part_is_its_own_part(key: str) -> None:
    body, frames = recorded(key)
    _events, result = run_stream(body)
    last = frames[-1]["candidates"][0]["content"]["parts"][-1]
    assert last["text"] == "" and "thoughtSignature" in last
    assert result.replay["google"]["parts"][-1] == last
    assert result.content[-1] == TextPart(
        text="", provider_metadata={"google": {"thoughtSignature": last["thoughtSignature"]}}
    )
    assert result.text == "".join(
        p.get("text", "") for f in frames for p in f["candidates"][0]["content"]["parts"]
    )


def test_gemini_3_function_call_with_id_after_unsigned_text() -> None:
    body, frames = recorded(VERCEL_CHUNKS[3])
    events, result = run_stream(body)
    call_part = next(p for f in frames for p in f["candidates"][0]["content"]["parts"] if "functionCall" in p)
    text, call = result.content
    assert text == TextPart(text="Let me check.")
    assert isinstance(call, ToolCallPart)
    assert call.id == call_part["functionCall"]["id"]
    assert call.provider_metadata == {"google": {"thoughtSignature": call_part["thoughtSignature"]}}
    assert result.finish_reason == "tool-calls"
    assert [e.type for e in events].count("tool-call-start") == 1
    start = next(e for e in events if e.type == "tool-call-start")
    assert (start.call_id, start.name) == (call.id, call.name)


def test_code_execution_stream_ids_and_usage_from_last_frame() -> None:
    body, frames = recorded("code-3")
    events, result = run_stream(body)
    calls = [e.part for e in events if isinstance(e, ToolCallEvent)]
    results = [e.part for e in events if isinstance(e, ToolResultEvent)]
    assert [p.name for p in calls] == ["code_execution"] * len(calls)
    assert [p.call_id for p in results] == [p.id for p in calls]
    assert all(p.provider_executed for p in calls + results)
    assert result.usage.input_tokens == 147 + 360  # promptTokenCount + toolUsePromptTokenCount
    assert result.usage.tool_use_prompt_tokens == 360
    assert result.replay["google"]["parts"][-1]["text"] == ""


def test_code_execution_stream_without_ids_gemini_25() -> None:
    body, _ = recorded(FIREBASE_SSE[2])
    _events, result = run_stream(body)
    call = next(p for p in result.content if isinstance(p, ToolCallPart))
    res = next(p for p in result.content if isinstance(p, ToolResultPart))
    assert call.id == res.call_id == "code-1"
    assert res.output["outcome"] == "OUTCOME_OK" and res.is_error is False


def test_prompt_blocked_stream_finishes_as_content_filter() -> None:
    body, frames = recorded(FIREBASE_SSE[0])
    events, result = run_stream(body)
    finish = events[-1]
    assert isinstance(finish, FinishEvent)
    assert (finish.finish_reason, finish.raw_finish_reason) == ("content-filter", "SAFETY")
    assert result.content == []
    assert result.provider_metadata["google"]["promptFeedback"] == frames[0]["promptFeedback"]


def test_recitation_final_frame_without_content() -> None:
    body, frames = recorded(FIREBASE_SSE[1])
    assert "content" not in frames[-1]["candidates"][0]
    _events, result = run_stream(body)
    assert result.finish_reason == "content-filter"
    assert result.raw_finish_reason == "RECITATION"
    sources = result.provider_metadata["google"]["citationMetadata"]["citationSources"]
    expected = [
        s for f in frames for s in f["candidates"][0].get("citationMetadata", {}).get("citationSources", [])
    ]
    assert sources == expected


def test_utf8_text_split_across_frames() -> None:
    body, frames = recorded(FIREBASE_SSE[6])
    _events, result = run_stream(body, "google-vertex/gemini-pro")
    assert result.text == "".join(f["candidates"][0]["content"]["parts"][0]["text"] for f in frames)


def _parallel_frames(per_call: bool) -> list[Any]:
    # The corpus has no streamed parallel calls; these frames are the recorded parallel-call response
    # (FirebaseExtended vertexai-sdk-test-data, Apache-2.0) split as 2.5 (one frame) and 3 (one per call)
    # stream them, with the step signed on its first call only.
    data = c.load_json(
        c.FIREBASE, "mock-responses__vertexai__unary-success-function-call-parallel-calls.json"
    )
    parts = [dict(p) for p in data["candidates"][0]["content"]["parts"]]
    parts[0]["thoughtSignature"] = "c2lnbmVk"
    groups = [[p] for p in parts] if per_call else [parts]
    frames = [{"candidates": [{"content": {"role": "model", "parts": g}}]} for g in groups]
    frames[-1]["candidates"][0]["finishReason"] = "STOP"
    return frames


@pytest.mark.parametrize("per_call", [False, True], ids=["one-frame", "frame-per-call"])
def test_parallel_calls_streamed(per_call: bool) -> None:
    frames = _parallel_frames(per_call)
    _events, result = run_stream(c.sse_body(frames))
    assert [p.id for p in result.tool_calls] == ["call-0", "call-1", "call-2"]
    assert result.tool_calls[0].provider_metadata == {"google": {"thoughtSignature": "c2lnbmVk"}}
    assert result.tool_calls[1].provider_metadata is None
    assert result == decoded(merge_frames(frames))
    assert len(result.replay["google"]["parts"]) == 3


def test_decoder_merges_text_chunks_linearly_and_keeps_signed_chunks_apart() -> None:
    decoder = StreamDecoder()
    frames = [
        {"candidates": [{"content": {"parts": [{"text": "a"}]}}]},
        {"candidates": [{"content": {"parts": [{"text": "b"}]}}]},
        {"candidates": [{"content": {"parts": [{"text": "c", "thoughtSignature": "s1"}]}}]},
        {"candidates": [{"content": {"parts": [{"text": "d"}]}}], "usageMetadata": {"totalTokenCount": 3}},
        {"candidates": [{"content": {"parts": [{"text": ""}]}, "finishReason": "STOP"}]},
    ]
    events = [e for f in frames for e in decoder.feed(f)] + decoder.finish()
    assert decoder.raw_parts() == [{"text": "ab"}, {"text": "cd", "thoughtSignature": "s1"}]
    assert [e.type for e in events] == [
        "text-start", "text-delta", "text-delta", "text-end",
        "text-start", "text-delta", "text-delta", "text-end", "finish",
    ]  # fmt: skip
    assert isinstance(events[4], TextStartEvent)
    assert events[4].provider_metadata == {"google": {"thoughtSignature": "s1"}}
    assert isinstance(events[-1], FinishEvent) and events[-1].usage == Usage(total_tokens=3)
    assert isinstance(events[3], TextEndEvent) and isinstance(events[1], TextDeltaEvent)


def test_reasoning_signature_arrives_on_reasoning_end() -> None:
    decoder = StreamDecoder()
    events = decoder.feed(
        {
            "candidates": [
                {"content": {"parts": [{"text": "think", "thought": True, "thoughtSignature": "sig"}]}}
            ]
        }
    )
    events += decoder.finish()
    assert isinstance(events[0], ReasoningStartEvent)
    end = next(e for e in events if isinstance(e, ReasoningEndEvent))
    assert end.signature == "sig"
    assert events == [events[0], events[1], end]  # no finish: the stream never said it finished


def test_frames_round_trip_as_json() -> None:
    body, _ = recorded("code-3")
    events, _ = run_stream(body)
    for event in events:
        assert type(event).model_validate_json(event.model_dump_json()) == event
    assert json.loads(events[-1].model_dump_json())["type"] == "finish"
