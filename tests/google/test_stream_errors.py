"""Stream faults (G18, C9, Q3): status before SSE parsing, error objects after frames, broken bodies.

Frames are the recorded ones (vercel/ai Apache-2.0, FirebaseExtended/vertexai-sdk-test-data
Apache-2.0, pydantic/pydantic-ai MIT; see tests/corpus/gemini/MANIFEST.md).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from modelport.errors import (
    ProviderOverloadedError,
    ProviderRateLimitError,
    ProviderRequestError,
    ProviderResponseError,
    StreamInterruptedError,
)

from . import corpus as c
from .mock import SSE, model, no_sleep, response

TEXT = "packages__google__src____fixtures____google-text.chunks.txt"
NOT_FOUND = "tests__cassettes__test_embeddings__TestGoogle.test_embed_error.yaml"


def text_frames() -> list[dict]:
    return c.chunks(c.VERCEL, TEXT)


def first_frames_text(n: int) -> str:
    return "".join(f["candidates"][0]["content"]["parts"][0].get("text", "") for f in text_frames()[:n])


def test_404_with_event_stream_content_type_is_checked_before_parsing() -> None:
    body = c.cassette(c.PYDANTIC, NOT_FOUND)[0].body  # the recorded 404 body, served as a stream would be
    m, recorder = model([response(404, body, SSE)], "google/nonexistent-model")
    stream = m.stream(prompt="hi")
    with pytest.raises(ProviderRequestError) as info:
        list(stream)
    assert (info.value.status_code, info.value.provider_status) == (404, "NOT_FOUND")
    assert info.value.partial is None
    assert len(recorder.requests) == 1


def test_stream_503_is_retried_before_the_first_event(monkeypatch: pytest.MonkeyPatch) -> None:
    delays = no_sleep(monkeypatch)
    overloaded = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    m, recorder = model([response(503, overloaded, SSE), response(200, c.sse_body(text_frames()), SSE)])
    result = m.stream(prompt="hi").result()
    assert result.text == first_frames_text(len(text_frames()))
    assert len(recorder.requests) == 2 and len(delays) == 1


def test_stream_429_carries_the_retry_info_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    no_sleep(monkeypatch)
    body = c.raw(c.VERCEL, "packages__google__src____fixtures____google-429-retry-info.json")
    m, _ = model([response(429, body, SSE)], max_retries=0)
    with pytest.raises(ProviderRateLimitError) as info:
        m.stream(prompt="hi").result()
    assert info.value.retry_after == pytest.approx(34.4)


def test_error_object_after_frames_ends_the_stream_with_what_arrived(monkeypatch: pytest.MonkeyPatch) -> None:
    no_sleep(monkeypatch)
    frames = text_frames()[:2]
    error = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    m, recorder = model([response(200, c.sse_body([*frames, error]), SSE)])
    stream = m.stream(prompt="hi")
    with pytest.raises(ProviderOverloadedError) as info:
        list(stream)
    assert info.value.partial is not None
    assert info.value.partial.text == first_frames_text(2)
    assert len(recorder.requests) == 1  # events were yielded: never replayed


def test_bare_json_error_mid_stream_vertex_recording() -> None:
    body = c.raw(c.FIREBASE, "mock-responses__vertexai__streaming-failure-error-mid-stream.txt")
    m, _ = model([response(200, body, SSE)], "google-vertex/gemini-2.0-flash")
    stream = m.stream(prompt="hi")
    with pytest.raises(ProviderRequestError) as info:
        list(stream)
    assert (info.value.status_code, info.value.provider_status) == (499, "CANCELLED")
    assert info.value.message == "The operation was cancelled."
    assert info.value.partial is not None and info.value.partial.text == "First Second "


def test_invalid_utf8_in_a_frame_is_a_response_error() -> None:
    body = (
        c.sse_body(text_frames()[:1])
        + b'data: {"candidates": [{"content": {"parts": [{"text": "\xff"}]}}]}\r\n\r\n'
    )
    m, _ = model([response(200, body, SSE)])
    with pytest.raises(ProviderResponseError, match="UTF-8") as info:
        m.stream(prompt="hi").result()
    assert info.value.partial is not None and info.value.partial.text == first_frames_text(1)


def test_invalid_json_in_a_frame_is_a_response_error() -> None:
    body = c.sse_body(text_frames()[:1]) + b'data: {"candidates": [\r\n\r\n'
    m, _ = model([response(200, body, SSE)])
    with pytest.raises(ProviderResponseError, match="not valid JSON"):
        m.stream(prompt="hi").result()


def test_truncated_stream_without_finish_reason_is_interrupted() -> None:
    m, _ = model([response(200, c.sse_body(text_frames()[:2]), SSE)])
    with pytest.raises(StreamInterruptedError) as info:
        m.stream(prompt="hi").result()
    assert info.value.partial is not None and info.value.partial.text == first_frames_text(2)


class _Broken(httpx.SyncByteStream):
    def __init__(self, chunks: list[bytes], error: Exception | None) -> None:
        self.chunks, self.error = chunks, error

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.error is not None:
            raise self.error


class _ABroken(httpx.AsyncByteStream):
    def __init__(self, chunks: list[bytes], error: Exception) -> None:
        self.chunks, self.error = chunks, error

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        raise self.error


def test_connection_reset_mid_stream_is_interrupted_with_partial() -> None:
    body = c.sse_body(text_frames()[:2])
    broken = httpx.Response(
        200, headers=SSE, stream=_Broken([body], httpx.RemoteProtocolError("peer closed"))
    )
    m, recorder = model([broken])
    with pytest.raises(StreamInterruptedError, match="RemoteProtocolError") as info:
        m.stream(prompt="hi").result()
    assert info.value.partial is not None and info.value.partial.text == first_frames_text(2)
    assert len(recorder.requests) == 1


def test_read_timeout_before_any_frame_is_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    no_sleep(monkeypatch)
    slow = httpx.Response(200, headers=SSE, stream=_Broken([], httpx.ReadTimeout("timed out")))
    m, recorder = model([slow, response(200, c.sse_body(text_frames()), SSE)])
    assert m.stream(prompt="hi").result().finish_reason == "stop"
    assert len(recorder.requests) == 2


def test_connect_error_on_generate_is_retryable(monkeypatch: pytest.MonkeyPatch) -> None:
    no_sleep(monkeypatch)

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    m, recorder = model([refuse, refuse, refuse])
    with pytest.raises(ProviderOverloadedError, match="ConnectError"):
        m.generate(prompt="hi")
    assert len(recorder.requests) == 3


@pytest.mark.asyncio
async def test_async_connection_reset_mid_stream() -> None:
    body = c.sse_body(text_frames()[:2])
    broken = httpx.Response(200, headers=SSE, stream=_ABroken([body], httpx.ReadError("reset")))
    m, _ = model([broken], asynchronous=True)
    with pytest.raises(StreamInterruptedError) as info:
        await m.astream(prompt="hi").result()
    assert info.value.partial is not None and info.value.partial.text == first_frames_text(2)


@pytest.mark.asyncio
async def test_async_404_event_stream() -> None:
    body = c.cassette(c.PYDANTIC, NOT_FOUND)[0].body
    m, _ = model([response(404, body, SSE)], asynchronous=True)
    with pytest.raises(ProviderRequestError):
        await m.astream(prompt="hi").result()


def test_frames_split_across_chunks_and_crlf() -> None:
    body = c.sse_body(text_frames())
    pieces = [body[i : i + 7] for i in range(0, len(body), 7)]
    m, _ = model([httpx.Response(200, headers=SSE, stream=_Broken(pieces, None))])
    assert m.stream(prompt="hi").result().text == first_frames_text(len(text_frames()))
