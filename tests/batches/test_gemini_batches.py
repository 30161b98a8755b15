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

KEY = "AIzaSyA-test-0123456789abcdefghijklmnopq"
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


def test_vertex_has_no_batch_mode_here_and_says_so_before_any_request() -> None:
    calls: list[httpx.Request] = []
    model = modelport.get_model(
        "google-vertex/gemini-2.5-flash",
        project="p",
        location="us-central1",
        token="ya29.test-token-0123456789",
        transport=httpx.MockTransport(calls.append),
    )
    with pytest.raises(InvalidRequestError, match="has no batch API"):
        model.submit_batch([{"prompt": "hi"}])
    assert calls == []


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


def test_an_embedding_batch_is_refused_before_any_request() -> None:
    calls: list[httpx.Request] = []
    model = modelport.get_model(
        "google/gemini-embedding-001", api_key=KEY, transport=httpx.MockTransport(calls.append)
    )
    with pytest.raises(InvalidRequestError, match="Gemini embedding batches are not supported"):
        model.submit_embed_batch(["a", "b"])
    assert calls == []
