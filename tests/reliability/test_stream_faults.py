"""Q3 / C9: faults injected through httpx transports.

Each fault gives one exact typed error, and ``error.partial`` carries exactly what had arrived before
it (the text deltas already yielded, the response id); nothing already received is lost. Retries
follow C9: bounded, honouring the server's delay, and never repeating a stream that already yielded
(429 storms and stream retries: test_fault_retries.py). Every streaming fault is checked on the sync
and the async path.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import socket
import threading
import time

import httpx
import pytest

import modelport
from modelport.errors import (
    ModelportError,
    ProviderError,
    ProviderOverloadedError,
    ProviderRateLimitError,
    ProviderRequestError,
    ProviderResponseError,
    ProviderTimeoutError,
    StreamInterruptedError,
)
from modelport.types import TextPart, Usage
from tests.loopback import RawServer

from .conftest import Counting, frame, google, json_response, sse_response, text_frame

HELLO = frame(text_frame("Hello, "))
WORLD = frame(text_frame("world"))
USAGE = {"promptTokenCount": 3, "candidatesTokenCount": 3, "totalTokenCount": 6}
FINISH = frame(text_frame("!", finish="STOP", usage=USAGE))
OK_BODY = {
    "candidates": [{"content": {"role": "model", "parts": [{"text": "fine"}]}, "finishReason": "STOP"}],
    "responseId": "r-ok",
}


def collect(model: modelport.Model, asynchronous: bool) -> tuple[list[str], BaseException | None]:
    """Event types received and the error that ended the stream (``None`` when it finished)."""
    seen: list[str] = []

    async def arun() -> None:
        async for event in model.astream(prompt="hi"):
            seen.append(event.type)

    try:
        if asynchronous:
            asyncio.run(arun())
        else:
            for event in model.stream(prompt="hi"):
                seen.append(event.type)
    except ModelportError as error:
        return seen, error
    return seen, None


def stream_of(*chunks: bytes | BaseException) -> Counting:
    return Counting(lambda request: sse_response(chunks))


def assert_partial(error: BaseException | None, text: str) -> None:
    """``error.partial`` holds exactly ``text`` as one text part, the response id, no finish."""
    assert isinstance(error, ProviderError)
    partial = error.partial
    assert partial is not None
    assert partial.content == [TextPart(text=text)]
    assert partial.text == text
    assert partial.finish_reason == "error"
    assert partial.response_id == "r-1"
    assert partial.model_version == "gemini-2.5-flash"
    assert partial.usage == Usage()


TWO_DELTAS = ["stream-start", "response-metadata", "text-start", "text-delta", "text-delta"]
sync_and_async = pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])


@sync_and_async
def test_a_well_formed_stream_finishes(asynchronous: bool) -> None:
    seen, error = collect(google(stream_of(HELLO, WORLD, FINISH)), asynchronous)
    assert error is None
    assert seen == [*TWO_DELTAS, "text-delta", "text-end", "finish"]


MID_STREAM_RESETS = [
    (
        httpx.ReadError("[Errno 104] Connection reset by peer"),
        "ReadError: [Errno 104] Connection reset by peer",
    ),
    (
        httpx.RemoteProtocolError("peer closed connection without sending complete message body"),
        "RemoteProtocolError: peer closed connection without sending complete message body",
    ),
    (httpx.ReadTimeout("The read operation timed out"), "ReadTimeout: The read operation timed out"),
]


@sync_and_async
@pytest.mark.parametrize("fault, described", MID_STREAM_RESETS, ids=["reset", "protocol", "stall"])
def test_a_transport_error_mid_stream_is_interrupted_with_the_partial(
    asynchronous: bool, fault: httpx.HTTPError, described: str
) -> None:
    transport = stream_of(HELLO, WORLD, fault)
    seen, error = collect(google(transport, max_retries=2), asynchronous)
    assert type(error) is StreamInterruptedError
    assert str(error) == f"google: the stream broke: {described}"
    assert seen == TWO_DELTAS
    assert_partial(error, "Hello, world")
    assert len(transport.requests) == 1  # already yielded: never retried


@sync_and_async
def test_a_truncated_last_frame_is_a_response_error_with_the_partial(asynchronous: bool) -> None:
    seen, error = collect(google(stream_of(HELLO, WORLD, FINISH[:30])), asynchronous)
    assert type(error) is ProviderResponseError
    assert str(error).startswith("google: a stream frame is not valid JSON: Unterminated string")
    assert seen == TWO_DELTAS
    assert_partial(error, "Hello, world")


@sync_and_async
def test_a_frame_split_anywhere_is_reassembled(asynchronous: bool) -> None:
    body = HELLO + WORLD + FINISH
    pieces = [body[i : i + 7] for i in range(0, len(body), 7)]
    seen, error = collect(google(stream_of(*pieces)), asynchronous)
    assert error is None
    assert seen[-1] == "finish"


@sync_and_async
def test_invalid_utf8_in_a_frame_is_a_response_error_with_the_partial(asynchronous: bool) -> None:
    bad = b'data: {"candidates": [{"content": {"parts": [{"text": "caf\xc3"}]}}]}\r\n\r\n'
    seen, error = collect(google(stream_of(HELLO, WORLD, bad, FINISH)), asynchronous)
    assert type(error) is ProviderResponseError
    assert str(error).startswith("google: stream is not valid UTF-8: 'utf-8' codec can't decode byte 0xc3")
    assert seen == TWO_DELTAS
    assert_partial(error, "Hello, world")


@sync_and_async
def test_invalid_utf8_split_across_chunks_is_still_caught(asynchronous: bool) -> None:
    bad = b'data: {"candidates": [{"content": {"parts": [{"text": "\xed\xa0\x80"}]}}]}\r\n\r\n'
    seen, error = collect(google(stream_of(HELLO, bad[:50], bad[50:], FINISH)), asynchronous)
    assert type(error) is ProviderResponseError
    assert "not valid UTF-8" in str(error)
    assert_partial(error, "Hello, ")


ERROR_OBJECTS: list[tuple[str, bytes, type[ProviderError], str]] = [
    (
        "data-500",
        frame({"error": {"code": 500, "message": "Internal error encountered.", "status": "INTERNAL"}}),
        ProviderOverloadedError,
        "google: Internal error encountered. (HTTP 500, INTERNAL)",
    ),
    (
        "data-503",
        frame({"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}),
        ProviderOverloadedError,
        "google: The model is overloaded. (HTTP 503, UNAVAILABLE)",
    ),
    (
        "data-429-retryinfo",
        frame(
            {
                "error": {
                    "code": 429,
                    "message": "Resource exhausted.",
                    "status": "RESOURCE_EXHAUSTED",
                    "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "2s"}],
                }
            }
        ),
        ProviderRateLimitError,
        "google: Resource exhausted. (HTTP 429, RESOURCE_EXHAUSTED, retry after 2s)",
    ),
    (
        # The corpus' Vertex mid-stream error: a bare JSON object, not an SSE event.
        "bare-499",
        b'{\n  "error": {\n    "code": 499,\n    "message": "The operation was cancelled.",\n'
        b'    "status": "CANCELLED"\n  }\n}\n',
        ProviderRequestError,
        "google: The operation was cancelled. (HTTP 499, CANCELLED)",
    ),
]


@sync_and_async
@pytest.mark.parametrize(
    "body, kind, message", [c[1:] for c in ERROR_OBJECTS], ids=[c[0] for c in ERROR_OBJECTS]
)
def test_an_error_object_after_frames_ends_the_stream_with_its_typed_error(
    asynchronous: bool, sleeps: list[float], body: bytes, kind: type[ProviderError], message: str
) -> None:
    transport = stream_of(HELLO, WORLD, body)
    seen, error = collect(google(transport, max_retries=3), asynchronous)
    assert type(error) is kind
    assert str(error) == message
    assert seen == TWO_DELTAS
    assert_partial(error, "Hello, world")
    # Retryable or not, a stream that already yielded is never sent again (C9).
    assert len(transport.requests) == 1
    assert sleeps == []


@sync_and_async
def test_a_stream_without_a_finish_reason_is_interrupted(asynchronous: bool) -> None:
    seen, error = collect(google(stream_of(HELLO, WORLD)), asynchronous)
    assert type(error) is StreamInterruptedError
    assert str(error) == (
        "google: the stream ended before it was complete (a complete stream ends with a frame with "
        "candidates.*.finishReason or promptFeedback.blockReason)"
    )
    assert seen == [*TWO_DELTAS, "text-end"]
    assert_partial(error, "Hello, world")


@sync_and_async
def test_an_empty_200_stream_is_interrupted_with_an_empty_partial(asynchronous: bool) -> None:
    seen, error = collect(google(stream_of()), asynchronous)
    assert type(error) is StreamInterruptedError
    assert str(error) == (
        "google: the stream ended before it was complete (a complete stream ends with a frame with "
        "candidates.*.finishReason or promptFeedback.blockReason)"
    )
    assert seen == []  # the kit ends it before the held stream-start is handed out
    assert error.partial is not None
    assert error.partial.content == []


@sync_and_async
def test_a_stall_before_any_frame_is_retried_then_reported(asynchronous: bool, sleeps: list[float]) -> None:
    transport = stream_of(httpx.ReadTimeout("The read operation timed out"))
    seen, error = collect(google(transport, max_retries=2), asynchronous)
    assert type(error) is ProviderTimeoutError  # an overload's subclass: retried as one
    assert str(error) == (
        "google: timed out waiting for the answer of generativelanguage.googleapis.com:443: "
        "ReadTimeout: The read operation timed out"
    )
    assert error.partial is None
    assert seen == []
    assert len(transport.requests) == 3
    assert len(sleeps) == 2 and 0.25 <= sleeps[0] <= 0.5 and 0.5 <= sleeps[1] <= 1.0


class StallingServer(RawServer):
    """A loopback HTTP server that reads the request, sends the headers and ``first`` frame, then
    stalls until released.

    Bounded in time: it never waits more than five seconds, and the test releases it at once.
    """

    def __init__(self, first: bytes) -> None:
        self.first = first
        self.release = threading.Event()
        super().__init__(self._stall)
        self.port = self.listener.getsockname()[1]

    def _stall(self, connection: socket.socket) -> None:
        head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
        connection.sendall(head + b"%x\r\n%s\r\n" % (len(self.first), self.first))
        self.release.wait(5)

    def close(self) -> None:
        self.release.set()
        super().close()


@pytest.mark.parametrize(
    "mode",
    [
        "sync",
        "httpx",
        pytest.param(
            "aiohttp",
            marks=pytest.mark.skipif(
                importlib.util.find_spec("httpx_aiohttp") is None, reason="no aiohttp extra"
            ),
        ),
    ],
)
def test_a_server_stalling_past_the_read_timeout_is_interrupted(mode: str) -> None:
    """A real socket and the read timeout (sync, and async on httpx's and on the aiohttp transport):
    the stall ends the stream, the frame is kept."""
    server = StallingServer(HELLO)
    try:
        model = modelport.get_model(
            "google/gemini-2.5-flash",
            api_key="test-key",
            base_url=f"http://127.0.0.1:{server.port}/v1beta",
            timeout=httpx.Timeout(5.0, read=0.5),
            max_retries=2,
            **({} if mode == "sync" else {"async_transport": mode}),
        )
        started = time.monotonic()
        seen, error = collect(model, mode != "sync")
        elapsed = time.monotonic() - started
    finally:
        server.close()
    assert type(error) is StreamInterruptedError
    assert str(error).startswith("google: the stream broke: ReadTimeout")
    assert seen == ["stream-start", "response-metadata", "text-start", "text-delta"]
    assert_partial(error, "Hello, ")
    assert elapsed < 4  # the read timeout, not the server, ended it


# --------------------------------------------------------------------------- non-streaming faults


class Broken(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body that sends ``head`` and then fails with ``fault``."""

    def __init__(self, head: bytes, fault: Exception) -> None:
        self.head, self.fault = head, fault

    def __iter__(self):  # type: ignore[override]
        yield self.head
        raise self.fault

    async def __aiter__(self):  # type: ignore[override]
        yield self.head
        raise self.fault


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_reset_while_reading_a_response_body_is_retried_then_reported(
    asynchronous: bool, sleeps: list[float]
) -> None:
    transport = Counting(
        lambda r: httpx.Response(
            200, stream=Broken(b'{"candidates": [', httpx.ReadError("Connection reset by peer"))
        )
    )
    model = google(transport, max_retries=2)
    with pytest.raises(ProviderOverloadedError) as info:
        asyncio.run(model.agenerate(prompt="hi")) if asynchronous else model.generate(prompt="hi")
    assert str(info.value) == "google: request failed: ReadError: Connection reset by peer"
    assert info.value.partial is None
    assert len(transport.requests) == 3
    assert len(sleeps) == 2


def test_a_truncated_response_body_is_a_response_error_and_not_retried(sleeps: list[float]) -> None:
    body = json.dumps(OK_BODY).encode()[:-7]
    transport = Counting(lambda r: httpx.Response(200, content=body))
    with pytest.raises(ProviderResponseError) as info:
        google(transport, max_retries=2).generate(prompt="hi")
    assert str(info.value).startswith("google: the response body is not valid JSON")
    assert len(transport.requests) == 1
    assert sleeps == []


def test_an_http_503_then_success_is_retried_once(sleeps: list[float]) -> None:
    replies = iter(
        [
            json_response(
                {"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}, status=503
            ),
            json_response(OK_BODY),
        ]
    )
    transport = Counting(lambda r: next(replies))
    assert google(transport, max_retries=1).generate(prompt="hi").text == "fine"
    assert len(transport.requests) == 2
    assert len(sleeps) == 1 and 0.25 <= sleeps[0] <= 0.5


@sync_and_async
def test_an_error_object_as_the_first_frame_is_retried_like_an_http_error(
    asynchronous: bool, sleeps: list[float]
) -> None:
    """Nothing was yielded yet (only the held-back stream-start), so C9 allows a retry."""
    overloaded = frame({"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}})

    def handler(request: httpx.Request) -> httpx.Response:
        if len(transport.requests) == 1:
            return sse_response([overloaded])
        return sse_response([HELLO, WORLD, FINISH])

    transport = Counting(handler)
    seen, error = collect(google(transport, max_retries=1), asynchronous)
    assert error is None
    assert seen == [*TWO_DELTAS, "text-delta", "text-end", "finish"]
    assert len(transport.requests) == 2
    assert len(sleeps) == 1


# --------------------------------------------------------------------------- SSE framing variants

_H, _W, _F = (
    json.dumps(text_frame(t, finish=f)).encode()
    for t, f in (("Hello, ", None), ("world", None), ("!", "STOP"))
)
SSE_VARIANTS = {
    "lf": b"data: " + _H + b"\n\ndata: " + _W + b"\n\ndata: " + _F + b"\n\n",
    "crlf": b"data: " + _H + b"\r\n\r\ndata: " + _W + b"\r\n\r\ndata: " + _F + b"\r\n\r\n",
    "comments": b": ping\n\ndata: " + _H + b"\n\n: keep-alive\n\ndata: " + _W + b"\n\ndata: " + _F + b"\n\n",
    "fields": b"event: message\nid: 1\nretry: 1000\ndata: "
    + _H
    + b"\n\nevent: message\ndata: "
    + _W
    + b"\n\ndata: "
    + _F
    + b"\n\n",
    "no-space": b"data:" + _H + b"\n\ndata:" + _W + b"\n\ndata:" + _F + b"\n\n",
    "multi-line data": b"data: "
    + _H.replace(b'}, "index"', b'},\ndata: "index"')
    + b"\n\ndata: "
    + _W
    + b"\n\ndata: "
    + _F
    + b"\n\n",
    "no final blank line": b"data: " + _H + b"\n\ndata: " + _W + b"\n\ndata: " + _F,
    "bom": b"\xef\xbb\xbfdata: " + _H + b"\n\ndata: " + _W + b"\n\ndata: " + _F + b"\n\n",
}


@sync_and_async
@pytest.mark.parametrize(
    "body",
    [
        pytest.param(body, id=name)  # "bom" was a bug found here, fixed: one leading BOM is stripped
        for name, body in SSE_VARIANTS.items()
    ],
)
def test_every_sse_framing_gives_the_same_result(asynchronous: bool, body: bytes) -> None:
    seen, error = collect(google(stream_of(body)), asynchronous)
    assert error is None
    assert seen == [*TWO_DELTAS, "text-delta", "text-end", "finish"]


def test_cr_only_line_ends_are_a_typed_error_not_silence() -> None:
    """SSE allows bare CR line ends; Google never sends them. Whatever the parser does, it is typed."""
    body = b"data: " + _H + b"\r\rdata: " + _W + b"\r\rdata: " + _F + b"\r\r"
    seen, error = collect(google(stream_of(body)), False)
    assert error is None or isinstance(error, ProviderError)


# --------------------------------------------------------------------------- embeddings


def test_a_transient_fault_inside_a_split_embedding_batch_keeps_the_order(sleeps: list[float]) -> None:
    """250 values go out as 100 + 100 + 50; the second request fails once with 503 and is retried."""

    def handler(request: httpx.Request) -> httpx.Response:
        if len(transport.requests) == 2:
            return json_response(
                {"error": {"code": 503, "message": "busy", "status": "UNAVAILABLE"}}, status=503
            )
        batch = json.loads(request.content)["requests"]
        return json_response(
            {"embeddings": [{"values": [float(r["content"]["parts"][0]["text"].split()[1])]} for r in batch]}
        )

    transport = Counting(handler)
    result = google(transport, max_retries=2).embed([f"doc {i}" for i in range(250)])
    assert [e[0] for e in result.embeddings] == [float(i) for i in range(250)]
    assert len(sleeps) == 1
    assert 4 <= len(transport.requests) <= 5  # the failed batch again, perhaps the ones before it too


def test_a_persistent_fault_in_an_embedding_batch_is_typed_and_bounded(sleeps: list[float]) -> None:
    transport = Counting(
        lambda r: json_response(
            {"error": {"code": 503, "message": "busy", "status": "UNAVAILABLE"}}, status=503
        )
    )
    with pytest.raises(ProviderOverloadedError):
        google(transport, max_retries=2).embed([f"doc {i}" for i in range(250)])
    assert len(sleeps) == 2
    assert len(transport.requests) == 3


@sync_and_async
def test_a_leading_bom_split_across_chunks_is_stripped_too(asynchronous: bool) -> None:
    body = SSE_VARIANTS["bom"]
    seen, error = collect(google(stream_of(body[:1], body[1:2], body[2:5], body[5:])), asynchronous)
    assert error is None
    assert seen == [*TWO_DELTAS, "text-delta", "text-end", "finish"]
