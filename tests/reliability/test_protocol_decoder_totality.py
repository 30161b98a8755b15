"""Q1 for the other wire protocols: Chat Completions (OpenAI and every preset), the Responses API and
Anthropic Messages decode total over mutated real responses, and no cut stream is complete.

Real recorded 200 answers and streams (tests/corpus/openai, openai-responses, anthropic, vendored;
see :func:`.corpus.protocol_streams`) are mutated with the same operations as the Gemini ones
(:mod:`.mutate`: fields dropped, retyped, duplicated, truncated, emptied, hostile text, huge lists;
byte-wise truncation, random bytes, invalid UTF-8, flipped and deleted bytes, deep nesting, ``NaN``)
and decoded through the public API, sync and async, a stream's body delivered in random chunks.
Every input gives a result or a typed :class:`~modelport.errors.ModelportError`, never a bare
Python error; every result and partial result round-trips through JSON (C5), its citations fit its
text (S8); a stream that completes carried its protocol's terminal event, and a stream cut before
that event is never complete.

Sizes: each property runs the profile's ``max_examples`` (``ci``: 200); the long run (the ``fuzz``
profile, 100,000 per property) is recorded in docs/reliability.md.
"""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modelport
from modelport import Result
from modelport.errors import ModelportError, ProviderError
from modelport_conformance.invariants import check_stream_well_formed

from . import corpus
from .conftest import sse_response
from .mutate import chunked, dumps, mutated_bytes, mutated_json
from .test_decoder_totality import assert_round_trips, assert_sound

KEY = "mp-fuzz-key-2b7d9e41c0"
#: The providers of each protocol, each fuzzed with the protocol's recordings.
PROVIDERS = {
    "chat": (
        "openai",
        "groq",
        "deepseek",
        "openrouter",
        "xai",
        "together",
        "mistral",
        "ollama",
        "openai-compatible",
    ),
    "responses": ("openai-responses",),
    "anthropic": ("anthropic",),
}
#: Text a body must carry for its stream to be complete (a necessary condition, read from the raw
#: bytes the server sent, independently of the decoders and of the kit's rule).
TERMINAL: dict[str, tuple[tuple[bytes, ...], ...]] = {
    "chat": ((b"[DONE]",),),
    "responses": ((b'"response.completed"', b'"response.incomplete"'),),
    "anthropic": ((b'"message_stop"',), (b'"message_delta"',), (b'"message_start"',)),
}
#: The frame kinds that end a stream, where a cut must come before the first of them.
ENDS: dict[str, frozenset[str]] = {
    "responses": frozenset({"response.completed", "response.incomplete", "response.failed"}),
    "anthropic": frozenset({"message_stop", "message_delta"}),
}


def fuzzed() -> settings:
    return settings(
        settings(),
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
        deadline=None,
    )


class Replies:
    """What the mock server answers next (one model per provider serves every example)."""

    response: httpx.Response | None = None

    @classmethod
    def handle(cls, request: httpx.Request) -> httpx.Response:
        assert cls.response is not None
        return cls.response


@functools.cache
def model(provider: str) -> modelport.Model:
    extra = {"base_url": "https://llm.example.test/v1"} if provider == "openai-compatible" else {}
    return modelport.get_model(
        f"{provider}/fuzz-model",
        api_key=KEY,
        transport=httpx.MockTransport(Replies.handle),
        max_retries=0,
        **extra,
    )


def run_generate(provider: str, body: bytes, asynchronous: bool) -> Result:
    Replies.response = httpx.Response(200, content=body, headers={"content-type": "application/json"})
    if asynchronous:
        return asyncio.run(model(provider).agenerate(prompt="hi"))
    return model(provider).generate(prompt="hi")


def run_stream(
    provider: str, chunks: list[bytes], asynchronous: bool
) -> tuple[list[Any], Result | None, BaseException | None]:
    Replies.response = sse_response(chunks)
    m = model(provider)
    events: list[Any] = []

    async def consume() -> Result:
        s = m.astream(prompt="hi")
        async for event in s:
            events.append(event)
        return await s.result()

    try:
        if asynchronous:
            return events, asyncio.run(consume()), None
        s = m.stream(prompt="hi")
        for event in s:
            events.append(event)
        return events, s.result(), None
    except ModelportError as error:
        return events, None, error


def assert_well_formed(events: list[Any], *, finished: bool) -> None:
    """The event protocol holds whatever the wire did: stream-start first, each part's deltas
    between its start and its end, no id reused, one finish, last (only what arrived, if the
    stream failed) — the conformance suite's own rule."""
    problems = check_stream_well_formed(events, finished=finished)
    assert not problems, problems


def assert_every_delta_kept(result: Result, events: list[Any]) -> None:
    """Each text part's deltas are in the result's text, and nothing else is (parts may interleave
    in a damaged stream, so the text is the parts' texts in the order they started)."""
    parts: dict[str, str] = {}
    for event in events:
        if event.type == "text-delta":
            parts[event.id] = parts.get(event.id, "") + event.delta
    assert len(result.text) == sum(map(len, parts.values()))
    assert all(text in result.text for text in parts.values())


def sse(frames: list[Any], done: bool, *, ascii_: bool, newline: bytes) -> bytes:
    body = b"".join(b"data: " + dumps(f, ascii=ascii_) + newline for f in frames)
    return body + (b"data: [DONE]" + newline if done else b"")


def completes(protocol: str, body: bytes) -> bool:
    """Whether ``body`` carries every marker a complete stream of ``protocol`` needs."""
    return all(any(marker in body for marker in markers) for markers in TERMINAL[protocol])


# --------------------------------------------------------------------------- strategies


@st.composite
def mutated_body(draw: st.DrawFn, protocol: str) -> bytes:
    bodies = corpus.protocol_bodies(protocol)
    _, document = bodies[draw(st.integers(0, len(bodies) - 1))]
    data = dumps(draw(mutated_json(document)), ascii=draw(st.booleans()))
    if draw(st.booleans()):
        data = draw(mutated_bytes(data))
    return data


@st.composite
def mutated_stream(draw: st.DrawFn, protocol: str) -> bytes:
    streams = corpus.protocol_streams(protocol)
    _, frames, done = streams[draw(st.integers(0, len(streams) - 1))]
    frames = draw(mutated_json(frames))
    if not isinstance(frames, list):
        frames = [frames]
    data = sse(frames, done and draw(st.booleans()), ascii_=draw(st.booleans()), newline=b"\n\n")
    if draw(st.booleans()):
        data = draw(mutated_bytes(data))
    return data


@st.composite
def cut_stream(draw: st.DrawFn, protocol: str) -> bytes:
    """A real stream cut cleanly before it ended: before its first terminal frame (Responses,
    Anthropic), or anywhere without ``[DONE]`` (Chat Completions); what remains may be mutated."""
    streams = corpus.protocol_streams(protocol)
    _, frames, _ = streams[draw(st.integers(0, len(streams) - 1))]
    ends = ENDS.get(protocol)
    last = len(frames)
    if ends is not None:
        last = next((i for i, f in enumerate(frames) if isinstance(f, dict) and f.get("type") in ends), last)
    kept = frames[: draw(st.integers(0, last))]
    kept = draw(mutated_json(kept, max_mutations=2, operations=("drop", "retype", "truncate", "empty")))
    if not isinstance(kept, list):
        kept = [kept]
    return sse(kept, False, ascii_=True, newline=draw(st.sampled_from([b"\n\n", b"\r\n\r\n"])))


# --------------------------------------------------------------------------- properties


@pytest.mark.parametrize("protocol", corpus.PROTOCOLS)
@fuzzed()
@given(data=st.data(), asynchronous=st.booleans())
def test_mutated_answers_decode_or_fail_typed(protocol: str, data: st.DataObject, asynchronous: bool) -> None:
    provider = data.draw(st.sampled_from(PROVIDERS[protocol]))
    body = data.draw(mutated_body(protocol))
    try:
        result = run_generate(provider, body, asynchronous)
    except ModelportError:
        return
    assert_sound(result)


@pytest.mark.parametrize("protocol", corpus.PROTOCOLS)
@fuzzed()
@given(data=st.data(), asynchronous=st.booleans())
def test_mutated_streams_decode_or_fail_typed(protocol: str, data: st.DataObject, asynchronous: bool) -> None:
    provider = data.draw(st.sampled_from(PROVIDERS[protocol]))
    body = data.draw(mutated_stream(protocol))
    events, result, error = run_stream(provider, data.draw(chunked(body)), asynchronous)
    if error is None:
        assert result is not None and events[-1].type == "finish"
        assert completes(protocol, body), "a stream without its terminal event was reported complete"
        assert_well_formed(events, finished=True)
        assert_every_delta_kept(result, events)
        assert_sound(result)
        return
    if any(e.type != "stream-start" for e in events):
        assert isinstance(error, ProviderError)
        assert error.partial is not None
        assert_well_formed(events, finished=False)
        assert_every_delta_kept(error.partial, events)
        assert_round_trips(error.partial)


@pytest.mark.parametrize("protocol", corpus.PROTOCOLS)
@fuzzed()
@given(data=st.data())
def test_a_cut_stream_is_never_complete(protocol: str, data: st.DataObject) -> None:
    provider = data.draw(st.sampled_from(PROVIDERS[protocol]))
    body = data.draw(cut_stream(protocol))
    events, result, error = run_stream(provider, data.draw(chunked(body)), asynchronous=False)
    assert error is not None, "a cut stream was reported complete"
    assert result is None


def test_every_protocol_has_recordings_to_fuzz() -> None:
    counts = {p: (len(corpus.protocol_streams(p)), len(corpus.protocol_bodies(p))) for p in corpus.PROTOCOLS}
    assert all(streams >= 20 and bodies >= 25 for streams, bodies in counts.values()), counts
    assert all(done for _, _, done in corpus.protocol_streams("chat")[:1])
    assert json.loads(json.dumps(corpus.protocol_bodies("anthropic")[0][1]))["type"] == "message"
