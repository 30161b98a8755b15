"""Gemini 3 function calls whose arguments stream (``functionCall.partialArgs`` with ``willContinue``).

MOCK frames, for shapes the recordings lack (numbers, booleans, nulls, quoted names): the real
recordings of this Vertex AI feature (``toolConfig.functionCallingConfig.streamFunctionCallArguments``)
are checked in ``test_streamed_call_recordings.py``. The shapes
follow Google's reference for ``FunctionCall`` (``partialArgs``, ``willContinue``) and ``PartialArg``
(``jsonPath``, ``stringValue``/``numberValue``/``boolValue``/``nullValue``, ``willContinue``); the
values are invented.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from modelport.errors import ProviderResponseError, StreamInterruptedError
from modelport.events import ToolCallDeltaEvent, ToolCallEndEvent, ToolCallStartEvent
from modelport.types import ToolCallPart
from modelport_google._stream import StreamDecoder, merge_frames

from . import corpus as c
from .mock import SSE, model, response

SIGNATURE = "CiQBcsjafAbc="


def frame(*parts: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "modelVersion": "gemini-3-pro-preview", "responseId": "r1"}


def piece(partial: list[dict[str, Any]], *, more: bool, **call: Any) -> dict[str, Any]:
    body: dict[str, Any] = {**call, "partialArgs": partial}
    if more:
        body["willContinue"] = True
    return {"functionCall": body}


FRAMES = [
    frame({**piece([], more=True, name="book_trip"), "thoughtSignature": SIGNATURE}),
    frame(piece([{"jsonPath": "$.city", "stringValue": "San ", "willContinue": True}], more=True)),
    frame(piece([{"jsonPath": "$.city", "stringValue": "Francisco"}], more=True)),
    frame(
        piece(
            [
                {"jsonPath": "$.nights", "numberValue": 3},
                {"jsonPath": "$.options.refundable", "boolValue": True},
                {"jsonPath": "$.options.notes", "nullValue": "NULL_VALUE"},
                {"jsonPath": "$.guests[0].name", "stringValue": 'Ada "A."'},
                {"jsonPath": "$.guests[1].name", "stringValue": "Grace"},
            ],
            more=True,
        )
    ),
    frame(piece([{"jsonPath": "$['tags'][0]", "stringValue": "über"}], more=False)),
    frame({"text": "Booking it."}, finish="STOP"),
]
ARGS = {
    "city": "San Francisco",
    "nights": 3,
    "options": {"refundable": True, "notes": None},
    "guests": [{"name": 'Ada "A."'}, {"name": "Grace"}],
    "tags": ["über"],
}
CALL = ToolCallPart(
    id="call-0", name="book_trip", args=ARGS, provider_metadata={"google": {"thoughtSignature": SIGNATURE}}
)


def decoded(frames: list[dict[str, Any]]) -> list[Any]:
    decoder = StreamDecoder()
    events = [e for f in frames for e in decoder.feed(f)]
    return events + decoder.finish()


def test_pieces_become_a_start_one_delta_each_and_an_end_with_the_whole_call() -> None:
    events = decoded(FRAMES)
    calls = [e for e in events if isinstance(e, (ToolCallStartEvent, ToolCallDeltaEvent, ToolCallEndEvent))]
    assert calls[0] == ToolCallStartEvent(
        id="0",
        call_id="call-0",
        name="book_trip",
        provider_metadata={"google": {"thoughtSignature": SIGNATURE}},
    )
    deltas = [e.delta for e in calls if isinstance(e, ToolCallDeltaEvent)]
    assert deltas == [
        '{"city":"San ',  # the first piece names the call and has no entries yet
        'Francisco"',
        ',"nights":3,"options":{"refundable":true,"notes":null},"guests":[{"name":"Ada \\"A.\\""},'
        '{"name":"Grace"',
        '}],"tags":["über"',  # a container closes when the next entry shows it is complete
        "]}",
    ]
    assert json.loads("".join(deltas)) == ARGS
    assert calls[-1] == ToolCallEndEvent(id="0", part=CALL)


def test_the_streamed_result_equals_the_merged_frames_decode() -> None:
    m, _ = model([response(200, c.sse_body(FRAMES), SSE)], "google/gemini-3-pro-preview")
    result = m.stream(prompt="Book it").result()
    assert result.tool_calls == [CALL]
    assert result.text == "Booking it."
    assert result.finish_reason == "tool-calls"
    merged = merge_frames(FRAMES)
    parts = merged["candidates"][0]["content"]["parts"]
    assert parts[0] == {"functionCall": {"name": "book_trip", "args": ARGS}, "thoughtSignature": SIGNATURE}
    m2, _ = model([response(200, json.dumps(merged).encode())], "google/gemini-3-pro-preview")
    assert m2.generate(prompt="Book it").content == result.content


def test_the_replayed_turn_is_the_whole_call() -> None:
    m, _ = model([response(200, c.sse_body(FRAMES), SSE)], "google/gemini-3-pro-preview")
    result = m.stream(prompt="Book it").result()
    whole = {"functionCall": {"name": "book_trip", "args": ARGS}, "thoughtSignature": SIGNATURE}
    assert result.replay == {"google": {"parts": [whole, {"text": "Booking it."}]}}


def test_a_stream_cut_inside_the_call_raises_with_what_arrived() -> None:
    m, _ = model([response(200, c.sse_body(FRAMES[:3]), SSE)], "google/gemini-3-pro-preview")
    with pytest.raises(StreamInterruptedError) as info:
        m.stream(prompt="Book it").result()
    partial = info.value.partial
    assert partial is not None
    [call] = partial.tool_calls
    assert (call.name, call.args) == ("book_trip", {})
    assert call.provider_metadata == {
        "google": {"thoughtSignature": SIGNATURE},
        "modelport": {"raw_args": '{"city":"San Francisco"'},
    }


def test_a_malformed_json_path_is_a_response_error() -> None:
    bad = [FRAMES[0], frame(piece([{"jsonPath": "city", "stringValue": "x"}], more=False)), FRAMES[-1]]
    m, _ = model([response(200, c.sse_body(bad), SSE)], "google/gemini-3-pro-preview")
    with pytest.raises(ProviderResponseError, match="jsonPath"):
        m.stream(prompt="Book it").result()
