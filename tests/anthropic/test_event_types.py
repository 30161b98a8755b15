"""The Messages stream decoder's event dispatch (a match on the closed union of
modelport_anthropic._wire): an event or delta type newer than the decoder is skipped, as the
API's versioning policy asks, and a frame that is no event (no ``type``) is a typed error that
keeps what arrived.

Frames: vercel ``anthropic-text.chunks.txt`` (tests/corpus/anthropic); the added frames are the
test's.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from modelport.errors import ProviderResponseError

from .fakes import SSE, model
from .test_stream_damage import ANSWER, run, text_frames


def named_sse(frames: list[dict[str, Any]]) -> httpx.Response:
    """An SSE body whose ``event:`` lines name a content delta where a frame has no type."""
    text = "".join(
        f"event: {f.get('type', 'content_block_delta')}\ndata: {json.dumps(f)}\n\n" for f in frames
    )
    return httpx.Response(200, headers=SSE, content=text.encode())


def test_an_event_type_newer_than_the_decoder_is_skipped() -> None:
    frames = text_frames()
    frames.insert(3, {"type": "content_block_flush", "index": 0})  # MOCK: a future event type
    result = run(frames)
    assert (result.text, result.finish_reason, result.warnings) == (ANSWER, "stop", [])


def test_a_delta_type_newer_than_the_decoder_is_skipped() -> None:
    frames = text_frames()
    future = {"type": "content_block_delta", "index": 0, "delta": {"type": "emphasis_delta"}}  # MOCK
    frames.insert(3, future)
    result = run(frames)
    assert (result.text, result.finish_reason, result.warnings) == (ANSWER, "stop", [])


@pytest.mark.parametrize(
    "frame",
    [{"index": 0, "delta": {"type": "text_delta", "text": "x"}}, {"type": "content_block_delta", "index": 0}],
    ids=["no-type", "delta-without-delta"],
)
def test_a_frame_that_is_no_event_is_a_typed_error_keeping_what_arrived(frame: dict[str, object]) -> None:
    frames = text_frames()
    at = max(i for i, f in enumerate(frames) if f["type"] == "content_block_delta")
    frames.insert(at + 1, frame)
    with pytest.raises(
        ProviderResponseError, match=r"^anthropic: the response could not be decoded: KeyError"
    ) as info:
        model([named_sse(frames)])[0].stream(prompt="Hi").result()
    partial = info.value.partial
    assert partial is not None and partial.text == ANSWER
