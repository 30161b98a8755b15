"""Anthropic Message Batches replayed from real recordings (crmne/ruby_llm, MIT): create, polls,
results and cancel, with every expected value read off the recording."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import httpx
import pytest

import modelport
from modelport import restore_batch
from modelport.batches import BatchJob
from modelport.errors import BatchItemNotRunError, InvalidRequestError, ProviderResponseError
from tests.batches.replay import transport

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-ant-test-0123456789abcdefghij"
ANSWERS = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_anthropic_claude-haiku-4-5_answers_staged_chats_and_appends_the_answers_to_their_conversations.yml"
CANCEL = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_anthropic_claude-haiku-4-5_cancels_a_running_batch.yml"
RELOAD = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_anthropic_claude-haiku-4-5_reloads_a_batch_by_id_and_collects_messages_without_the_chats.yml"


def _model(mock: httpx.MockTransport) -> modelport.Model:
    return modelport.get_model("anthropic/claude-haiku-4-5", api_key=KEY, transport=mock, max_retries=0)


def test_a_batch_is_created_polled_and_its_results_come_back_in_input_order() -> None:
    mock, player = transport(ANSWERS)
    model = _model(mock)
    job = model.submit_batch(
        [
            {"prompt": "What is 2 + 2?", "system": "Be terse."},
            {"prompt": "Name the largest planet in our solar system. One word."},
        ]
    )
    assert (job.id, job.status, job.raw_status) == (
        "msgbatch_01GUqGVJfUzZfBnjRymfPdV3",
        "running",
        "in_progress",
    )
    assert job.counts.model_dump() == {
        "total": 2,
        "processing": 2,
        "succeeded": 0,
        "failed": 0,
        "cancelled": 0,
        "expired": 0,
    }
    assert job.created_at == datetime(2026, 8, 19, 14, 44, 51, 493319, tzinfo=timezone.utc)
    # What was sent: each request's params are exactly the body generate builds for it.
    sent = json.loads(player.sent[0].content)
    assert [entry["custom_id"] for entry in sent["requests"]] == ["0", "1"]
    single = model.provider.prepare(
        model.name, model.prepare(prompt="What is 2 + 2?", system="Be terse.")
    ).wire
    assert sent["requests"][0]["params"] == single.body

    seen: list[str] = []
    job.wait(poll_interval=0, progress=lambda j: seen.append(j.raw_status))
    assert seen == ["in_progress"] * 9 + ["ended"]
    assert (job.status, job.ended_at) == (
        "succeeded",
        datetime(2026, 8, 19, 14, 46, 57, 158324, tzinfo=timezone.utc),
    )
    assert job.counts.succeeded == 2

    results = job.results()
    assert player.left == 0
    assert [(item.custom_id, item.result.text if item.result else None) for item in results] == [
        ("0", "4"),
        ("1", "Jupiter"),
    ]
    first = results[0].result
    assert first is not None
    assert (first.finish_reason, first.usage.input_tokens, first.usage.output_tokens) == ("stop", 20, 5)
    assert (results.usage.input_tokens, results.usage.output_tokens, results.usage.total_tokens) == (
        39,
        9,
        48,
    )
    assert results.errors == []


def test_a_cancelled_batch_reports_cancelling_while_it_stops() -> None:
    mock, player = transport(CANCEL)
    job = _model(mock).submit_batch([{"prompt": "What is 5 + 5?"}])
    assert job.raw_status == "in_progress"
    job.cancel()
    assert (job.status, job.raw_status, job.done) == ("running", "canceling", False)
    assert player.left == 0


def test_a_saved_job_is_restored_in_a_fresh_interpreter_and_reaches_the_same_results() -> None:
    mock, player = transport(RELOAD, 0, 1)
    job = _model(mock).submit_batch([{"prompt": "What is 3 + 3?"}])
    saved = job.model_dump_json()
    script = f"""
import json, httpx, modelport
from modelport import restore_batch
from tests.batches.replay import transport
mock, player = transport({RELOAD!r}, 1)
model = modelport.get_model("anthropic/claude-haiku-4-5", api_key={KEY!r}, transport=mock, max_retries=0)
job = restore_batch({saved!r}, model).wait(poll_interval=0).refresh()  # the recording reloads it by id once
items = job.results()
print(json.dumps([job.status, player.left, [(i.custom_id, i.result.text, i.result.usage.output_tokens) for i in items]]))
"""
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == ["succeeded", 0, [["0", "6", 5]]]


def test_a_batch_fetched_by_id_decodes_its_results_as_plain_answers() -> None:
    mock, player = transport(RELOAD, 11)
    model = _model(mock)
    job = BatchJob(
        id="msgbatch_01GSR2pUkGcad188iHy2BkZH",
        provider="anthropic",
        model="claude-haiku-4-5",
        status="running",
        raw_status="in_progress",
    ).bind(model)
    job.refresh()
    assert job.status == "succeeded"
    items = job.results()
    assert [(i.custom_id, i.result.text if i.result else None) for i in items] == [("0", "6")]


def test_a_provider_without_batches_refuses_before_any_request() -> None:
    calls: list[httpx.Request] = []
    model = modelport.get_model(
        "openai-compatible/local",
        base_url="http://127.0.0.1:9/v1",
        api_key="k",
        transport=httpx.MockTransport(calls.append),
    )
    with pytest.raises(InvalidRequestError, match="has no batch API"):
        model.submit_batch([{"prompt": "hi"}])
    assert calls == []


def test_bad_entries_are_refused_before_any_request() -> None:
    mock, player = transport(ANSWERS, 0, 0)
    model = _model(mock)
    with pytest.raises(InvalidRequestError, match="custom_id must be a new non-empty string"):
        model.submit_batch([("a", {"prompt": "x"}), ("a", {"prompt": "y"})])
    with pytest.raises(InvalidRequestError, match="non-empty list"):
        model.submit_batch([])
    with pytest.raises(InvalidRequestError):
        model.submit_batch([{"prompt": "x", "temperature": "hot"}])
    assert player.sent == []


def test_requests_without_a_result_are_typed_errors_in_their_place() -> None:
    mock, _ = transport(ANSWERS, 11)
    job = restore_batch(
        {
            "id": "msgbatch_01GUqGVJfUzZfBnjRymfPdV3",
            "provider": "anthropic",
            "model": "claude-haiku-4-5",
            "status": "succeeded",
            "raw_status": "ended",
            "provider_data": {
                "results_url": "https://api.anthropic.com/v1/messages/batches/msgbatch_01GUqGVJfUzZfBnjRymfPdV3/results"
            },
            "requests": [
                {
                    "custom_id": "1",
                    "request": {"messages": [{"role": "user", "content": [{"type": "text", "text": "p"}]}]},
                },
                {
                    "custom_id": "2",
                    "request": {"messages": [{"role": "user", "content": [{"type": "text", "text": "q"}]}]},
                },
            ],
        },
        _model(mock),
    )
    items = job.results()
    # The recording's "0" is no request of this job: it comes after the requests' items, typed.
    assert [item.custom_id for item in items] == ["1", "2", "0"]
    assert items[0].result is not None and items[0].result.text == "Jupiter"
    assert isinstance(items[1].error, BatchItemNotRunError)
    assert (items[1].error.provider_status, items[1].error.details) == ("missing", {"custom_id": "2"})
    unknown = items[2].error
    assert isinstance(unknown, ProviderResponseError) and unknown.provider_status == "unknown"
    assert unknown.partial is not None and unknown.partial.text == "4"
