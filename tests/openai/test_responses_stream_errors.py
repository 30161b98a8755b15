"""A Responses stream that breaks hands back what arrived; one that fails is typed by its code.

Built from recorded streams of the vendored corpus (fantasy's gpt-5 stream, vercel's
``insufficient_quota`` stream), cut or with the ``error`` event left out, as a server can send them.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import ProviderQuotaError, ProviderResponseError, StreamInterruptedError

from . import responses_corpus as corpus
from .replay import KEY

SUMMARY = (
    "charmbracelet__fantasy/providertests__testdata__TestOpenAIResponsesWithSummaryThinking__"
    "openai-gpt-5__thinking-streaming.yaml"
)
QUOTA = "vercel__ai/packages__openai__src__responses____fixtures____openai-error.1.chunks.txt"


def _stream(frames: list[dict[str, Any]]) -> Any:
    body = "".join(f"data: {json.dumps(f)}\n\n" for f in frames).encode()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    model = modelport.get_model("openai-responses/gpt-5", api_key=KEY, transport=httpx.MockTransport(handler))
    with model.stream(prompt="Hi") as stream:
        for _ in stream:
            pass
        return stream.result()


def test_a_stream_cut_before_its_terminal_event_keeps_what_arrived() -> None:
    frames = corpus.exchanges(SUMMARY)[0].frames()
    done = next(i for i, f in enumerate(frames) if f["type"] == "response.output_item.done")
    reasoning = frames[done]["item"]
    with pytest.raises(StreamInterruptedError) as caught:
        _stream(frames[: done + 1])
    partial = caught.value.partial
    assert partial is not None
    assert partial.finish_reason == "error"
    assert partial.reasoning_text == reasoning["summary"][0]["text"]
    assert partial.content[-1].signature == reasoning["encrypted_content"]


def test_response_failed_alone_is_typed_by_its_code() -> None:
    frames = [f for f in corpus.exchanges(QUOTA)[0].frames() if f["type"] != "error"]
    failed = frames[-1]["response"]["error"]
    with pytest.raises(ProviderQuotaError) as caught:
        _stream(frames)
    assert caught.value.status_code is None
    assert caught.value.provider_status == failed["code"] == "insufficient_quota"
    assert failed["message"] in caught.value.message
    assert caught.value.partial is not None
    assert caught.value.partial.response_id == frames[0]["response"]["id"]


MULTI_TOOL = "charmbracelet__fantasy/providertests__testdata__TestOpenAIResponsesCommon__openai-gpt-4o__multi_tool_streaming.yaml"


def test_an_argument_delta_after_its_call_is_done_is_a_typed_error() -> None:
    """Found by fuzzing: the delta reached the core's accumulator for a call it had closed, and the
    stream raised a bare ``KeyError: 'fc_…'``."""
    frames = next(e for e in corpus.exchanges(MULTI_TOOL) if e.is_sse).frames()
    done = next(
        i
        for i, f in enumerate(frames)
        if f["type"] == "response.output_item.done" and f["item"]["type"] == "function_call"
    )
    delta = next(f for f in frames[:done] if f["type"] == "response.function_call_arguments.delta")
    with pytest.raises(ProviderResponseError) as caught:
        _stream([*frames[: done + 1], delta, *frames[done + 1 :]])
    assert f"KeyError: '{delta['item_id']}'" in caught.value.message
    partial = caught.value.partial
    assert partial is not None and partial.finish_reason == "error"
    first = frames[done]["item"]
    assert [(c.id, c.name, c.args) for c in partial.tool_calls][:1] == [
        (first["call_id"], first["name"], json.loads(first["arguments"]))
    ]
