"""Gemini API batch mode replayed from a real recording (crmne/ruby_llm, MIT): the requests sent
inline, 26 polls of the ``batches/{id}`` operation, the inlined responses read; expected values
are read off the recording."""

from __future__ import annotations

import json

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from tests.batches.replay import exchanges, transport

#: A planted key in the Gemini shape, built at run time (no key-shaped literal is tracked).
KEY = "AIza" + "SyA-test-0123456789abcdefghijklmnopq"
ANSWERS = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_gemini_gemini-2_5-flash_answers_staged_chats_and_appends_the_answers_to_their_conversations.yml"
PROMPTS = ["What is 2 + 2? Just the number.", "Name the largest planet in our solar system. One word."]


def _model(mock: httpx.MockTransport, provider: str = "google") -> modelport.Model:
    return modelport.get_model(f"{provider}/gemini-2.5-flash", api_key=KEY, transport=mock, max_retries=0)


def test_a_gemini_batch_runs_inline_and_gives_each_response_decoded_as_a_single_call() -> None:
    mock, player = transport(ANSWERS)
    model = _model(mock)
    job = model.submit_batch([{"prompt": prompt} for prompt in PROMPTS])
    assert (job.id, job.status, job.raw_status) == (
        "31u18uq6dr4ods3957z38i1mbfa581k01xcq",
        "queued",
        "BATCH_STATE_PENDING",
    )
    assert (job.counts.total, job.counts.processing) == (2, 2)

    sent = json.loads(player.sent[0].content)["batch"]["inputConfig"]["requests"]["requests"]
    recorded = exchanges(ANSWERS)[0].sent_json()["batch"]["inputConfig"]["requests"]["requests"]
    assert [(s["metadata"], s["request"]["model"]) for s in sent] == [
        (r["metadata"], r["request"]["model"]) for r in recorded
    ]
    for entry, prompt in zip(sent, PROMPTS):
        single = model.provider.prepare(model.name, model.prepare(prompt=prompt)).wire
        assert {k: v for k, v in entry["request"].items() if k != "model"} == single.body
        assert entry["request"]["contents"] == [{"role": "user", "parts": [{"text": prompt}]}]

    job.wait(poll_interval=0)
    assert (job.status, job.counts.succeeded) == ("succeeded", 2)
    assert job.ended_at is not None and job.ended_at.isoformat() == "2026-08-19T14:40:30.652367+00:00"
    results = job.results()
    assert player.left == 0
    final = exchanges(ANSWERS)[-1].answer_json()["response"]["inlinedResponses"]["inlinedResponses"]
    for item, entry in zip(results, final):
        response = entry["response"]
        assert item.custom_id == entry["metadata"]["custom_id"]
        assert item.result is not None
        assert item.result.text == response["candidates"][0]["content"]["parts"][0]["text"]
        usage = response["usageMetadata"]
        # Output includes the thoughts (contract 2.1): candidates + thoughts.
        assert item.result.usage.output_tokens == usage["candidatesTokenCount"] + usage["thoughtsTokenCount"]
        assert item.result.usage.reasoning_tokens == usage["thoughtsTokenCount"]
    assert [item.result.text for item in results if item.result] == ["4", "Jupiter"]


def test_an_errored_inline_entry_is_that_request_s_typed_error() -> None:
    from modelport.errors import ProviderQuotaError
    from modelport_google._batches import result_lines

    # MOCK: the recording has no failed entry; the shape is the API's google.rpc.Status.
    provider = modelport.get_model("google/gemini-2.5-flash", api_key=KEY).provider
    (line,) = result_lines(
        [{"error": {"code": 8, "message": "Resource has been exhausted"}, "metadata": {"custom_id": "9"}}],
        "google",
        provider.error_from_response,
    )
    assert line.custom_id == "9"
    # RESOURCE_EXHAUSTED is HTTP 429, typed as the plugin types a 429 with that message: quota.
    assert isinstance(line.error, ProviderQuotaError)
    assert (line.error.status_code, line.error.message) == (429, "Resource has been exhausted")


def test_an_embedding_batch_runs_one_value_a_request_through_async_batch_embed_content() -> None:
    """MOCK: no recording of a Gemini embedding batch exists. The create body is the generation
    batch's with ``embedContent`` requests (as the genai SDKs and ruby_llm send it); the ended
    operation holds ``inlinedEmbedContentResponses`` (the name the SDKs read), each response an
    ``embedContent`` answer."""
    host = "https://generativelanguage.googleapis.com/v1beta"
    pending = {"name": "batches/emb1", "metadata": {"name": "batches/emb1", "state": "BATCH_STATE_PENDING"}}
    ended = {
        "name": "batches/emb1",
        "metadata": {
            "name": "batches/emb1",
            "state": "BATCH_STATE_SUCCEEDED",
            "batchStats": {"requestCount": "2", "successfulRequestCount": "2"},
        },
        "done": True,
        "response": {
            "inlinedEmbedContentResponses": {
                "inlinedResponses": [
                    {"response": {"embedding": {"values": [0.5, -0.25]}}, "metadata": {"custom_id": "short"}},
                    {"response": {"embedding": {"values": [0.125, 1.0]}}, "metadata": {"custom_id": "0"}},
                ]
            }
        },
    }
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        url = str(request.url)
        if url == f"{host}/models/gemini-embedding-001:asyncBatchEmbedContent":
            return httpx.Response(200, json=pending)
        if url == f"{host}/batches/emb1":
            return httpx.Response(200, json=ended)
        return httpx.Response(599)

    model = modelport.get_model(
        "google/gemini-embedding-001", api_key=KEY, transport=httpx.MockTransport(answer), max_retries=0
    )
    job = model.submit_embed_batch(
        ["first text", ("short", {"values": "second text", "output_dimensionality": 2})]
    )
    sent = json.loads(seen[0].content)["batch"]["inputConfig"]["requests"]["requests"]
    assert sent == [
        {
            "request": {
                "content": {"parts": [{"text": "first text"}]},
                "model": "models/gemini-embedding-001",
            },
            "metadata": {"custom_id": "0"},
        },
        {
            "request": {
                "content": {"parts": [{"text": "second text"}]},
                "outputDimensionality": 2,
                "model": "models/gemini-embedding-001",
            },
            "metadata": {"custom_id": "short"},
        },
    ]
    job.wait(poll_interval=0)
    results = job.results()
    assert [(item.custom_id, item.result.embeddings if item.result else None) for item in results] == [
        ("0", [[0.125, 1.0]]),
        ("short", [[0.5, -0.25]]),
    ]


def test_a_gemini_embedding_batch_entry_with_several_values_is_refused_before_any_request() -> None:
    calls: list[httpx.Request] = []
    model = modelport.get_model(
        "google/gemini-embedding-001", api_key=KEY, transport=httpx.MockTransport(calls.append)
    )
    with pytest.raises(InvalidRequestError, match="a Gemini embedding batch takes one value a request"):
        model.submit_embed_batch([{"values": ["a", "b"]}])
    assert calls == []


def test_a_batch_over_the_inline_bound_goes_up_as_a_file_and_comes_back_as_one(monkeypatch) -> None:
    """MOCK: no recording has the file route. The exchange follows the Files API's resumable upload
    and the batch docs (``inputConfig.fileName``, ``responsesFile``, the download service); the
    response bodies in the responses file are the recorded inline ones."""
    from modelport.errors import ProviderQuotaError
    from modelport_google import _batches

    monkeypatch.setattr(_batches, "MAX_INLINE_BYTES", 100)
    recorded = exchanges(ANSWERS)[-1].answer_json()["response"]["inlinedResponses"]["inlinedResponses"]
    host = "https://generativelanguage.googleapis.com"
    operation = {
        "name": "batches/file123",
        "metadata": {
            "name": "batches/file123",
            "state": "BATCH_STATE_PENDING",
            "batchStats": {"requestCount": "3"},
        },
    }
    ended = {
        "name": "batches/file123",
        "metadata": {
            "name": "batches/file123",
            "state": "BATCH_STATE_SUCCEEDED",
            "batchStats": {"requestCount": "3", "successfulRequestCount": "2", "failedRequestCount": "1"},
        },
        "done": True,
        "response": {"responsesFile": "files/out456"},
    }
    output = b"".join(
        json.dumps(line).encode() + b"\n"
        for line in (
            {"key": "1", "response": recorded[1]["response"]},
            {"key": "0", "response": recorded[0]["response"]},
            {"key": "2", "error": {"code": 8, "message": "Resource has been exhausted"}},
        )
    )
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        request.read()
        url = str(request.url)
        if url == f"{host}/upload/v1beta/files":
            return httpx.Response(
                200, headers={"x-goog-upload-url": f"{host}/upload/v1beta/files?upload_id=u1"}
            )
        if url.endswith("upload_id=u1"):
            return httpx.Response(
                200, headers={"x-goog-upload-status": "final"}, json={"file": {"name": "files/in123"}}
            )
        if url.endswith(":batchGenerateContent"):
            return httpx.Response(200, json=operation)
        if url == f"{host}/v1beta/batches/file123":
            return httpx.Response(200, json=ended)
        if url == f"{host}/download/v1beta/files/out456:download?alt=media":
            return httpx.Response(200, headers={"content-type": "application/octet-stream"}, content=output)
        return httpx.Response(599)

    model = _model(httpx.MockTransport(answer))
    job = model.submit_batch([{"prompt": prompt} for prompt in [*PROMPTS, "A third question"]])
    start, upload, create = seen
    assert (start.headers["x-goog-upload-command"], start.headers["x-goog-upload-header-content-type"]) == (
        "start",
        "application/jsonl",
    )
    lines = [json.loads(line) for line in upload.content.splitlines()]
    assert [line["key"] for line in lines] == ["0", "1", "2"]
    assert (
        lines[0]["request"] == model.provider.prepare(model.name, model.prepare(prompt=PROMPTS[0])).wire.body
    )
    assert int(start.headers["x-goog-upload-header-content-length"]) == len(upload.content)
    assert json.loads(create.content)["batch"]["inputConfig"] == {"fileName": "files/in123"}
    assert (job.id, job.status) == ("file123", "queued")

    job.wait(poll_interval=0)
    assert (job.status, job.counts.succeeded, job.counts.failed) == ("succeeded", 2, 1)
    results = job.results()
    assert [item.custom_id for item in results] == ["0", "1", "2"]
    assert [item.result.text for item in results[:2] if item.result] == ["4", "Jupiter"]
    assert isinstance(results[2].error, ProviderQuotaError)  # RESOURCE_EXHAUSTED, as the plugin types it
    assert (results[2].error.status_code, results[2].error.message) == (429, "Resource has been exhausted")
    assert str(seen[-1].url) == f"{host}/download/v1beta/files/out456:download?alt=media"
