"""Anthropic streams damaged in the ways a server or a proxy can damage them: never a complete answer
that is not one, never received content dropped.

Every stream starts from a real recording's frames (tests/corpus/anthropic): vercel
``anthropic-text.chunks.txt`` (text) and charmbracelet/fantasy ``thinking-streaming`` (a signed
thinking block, then a ``weather`` tool call); the damage (frames left out, an index changed, a
start's ``input`` filled) is the test's.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from modelport.errors import ProviderResponseError, StreamInterruptedError
from modelport.types import Result
from modelport_conformance.invariants import check_stream_well_formed

from . import corpus
from .fakes import model, sse

TEXT = "vercel__ai/packages__anthropic__src____fixtures____anthropic-text.chunks.txt"
SEARCH = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_web_search_tool_stream.yaml"
THINKING = "charmbracelet__fantasy/providertests__testdata__TestAnthropicThinking__claude-sonnet-4__thinking-streaming.yaml"
ANSWER = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?"
THOUGHT_START = "The user is asking for weather information for Florence, Italy."


def text_frames() -> list[dict[str, Any]]:
    return corpus.interactions(TEXT)[0].frames()


def thinking_frames() -> list[dict[str, Any]]:
    return next(i for i in corpus.interactions(THINKING) if i.is_sse).frames()


def run(frames: list[dict[str, Any]], asynchronous: bool = False) -> Result:
    m, _ = model([sse(frames)])
    if asynchronous:
        return asyncio.run(m.astream(prompt="Hi").result())
    return m.stream(prompt="Hi").result()


def without(frames: list[dict[str, Any]], *kinds: str, index: int | None = None) -> list[dict[str, Any]]:
    return [f for f in frames if not (f["type"] in kinds and (index is None or f.get("index") == index))]


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_body_of_only_message_stop_is_no_empty_answer(asynchronous: bool) -> None:
    with pytest.raises(StreamInterruptedError) as info:
        run([{"type": "message_stop"}], asynchronous)
    assert "message_stop frame after message_delta and message_start" in str(info.value)


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_text_then_message_stop_without_message_delta_is_not_complete(asynchronous: bool) -> None:
    with pytest.raises(StreamInterruptedError) as info:
        run(without(text_frames(), "message_delta"), asynchronous)
    partial = info.value.partial
    assert partial is not None
    assert (partial.text, partial.finish_reason, partial.response_id) == (
        ANSWER,
        "error",
        "msg_01QC4g3HwBThD4BaNtBckFDJ",
    )


def test_the_recorded_text_stream_is_complete() -> None:
    result = run(text_frames())
    assert (result.text, result.finish_reason, result.warnings) == (ANSWER, "stop", [])


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_text_for_a_block_that_never_started_is_kept_with_a_warning(asynchronous: bool) -> None:
    result = run(without(text_frames(), "content_block_start"), asynchronous)
    assert (result.text, result.finish_reason) == (ANSWER, "stop")
    [warning] = result.warnings
    assert warning.setting == "stream" and "content block 0, which never started" in warning.details


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_text_after_its_block_stopped_is_a_new_part_not_more_of_the_ended_one(asynchronous: bool) -> None:
    # Found by the long fuzz run (seed 11, anthropic-stream case 214): a text_delta that lost its
    # ``index`` after block 0 stopped reopened "text-0", so a consumer keyed by id saw deltas after
    # that part's end, and the result's text no longer held each part's text.
    frames = text_frames()
    stop = next(i for i, f in enumerate(frames) if f["type"] == "content_block_stop")
    frames.insert(stop + 1, {"type": "content_block_delta", "delta": {"type": "text_delta", "text": " Bye."}})
    m, _ = model([sse(frames)])

    async def consume() -> tuple[list[Any], Result]:
        stream = m.astream(prompt="Hi")
        return [e async for e in stream], await stream.result()

    if asynchronous:
        seen, result = asyncio.run(consume())
    else:
        stream = m.stream(prompt="Hi")
        seen = list(stream)
        result = stream.result()
    bounds = [(e.type, e.id) for e in seen if e.type in ("text-start", "text-end")]
    assert bounds == [
        ("text-start", "text-0"),
        ("text-end", "text-0"),
        ("text-start", "text-0-2"),
        ("text-end", "text-0-2"),
    ]
    assert [e.delta for e in seen if e.type == "text-delta" and e.id == "text-0-2"] == [" Bye."]
    assert (result.text, result.finish_reason) == (ANSWER + " Bye.", "stop")
    assert [w.setting for w in result.warnings] == ["stream"]


def test_text_for_a_block_whose_start_has_no_usable_type_is_kept() -> None:
    frames = text_frames()
    start = next(f for f in frames if f["type"] == "content_block_start")
    start["content_block"] = {"type": 7}  # was KeyError '-0' in the core's accumulator
    result = run(frames)
    assert (result.text, result.finish_reason) == (ANSWER, "stop")
    assert [w.setting for w in result.warnings] == ["stream"]


def test_an_input_json_delta_for_a_block_that_never_started_is_a_typed_error() -> None:
    frames = without(thinking_frames(), "content_block_start", index=1)
    with pytest.raises(ProviderResponseError, match="content block 1, which never started") as info:
        run(frames)
    partial = info.value.partial
    assert partial is not None and partial.content[0].text.startswith(THOUGHT_START)


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_thinking_block_never_closed_keeps_its_signature(asynchronous: bool) -> None:
    frames = thinking_frames()
    signature = next(
        f["delta"]["signature"] for f in frames if f.get("delta", {}).get("type") == "signature_delta"
    )
    result = run(without(frames, "content_block_stop", index=0), asynchronous)
    reasoning = result.content[0]
    assert reasoning.type == "reasoning" and reasoning.text.startswith(THOUGHT_START)
    assert reasoning.signature == signature
    assert [(c.name, c.args) for c in result.tool_calls] == [("weather", {"location": "Florence, Italy"})]


def test_a_tool_call_whose_arguments_never_complete_is_not_silently_empty() -> None:
    frames = thinking_frames()
    last = max(i for i, f in enumerate(frames) if f.get("delta", {}).get("type") == "input_json_delta")
    frames = [
        f
        for i, f in enumerate(frames)
        if i != last and not (f["type"] == "content_block_stop" and f["index"] == 1)
    ]
    result = run(frames)
    [call] = result.tool_calls
    assert (call.name, call.args) == ("weather", {})
    assert call.provider_metadata["modelport"]["raw_args"] == '{"location": "Florence, Italy'
    assert [w.setting for w in result.warnings] == ["tool_calls"]
    assert "not JSON" in result.warnings[0].details


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_tool_use_start_with_the_whole_input_and_no_deltas_streams_those_arguments(
    asynchronous: bool,
) -> None:
    frames = copy.deepcopy(without(thinking_frames(), "content_block_delta", index=1))
    start = next(f for f in frames if f["type"] == "content_block_start" and f["index"] == 1)
    start["content_block"]["input"] = {"location": "Florence, Italy"}
    result = run(frames, asynchronous)
    assert [(c.name, c.args) for c in result.tool_calls] == [("weather", {"location": "Florence, Italy"})]
    assert result.finish_reason == "tool-calls"


def test_a_text_delta_addressed_to_a_thinking_block_starts_a_text_part() -> None:
    # Found by the long fuzz run (seed 2026, anthropic-stream case 24599): a text_delta at the index
    # of an open thinking block went out as a text-delta of the reasoning part's id.
    frames = thinking_frames()
    stop = next(i for i, f in enumerate(frames) if f["type"] == "content_block_stop" and f["index"] == 0)
    frames.insert(
        stop, {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi."}}
    )
    m, _ = model([sse(frames)])
    stream = m.stream(prompt="Hi")
    events = list(stream)
    result = stream.result()
    assert check_stream_well_formed(events) == []
    assert [
        (e.type, e.id) for e in events if e.type.endswith(("-start", "-end")) and e.type != "stream-start"
    ][:4] == [
        ("reasoning-start", "thinking-0"),
        ("reasoning-end", "thinking-0"),
        ("text-start", "text-0"),
        ("text-end", "text-0"),
    ]
    assert [p.type for p in result.content] == ["reasoning", "text", "tool-call"]
    assert result.content[0].text.startswith(THOUGHT_START) and result.content[0].signature
    assert result.content[1].text == "Hi."


@pytest.mark.parametrize("fragment", ['{"query": NaN}', '{"query": 1e999}', "[" * 200 + "]" * 200])
def test_a_server_tool_input_the_strict_parser_refuses_leaves_a_result_that_round_trips(
    fragment: str,
) -> None:
    # A server tool's input fragments were joined and read by Python's lenient json: NaN and
    # overflowing numbers became floats no JSON holds, and the result did not round-trip (C5).
    frames = copy.deepcopy(next(i for i in corpus.interactions(SEARCH) if i.is_sse).frames())
    deltas = [f for f in frames if f.get("delta", {}).get("type") == "input_json_delta" and f["index"] == 0]
    assert "".join(f["delta"]["partial_json"] for f in deltas) == '{"query": "top world news today"}'
    for i, delta in enumerate(deltas):
        delta["delta"]["partial_json"] = fragment if i == 0 else ""
    result = run(frames)
    call = result.content[0]
    assert (call.type, call.name, call.provider_executed, call.args) == ("tool-call", "web_search", True, {})
    assert Result.model_validate_json(result.model_dump_json()) == result
