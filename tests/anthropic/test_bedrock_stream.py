"""``anthropic-bedrock``'s stream: an AWS event stream whose ``chunk`` events carry the base64 of
Anthropic stream events (fantasy's recording of Claude haiku 4.5, tests/corpus/anthropic-bedrock),
the same events whole, in 1-byte and in random pieces, sync and async; a flipped byte is a bad CRC,
a cut body keeps its partial, an exception frame (MOCK: none is recorded) is the typed error."""

from __future__ import annotations

import random

import httpx
import pytest

import modelport
from modelport.errors import ProviderRateLimitError, ProviderResponseError, StreamInterruptedError
from tests.kit.test_aws_event_stream import frame

from .test_bedrock import (
    ACCESS,
    HAIKU,
    HAIKU_TEXT,
    HI,
    OPUS,
    STREAM,
    TOOL,
    answering,
    keys,
    pieces,
    recorded,
    stream_events,
)

# The chunked event stream ------------------------------------------------------------------------


def test_the_recorded_stream_decodes_as_the_anthropic_stream() -> None:
    events = stream_events(recorded(STREAM)[1])
    text = "".join(e.delta for e in events if e.type == "text-delta")
    assert text == HAIKU_TEXT
    finish = events[-1]
    assert (finish.type, finish.finish_reason, finish.usage.input_tokens, finish.usage.output_tokens) == (
        "finish",
        "stop",
        16,
        18,
    )
    assert [e.type for e in events if e.type == "response-metadata"] == ["response-metadata"]


def test_one_byte_and_random_pieces_give_the_same_events() -> None:
    body = recorded(STREAM)[1]
    whole = [e.model_dump() for e in stream_events(body)]
    one = [e.model_dump() for e in stream_events(pieces(body, iter(lambda: 1, 0)))]
    rng = random.Random(38)
    scattered = [e.model_dump() for e in stream_events(pieces(body, iter(lambda: rng.randint(1, 97), 0)))]
    assert one == whole and scattered == whole
    assert len(whole) == 9  # stream-start, response-metadata, text start, 4 deltas, text end, finish


def test_a_flipped_byte_is_a_bad_crc_after_the_events_before_it() -> None:
    body = bytearray(recorded(STREAM)[1])
    second = int.from_bytes(body[:4], "big")  # the second frame begins after the first's length
    body[second + 40] ^= 0x01
    stream = modelport.get_model(HAIKU, transport=answering(bytes(body)), max_retries=0, **keys()).stream(
        messages=HI, max_output_tokens=4000
    )
    seen = []
    with pytest.raises(ProviderResponseError, match="malformed AWS event-stream frame: ChecksumMismatch"):
        for event in stream:
            seen.append(event.type)
    assert "response-metadata" in seen and "text-delta" not in seen


def test_a_stream_cut_inside_a_frame_keeps_the_partial() -> None:
    body = recorded(STREAM)[1]
    cut = body[: len(body) - 300]
    stream = modelport.get_model(HAIKU, transport=answering(cut), max_retries=0, **keys()).stream(
        messages=HI, max_output_tokens=4000
    )
    with pytest.raises(StreamInterruptedError) as info:
        list(stream)
    partial = info.value.partial
    assert partial is not None and partial.text and HAIKU_TEXT.startswith(partial.text)


def test_an_exception_frame_mid_stream_is_the_typed_error_after_the_text() -> None:
    body = recorded(STREAM)[1]
    first_three = 0
    for _ in range(4):  # message_start, content_block_start and the first two deltas, as recorded
        first_three += int.from_bytes(body[first_three : first_three + 4], "big")
    mocked = body[:first_three] + frame(  # MOCK: Bedrock's documented in-stream throttling exception
        {
            ":message-type": "exception",
            ":exception-type": "throttlingException",
            ":content-type": "application/json",
        },
        b'{"message":"Too many requests, please wait before trying again."}',
    )
    stream = modelport.get_model(HAIKU, transport=answering(mocked), max_retries=0, **keys()).stream(
        messages=HI, max_output_tokens=4000
    )
    deltas = []
    with pytest.raises(ProviderRateLimitError) as info:
        for event in stream:
            if event.type == "text-delta":
                deltas.append(event.delta)
    assert deltas == ["Olá! ", "👋"]
    assert info.value.provider_status == "throttlingException"


def test_async_calls_are_signed_and_stream_alike() -> None:
    import asyncio

    _, whole = recorded(TOOL, 1)
    _, streamed = recorded(STREAM)
    seen: list[httpx.Request] = []

    async def run() -> tuple[str, str]:
        one = modelport.get_model(OPUS, transport=answering(whole, seen=seen), **keys())
        two = modelport.get_model(HAIKU, transport=answering(streamed, seen=seen), **keys())
        result = await one.agenerate(prompt="Hi")
        stream = two.astream(messages=HI, max_output_tokens=4000)
        async for _ in stream:
            pass
        return result.text, (await stream.result()).text

    text, streamed_text = asyncio.run(run())
    assert text.startswith("The current weather in **Florence, Italy** is **40°C** (104°F).")
    assert streamed_text == HAIKU_TEXT
    assert [r.url.path.rsplit("/", 1)[-1] for r in seen] == ["invoke", "invoke-with-response-stream"]
    assert all(r.headers["authorization"].startswith(f"AWS4-HMAC-SHA256 Credential={ACCESS}/") for r in seen)
