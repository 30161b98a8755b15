"""OpenAI's Batch API replayed from a real recording (crmne/ruby_llm, MIT): the requests uploaded as
a JSON Lines file, the batch created for ``/v1/responses``, polled, and its output file read; every
expected value is read off the recording."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
import pytest

import modelport
from tests.batches.replay import exchanges, transport

KEY = "sk-test-0123456789abcdefghijklmnop"
ANSWERS = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_openai_gpt-5-nano_answers_staged_chats_and_appends_the_answers_to_their_conversations.yml"
PROMPTS = ["What is 2 + 2? Just the number.", "Name the largest planet in our solar system. One word."]


def _model(mock: httpx.MockTransport) -> modelport.Model:
    return modelport.get_model("openai-responses/gpt-5-nano", api_key=KEY, transport=mock, max_retries=0)


def _recorded_output() -> list[dict]:
    return [json.loads(line) for line in exchanges(ANSWERS)[-1].answer.splitlines()]


def _multipart_file(request: httpx.Request) -> bytes:
    boundary = re.search(r"boundary=(\w+)", request.headers["content-type"])
    assert boundary is not None
    parts = request.content.split(b"--" + boundary.group(1).encode())
    (file_part,) = [part for part in parts if b'name="file"' in part]
    return file_part.split(b"\r\n\r\n", 1)[1].removesuffix(b"\r\n")


def test_the_requests_go_up_as_one_jsonl_file_for_the_responses_endpoint() -> None:
    mock, player = transport(ANSWERS, 0, 2)
    model = _model(mock)
    job = model.submit_batch([{"prompt": prompt} for prompt in PROMPTS])
    assert (job.id, job.status, job.raw_status) == (
        "batch_6a85c08a63188190982c56b42faa4ff5",
        "queued",
        "validating",
    )
    assert job.provider_data["input_file_id"] == "file-5dskxx7B6SVyAyRgAHzTJ2"
    upload, create = player.sent
    assert upload.headers["content-type"].startswith("multipart/form-data; boundary=")
    lines = [json.loads(line) for line in _multipart_file(upload).splitlines()]
    recorded = [
        json.loads(line) for line in exchanges(ANSWERS)[0].sent.split(b"\r\n\r\n", 1)[1].splitlines()[:2]
    ]
    assert [(line["custom_id"], line["method"], line["url"]) for line in lines] == [
        (line["custom_id"], line["method"], line["url"]) for line in recorded
    ]
    # Each body is exactly what generate sends for the same prompt (and asks what the recording asked).
    for line, prompt in zip(lines, PROMPTS):
        single = model.provider.prepare(model.name, model.prepare(prompt=prompt)).wire
        assert line["body"] == single.body
        assert (line["body"]["store"], line["body"]["include"]) == (False, ["reasoning.encrypted_content"])
    assert json.loads(create.content) == exchanges(ANSWERS)[1].sent_json()


def test_a_completed_batch_gives_each_response_decoded_as_a_single_call() -> None:
    mock, player = transport(ANSWERS)
    job = _model(mock).submit_batch([{"prompt": prompt} for prompt in PROMPTS])
    statuses: list[str] = []
    job.wait(poll_interval=0, progress=lambda j: statuses.append(j.raw_status))
    assert statuses == ["validating"] * 5 + ["in_progress"] * 4 + ["completed"]
    assert job.counts.model_dump() == {
        "total": 2,
        "processing": 0,
        "succeeded": 2,
        "failed": 0,
        "cancelled": 0,
        "expired": 0,
    }
    assert (int(job.created_at.timestamp()), int(job.ended_at.timestamp())) == (1787150474, 1787150607)
    job.refresh()  # the recording asks once more
    results = job.results()
    assert player.left == 0
    recorded = _recorded_output()
    for item, line in zip(results, recorded):
        body = line["response"]["body"]
        message = next(o for o in body["output"] if o["type"] == "message")
        reasoning = next(o for o in body["output"] if o["type"] == "reasoning")
        assert item.custom_id == line["custom_id"]
        assert item.result is not None
        assert item.result.text == message["content"][0]["text"]
        assert item.result.usage.output_tokens == body["usage"]["output_tokens"]
        assert (
            item.result.usage.reasoning_tokens == body["usage"]["output_tokens_details"]["reasoning_tokens"]
        )
        kept = [p for p in item.result.content if p.type == "reasoning"]
        assert [p.signature for p in kept] == [reasoning["encrypted_content"]]
    assert results.usage.output_tokens == sum(
        line["response"]["body"]["usage"]["output_tokens"] for line in recorded
    )


def test_the_async_twins_replay_the_same_exchange() -> None:
    mock, player = transport(ANSWERS)

    async def run() -> list[str | None]:
        model = _model(mock)
        job = await model.asubmit_batch([{"prompt": prompt} for prompt in PROMPTS])
        await job.await_done(poll_interval=0)
        await job.arefresh()
        return [item.result.text if item.result else None for item in await job.aresults()]

    texts = asyncio.run(run())
    assert texts == [
        next(o for o in line["response"]["body"]["output"] if o["type"] == "message")["content"][0]["text"]
        for line in _recorded_output()
    ]
    assert player.left == 0


def test_a_failed_line_is_that_request_s_typed_error() -> None:
    from modelport_openai._batches import result_lines

    from modelport.errors import ProviderRateLimitError

    # MOCK: no recording has a failed line; the shape is OpenAI's documented output-file line.
    content = json.dumps(
        {
            "id": "batch_req_1",
            "custom_id": "7",
            "response": {
                "status_code": 429,
                "request_id": "req_abc",
                "body": {
                    "error": {
                        "message": "Rate limit reached",
                        "type": "requests",
                        "code": "rate_limit_exceeded",
                    }
                },
            },
            "error": None,
        }
    ).encode()
    provider = modelport.get_model("openai/gpt-5-nano", api_key=KEY).provider
    (line,) = result_lines(content, provider.error_from_response)
    assert line.custom_id == "7"
    assert isinstance(line.error, ProviderRateLimitError)
    assert (line.error.status_code, line.error.request_id, line.error.message) == (
        429,
        "req_abc",
        "Rate limit reached",
    )


EMBEDDINGS = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_openai_text-embedding-3-small_embeddings_embeds_staged_texts_and_hydrates_each_request_result.yml"


def test_an_embedding_batch_goes_to_the_embeddings_endpoint_and_gives_embeddings() -> None:
    mock, player = transport(EMBEDDINGS)
    model = modelport.get_model("openai/text-embedding-3-small", api_key=KEY, transport=mock, max_retries=0)
    job = model.submit_embed_batch(
        [
            "Ruby is a programmer best friend",
            {"values": "Batches come back within a day", "output_dimensionality": 256},
        ]
    )
    assert job.kind == "embed"
    lines = [json.loads(line) for line in _multipart_file(player.sent[0]).splitlines()]
    recorded = exchanges(EMBEDDINGS)[0].sent.split(b"\r\n\r\n", 1)[1].split(b"\r\n--")[0].splitlines()
    assert [(line["custom_id"], line["url"], line["body"]) for line in lines] == [
        (r["custom_id"], r["url"], r["body"]) for r in map(json.loads, recorded)
    ]
    assert json.loads(player.sent[1].content) == exchanges(EMBEDDINGS)[1].sent_json()
    job.wait(poll_interval=0)
    while player.left > 1:  # the recording polls once more than it needs to
        job.refresh()
    results = job.results()
    assert player.left == 0
    output = [json.loads(line) for line in exchanges(EMBEDDINGS)[-1].answer.splitlines()]
    for item, line in zip(results, output):
        body = line["response"]["body"]
        assert item.result is not None
        assert item.result.embeddings == [body["data"][0]["embedding"]]
        assert item.result.usage.input_tokens == body["usage"]["prompt_tokens"]
    assert [len(item.result.embeddings[0]) for item in results if item.result] == [1536, 256]
    assert results.usage.input_tokens == 13


def test_a_provider_without_embeddings_refuses_an_embedding_batch_before_any_request() -> None:
    from modelport.errors import InvalidRequestError

    calls: list[httpx.Request] = []
    model = modelport.get_model(
        "openai-responses/gpt-5-nano", api_key=KEY, transport=httpx.MockTransport(calls.append)
    )
    with pytest.raises(InvalidRequestError, match="does not support embed"):
        model.submit_embed_batch(["x"])
    assert calls == []


def test_an_embedding_type_the_api_lacks_is_refused_in_a_batch_before_any_request() -> None:
    from modelport.errors import InvalidRequestError

    calls: list[httpx.Request] = []
    model = modelport.get_model(
        "openai/text-embedding-3-small", api_key=KEY, transport=httpx.MockTransport(calls.append)
    )
    with pytest.raises(InvalidRequestError) as error:
        model.submit_embed_batch(["x", {"values": "y", "embedding_type": "int8"}])
    assert str(error.value) == (
        "embedding_type='int8' is not supported by provider 'openai' (it offers float, base64)"
    )
    assert calls == []
