"""The kit's ``"aws-event-stream-chunks"`` framing (``EventStreamParser(chunks=True)``): an AWS
event stream whose ``chunk`` events carry ``{"bytes": base64(JSON)}`` (Bedrock's
InvokeModelWithResponseStream) gives the JSON frames inside, the same whole and a byte at a time;
an error object inside a chunk is the typed error, bytes that are not base64 or JSON a
``ProviderResponseError``, an event of another type is skipped. The stream is fantasy's recording
of Claude haiku 4.5 on Bedrock (tests/corpus/anthropic-bedrock); the extra frames are MOCK, encoded
by the format's rules."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from modelport.errors import ProviderError, ProviderOverloadedError, ProviderResponseError
from modelport.http import stream_error
from modelport.http.event_stream import CHUNKS, EventStreamParser
from modelport.wire import loads
from tests import recordings
from tests.kit.test_aws_event_stream import frame

STREAM = (
    "charmbracelet__fantasy/providertests__testdata__TestBedrockCommon__"
    "bedrock-anthropic-claude-haiku-4-5__simple_streaming.yaml"
)
EVENT = {":message-type": "event", ":event-type": "chunk", ":content-type": "application/json"}


def recorded() -> bytes:
    data = yaml.safe_load(recordings.anthropic_bedrock(STREAM).read_text(encoding="utf-8"))
    body = data["interactions"][0]["response"]["body"]
    assert isinstance(body, bytes)
    return body


def parser() -> EventStreamParser:
    def on_error(status: int | None, text: str) -> ProviderError:
        return stream_error(loads(text).get("error", {}), provider="acme", body=text)

    return EventStreamParser(provider="acme", on_error=on_error, chunks=True)


def frames_of(chunks: Iterator[bytes]) -> list[Any]:
    p = parser()
    return [f for chunk in chunks for f in p.feed(chunk)] + p.close()


def chunk(payload: dict[str, Any] | str) -> bytes:
    encoded = payload if isinstance(payload, str) else base64.b64encode(json.dumps(payload).encode()).decode()
    return frame(EVENT, json.dumps({"bytes": encoded, "p": "abc"}).encode())


def test_the_framing_is_named_for_third_parties() -> None:
    assert CHUNKS == "aws-event-stream-chunks"


def test_the_recorded_chunks_are_the_anthropic_events_inside() -> None:
    frames = frames_of(iter([recorded()]))
    assert [f["type"] for f in frames] == [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert frames[0]["message"]["id"] == "msg_bdrk_01QTwwkoXQVhw3GTizpNP7Fk"
    assert frames[-1]["amazon-bedrock-invocationMetrics"] == {
        "inputTokenCount": 16,
        "outputTokenCount": 18,
        "invocationLatency": 1743,
        "firstByteLatency": 1608,
    }


def test_one_byte_at_a_time_gives_the_same_frames() -> None:
    body = recorded()
    assert frames_of(body[i : i + 1] for i in range(len(body))) == frames_of(iter([body]))


def test_an_event_of_another_type_is_skipped() -> None:
    other = frame({**EVENT, ":event-type": "somethingNew"}, b'{"x": 1}')
    frames = frames_of(iter([other + chunk({"type": "ping"})]))
    assert frames == [{"type": "ping"}]


def test_an_error_object_inside_a_chunk_is_the_typed_error() -> None:
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    p, got = parser(), []
    with pytest.raises(ProviderOverloadedError) as info:
        for f in p.feed(chunk({"type": "ping"}) + chunk(error)):
            got.append(f)
    assert got == [{"type": "ping"}]
    assert info.value.provider_status == "overloaded_error"


@pytest.mark.parametrize(
    ("payload", "message"),
    [("not base64!", "is not base64"), (base64.b64encode(b"{oops").decode(), "is not JSON")],
)
def test_bytes_that_are_not_base64_or_json_are_a_typed_error(payload: str, message: str) -> None:
    with pytest.raises(ProviderResponseError, match=message):
        frames_of(iter([chunk(payload)]))


def test_a_chunk_without_bytes_is_a_typed_error() -> None:
    with pytest.raises(ProviderResponseError, match="has no base64 'bytes'"):
        frames_of(iter([frame(EVENT, b'{"p": "abc"}')]))
