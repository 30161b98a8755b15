"""Q1: decoders are total over mutated real responses.

Real recorded Gemini responses (tests/corpus/gemini, vendored) are mutated structurally (fields dropped,
retyped, duplicated, truncated, emptied, hostile text, huge lists) and byte-wise (truncation, random
bytes, invalid UTF-8, flipped and deleted bytes, deep nesting, ``NaN`` literals), then fed to the
non-streaming and streaming decoders through the public API (sync and async, the body delivered in
random chunks) and to the pure decoders (``decode_response``, ``StreamDecoder``, ``merge_frames``,
``error_from_response``, the grounding envelope's ``decode``, embeddings). Every input yields a result
or a typed :class:`~modelport.errors.ModelportError`, never a bare ``KeyError``/``TypeError``/
``IndexError``/``UnicodeDecodeError``/``RecursionError``; every result and partial result
round-trips through JSON (C5), its citations fit its text (S8), and a stream damaged the way a real
server could damage it still accumulates to the decode of its merged frames (K4).

Sizes: each property runs the profile's ``max_examples`` (``ci``: 200), the slower public-API ones a
fraction of it; ``HYPOTHESIS_PROFILE=long`` runs 100 times more (see docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import json
import math
import re
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modelport
from modelport import Result
from modelport.errors import (
    ModelportError,
    ProviderError,
    ProviderMetadataError,
    ProviderRequestError,
    ProviderResponseError,
    StreamInterruptedError,
)
from modelport.events import StreamAccumulator
from modelport_conformance.invariants import check_stream_well_formed
from modelport_google.grounding import grounding_metadata
from tests import recordings

from . import corpus
from .conftest import frame as frame_bytes
from .conftest import google, sse_response
from .mutate import PLAUSIBLE, chunked, dumps, mutated_bytes, mutated_json

UNARY = corpus.unary_bodies()
STREAMS = tuple((label, corpus.sse_frames(body)) for label, body in corpus.stream_bodies())
ERROR_BODIES: tuple[Any, ...] = tuple(
    json.loads(recordings.gemini(name).read_bytes())
    for name in (
        "FirebaseExtended__vertexai-sdk-test-data/mock-responses__googleai__unary-failure-api-key.json",
        "FirebaseExtended__vertexai-sdk-test-data/mock-responses__vertexai__unary-failure-quota-exceeded.json",
        "vercel__ai/packages__google__src____fixtures____google-429-retry-info.json",
        "vercel__ai/packages__google__src____fixtures____issue-8943-gemini-2.5-flash-error.json",
        "vercel__ai/packages__google__src____fixtures____google-embedding-batch-limit-error.json",
    )
)


def scaled(fraction: float) -> settings:
    """The loaded profile's settings with ``fraction`` of its examples (the slower public-API tests)."""
    current = settings()
    return settings(
        current,
        max_examples=max(10, int(current.max_examples * fraction)),
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
        deadline=None,
    )


def assert_round_trips(result: Result) -> None:
    """C5: what the SDK exposes persists exactly."""
    assert Result.model_validate_json(result.model_dump_json()) == result


def assert_sound(result: Result) -> None:
    """A decoded result persists (C5), its citations fit its text and sources (S8), and it renders."""
    assert_round_trips(result)
    numbers = {source.number for source in result.sources}
    for citation in result.citations:
        assert 0 <= citation.start <= citation.end <= len(result.text)
        assert set(citation.sources) <= numbers
    modelport.cite(result).with_sources()


#: What a Gemini decoder says of input it cannot use: ``google: <what was wrong>`` (one bounded
#: line, never a bare Python error or a repr of the input).
FAILURE = re.compile(r"google: [^\s].{0,1200}")


def assert_typed_failure(error: ModelportError, *kinds: type[ProviderError]) -> None:
    """A decoder's failure: one of ``kinds`` (a response error unless given), naming the provider,
    with no HTTP status (the answer was a 200), its message in the shape above."""
    assert isinstance(error, kinds or (ProviderResponseError, ProviderMetadataError)), repr(error)
    assert error.provider == "google" and error.status_code is None, repr(error)
    assert FAILURE.fullmatch(str(error)), str(error)


# --------------------------------------------------------------------------- strategies


@st.composite
def unary_body(draw: st.DrawFn) -> bytes:
    """A real ``generateContent`` body, mutated structurally and (half the time) byte-wise."""
    _, document = draw(st.sampled_from(UNARY))
    data = dumps(draw(mutated_json(document)), ascii=draw(st.booleans()))
    if draw(st.booleans()):
        data = draw(mutated_bytes(data))
    return data


@st.composite
def stream_chunks(draw: st.DrawFn) -> list[bytes]:
    """A real SSE stream with mutated frames (and bytes), delivered in random chunks."""
    _, frames = draw(st.sampled_from(STREAMS))
    frames = draw(mutated_json(frames))
    if not isinstance(frames, list):
        frames = [frames]
    ascii_ = draw(st.booleans())
    newline = draw(st.sampled_from([b"\r\n\r\n", b"\n\n"]))
    data = b"".join(b"data: " + dumps(f, ascii=ascii_) + newline for f in frames)
    if draw(st.booleans()):
        data = draw(mutated_bytes(data))
    return draw(chunked(data))


# --------------------------------------------------------------------------- public API


def generate(
    body: bytes, asynchronous: bool, status: int = 200, headers: dict[str, str] | None = None
) -> Result:
    model = google(lambda request: httpx.Response(status, content=body, headers=headers or {}))
    if asynchronous:
        return asyncio.run(model.agenerate(prompt="hi"))
    return model.generate(prompt="hi")


def stream(
    chunks: list[bytes], asynchronous: bool
) -> tuple[list[Any], StreamAccumulator, BaseException | None]:
    model = google(lambda request: sse_response(chunks))
    events: list[Any] = []

    async def consume() -> StreamAccumulator:
        result_stream = model.astream(prompt="hi")
        async for event in result_stream:
            events.append(event)
        return result_stream.accumulator

    try:
        if asynchronous:
            return events, asyncio.run(consume()), None
        result_stream = model.stream(prompt="hi")
        for event in result_stream:
            events.append(event)
        return events, result_stream.accumulator, None
    except ModelportError as error:
        return events, StreamAccumulator(), error


@scaled(1.0)
@given(body=unary_body(), asynchronous=st.booleans())
def test_mutated_responses_decode_or_fail_typed(body: bytes, asynchronous: bool) -> None:
    try:
        result = generate(body, asynchronous)
    except ModelportError:
        return
    assert_sound(result)


@scaled(0.5)
@given(chunks=stream_chunks(), asynchronous=st.booleans())
def test_mutated_streams_decode_or_fail_typed(chunks: list[bytes], asynchronous: bool) -> None:
    events, accumulator, error = stream(chunks, asynchronous)
    deltas = "".join(e.delta for e in events if e.type == "text-delta")
    assert not events or not check_stream_well_formed(events, finished=error is None)
    if error is None:
        assert events[-1].type == "finish"
        result = accumulator.result()
        assert result.text == deltas
        assert_sound(result)
        return
    if any(e.type != "stream-start" for e in events):
        # Something arrived: the error carries it, and nothing received is lost.
        assert isinstance(error, ProviderError)
        assert error.partial is not None
        assert error.partial.text == deltas
        assert_round_trips(error.partial)


@scaled(0.5)
@given(body=st.binary(max_size=512), asynchronous=st.booleans())
def test_random_bytes_as_a_response_fail_typed(body: bytes, asynchronous: bool) -> None:
    try:
        assert_round_trips(generate(body, asynchronous))
    except ModelportError as error:
        assert_typed_failure(error)


@scaled(0.5)
@given(
    chunks=st.lists(st.binary(min_size=1, max_size=64), max_size=6),
    prefix=st.sampled_from([b"", b"data: ", b"data: {"]),
)
def test_random_bytes_in_a_stream_fail_typed(chunks: list[bytes], prefix: bytes) -> None:
    stream([prefix, *chunks], asynchronous=False)


@st.composite
def error_response(draw: st.DrawFn) -> tuple[int, bytes, dict[str, str]]:
    status = draw(
        st.one_of(st.sampled_from([400, 401, 403, 404, 429, 499, 500, 503, 504]), st.integers(300, 599))
    )
    body = dumps(draw(mutated_json(draw(st.sampled_from(ERROR_BODIES)))), ascii=True)
    if draw(st.booleans()):
        body = draw(mutated_bytes(body))
    headers = {}
    retry_after = draw(
        st.one_of(
            st.none(),
            st.sampled_from(
                [
                    "0",
                    "1",
                    "34.4",
                    "-5",
                    "1e400",
                    "nan",
                    "inf",
                    "soon",
                    "",
                    "Wed, 21 Oct 2015 07:28:00 GMT",
                    "Fri, 31 Dec 9999 23:59:59 GMT",
                ]
            ),
            st.text(alphabet="0123456789.e-+ ,:GMT", max_size=12),
        )
    )
    if retry_after is not None:
        headers["retry-after"] = retry_after
    return status, body, headers


@scaled(1.0)
@given(case=error_response(), asynchronous=st.booleans())
def test_mutated_error_bodies_give_typed_provider_errors(
    case: tuple[int, bytes, dict[str, str]], asynchronous: bool
) -> None:
    status, body, headers = case
    with pytest.raises(ProviderError) as info:
        generate(body, asynchronous, status=status, headers=headers)
    error = info.value
    assert error.status_code == status
    assert error.retry_after is None or (math.isfinite(error.retry_after) and error.retry_after >= 0)
    assert error.body_excerpt is None or len(error.body_excerpt) <= 2_100


# Two real 3,072-value embeddings, cut to 8 values each to keep examples small.
EMBEDDINGS: tuple[Any, ...] = (
    {"embeddings": [{"values": e["values"][:8]} for e in corpus.embedding_body()["embeddings"]]},
)


@scaled(0.5)
@given(data=st.data())
def test_mutated_embedding_responses_decode_or_fail_typed(data: st.DataObject) -> None:
    body = dumps(data.draw(mutated_json(EMBEDDINGS[0])), ascii=True)
    if data.draw(st.booleans()):
        body = data.draw(mutated_bytes(body))
    model = google(lambda request: httpx.Response(200, content=body))
    try:
        result = model.embed(["first document", "second document"])
    except ModelportError:
        return
    assert len(result.embeddings) == 2
    assert all(isinstance(v, float) and math.isfinite(v) for e in result.embeddings for v in e)


@functools.cache
def _grounded_envelope() -> dict[str, Any]:
    from modelport_google.grounding import envelope

    body = dict(
        next(
            b
            for label, b in UNARY
            if label == "mock-responses__googleai__unary-success-google-search-grounding.json"
        )
    )
    result = google(lambda request: httpx.Response(200, json=body)).generate(prompt="hi")
    stored = envelope.build_envelope(result, grounding_metadata(result))
    outcome, safe = envelope.decode(stored)
    assert outcome.result == result and safe["metadata"] == grounding_metadata(result)
    return stored


@scaled(0.5)
@given(data=st.data())
def test_mutated_grounding_envelopes_decode_or_fail_typed(data: st.DataObject) -> None:
    """S6's ``decode`` reads envelopes back from storage or callbacks: untrusted input, so total too."""
    from modelport_google.grounding import envelope

    mutated = data.draw(mutated_json(_grounded_envelope()))
    form = data.draw(st.sampled_from(["mapping", "text", "bytes"]))
    stored: Any = mutated
    if form != "mapping":
        stored = dumps(mutated, ascii=data.draw(st.booleans()))
        if form == "text":
            stored = stored.decode("utf-8", errors="surrogatepass")
        elif data.draw(st.booleans()):
            stored = data.draw(mutated_bytes(stored))
    try:
        outcome, safe = envelope.decode(stored)
    except ModelportError:
        return
    if outcome.result is not None:
        assert_round_trips(outcome.result)
    assert json.loads(json.dumps(safe, allow_nan=False)) == safe


# --------------------------------------------------------------------------- pure decoders


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_pure_decode_response_is_total(data: st.DataObject) -> None:
    from modelport_google._decode import decode_response

    _, document = data.draw(st.sampled_from(UNARY))
    try:
        decode_response(data.draw(mutated_json(document)))
    except ModelportError as error:
        assert_typed_failure(error)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_pure_stream_decoder_is_total(data: st.DataObject) -> None:
    from modelport_google._stream import StreamDecoder

    _, frames = data.draw(st.sampled_from(STREAMS))
    frames = data.draw(mutated_json(frames))
    decoder = StreamDecoder()
    try:
        for frame in frames if isinstance(frames, list) else [frames]:
            decoder.feed(frame)
        decoder.finish()
    except ModelportError as error:
        assert_typed_failure(error)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_pure_frame_merge_is_total(data: st.DataObject) -> None:
    """``merge_frames`` (used by the conformance invariants on recorded frames) is total too."""
    from modelport_google._decode import decode_response
    from modelport_google._stream import merge_frames

    _, frames = data.draw(st.sampled_from(STREAMS))
    frames = data.draw(mutated_json(frames))
    try:
        decode_response(merge_frames(frames if isinstance(frames, list) else [frames]))
    except ModelportError as error:
        assert_typed_failure(error)


@pytest.mark.parametrize(
    "frames",
    [["text"], [{"candidates": ["x"]}], [{"candidates": [{"content": {"parts": "x"}}]}]],
    ids=["frame", "candidate", "parts"],
)
def test_merge_frames_rejects_malformed_frames_typed(frames: list[Any]) -> None:
    from modelport_google._stream import merge_frames

    with pytest.raises(ProviderResponseError):
        merge_frames(frames)


@settings(deadline=None)
@given(
    status=st.integers(100, 599),
    body=st.one_of(st.binary(max_size=256), st.just(b"")),
    retry_after=st.one_of(st.none(), st.text(max_size=40)),
)
def test_pure_error_mapping_is_total(status: int, body: bytes, retry_after: str | None) -> None:
    from modelport_google._errors import error_from_response

    headers = {} if retry_after is None else {"retry-after": retry_after}
    error = error_from_response(status, headers, body, provider="google")
    assert isinstance(error, ProviderError)
    assert error.retry_after is None or (math.isfinite(error.retry_after) and error.retry_after >= 0)


# --------------------------------------------------------------------------- chunking invariance


@scaled(0.25)
@given(data=st.data())
def test_any_chunking_of_a_real_stream_gives_the_same_events(data: st.DataObject) -> None:
    label, body = data.draw(st.sampled_from(corpus.stream_bodies()))
    whole, _, whole_error = stream([body], asynchronous=False)
    pieces, _, pieces_error = stream(data.draw(chunked(body)), asynchronous=data.draw(st.booleans()))
    assert pieces == whole, label
    assert type(pieces_error) is type(whole_error)


# --------------------------------------------------------------------------- stream = merged decode (K4)


@scaled(0.5)
@given(data=st.data())
def test_a_plausibly_damaged_stream_accumulates_to_its_merged_decode(data: st.DataObject) -> None:
    """K4 beyond the recorded cases: frames with fields left out, list items repeated or cut, values
    truncated; when the stream finishes, its result equals the non-streaming decode of the merged
    frames."""
    from modelport_google._stream import merge_frames

    _, frames = data.draw(st.sampled_from(STREAMS))
    frames = data.draw(mutated_json(frames, max_mutations=3, operations=PLAUSIBLE))
    if not isinstance(frames, list):
        return
    body = b"".join(b"data: " + dumps(f, ascii=True) + b"\r\n\r\n" for f in frames)
    events, accumulator, error = stream([body], asynchronous=False)
    if error is not None:
        return
    streamed = accumulator.result()
    direct = generate(json.dumps(merge_frames(frames)).encode(), asynchronous=False)
    assert direct.model_dump(mode="json") == streamed.model_dump(mode="json")


def bare(text: str, finish: str | None = None) -> dict[str, Any]:
    """A frame with one text chunk and neither a response id nor a model version."""
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": [{"text": text}]}}
    return {"candidates": [{**candidate, "finishReason": finish} if finish else candidate]}


# Found by fuzzing and fixed: each of responseId and modelVersion is sent as soon as it is new.
LATE = [
    pytest.param(
        [{**bare("Hel"), "responseId": "r-1"}, {**bare("lo", "STOP"), "modelVersion": "m-2"}],
        id="model version late",
    ),
    pytest.param(
        [{**bare("Hel"), "modelVersion": "m-1"}, {**bare("lo", "STOP"), "responseId": "r-2"}],
        id="response id late",
    ),
    pytest.param(
        [bare("Hel"), {**bare("lo", "STOP"), "responseId": "r-2", "modelVersion": "m-2"}], id="both late"
    ),
]


@pytest.mark.parametrize("frames", LATE)
def test_response_metadata_arriving_late_in_a_stream_is_kept(frames: list[dict[str, Any]]) -> None:
    from modelport_google._stream import merge_frames

    events, accumulator, error = stream([b"".join(frame_bytes(f) for f in frames)], asynchronous=False)
    assert error is None
    direct = generate(json.dumps(merge_frames(frames)).encode(), asynchronous=False)
    streamed = accumulator.result()
    assert (streamed.response_id, streamed.model_version) == (direct.response_id, direct.model_version)


# --------------------------------------------------------------------------- found by fuzzing

DEEP = (
    b'{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":'
    + b'{"a":' * 100_000
    + b"1"
    + b"}" * 100_000
    + b"}}]}}]}"
)
NAN = b'{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"x":NaN,"y":-Infinity}}}]},"finishReason":"STOP"}]}'
SURROGATE = b'{"candidates":[{"content":{"parts":[{"text":"caf\\udce9"}]},"finishReason":"STOP"}]}'
INVALID_UTF8 = SURROGATE.replace(b"\\udce9", b"\xed\xb3\xa9")


#: Hostile JSON that fuzzing found reaching callers as a bare ``RecursionError`` or as results that
#: break C5 (``NaN``/``Infinity`` literals, lone surrogates, and encoded surrogates that
#: ``json.loads(bytes)`` silently accepted); each is now a ``ProviderResponseError``.
FOUND = [
    pytest.param(DEEP, id="deep-nesting"),
    pytest.param(b"[" * 100_000, id="deep-array"),
    pytest.param(NAN, id="nan-literals"),
    pytest.param(SURROGATE, id="lone-surrogate"),
    pytest.param(INVALID_UTF8, id="encoded-surrogate"),
]


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("body", FOUND)
def test_hostile_json_in_a_response_is_a_response_error(body: bytes, asynchronous: bool) -> None:
    with pytest.raises(ProviderResponseError) as info:
        generate(body, asynchronous)
    assert str(info.value).startswith("google: ")
    assert len(str(info.value)) < 500


@pytest.mark.parametrize("body", FOUND)
def test_hostile_json_in_a_stream_frame_is_a_response_error(body: bytes) -> None:
    first = b'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}]}}],"responseId":"r-1"}\r\n\r\n'
    events, _, error = stream([first, b"data: " + body + b"\r\n\r\n"], asynchronous=False)
    assert type(error) is ProviderResponseError
    assert error.partial is not None and error.partial.text == "Hi"
    assert [e.type for e in events] == ["stream-start", "response-metadata", "text-start", "text-delta"]


def nested_args(depth: int) -> bytes:
    value = b"[" * depth + b"1" + b"]" * depth
    return (
        b'{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"x":'
        + value
        + b'}}}]},"finishReason":"STOP"}]}'
    )


#: Wire JSON nested deeper than this is rejected (it would break the replay size estimate and
#: pydantic, which cannot re-read a result nested ~200 deep: C5).
MAX_WIRE_DEPTH = 128
#: ``{"candidates":[{"content":{"parts":[{"functionCall":{"args":{...`` is 8 levels before the value.
ENVELOPE_LEVELS = 8


@pytest.mark.parametrize("depth", [1, 50, MAX_WIRE_DEPTH - ENVELOPE_LEVELS])
@pytest.mark.parametrize("entry", ["generate", "stream"])
def test_nesting_up_to_the_bound_gives_a_round_tripping_result(depth: int, entry: str) -> None:
    body = nested_args(depth)
    if entry == "generate":
        result = generate(body, asynchronous=False)
    else:
        events, accumulator, error = stream([b"data: " + body + b"\r\n\r\n"], asynchronous=False)
        assert error is None
        result = accumulator.result()
    value: Any = result.tool_calls[0].args["x"]
    for _ in range(depth):
        value = value[0]
    assert value == 1
    assert_round_trips(result)


@pytest.mark.parametrize("depth", [MAX_WIRE_DEPTH - ENVELOPE_LEVELS + 1, 200, 300, 500, 900, 990, 100_000])
@pytest.mark.parametrize("entry", ["generate", "stream"])
def test_nesting_past_the_bound_is_a_response_error(depth: int, entry: str) -> None:
    body = nested_args(depth)
    if entry == "generate":
        with pytest.raises(ProviderResponseError) as info:
            generate(body, asynchronous=False)
        error: BaseException | None = info.value
    else:
        events, _, error = stream([b"data: " + body + b"\r\n\r\n"], asynchronous=False)
        assert [e.type for e in events] == []
    assert type(error) is ProviderResponseError
    assert "nested" in str(error) and len(str(error)) < 500


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"error":' * 100_000])
def test_hostile_json_in_an_error_body_is_still_a_typed_error(body: bytes) -> None:
    with pytest.raises(ProviderRequestError) as info:
        generate(body, False, status=400)
    assert info.value.status_code == 400


@scaled(0.25)
@given(
    body=st.one_of(
        st.binary(max_size=64), st.binary(max_size=64).map(lambda b: gzip.compress(b)[: len(b) + 10])
    ),
    encoding=st.sampled_from(["gzip", "deflate", "br", "zstd", "identity", "gzip, gzip", "x-unknown"]),
    streamed=st.booleans(),
)
def test_any_content_encoding_fails_typed(body: bytes, encoding: str, streamed: bool) -> None:
    """Compressed (or claimed-compressed) garbage: httpx's decoders raise; the adapter types it."""
    headers = {
        "content-encoding": encoding,
        "content-type": "text/event-stream" if streamed else "application/json",
    }
    model = google(lambda request: httpx.Response(200, content=body, headers=headers))
    try:
        list(model.stream(prompt="hi")) if streamed else model.generate(prompt="hi")
    except ModelportError as error:
        # A stream whose bytes could not be read ends before it is complete.
        assert_typed_failure(error, ProviderResponseError, StreamInterruptedError)
