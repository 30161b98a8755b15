"""``Limits.max_stream_bytes`` bounds what one endless stream makes the process hold (issue 23 #14).

The cap counted only the bytes read, while the text they carried was kept for the result and then
copied once more into the error's partial result: a stream of large text grew the process by about
2.4 times the cap before it tripped (about 520 MiB under the default 256 MiB cap). It now counts the
bytes read plus twice the text kept, so the growth stays under the cap, on every transport.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest

import modelport
from modelport.errors import ProviderResponseError
from modelport.http import Limits
from tests.kit.test_transport_real_sockets import MODES, model
from tests.loopback import Loopback, Reply

CAP = 4 * 1024 * 1024
SSE = {"content-type": "text/event-stream"}


def endless(text_size: int) -> Iterator[bytes]:
    """Gemini frames of ``text_size`` characters each, forever (the text numbered to be checked)."""
    for i in itertools.count():
        text = f"{i}:".ljust(text_size, "x")
        frame = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}}]}
        yield b"data: " + json.dumps(frame).encode() + b"\r\n\r\n"


def consume(m: modelport.Model, mode: str, deltas: list[str]) -> None:
    if mode == "sync":
        for event in m.stream(prompt="hi"):
            if event.type == "text-delta":
                deltas.append(event.delta)
        return

    async def main() -> None:
        async for event in m.astream(prompt="hi"):
            if event.type == "text-delta":
                deltas.append(event.delta)

    asyncio.run(main())


def peak_growth(m: modelport.Model, mode: str) -> tuple[int, ProviderResponseError, list[str]]:
    """The traced peak of one endless stream up to its cap, the error and the deltas handed out."""
    with pytest.raises(ProviderResponseError):  # a first stream: what first use imports is not growth
        consume(m, mode, [])
    deltas: list[str] = []
    tracemalloc.start()
    try:
        with pytest.raises(ProviderResponseError) as info:
            consume(m, mode, deltas)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, info.value, deltas


@pytest.mark.parametrize("text_size", [64 * 1024, 20])
@pytest.mark.parametrize("mode", MODES)
def test_an_endless_stream_stops_at_its_cap_holding_less_than_the_cap(mode: str, text_size: int) -> None:
    with Loopback(lambda r: Reply(200, SSE, endless(text_size))) as server:
        m = model(server, mode, limits=Limits(max_stream_bytes=CAP))
        peak, error, deltas = peak_growth(m, mode)
    assert str(error) == (
        f"google: the event stream is larger than {CAP} bytes, counting the bytes read and the text "
        "kept (raise the limit with limits=Limits(max_stream_bytes=...))"
    )
    # Nothing that arrived is lost: the partial holds every delta handed out, in order.
    assert error.partial is not None and error.partial.text == "".join(deltas)
    assert [d.split(":")[0] for d in deltas] == [str(i) for i in range(len(deltas))]
    assert len(deltas) >= (CAP // 4) // (text_size + 100)  # it did run until the cap
    assert peak < CAP  # before: about 2.4 × CAP with 64 KiB frames


def test_text_kept_counts_against_the_cap_with_the_bytes_read() -> None:
    from modelport.events import TextDeltaEvent, TextStartEvent
    from modelport.http._exchange import StreamSize
    from modelport.http._stream_steps import _kept as kept

    size = StreamSize(100, "acme")
    size.add(40)  # bytes read
    events: Any = iter([TextStartEvent(id="t"), TextDeltaEvent(id="t", delta="x" * 30)])
    assert [e.type for e in kept(events, size)] == ["text-start", "text-delta"]
    assert size.size == 100
    with pytest.raises(ProviderResponseError, match="larger than 100 bytes"):
        kept([TextDeltaEvent(id="t", delta="y")], size)
