"""Anthropic names every SSE event (``event: content_block_delta``): the core's one-event-per-chunk
fast path reads such chunks too (P3-anthropic 1.25x → 1.12x raw httpx), and stays exact: an
``event: error`` is still raised, and a chunk that continues a line already begun is never read as
a new event even when it starts with ``event: ``. The frames are the recorded vercel
``anthropic-text.chunks.txt`` stream."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from modelport.errors import ProviderOverloadedError

from . import corpus
from .fakes import SSE, model

TEXT = "vercel__ai/packages__anthropic__src____fixtures____anthropic-text.chunks.txt"


def events() -> list[bytes]:
    frames = corpus.interactions(TEXT)[0].frames()
    return [f"event: {f['type']}\ndata: {json.dumps(f)}\n\n".encode() for f in frames]


def streamed(chunks: list[bytes]) -> httpx.Response:
    def body() -> Iterator[bytes]:
        yield from chunks

    return httpx.Response(200, headers=SSE, content=body())


def recorded_text() -> str:
    frames = corpus.interactions(TEXT)[0].frames()
    return "".join(f["delta"]["text"] for f in frames if f["type"] == "content_block_delta")


@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
def test_one_named_event_per_chunk(crlf: bool) -> None:
    chunks = [c.replace(b"\n", b"\r\n") if crlf else c for c in events()]
    m, _ = model([streamed(chunks)])
    result = m.stream(prompt="Hi").result()
    assert (result.text, result.raw_finish_reason) == (recorded_text(), "end_turn")


def test_an_error_event_in_its_own_chunk_is_raised() -> None:
    chunks = events()[:4]
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    chunks.append(f"event: error\ndata: {json.dumps(error)}\n\n".encode())
    m, _ = model([streamed(chunks)])
    with pytest.raises(ProviderOverloadedError) as info:
        m.stream(prompt="Hi").result()
    assert info.value.status_code is None


def test_a_chunk_continuing_a_line_is_not_a_new_event() -> None:
    # One delta event whose JSON spans two data lines, cut where the second chunk starts with
    # ``event: `` inside a key: that chunk ends the line begun in the first, it starts no event.
    start, block, *rest = events()
    head = b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"'
    tail = b'event: ":1,\ndata: "delta":{"type":"text_delta","text":"x"}}\n\n'
    stop = [c for c in rest if c.startswith((b"event: content_block_stop", b"event: message_"))]
    m, _ = model([streamed([start, block, head, tail, *stop])])
    assert m.stream(prompt="Hi").result().text == "x"
