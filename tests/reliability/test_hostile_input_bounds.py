"""Q4: bounds hold under hostile input.

- grounding metadata: exactly 262,144 bytes (compact UTF-8 JSON) passes, one byte more is a
  ProviderMetadataError, direct and streamed (the bound is checked on the accumulated metadata);
- exact replay history: 4,096 raw parts / 8 MiB pass, one more part or byte is rejected before any
  request, and an over-bound response keeps no replay data (with a warning);
- error excerpts and messages stay bounded whatever the body size;
- retry delays are capped: a ``retryDelay`` of a year raises at once instead of sleeping a year.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import (
    ConfigurationError,
    InvalidRequestError,
    ProviderMetadataError,
    ProviderOverloadedError,
    ProviderRateLimitError,
    ProviderRequestError,
)
from modelport.types import TextPart
from modelport_google.grounding import grounding_metadata

from .conftest import Counting, frame, google, json_response, sse_response, text_frame

METADATA_BOUND = 262_144
REPLAY_PARTS = 4_096
REPLAY_BYTES = 8 * 1024 * 1024


def encoded(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def metadata_of_size(size: int, *, char: str = "x") -> dict[str, Any]:
    """``{"webSearchQueries": [...]}`` whose compact UTF-8 JSON is exactly ``size`` bytes.

    With a multi-byte ``char`` the query is mostly that character, padded with ASCII to the byte.
    """
    overhead = encoded({"webSearchQueries": [""]})
    room = size - overhead
    wide = len(char.encode("utf-8"))
    query = char * (room // wide) + "x" * (room % wide)
    metadata = {"webSearchQueries": [query]}
    assert encoded(metadata) == size
    return metadata


def grounded_body(metadata: dict[str, Any]) -> dict[str, Any]:
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": "Sunny."}]},
                "finishReason": "STOP",
                "groundingMetadata": metadata,
            }
        ]
    }


@pytest.mark.parametrize("char", ["x", "é", "字", "😀"], ids=["ascii", "2-byte", "3-byte", "4-byte"])
def test_grounding_metadata_exactly_at_the_bound_passes(char: str) -> None:
    metadata = metadata_of_size(METADATA_BOUND, char=char)
    result = google(lambda r: json_response(grounded_body(metadata))).generate(prompt="hi")
    assert grounding_metadata(result) == metadata
    assert result.provider_metadata["google"]["groundingMetadata"] == metadata


@pytest.mark.parametrize("char", ["x", "é", "字", "😀"], ids=["ascii", "2-byte", "3-byte", "4-byte"])
def test_grounding_metadata_one_byte_over_the_bound_fails(char: str) -> None:
    metadata = metadata_of_size(METADATA_BOUND + 1, char=char)
    with pytest.raises(ProviderMetadataError) as info:
        google(lambda r: json_response(grounded_body(metadata))).generate(prompt="hi")
    assert str(info.value) == (
        f"google: groundingMetadata is {METADATA_BOUND + 1} bytes encoded, over the {METADATA_BOUND}-byte bound"
    )


def test_the_bound_counts_bytes_not_characters() -> None:
    # 131,100 two-byte characters: far fewer characters than the bound, more bytes.
    metadata = {"webSearchQueries": ["é" * 131_100]}
    with pytest.raises(ProviderMetadataError):
        google(lambda r: json_response(grounded_body(metadata))).generate(prompt="hi")


def grounded_stream(*metadatas: dict[str, Any]) -> list[bytes]:
    """Text frames each carrying one piece of grounding; the last one finishes."""
    frames = []
    for index, metadata in enumerate(metadatas):
        data = text_frame(f"part {index}. ", finish="STOP" if index == len(metadatas) - 1 else None)
        data["candidates"][0]["groundingMetadata"] = metadata
        frames.append(frame(data))
    return frames


def split_queries(total: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two frames whose accumulated ``webSearchQueries`` encode to exactly ``total`` bytes."""
    whole = metadata_of_size(total)["webSearchQueries"][0]
    # Accumulated: {"webSearchQueries":["a…","b…"]} is 3 bytes longer than one query of the same length.
    first, second = whole[: len(whole) // 2], whole[len(whole) // 2 + 3 :]
    accumulated = {"webSearchQueries": [first, second]}
    assert encoded(accumulated) == total
    return {"webSearchQueries": [first]}, {"webSearchQueries": [second]}


def test_streamed_grounding_accumulated_exactly_to_the_bound_passes() -> None:
    one, two = split_queries(METADATA_BOUND)
    stream = google(lambda r: sse_response(grounded_stream({}, one, two))).stream(prompt="hi")
    events = list(stream)
    assert events[-1].type == "finish"
    assert encoded(grounding_metadata(stream.accumulator.result())) == METADATA_BOUND


def test_streamed_grounding_accumulated_past_the_bound_fails_on_that_frame() -> None:
    one, two = split_queries(METADATA_BOUND + 1)
    frames = grounded_stream({}, one, two)
    stream = google(lambda r: sse_response(frames)).stream(prompt="hi")
    with pytest.raises(ProviderMetadataError) as info:
        list(stream)
    assert str(info.value) == (
        f"google: groundingMetadata is {METADATA_BOUND + 1} bytes encoded, over the {METADATA_BOUND}-byte bound"
    )
    assert info.value.partial is not None
    assert info.value.partial.text.startswith("part 0. part 1. ")


def test_a_hostile_stream_cannot_grow_grounding_without_limit() -> None:
    """Many small grounded frames: the stream stops once the accumulated metadata passes the bound."""
    frames = []
    for i in range(400):
        data = text_frame(".")
        data["candidates"][0]["groundingMetadata"] = {
            "groundingChunks": [{"web": {"uri": f"https://example.com/{i:04d}/" + "p" * 1_000, "title": "t"}}]
        }
        frames.append(frame(data))
    transport = Counting(lambda r: sse_response(frames))
    with pytest.raises(ProviderMetadataError) as info:
        list(google(transport).stream(prompt="hi"))
    assert info.value.partial is not None
    arrived = len(info.value.partial.text)
    assert 200 < arrived < 300  # stopped at about 262,144 / 1,050 frames, not after all 400


# --------------------------------------------------------------------------- replay history

USER = {"role": "user", "content": "hi"}


def history(parts: list[dict[str, Any]], content: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    assistant = {
        "role": "assistant",
        "content": content if content is not None else [{"type": "text", "text": "ok"}],
        "provider_metadata": {"google": {"parts": parts}},
    }
    return [USER, assistant, USER]


def ok_response(request: httpx.Request) -> httpx.Response:
    return json_response({"candidates": [{"content": {"parts": [{"text": "fine"}]}, "finishReason": "STOP"}]})


def test_a_replay_history_of_exactly_4096_parts_is_sent() -> None:
    transport = Counting(ok_response)
    parts = [{"text": "a", "thoughtSignature": f"s{i}"} for i in range(REPLAY_PARTS)]
    # The canonical text says what the raw parts say, so they are replayed verbatim (an edited
    # text would be sent as edited instead).
    google(transport).generate(messages=history(parts, [{"type": "text", "text": "a" * REPLAY_PARTS}]))
    assert len(transport.requests) == 1
    sent = json.loads(transport.requests[0].content)["contents"][1]["parts"]
    assert sent == parts


def test_a_replay_history_of_4097_parts_is_rejected_before_sending() -> None:
    transport = Counting(ok_response)
    parts = [{"text": "a"}] * (REPLAY_PARTS + 1)
    with pytest.raises(InvalidRequestError) as info:
        google(transport).generate(messages=history(parts))
    assert str(info.value) == "cannot replay an assistant turn with 4097 raw parts (at most 4096)"
    assert transport.requests == []


def parts_of_bytes(size: int) -> list[dict[str, Any]]:
    parts = [{"text": "x" * (size - encoded([{"text": ""}]))}]
    assert encoded(parts) == size
    return parts


def test_a_replay_history_of_exactly_8_mib_is_sent() -> None:
    transport = Counting(ok_response)
    parts = parts_of_bytes(REPLAY_BYTES)
    google(transport).generate(messages=history(parts, [{"type": "text", "text": parts[0]["text"]}]))
    assert len(transport.requests) == 1


def test_a_replay_history_one_byte_over_8_mib_is_rejected_before_sending() -> None:
    transport = Counting(ok_response)
    parts = parts_of_bytes(REPLAY_BYTES + 1)
    with pytest.raises(InvalidRequestError) as info:
        google(transport).generate(messages=history(parts, [{"type": "text", "text": parts[0]["text"]}]))
    assert (
        str(info.value) == f"cannot replay an assistant turn with more than {REPLAY_BYTES} bytes of raw parts"
    )
    assert transport.requests == []


def test_multibyte_replay_history_is_measured_in_bytes() -> None:
    transport = Counting(ok_response)
    text = "字" * (REPLAY_BYTES // 3)  # 2.8 M characters, 8 MiB + a few bytes
    with pytest.raises(InvalidRequestError):
        google(transport).generate(messages=history([{"text": text}], [{"type": "text", "text": text}]))
    assert transport.requests == []


@pytest.mark.parametrize("count, replayable", [(REPLAY_PARTS, True), (REPLAY_PARTS + 1, False)])
def test_a_response_over_the_replay_bound_keeps_no_replay_data(count: int, replayable: bool) -> None:
    parts = [{"functionCall": {"name": "f", "args": {"i": i}}} for i in range(count)]
    body = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}
    result = google(lambda r: json_response(body)).generate(prompt="hi")
    assert len(result.tool_calls) == count
    if replayable:
        assert result.replay == {"google": {"parts": parts}}
        assert result.warnings == []
    else:
        assert result.replay is None
        assert [w.setting for w in result.warnings] == ["replay"]


# --------------------------------------------------------------------------- error excerpts


@pytest.mark.parametrize("size", [10_000, 5_000_000])
def test_a_huge_error_body_gives_a_bounded_excerpt(size: int) -> None:
    body = b"<html>" + b"x" * size + b"</html>"
    with pytest.raises(ProviderRequestError) as info:
        google(lambda r: httpx.Response(400, content=body)).generate(prompt="hi")
    error = info.value
    assert error.body_excerpt is not None
    assert error.body_excerpt.startswith("<html>xxx")
    # Only the first max_error_body_bytes (64 KiB) of an error body are ever read.
    read = min(len(body), 64 * 1024)
    assert error.body_excerpt.endswith(f"... [{read - 2_000} more characters]")
    assert len(error.body_excerpt) <= 2_100
    assert len(str(error)) < 200


@pytest.mark.parametrize("where", ["http", "stream"])
def test_a_huge_error_message_gives_a_bounded_exception_text(where: str) -> None:
    body = {"error": {"code": 400, "message": "m" * 5_000_000, "status": "INVALID_ARGUMENT"}}
    if where == "http":
        model = google(lambda r: json_response(body, status=400))
        call = lambda: model.generate(prompt="hi")  # noqa: E731
    else:
        model = google(lambda r: sse_response([frame(text_frame("a")), frame(body)]))
        call = lambda: list(model.stream(prompt="hi"))  # noqa: E731
    with pytest.raises(ProviderRequestError) as info:
        call()
    assert len(info.value.body_excerpt or "") <= 2_100
    assert len(str(info.value)) <= 2_500
    assert len(repr(info.value)) <= 2_600


def test_a_huge_invalid_frame_gives_a_bounded_excerpt() -> None:
    garbage = b"data: {" + b"z" * 3_000_000 + b"\r\n\r\n"
    with pytest.raises(Exception) as info:
        list(google(lambda r: sse_response([frame(text_frame("a")), garbage])).stream(prompt="hi"))
    assert len(str(info.value)) < 500
    assert len(getattr(info.value, "body_excerpt", "") or "") <= 2_100


# --------------------------------------------------------------------------- retry delays

YEAR = 365 * 24 * 3600


def retry_info(delay: str) -> httpx.Response:
    return json_response(
        {
            "error": {
                "code": 429,
                "message": "slow down",
                "status": "RESOURCE_EXHAUSTED",
                "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}],
            }
        },
        status=429,
    )


@pytest.mark.parametrize("entry", ["generate", "stream"])
def test_a_retry_delay_of_a_year_does_not_sleep_a_year(sleeps: list[float], entry: str) -> None:
    transport = Counting(lambda r: retry_info(f"{YEAR}s"))
    model = google(transport, max_retries=5)
    with pytest.raises(ProviderRateLimitError) as info:
        model.generate(prompt="hi") if entry == "generate" else list(model.stream(prompt="hi"))
    assert info.value.retry_after == YEAR
    assert sleeps == []
    assert len(transport.requests) == 1


def test_a_retry_after_header_of_a_year_does_not_sleep_a_year(sleeps: list[float]) -> None:
    transport = Counting(
        lambda r: json_response(
            {"error": {"code": 429, "message": "later"}}, status=429, headers={"retry-after": str(YEAR)}
        )
    )
    with pytest.raises(ProviderRateLimitError):
        google(transport, max_retries=5).generate(prompt="hi")
    assert sleeps == []


@pytest.mark.parametrize("delay, slept", [("4.5s", [4.5]), ("5s", [5.0]), ("5.001s", [])])
def test_the_cap_is_configurable(sleeps: list[float], delay: str, slept: list[float]) -> None:
    replies = iter([retry_info(delay), ok_response(None)])  # type: ignore[arg-type]
    transport = Counting(lambda r: next(replies))
    model = google(transport, max_retries=1, max_retry_delay=5.0)
    if slept:
        assert model.generate(prompt="hi").text == "fine"
    else:
        with pytest.raises(ProviderRateLimitError):
            model.generate(prompt="hi")
    assert sleeps == slept


def test_backoff_without_a_server_delay_is_capped(sleeps: list[float]) -> None:
    transport = Counting(
        lambda r: json_response({"error": {"code": 503, "message": "overloaded"}}, status=503)
    )
    with pytest.raises(ProviderOverloadedError):
        google(transport, max_retries=12, max_retry_delay=3.0).generate(prompt="hi")
    assert len(sleeps) == 12
    assert all(0 < delay <= 3.0 for delay in sleeps)
    assert len(transport.requests) == 13


@pytest.mark.parametrize("value", [-1.0, float("-inf")])
def test_a_negative_retry_cap_is_a_configuration_error(value: float) -> None:
    with pytest.raises(ConfigurationError):
        modelport.get_model("google/gemini-2.5-flash", api_key="k", max_retry_delay=value)


def test_a_nan_retry_cap_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError):
        modelport.get_model("google/gemini-2.5-flash", api_key="k", max_retry_delay=float("nan"))


def test_text_that_arrived_is_kept_with_grounding_errors() -> None:
    one, two = split_queries(METADATA_BOUND + 1)
    with pytest.raises(ProviderMetadataError) as info:
        list(google(lambda r: sse_response(grounded_stream(one, two))).stream(prompt="hi"))
    assert info.value.partial is not None
    assert info.value.partial.content[0] == TextPart(text=info.value.partial.text)
