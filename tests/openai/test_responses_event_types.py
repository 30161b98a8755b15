"""The Responses stream decoder's event dispatch (a match on the closed union of
modelport_openai._responses_wire): an event type newer than the decoder is skipped, and a frame
without a type is a typed error that keeps what arrived.

Frames: Mirascope ``test_max_tokens__openai_gpt_4o_responses__stream`` (tests/corpus/openai-responses);
the added frames are the test's.
"""

from __future__ import annotations

from typing import Any

import pytest

from modelport.errors import ProviderResponseError

from . import responses_corpus as corpus
from .test_responses_endings import MAX_TOKENS, stream


def recorded() -> list[dict[str, Any]]:
    return corpus.exchanges(MAX_TOKENS)[0].frames()


def after_last_text_delta(frames: list[dict[str, Any]], frame: dict[str, Any]) -> list[dict[str, Any]]:
    at = max(i for i, f in enumerate(frames) if f["type"] == "response.output_text.delta")
    return [*frames[: at + 1], frame, *frames[at + 1 :]]


def test_an_event_type_newer_than_the_decoder_is_skipped() -> None:
    expected = stream(recorded())
    future = {"type": "response.output_text.highlight", "item_id": "x", "sequence_number": 0}  # MOCK
    result = stream(after_last_text_delta(recorded(), future))
    assert (result.text, result.finish_reason, result.warnings) == (
        expected.text,
        expected.finish_reason,
        expected.warnings,
    )
    assert result.text


def test_a_frame_without_a_type_is_a_typed_error_keeping_what_arrived() -> None:
    expected = stream(recorded())
    untyped = {"item_id": "x", "delta": "lost"}
    with pytest.raises(
        ProviderResponseError, match=r"^openai-responses: the response could not be decoded: KeyError"
    ) as info:
        stream(after_last_text_delta(recorded(), untyped))
    partial = info.value.partial
    assert partial is not None and partial.text == expected.text
