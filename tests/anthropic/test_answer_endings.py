"""Errors by status and type, the in-stream ``event: error``, streams cut short, and stop reasons.

The streams start with the frames of a real recording (vercel ``anthropic-text.chunks.txt``); the
appended ``event: error`` frame is MOCK (the corpus has none): its shape is the one the API
reference documents, ``{"type": "error", "error": {"type": "overloaded_error", ...}}``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from modelport.errors import (
    ProviderOverloadedError,
    ProviderRateLimitError,
    StreamInterruptedError,
)

from . import corpus
from .fakes import message, model, sse

TEXT = "vercel__ai/packages__anthropic__src____fixtures____anthropic-text.chunks.txt"


def recorded_frames() -> list[dict[str, Any]]:
    return corpus.interactions(TEXT)[0].frames()


def streamed_text(frames: list[dict[str, Any]]) -> str:
    return "".join(f["delta"]["text"] for f in frames if f["type"] == "content_block_delta")


OVERLOADED = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_in_stream_overload_is_typed_by_its_type_with_no_status_and_keeps_the_partial(
    asynchronous: bool,
) -> None:
    frames = recorded_frames()
    until = next(i for i, f in enumerate(frames) if f["type"] == "content_block_stop")
    m, _ = model([sse(frames[:until], error=OVERLOADED)])
    with pytest.raises(ProviderOverloadedError) as info:
        if asynchronous:
            asyncio.run(m.astream(prompt="Hi").result())
        else:
            m.stream(prompt="Hi").result()
    error = info.value
    assert error.status_code is None
    assert error.provider_status == "overloaded_error"
    assert "Overloaded" in str(error)
    assert error.partial is not None
    assert error.partial.text == streamed_text(frames[:until])
    assert error.partial.finish_reason == "error"


def test_a_stream_cut_before_message_stop_is_never_complete() -> None:
    frames = recorded_frames()
    cut = [f for f in frames if f["type"] != "message_stop"]
    m, _ = model([sse(cut)])
    with pytest.raises(StreamInterruptedError) as info:
        m.stream(prompt="Hi").result()
    assert info.value.partial is not None
    assert info.value.partial.text == streamed_text(frames)


def test_the_recorded_stream_completes() -> None:
    frames = recorded_frames()
    m, _ = model([sse(frames)])
    result = m.stream(prompt="Hi").result()
    assert (result.text, result.finish_reason, result.raw_finish_reason) == (
        streamed_text(frames),
        "stop",
        "end_turn",
    )


def _error_body(kind: str, text: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": text}, "request_id": "req_011MOCK"}


def test_529_is_an_overload_with_the_request_id() -> None:
    reply = httpx.Response(529, json=_error_body("overloaded_error", "Overloaded"))
    m, _ = model([reply])
    with pytest.raises(ProviderOverloadedError) as info:
        m.generate(prompt="Hi")
    assert (info.value.status_code, info.value.provider_status, info.value.request_id) == (
        529,
        "overloaded_error",
        "req_011MOCK",
    )
    assert info.value.retryable


def test_429_is_a_rate_limit_with_the_server_delay_and_the_header_request_id() -> None:
    body = _error_body("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit")
    del body["request_id"]
    reply = httpx.Response(429, json=body, headers={"retry-after": "17", "request-id": "req_011HEADER"})
    m, _ = model([reply])
    with pytest.raises(ProviderRateLimitError) as info:
        m.generate(prompt="Hi")
    assert (info.value.retry_after, info.value.request_id) == (17.0, "req_011HEADER")


@pytest.mark.parametrize(
    ("stop_reason", "finish"),
    [
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("max_tokens", "length"),
        ("tool_use", "tool-calls"),
        ("pause_turn", "other"),
        ("refusal", "content-filter"),
        ("model_context_window_exceeded", "length"),
        ("a_new_reason", "other"),
    ],
)
def test_stop_reasons_keep_their_raw_value(stop_reason: str, finish: str) -> None:
    m, _ = model([httpx.Response(200, json=message(stop_reason=stop_reason))])
    result = m.generate(prompt="Hi")
    assert (result.finish_reason, result.raw_finish_reason) == (finish, stop_reason)


def test_usage_counts_cache_reads_and_writes_inside_the_input() -> None:
    raw = {
        "input_tokens": 3,
        "cache_creation_input_tokens": 418,
        "cache_read_input_tokens": 1111,
        "output_tokens": 33,
    }
    m, _ = model([httpx.Response(200, json=message(usage=raw))])
    usage = m.generate(prompt="Hi").usage
    assert (usage.input_tokens, usage.cache_write_input_tokens, usage.cache_read_input_tokens) == (
        1532,
        418,
        1111,
    )
    assert (usage.output_tokens, usage.total_tokens) == (33, 1565)


def test_the_key_never_reaches_an_error() -> None:
    from .fakes import KEY

    reply = httpx.Response(401, json=_error_body("authentication_error", f"invalid x-api-key {KEY}"))
    m, _ = model([reply])
    with pytest.raises(Exception) as info:
        m.generate(prompt="Hi")
    assert KEY not in str(info.value) and KEY not in repr(info.value)
    assert KEY not in json.dumps(getattr(info.value, "body", "") or "")
