"""The plugins' typed wire frames describe the real wire: every event type of every vendored
recording (tests/corpus) is a member of its protocol's closed union, so no real event reaches a
decoder's skip arm, and every key the recordings carry is named by its TypedDict."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any

import pytest
import typing_extensions
from modelport_anthropic import _wire as anthropic
from modelport_openai import _chat_wire as chat
from modelport_openai import _responses_wire as responses

from modelport_google import _wire as gemini

from .reliability import corpus

#: Raised by the core's SSE parser before a decoder sees it, so in no decoder's union.
SSE_ERRORS = frozenset({"error"})


def members(union: Any) -> dict[str, Any]:
    """Each ``type`` literal of a closed union → the TypedDict it tags."""
    return {
        literal: member
        for member in typing.get_args(union)
        for literal in typing.get_args(typing_extensions.get_type_hints(member)["type"])
    }


def keys(typed: Any) -> frozenset[str]:
    return frozenset(typing_extensions.get_type_hints(typed))


def unnamed(value: Any, typed: Any) -> set[str]:
    return set(value) - keys(typed) if isinstance(value, dict) else set()


def typed_events(protocol: str, union: Any) -> Iterator[tuple[str, dict[str, Any], Any]]:
    """Each recorded event of ``protocol`` (not the SSE parser's errors), with its label and the
    member of ``union`` its type names (``None`` for a type in no member)."""
    tags = members(union)
    for label, stream, _ in corpus.protocol_streams(protocol):
        for frame in stream:
            if frame["type"] not in SSE_ERRORS:
                yield label, frame, tags.get(frame["type"])


def anthropic_gaps() -> Iterator[str]:
    deltas = members(anthropic.Delta)
    for label, frame, member in typed_events("anthropic", anthropic.Frame):
        kind = frame["type"]
        if member is None:
            yield f"{label}: event {kind!r}"
            continue
        yield from (f"{label}: {kind}.{key}" for key in unnamed(frame, member))
        if kind == "content_block_delta":
            delta = frame["delta"]
            if delta["type"] not in deltas:
                yield f"{label}: delta {delta['type']!r}"
            else:
                yield from (f"{label}: delta.{k}" for k in unnamed(delta, deltas[delta["type"]]))
        elif kind == "message_start":
            yield from (f"{label}: message.{k}" for k in unnamed(frame["message"], anthropic.Message))
        elif kind == "message_delta":
            yield from (f"{label}: delta.{k}" for k in unnamed(frame["delta"], anthropic._StopDelta))
    for label, body in corpus.protocol_bodies("anthropic"):
        yield from (f"{label}: body.{key}" for key in unnamed(body, anthropic.Message))


def responses_gaps() -> Iterator[str]:
    for label, frame, member in typed_events("responses", responses.Event):
        if member is None:
            yield f"{label}: event {frame['type']!r}"
        elif member is not responses.Progress:  # Progress: not read, its keys not named
            yield from (f"{label}: {frame['type']}.{key}" for key in unnamed(frame, member))


def chat_gaps() -> Iterator[str]:
    for label, stream, _ in corpus.protocol_streams("chat"):
        for chunk in stream:
            yield from (f"{label}: chunk.{key}" for key in unnamed(chunk, chat.Chunk))
            for choice in chunk.get("choices") or []:
                yield from (f"{label}: choice.{key}" for key in unnamed(choice, chat.ChunkChoice))
                yield from (f"{label}: delta.{key}" for key in unnamed(choice.get("delta"), chat.Delta))


def gemini_gaps() -> Iterator[str]:
    for label, body in corpus.stream_bodies():
        for frame in corpus.sse_frames(body):
            yield from (f"{label}: frame.{key}" for key in unnamed(frame, gemini.GenerateContentResponse))
            for candidate in frame.get("candidates") or []:
                yield from (f"{label}: candidate.{key}" for key in unnamed(candidate, gemini.Candidate))
                for part in (candidate.get("content") or {}).get("parts") or []:
                    yield from (f"{label}: part.{key}" for key in unnamed(part, gemini.Part))


@pytest.mark.parametrize("gaps", [anthropic_gaps, responses_gaps, chat_gaps, gemini_gaps])
def test_the_recordings_fit_the_typed_frames(gaps: Any) -> None:
    assert sorted(set(gaps())) == []


def test_the_unions_are_the_protocols_event_types() -> None:
    assert sorted(members(anthropic.Frame)) == [
        "content_block_delta",
        "content_block_start",
        "content_block_stop",
        "message_delta",
        "message_start",
        "message_stop",
        "ping",
    ]
    assert sorted(members(anthropic.Delta)) == [
        "citations_delta",
        "input_json_delta",
        "signature_delta",
        "text_delta",
        "thinking_delta",
    ]
    read = {kind for kind, member in members(responses.Event).items() if member is not responses.Progress}
    assert sorted(read) == [
        "response.completed",
        "response.created",
        "response.failed",
        "response.function_call_arguments.delta",
        "response.in_progress",
        "response.incomplete",
        "response.output_item.added",
        "response.output_item.done",
        "response.output_text.delta",
        "response.reasoning_summary_text.delta",
        "response.refusal.delta",
    ]
