"""How a Responses answer ends: only ``completed`` (or ``incomplete``, which says so) is an answer.

Built from recorded bodies and streams of the vendored corpus (tests/corpus/openai-responses and the
ruby_llm batch recording in tests/corpus/batch); the status of a recorded response is changed to the
other values the API documents for ``Response.status`` (``queued``, ``in_progress`` in background
mode, ``cancelled``, ``failed``), and the damage to a stream (a field left out, a done item's text
cut) is the test's.
"""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import httpx
import pytest
import yaml

import modelport
from modelport.errors import ProviderQuotaError, ProviderResponseError, StreamInterruptedError
from modelport.types import Result
from tests import recordings

from . import responses_corpus as corpus
from .replay import KEY

SIMPLE = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_model_simple_response.yaml"
SUMMARY = (
    "charmbracelet__fantasy/providertests__testdata__TestOpenAIResponsesWithSummaryThinking__"
    "openai-gpt-5__thinking-streaming.yaml"
)
MAX_TOKENS = "Mirascope__mirascope/python__tests__e2e__output__cassettes__test_max_tokens__openai_gpt_4o_responses__stream.yaml"
WEB_SEARCH = "vercel__ai/packages__openai__src__responses____fixtures____openai-web-search-tool.1.chunks.txt"
QUOTA = "vercel__ai/packages__openai__src__responses____fixtures____openai-error.1.chunks.txt"
BATCH = (
    "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_openai_gpt-5-nano_answers_staged_chats_"
    "and_appends_the_answers_to_their_conversations.yml"
)


def _model(body: bytes, content_type: str) -> Any:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": content_type})

    return modelport.get_model(
        "openai-responses/gpt-5", api_key=KEY, transport=httpx.MockTransport(handler), max_retries=0
    )


def generate(body: dict[str, Any]) -> Result:
    return _model(json.dumps(body).encode(), "application/json").generate(prompt="Hi")


def stream(frames: list[dict[str, Any]], asynchronous: bool = False) -> Result:
    m = _model("".join(f"data: {json.dumps(f)}\n\n" for f in frames).encode(), "text/event-stream")
    if asynchronous:
        return asyncio.run(m.astream(prompt="Hi").result())
    return m.stream(prompt="Hi").result()


def simple_body() -> dict[str, Any]:
    return copy.deepcopy(corpus.exchanges(SIMPLE)[0].final())


def terminal(frames: list[dict[str, Any]]) -> dict[str, Any]:
    return next(f for f in reversed(frames) if f["type"].startswith("response.") and "response" in f)


# --------------------------------------------------------------------------- unary bodies


@pytest.mark.parametrize("status", ["queued", "in_progress", "cancelled"])
def test_a_body_that_is_not_finished_is_no_answer(status: str) -> None:
    body = simple_body()
    text = body["output"][0]["content"][0]["text"]
    body["status"] = status
    with pytest.raises(ProviderResponseError) as info:
        generate(body)
    error = info.value
    assert error.provider_status == status
    assert ("cancelled" if status == "cancelled" else "not finished") in error.message
    assert error.partial is not None
    assert (error.partial.text, error.partial.finish_reason, error.partial.response_id) == (
        text,
        "error",
        body["id"],
    )


def test_the_recorded_body_is_an_answer() -> None:
    body = simple_body()
    result = generate(body)
    assert (result.text, result.finish_reason) == (body["output"][0]["content"][0]["text"], "stop")


def test_an_incomplete_body_without_details_is_not_stop() -> None:
    body = simple_body()
    body.update(status="incomplete", incomplete_details=None)
    result = generate(body)
    assert (result.finish_reason, result.raw_finish_reason) == ("other", "incomplete")


# --------------------------------------------------------------------------- streams


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_completed_event_whose_status_failed_is_its_error(asynchronous: bool) -> None:
    frames = corpus.exchanges(SUMMARY)[0].frames()
    error = terminal([f for f in corpus.exchanges(QUOTA)[0].frames() if f["type"] != "error"])["response"][
        "error"
    ]
    terminal(frames)["response"].update(status="failed", error=error)
    with pytest.raises(ProviderQuotaError) as info:
        stream(frames, asynchronous)
    assert info.value.provider_status == "insufficient_quota"
    assert info.value.partial is not None and info.value.partial.reasoning_text


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_completed_event_whose_status_is_cancelled_is_no_answer(asynchronous: bool) -> None:
    frames = corpus.exchanges(SUMMARY)[0].frames()
    final = corpus.exchanges(SUMMARY)[0].final()
    terminal(frames)["response"]["status"] = "cancelled"
    with pytest.raises(ProviderResponseError) as info:
        stream(frames, asynchronous)
    assert info.value.provider_status == "cancelled"
    partial = info.value.partial
    assert partial is not None and partial.response_id == final["id"]
    assert partial.text == "".join(
        c["text"] for item in final["output"] if item["type"] == "message" for c in item["content"]
    )


def test_a_completed_event_without_a_status_is_cut() -> None:
    frames = corpus.exchanges(SUMMARY)[0].frames()
    del terminal(frames)["response"]["status"]
    with pytest.raises(StreamInterruptedError, match="whose status is completed or incomplete"):
        stream(frames)


def test_the_recorded_incomplete_stream_says_why() -> None:
    frames = corpus.exchanges(MAX_TOKENS)[0].frames()
    assert terminal(frames)["type"] == "response.incomplete"
    result = stream(frames)
    assert (result.finish_reason, result.raw_finish_reason) == ("length", "max_output_tokens")


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_incomplete_event_without_details_is_not_stop(asynchronous: bool) -> None:
    frames = corpus.exchanges(MAX_TOKENS)[0].frames()
    terminal(frames)["response"]["incomplete_details"] = None
    result = stream(frames, asynchronous)
    assert (result.finish_reason, result.raw_finish_reason) == ("other", "incomplete")


def test_citation_offsets_count_the_streamed_text() -> None:
    frames = corpus.exchanges(WEB_SEARCH)[0].frames()
    done = next(
        f for f in frames if f["type"] == "response.output_item.done" and f["item"]["type"] == "message"
    )
    content = done["item"]["content"][0]
    streamed = "".join(f["delta"] for f in frames if f["type"] == "response.output_text.delta")
    assert content["text"] == streamed and len(streamed) == 3645
    content["text"] = content["text"][:200]  # the done item's copy differs from what streamed
    result = stream(frames)
    assert result.text == streamed
    spans = [(a["start_index"], a["end_index"]) for a in content["annotations"]]
    assert spans[:2] == [(277, 411), (497, 635)] and len(spans) == 12
    assert [(c.start, c.end) for c in result.citations] == spans
    assert [w for w in result.warnings if w.type == "skipped-citation"] == []


# --------------------------------------------------------------------------- usage


def batch_body() -> dict[str, Any]:
    data = yaml.safe_load(recordings.recording("batch", BATCH).read_text(encoding="utf-8"))
    lines = next(
        i["response"]["body"]["string"]
        for i in data["http_interactions"]
        if "cache_write_tokens" in i["response"]["body"].get("string", "")
    )
    return json.loads(lines.splitlines()[0])["response"]["body"]  # type: ignore[no-any-return]


def test_a_reported_zero_cache_write_count_stays_zero() -> None:
    body = batch_body()
    assert body["usage"]["input_tokens_details"] == {"cache_write_tokens": 0, "cached_tokens": 0}
    usage = generate(body).usage
    assert (usage.input_tokens, usage.cache_read_input_tokens, usage.cache_write_input_tokens) == (18, 0, 0)


def events_and_result(m: Any, asynchronous: bool) -> tuple[list[Any], Result]:
    """Every event of a stream, then its result, sync or async."""

    async def consume() -> tuple[list[Any], Result]:
        s = m.astream(prompt="Hi")
        return [e async for e in s], await s.result()

    if asynchronous:
        return asyncio.run(consume())
    s = m.stream(prompt="Hi")
    return list(s), s.result()


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_text_part_whose_done_frames_were_lost_ends_before_the_finish(asynchronous: bool) -> None:
    # Found by the long fuzz run's event-protocol check (seed 11, responses-stream case 163): the
    # stream finished with its text part still open, so a consumer saw a text-start with no text-end.
    frames = corpus.exchanges(MAX_TOKENS)[0].frames()
    done = ("response.output_text.done", "response.content_part.done", "response.output_item.done")
    body = "".join(f"data: {json.dumps(f)}\n\n" for f in frames if f["type"] not in done).encode()
    events, result = events_and_result(_model(body, "text/event-stream"), asynchronous)
    part = "msg_0cca8afa69cc6ca90068f966c522fc8193beb0e249411c3551:0"
    assert [(e.type, getattr(e, "id", None)) for e in events if e.type != "text-delta"] == [
        ("stream-start", None),
        ("response-metadata", None),
        ("text-start", part),
        ("text-end", part),
        ("finish", None),
    ]
    assert result.text == stream(frames).text and result.finish_reason == "length"
    assert [w.details for w in result.warnings] == [
        f"the stream finished while text part {part!r} was still open; closed with what had arrived"
    ]


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_output_item_ended_twice_is_one_part(asynchronous: bool) -> None:
    # Found by the long fuzz run (seed 2026, responses-stream case 571): a repeated
    # output_item.done started and ended its reasoning part a second time, under the same id.
    frames = corpus.exchanges(SUMMARY)[0].frames()
    at = next(i for i, f in enumerate(frames) if f["type"] == "response.output_item.done")
    item = frames[at]["item"]
    frames.insert(at + 1, copy.deepcopy(frames[at]))
    body = "".join(f"data: {json.dumps(f)}\n\n" for f in frames).encode()
    events, result = events_and_result(_model(body, "text/event-stream"), asynchronous)
    starts = [e.id for e in events if e.type in ("reasoning-start", "text-start")]
    assert len(starts) == len(set(starts))
    whole = stream(corpus.exchanges(SUMMARY)[0].frames())
    assert (result.text, result.content, result.finish_reason) == (
        whole.text,
        whole.content,
        whole.finish_reason,
    )
    assert [w.details for w in result.warnings] == [
        f"output item {item['id']!r} ended a second time; the repeat was ignored"
    ]
