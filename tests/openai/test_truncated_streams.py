"""An OpenAI stream the server cuts cleanly is never a complete answer (Q3).

A stream with neither a ``finish_reason`` nor ``data: [DONE]`` (the connection closed in good order
after some chunks), and an empty 200 stream, raise ``StreamInterruptedError`` with what had arrived,
as the Google adapter does; so does one with a ``finish_reason`` but no ``[DONE]`` (the kit's rule
for Chat Completions). A stream with ``[DONE]`` but no ``finish_reason`` (a real shape, see the
``openai/stream-no-finish-reason`` case) stays complete.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import modelport
from modelport.errors import StreamInterruptedError
from modelport.types import Result
from tests.loopback import Loopback, Reply

from .fakes import KEY, SSE, model, response, sse


def chunk(content: str, finish: str | None = None) -> dict[str, Any]:
    choice = {"index": 0, "delta": {"content": content}, "finish_reason": finish}
    return {"id": "chatcmpl-1", "model": "gpt-4o-mini", "choices": [choice]}


CUT = [chunk("Transfer approved"), chunk(" for $1")]


def run(replies: list[Any], asynchronous: bool) -> Result:
    m, _ = model(replies, max_retries=0)
    if asynchronous:
        return asyncio.run(m.astream(prompt="Hi").result())
    return m.stream(prompt="Hi").result()


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_stream_cut_without_finish_reason_or_done_raises_with_the_partial(asynchronous: bool) -> None:
    with pytest.raises(StreamInterruptedError) as info:
        run([sse(CUT, done=False)], asynchronous)
    error = info.value
    assert error.status_code is None
    assert error.partial is not None
    assert (error.partial.text, error.partial.finish_reason) == ("Transfer approved for $1", "error")


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_empty_200_stream_is_no_empty_answer(asynchronous: bool) -> None:
    with pytest.raises(StreamInterruptedError) as info:
        run([response(200, b"", SSE)], asynchronous)
    assert info.value.partial is not None
    assert (info.value.partial.text, info.value.partial.finish_reason) == ("", "error")


def test_done_alone_is_no_answer_either() -> None:
    with pytest.raises(StreamInterruptedError):
        run([response(200, b"data: [DONE]\n\n", SSE)], False)


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_done_without_finish_reason_is_complete(asynchronous: bool) -> None:
    result = run([sse(CUT, done=True)], asynchronous)
    assert (result.text, result.finish_reason, result.raw_finish_reason) == (
        "Transfer approved for $1",
        "stop",
        None,
    )


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_finish_reason_without_done_is_cut(asynchronous: bool) -> None:
    """``[DONE]`` ends a complete Chat Completions stream (the kit's rule, ``stream_end``): a body
    cut after the finish chunk may have lost the usage chunk that follows it."""
    with pytest.raises(StreamInterruptedError) as info:
        run([sse([*CUT, chunk("", "stop")], done=False)], asynchronous)
    assert "data: [DONE]" in str(info.value)
    partial = info.value.partial
    assert partial is not None
    assert (partial.text, partial.finish_reason) == ("Transfer approved for $1", "error")


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_clean_cut_over_a_real_socket_raises_with_the_partial(asynchronous: bool) -> None:
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in CUT).encode()
    # An iterable body goes without a length; the server closes the connection after it, in order.
    reply = Reply(headers={"content-type": "text/event-stream"}, body=[body[:40], body[40:]])
    with Loopback(lambda received: reply) as server:
        m = modelport.get_model("openai/gpt-4o-mini", api_key=KEY, base_url=server.url + "/v1", max_retries=0)
        with pytest.raises(StreamInterruptedError) as info:
            if asynchronous:
                asyncio.run(m.astream(prompt="Hi").result())
            else:
                m.stream(prompt="Hi").result()
        assert len(server.received) == 1
    assert info.value.partial is not None and info.value.partial.text == "Transfer approved for $1"
