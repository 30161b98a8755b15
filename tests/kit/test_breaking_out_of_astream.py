"""Breaking out of ``async for event in model.astream(...)`` (no ``async with``) leaves nothing behind
(issue 23 #12): on Python 3.11 with the httpx async transport each break logged "Task exception
was never retrieved ... aclose(): asynchronous generator is already running".

The stream object and its event generator referred to each other, so an abandoned stream was left
to the cycle collector, which finalized every generator of the chain at once: the outer one's
``aclose`` task closed the provider's stream while the inner generators' own ``aclose`` tasks ran
on them. Run on every Python of the matrix (the log appeared on 3.11 only).
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from tests.kit.test_transport_real_sockets import TRANSPORTS, model
from tests.loopback import Loopback, Reply


def frames(n: int) -> Iterator[bytes]:
    for i in range(n):
        frame = {"candidates": [{"content": {"role": "model", "parts": [{"text": f"{i} "}]}}]}
        yield b"data: " + json.dumps(frame).encode() + b"\r\n\r\n"


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_breaking_out_of_async_for_logs_nothing(transport: str, caplog: pytest.LogCaptureFixture) -> None:
    handled: list[dict[str, Any]] = []
    firsts: list[str] = []

    async def main(m: Any) -> None:
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: handled.append(context))
        for _ in range(5):
            async for event in m.astream(prompt="hi"):
                if event.type == "text-delta":
                    firsts.append(event.delta)
                    break
            gc.collect()  # what the collector finalizes, it finalizes now
            await asyncio.sleep(0.01)  # and the tasks it schedules run
        gc.collect()
        await asyncio.sleep(0.05)

    caplog.set_level(logging.DEBUG, logger="asyncio")
    with Loopback(
        lambda r: Reply(200, {"content-type": "text/event-stream"}, frames(1000), pause=0.0005)
    ) as server:
        m = model(server, transport)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            asyncio.run(main(m))
            gc.collect()
        m.close()
    assert firsts == ["0 "] * 5
    assert [str(c.get("exception") or c.get("message")) for c in handled] == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert [str(w.message) for w in caught if "already running" in str(w.message)] == []
