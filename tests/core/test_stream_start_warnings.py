"""The request's warnings (those the model layer finds before any I/O: a setting the provider
cannot map, a replayed turn's dropped parts) reach a stream's caller on its ``stream-start``, before
the provider's own, so events accumulated by the caller give the warnings ``result()`` gives. The
answers are MOCK Chat Completions bodies: the warnings are under test."""

from __future__ import annotations

import asyncio

import httpx

from modelport.events import StreamAccumulator, StreamStartEvent
from tests.openai.fakes import chunk, sse
from tests.openai.fakes import model as openai_model

REQUEST_WARNING = ("unsupported-setting", "prompt_cache")


def _stream_reply() -> httpx.Response:
    return sse([chunk({"content": "Hi"}, "stop")])


def test_the_stream_start_carries_the_request_warnings_and_accumulates_to_the_result() -> None:
    groq, _ = openai_model([_stream_reply(), _stream_reply()], model_id="groq/llama-3.3-70b")
    events = list(groq.stream(prompt="Hi", prompt_cache={"key": "tenant-7"}))
    starts = [e for e in events if isinstance(e, StreamStartEvent)]
    assert [[(w.type, w.setting) for w in s.warnings] for s in starts] == [[REQUEST_WARNING]]
    mine = StreamAccumulator()
    for event in events:
        mine.add(event)
    result = groq.stream(prompt="Hi", prompt_cache={"key": "tenant-7"}).result()
    assert [(w.type, w.setting) for w in mine.result().warnings] == [REQUEST_WARNING]
    assert [(w.type, w.setting) for w in result.warnings] == [REQUEST_WARNING]  # not twice


def test_an_async_stream_start_carries_them_too() -> None:
    groq, _ = openai_model([_stream_reply()], model_id="groq/llama-3.3-70b")

    async def run() -> list[object]:
        return [e async for e in groq.astream(prompt="Hi", prompt_cache={"key": "tenant-7"})]

    starts = [e for e in asyncio.run(run()) if isinstance(e, StreamStartEvent)]
    assert [[(w.type, w.setting) for w in s.warnings] for s in starts] == [[REQUEST_WARNING]]


def test_a_stream_without_request_warnings_hands_the_provider_start_unchanged() -> None:
    groq, _ = openai_model([_stream_reply()], model_id="groq/llama-3.3-70b")
    starts = [e for e in groq.stream(prompt="Hi") if isinstance(e, StreamStartEvent)]
    assert [s.warnings for s in starts] == [[]]
