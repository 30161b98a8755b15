"""The kit's AWS event-stream framing (``modelport.http.event_stream``, ``stream_framing =
"aws-event-stream"``): real ConverseStream bytes (tests/corpus/bedrock, pydantic-ai's recording of
nova-micro) give the same frames whole, a byte at a time and in random chunks; a flipped byte is a
bad CRC and a typed error; a body cut inside a frame, or before the terminal event, raises
``StreamInterruptedError`` with the text that arrived as its partial, never a complete result.

The exception frame is MOCK (no recorded in-stream exception exists): encoded here by the format's
rules (prelude, string headers, CRC32s), its type and message as Bedrock documents them.
"""

from __future__ import annotations

import binascii
import random
import struct
from collections.abc import Iterator
from functools import cache
from typing import Any, ClassVar

import httpx
import pytest
import yaml

import modelport
from modelport import events as ev
from modelport.errors import (
    ConfigurationError,
    ProviderError,
    ProviderRateLimitError,
    ProviderResponseError,
    StreamInterruptedError,
)
from modelport.http import HttpProvider, HttpRequest, StreamEnd
from modelport.http.event_stream import EventStreamParser
from modelport.provider import Capabilities
from modelport.types import Request
from tests import recordings

STREAM = "pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__test_bedrock_model_stream.yaml"
ANSWER = (
    "The capital of France is Paris. Paris is not only the capital city but also the most populous "
    "city in France, and it is a major center for culture, commerce, fashion, and international "
    "diplomacy. Known for its historical landmarks, such as the Eiffel Tower, the Louvre Museum, and "
    'Notre-Dame Cathedral, Paris is often referred to as "The City of Light" or "The City of Love."'
)


@cache
def recorded() -> bytes:
    data = yaml.safe_load(recordings.bedrock(STREAM).read_text(encoding="utf-8"))
    body = data["interactions"][0]["response"]["body"]["string"]
    assert isinstance(body, bytes)
    return body


def frame(headers: dict[str, str], payload: bytes) -> bytes:
    """One event-stream message (string headers only), by the format's rules."""
    encoded = b"".join(
        bytes([len(k)]) + k.encode() + b"\x07" + struct.pack(">H", len(v)) + v.encode()
        for k, v in headers.items()
    )
    total = 12 + len(encoded) + len(payload) + 4
    prelude = struct.pack(">II", total, len(encoded))
    head = prelude + struct.pack(">I", binascii.crc32(prelude))
    message = head + encoded + payload
    return message + struct.pack(">I", binascii.crc32(message))


def parser() -> EventStreamParser:
    def on_error(status: int | None, text: str) -> ProviderError:
        from modelport.http import stream_error
        from modelport.wire import loads

        return stream_error(loads(text), provider="bedrock", body=text)

    return EventStreamParser(provider="bedrock", on_error=on_error)


def frames_of(chunks: Iterator[bytes]) -> list[Any]:
    p = parser()
    out = [f for chunk in chunks for f in p.feed(chunk)]
    return out + p.close()


def test_the_recorded_stream_gives_its_33_frames() -> None:
    frames = frames_of(iter([recorded()]))
    assert len(frames) == 33
    assert frames[0] == {"event": "messageStart", "data": {"p": "abcdefghijklmnopqr", "role": "assistant"}}
    assert frames[-2] == {"event": "messageStop", "data": {"p": "abcdefghijklmno", "stopReason": "end_turn"}}
    assert frames[-1]["data"]["usage"] == {
        "inputTokens": 13,
        "outputTokens": 82,
        "serverToolUsage": {},
        "totalTokens": 95,
    }
    text = "".join(f["data"]["delta"]["text"] for f in frames if f["event"] == "contentBlockDelta")
    assert text == ANSWER


def test_one_byte_at_a_time_gives_the_same_frames() -> None:
    body = recorded()
    assert frames_of(body[i : i + 1] for i in range(len(body))) == frames_of(iter([body]))


@pytest.mark.parametrize("seed", range(20))
def test_random_chunks_give_the_same_frames(seed: int) -> None:
    body, rng = recorded(), random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(body)), rng.randint(1, 60)))
    chunks = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)])]
    assert frames_of(iter(chunks)) == frames_of(iter([body]))


@pytest.mark.parametrize("where", ["prelude", "payload", "message crc"])
def test_a_flipped_byte_is_a_bad_crc_after_the_frames_before_it(where: str) -> None:
    body = bytearray(recorded())
    second = struct.unpack(">I", body[:4])[0]  # the second frame starts here
    size = struct.unpack(">I", body[second : second + 4])[0]
    offset = {"prelude": second + 2, "payload": second + 120, "message crc": second + size - 1}[where]
    body[offset] ^= 0x01
    p, got = parser(), []
    with pytest.raises(ProviderResponseError) as info:
        for f in p.feed(bytes(body)):
            got.append(f)
    assert got == [{"event": "messageStart", "data": {"p": "abcdefghijklmnopqr", "role": "assistant"}}]
    assert "malformed AWS event-stream frame: ChecksumMismatch" in str(info.value)


def test_a_payload_that_is_not_json_is_a_typed_error() -> None:
    body = frame({":message-type": "event", ":event-type": "messageStart"}, b"{not json")
    with pytest.raises(ProviderResponseError, match="payload is not JSON"):
        list(parser().feed(body))


def test_a_frame_over_the_bound_is_a_typed_error_before_it_is_whole() -> None:
    p = EventStreamParser(provider="bedrock", on_error=lambda s, t: ProviderError(t), max_frame_bytes=100)
    with pytest.raises(ProviderResponseError, match="larger than 100 bytes"):
        list(p.feed(recorded()[: 143 + 150]))  # the first frame whole, 150 bytes of the second


def test_an_exception_frame_is_the_typed_error_its_type_means() -> None:
    body = recorded()[:143] + frame(  # MOCK: messageStart as recorded, then a throttling exception
        {
            ":message-type": "exception",
            ":exception-type": "throttlingException",
            ":content-type": "application/json",
        },
        b'{"message":"Too many requests, please wait before trying again."}',
    )
    p, got = parser(), []
    with pytest.raises(ProviderRateLimitError) as info:
        for f in p.feed(body):
            got.append(f)
    assert len(got) == 1
    assert info.value.provider_status == "throttlingException"
    assert (
        str(info.value)
        == "bedrock: Too many requests, please wait before trying again. (throttlingException)"
    )
    assert info.value.status_code is None


def test_a_body_cut_inside_a_frame_is_interrupted_at_close() -> None:
    p = parser()
    assert len(list(p.feed(recorded()[:200]))) == 1
    with pytest.raises(StreamInterruptedError, match="ended inside a frame"):
        p.close()


# Through the kit: a provider that chooses the framing ----------------------------------------------


class Decoder:
    def __init__(self) -> None:
        self.open = False

    def feed(self, frame: Any) -> Iterator[ev.StreamEvent]:
        if frame["event"] == "contentBlockDelta":
            if not self.open:
                self.open = True
                yield ev.TextStartEvent(id="t")
            yield ev.TextDeltaEvent(id="t", delta=frame["data"]["delta"]["text"])

    def finish(self) -> Iterator[ev.StreamEvent]:
        if self.open:
            yield ev.TextEndEvent(id="t")
        yield ev.FinishEvent(finish_reason="stop")


class FramedProvider(HttpProvider):
    id: ClassVar[str] = "framed"
    default_base_url: ClassVar[str | None] = "https://bedrock-runtime.us-east-1.amazonaws.com"
    api_key_required: ClassVar[bool] = False
    capabilities: ClassVar[Capabilities] = Capabilities(generate=False, stream=True)
    stream_framing: ClassVar[str] = "aws-event-stream"
    stream_end: ClassVar[StreamEnd | None] = StreamEnd(
        kind="event", terminal=frozenset({"metadata"}), required=frozenset({"messageStop"})
    )

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        return HttpRequest(f"/model/{model_name}/converse-stream", {"messages": []}, stream=stream)

    def stream_decoder(self, spec: HttpRequest) -> Decoder:
        return Decoder()


class Plugin:
    @modelport.hookimpl
    def modelport_register_providers(self, register: Any) -> None:
        register(FramedProvider)


@pytest.fixture
def framed(fresh_registry: None) -> None:
    modelport.register_plugin(Plugin(), name="framed")


def stream_text(body: bytes, *, asynchronous: bool, chunk: int = 7) -> str:
    def handler(request: httpx.Request) -> httpx.Response:
        pieces = [body[i : i + chunk] for i in range(0, len(body), chunk)]
        return httpx.Response(
            200,
            stream=httpx.ByteStream(b"".join(pieces)),
            headers={"content-type": "application/vnd.amazon.eventstream"},
        )

    model = modelport.get_model("framed/m", transport=httpx.MockTransport(handler), max_retries=0)
    if asynchronous:
        import asyncio

        async def consume() -> str:
            s = model.astream(prompt="Hi")
            async for _ in s:
                pass
            return (await s.result()).text

        return asyncio.run(consume())
    s = model.stream(prompt="Hi")
    for _ in s:
        pass
    return s.result().text


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_provider_streams_the_recorded_body_whole(framed: None, asynchronous: bool) -> None:
    assert stream_text(recorded(), asynchronous=asynchronous) == ANSWER


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("cut", [3000, 6500], ids=["inside-a-frame", "before-the-metadata-frame"])
def test_a_cut_stream_keeps_its_partial_and_is_not_complete(
    framed: None, asynchronous: bool, cut: int
) -> None:
    body = recorded()
    body = body[: _last_frame_start(body)] if cut == 6500 else body[:cut]
    with pytest.raises(StreamInterruptedError) as info:
        stream_text(body, asynchronous=asynchronous)
    partial = info.value.partial
    assert partial is not None
    assert partial.text and ANSWER.startswith(partial.text)
    assert partial.finish_reason != "stop"


def _last_frame_start(body: bytes) -> int:
    offset = 0
    while True:
        size = struct.unpack(">I", body[offset : offset + 4])[0]
        if offset + size >= len(body):
            return offset
        offset += size


def test_an_unknown_framing_is_a_configuration_error(fresh_registry: None) -> None:
    class Odd(FramedProvider):
        id: ClassVar[str] = "odd-framing"
        stream_framing: ClassVar[str] = "carrier-pigeon"

    class OddPlugin:
        @modelport.hookimpl
        def modelport_register_providers(self, register: Any) -> None:
            register(Odd)

    modelport.register_plugin(OddPlugin(), name="odd")
    model = modelport.get_model("odd-framing/m", transport=httpx.MockTransport(lambda r: httpx.Response(500)))
    with pytest.raises(ConfigurationError, match="stream_framing must be one of"):
        list(model.stream(prompt="Hi"))
