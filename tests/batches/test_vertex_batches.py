"""Vertex AI batch prediction jobs on ``google-vertex``, against a fake of Vertex AI and Cloud Storage.

MOCK: no recording of a Vertex batch exists. Every exchange follows the public docs: the Cloud
Storage JSON API (media upload ``POST /upload/storage/v1/b/{bucket}/o?uploadType=media&name=``,
``objects.list`` with ``prefix``/``pageToken``/``nextPageToken``, download with ``alt=media``) and
Vertex AI's "Batch inference from Cloud Storage" page and REST reference (``batchPredictionJobs``
create, get, ``:cancel``; ``JOB_STATE_*``, ``completionStats``, ``outputInfo.gcsOutputDirectory``;
input lines ``{"request": ...}``, output lines ``{"status", "processed_time", "request",
"response"}``). The response bodies are the real ones of the Gemini batch recording
(crmne/ruby_llm, MIT), which Vertex returns in the same ``GenerateContentResponse`` shape.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

import modelport
from modelport.errors import ConfigurationError, InvalidRequestError, ProviderError
from tests.batches.replay import exchanges

ANSWERS = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_gemini_gemini-2_5-flash_answers_staged_chats_and_appends_the_answers_to_their_conversations.yml"
#: A planted access token in the OAuth shape, built at run time (no token-shaped literal is tracked).
TOKEN = "ya29." + "test-token-0123456789abcdef"
VERTEX = "https://us-central1-aiplatform.googleapis.com/v1"
PARENT = "projects/proj-1/locations/us-central1"
JOB = f"{PARENT}/batchPredictionJobs/4242"
STORAGE = "https://storage.googleapis.com"
OUTPUT_DIR = "runs/nightly/modelport-{digest}/output/prediction-model-2026-12-01T18:00:00.000000Z"
PROMPTS = ["What is 2 + 2? Just the number.", "Name the largest planet in our solar system. One word."]
FAILED_STATUS = (
    'Bad Request: {"error": {"code": 400, "message": "Please use a valid role: user, model.", '
    '"status": "INVALID_ARGUMENT"}}'
)


def _recorded_responses() -> list[dict[str, Any]]:
    final = exchanges(ANSWERS)[-1].answer_json()["response"]["inlinedResponses"]["inlinedResponses"]
    return [entry["response"] for entry in final]


class FakeVertex:
    """Vertex AI's job resource and the Cloud Storage objects it reads and writes."""

    def __init__(self) -> None:
        self.seen: list[httpx.Request] = []
        self.polls = 0
        self.digest = ""
        self.cancelled = False

    def job(self, state: str, **more: Any) -> dict[str, Any]:
        return {
            "name": JOB,
            "displayName": f"modelport-{self.digest}",
            "state": state,
            "createTime": "2026-12-01T18:00:00.123456Z",
            **more,
        }

    def __call__(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.seen.append(request)
        url, path = str(request.url), request.url.path
        query = parse_qs(urlsplit(url).query)
        if path == "/upload/storage/v1/b/my-bucket/o":
            self.digest = query["name"][0].split("/")[2].removeprefix("modelport-")
            return httpx.Response(200, json={"bucket": "my-bucket", "name": query["name"][0]})
        if url == f"{VERTEX}/{PARENT}/batchPredictionJobs":
            return httpx.Response(200, json=self.job("JOB_STATE_PENDING"))
        if url == f"{VERTEX}/{JOB}:cancel":
            self.cancelled = True
            return httpx.Response(200, json={})
        if url == f"{VERTEX}/{JOB}":
            return httpx.Response(200, json=self._poll())
        if path == "/storage/v1/b/my-bucket/o" and request.method == "GET":
            return httpx.Response(200, json=self._listing(query.get("pageToken", [None])[0]))
        if path.startswith("/storage/v1/b/my-bucket/o/") and query.get("alt") == ["media"]:
            return httpx.Response(200, content=self._predictions(path.rsplit("/", 1)[-1]))
        return httpx.Response(599)

    def _poll(self) -> dict[str, Any]:
        self.polls += 1
        if self.cancelled:
            return self.job("JOB_STATE_CANCELLING")
        if self.polls == 1:
            return self.job(
                "JOB_STATE_RUNNING", completionStats={"successfulCount": "1", "incompleteCount": "2"}
            )
        return self.job(
            "JOB_STATE_SUCCEEDED",
            completionStats={"successfulCount": "2", "failedCount": "1"},
            endTime="2026-12-01T18:20:05.5Z",
            outputInfo={"gcsOutputDirectory": f"gs://my-bucket/{OUTPUT_DIR.format(digest=self.digest)}"},
        )

    def _listing(self, page: str | None) -> dict[str, Any]:
        folder = OUTPUT_DIR.format(digest=self.digest)
        if page is None:
            return {"items": [{"name": f"{folder}/predictions_00001.jsonl"}], "nextPageToken": "p2"}
        return {
            "items": [{"name": f"{folder}/predictions_00002.jsonl"}, {"name": f"{folder}/incremental/x.txt"}]
        }

    def _predictions(self, file: str) -> bytes:
        sent = [json.loads(line) for line in self.seen[0].content.splitlines()]
        first, second = _recorded_responses()
        if file == "predictions_00001.jsonl":
            lines = [
                {
                    "status": "",
                    "processed_time": "2026-12-01T18:10:00Z",
                    "request": sent[1]["request"],
                    "response": second,
                },
                {
                    "status": FAILED_STATUS,
                    "processed_time": "2026-12-01T18:10:01Z",
                    "request": sent[2]["request"],
                },
            ]
        else:
            lines = [
                {
                    "status": "",
                    "processed_time": "2026-12-01T18:11:00Z",
                    "request": sent[0]["request"],
                    "response": first,
                }
            ]
        return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def _model(fake: Any, **options: Any) -> modelport.Model:
    config: dict[str, Any] = {
        "project": "proj-1",
        "location": "us-central1",
        "token": TOKEN,
        "batch_bucket": "gs://my-bucket/runs/nightly/",
        **options,
    }
    return modelport.get_model(
        "google-vertex/gemini-2.5-flash", transport=httpx.MockTransport(fake), max_retries=0, **config
    )


ENTRIES: list[Any] = [{"prompt": PROMPTS[0]}, {"prompt": PROMPTS[1]}, ("third-q", {"prompt": "Say hi."})]


def _check_submitted(fake: FakeVertex, model: modelport.Model, job: modelport.BatchJob) -> None:
    upload, create = fake.seen
    name = f"runs/nightly/modelport-{fake.digest}/input.jsonl"
    assert len(fake.digest) == 16
    assert (upload.method, upload.url.path, parse_qs(upload.url.query.decode())) == (
        "POST",
        "/upload/storage/v1/b/my-bucket/o",
        {"uploadType": ["media"], "name": [name]},
    )
    assert upload.headers["content-type"] == "application/jsonl"
    assert upload.headers["authorization"] == f"Bearer {TOKEN}"
    lines = [json.loads(line) for line in upload.content.splitlines()]
    prompts = [PROMPTS[0], PROMPTS[1], "Say hi."]
    for line, prompt, custom_id in zip(lines, prompts, ["0", "1", "third-q"]):
        single = model.provider.prepare(model.name, model.prepare(prompt=prompt)).wire.body
        assert line == {"request": {**single, "labels": {"modelport_custom_id": custom_id}}}
    assert int(upload.headers["content-length"]) == len(upload.content)

    assert (create.method, str(create.url)) == ("POST", f"{VERTEX}/{PARENT}/batchPredictionJobs")
    assert create.headers["authorization"] == f"Bearer {TOKEN}"
    assert json.loads(create.content) == {
        "displayName": f"modelport-{fake.digest}",
        "model": "publishers/google/models/gemini-2.5-flash",
        "inputConfig": {"instancesFormat": "jsonl", "gcsSource": {"uris": [f"gs://my-bucket/{name}"]}},
        "outputConfig": {
            "predictionsFormat": "jsonl",
            "gcsDestination": {
                "outputUriPrefix": f"gs://my-bucket/runs/nightly/modelport-{fake.digest}/output"
            },
        },
    }
    assert (job.id, job.provider, job.status, job.raw_status) == (
        "4242",
        "google-vertex",
        "queued",
        "JOB_STATE_PENDING",
    )
    assert job.created_at is not None and job.created_at.isoformat() == "2026-12-01T18:00:00.123456+00:00"


def _check_results(fake: FakeVertex, results: Any) -> None:
    folder = OUTPUT_DIR.format(digest=fake.digest)
    listing = f"{STORAGE}/storage/v1/b/my-bucket/o"
    get, page1, page2, file1, file2 = fake.seen[-5:]
    assert str(get.url) == f"{VERTEX}/{JOB}"
    assert parse_qs(page1.url.query.decode()) == {"prefix": [f"{folder}/"]}
    assert parse_qs(page2.url.query.decode()) == {"prefix": [f"{folder}/"], "pageToken": ["p2"]}
    assert str(page1.url).startswith(f"{listing}?")
    quoted = folder.replace("/", "%2F").replace(":", "%3A")
    assert str(file1.url) == f"{listing}/{quoted}%2Fpredictions_00001.jsonl?alt=media"
    assert str(file2.url) == f"{listing}/{quoted}%2Fpredictions_00002.jsonl?alt=media"
    assert all(request.headers["authorization"] == f"Bearer {TOKEN}" for request in fake.seen)

    first, second = _recorded_responses()
    assert [item.custom_id for item in results] == ["0", "1", "third-q"]
    assert [item.result.text for item in results[:2]] == ["4", "Jupiter"]
    usage = second["usageMetadata"]
    assert (
        results[1].result.usage.output_tokens == usage["candidatesTokenCount"] + usage["thoughtsTokenCount"]
    )
    error = results[2].error
    assert isinstance(error, ProviderError) and results[2].result is None
    assert (error.status_code, error.message) == (400, "Please use a valid role: user, model.")
    assert results.usage.input_tokens == (
        first["usageMetadata"]["promptTokenCount"] + second["usageMetadata"]["promptTokenCount"]
    )


def test_a_vertex_batch_goes_up_to_cloud_storage_runs_as_a_job_and_comes_back_in_order() -> None:
    fake = FakeVertex()
    model = _model(fake)
    job = model.submit_batch(ENTRIES)
    _check_submitted(fake, model, job)

    job.refresh()
    assert (job.status, job.raw_status, job.counts.succeeded, job.counts.processing) == (
        "running",
        "JOB_STATE_RUNNING",
        1,
        2,
    )
    job.wait(poll_interval=0)
    assert (job.status, job.counts.total, job.counts.succeeded, job.counts.failed) == ("succeeded", 3, 2, 1)
    assert job.ended_at is not None and job.ended_at.isoformat() == "2026-12-01T18:20:05.500000+00:00"
    assert job.provider_data["output_directory"] == f"gs://my-bucket/{OUTPUT_DIR.format(digest=fake.digest)}"
    _check_results(fake, job.results())

    # A job restored in another process reads the same results (no batch_bucket needed there).
    again = modelport.restore_batch(job.model_dump_json(), model=_model(fake, batch_bucket=None))
    _check_results(fake, again.results())


def test_the_async_twins_send_the_same_exchange() -> None:
    fake = FakeVertex()
    model = _model(fake)

    async def run() -> Any:
        job = await model.asubmit_batch(ENTRIES)
        _check_submitted(fake, model, job)
        await job.await_done(poll_interval=0)
        return await job.aresults()

    _check_results(fake, asyncio.run(run()))
    assert fake.polls == 3  # the await_done polls, then the job read for its output directory


def test_cancel_posts_to_the_job_then_reads_it_back() -> None:
    fake = FakeVertex()
    job = _model(fake).get_batch("4242")
    job.cancel()
    cancel, get = fake.seen[-2:]
    assert (cancel.method, str(cancel.url), json.loads(cancel.content)) == (
        "POST",
        f"{VERTEX}/{JOB}:cancel",
        {},
    )
    assert (get.method, str(get.url)) == ("GET", f"{VERTEX}/{JOB}")
    assert (job.status, job.raw_status) == ("running", "JOB_STATE_CANCELLING")
    asyncio.run(job.acancel())
    assert [str(r.url) for r in fake.seen[-2:]] == [f"{VERTEX}/{JOB}:cancel", f"{VERTEX}/{JOB}"]


def test_a_full_job_name_of_this_project_is_read_as_its_id() -> None:
    fake = FakeVertex()
    job = _model(fake).get_batch(JOB)
    assert (job.id, str(fake.seen[0].url)) == ("4242", f"{VERTEX}/{JOB}")


@pytest.mark.parametrize(
    ("options", "entries", "error", "match"),
    [
        ({"batch_bucket": None}, ENTRIES, InvalidRequestError, "pass batch_bucket='gs://bucket/folder'"),
        (
            {"project": None, "token": None, "api_key": "AIza" + "SyA-test-0123456789abcdefghijklmnopq"},
            ENTRIES,
            InvalidRequestError,
            "Cloud Storage takes no API key",
        ),
        ({}, [("Planet One", {"prompt": "x"})], InvalidRequestError, "custom id 'Planet One' cannot travel"),
        ({}, [("x" * 64, {"prompt": "x"})], InvalidRequestError, "at most 63 lowercase letters"),
    ],
)
def test_what_vertex_cannot_run_is_refused_before_any_request(
    options, entries, error, match, monkeypatch
) -> None:
    monkeypatch.delenv("GOOGLE_CLOUD_PROJECT", raising=False)
    fake = FakeVertex()
    model = _model(fake, **options)
    with pytest.raises(error, match=match):
        model.submit_batch(entries)
    assert fake.seen == []


def test_too_many_requests_and_embeddings_are_refused_before_any_request(monkeypatch) -> None:
    from modelport_google import _vertex_batches

    fake = FakeVertex()
    monkeypatch.setattr(_vertex_batches, "MAX_BATCH_REQUESTS", 2)
    with pytest.raises(InvalidRequestError, match="at most 2 requests, got 3"):
        _model(fake).submit_batch(ENTRIES)
    embedder = modelport.get_model(
        "google-vertex/gemini-embedding-001",
        project="proj-1",
        token=TOKEN,
        batch_bucket="gs://my-bucket",
        transport=httpx.MockTransport(fake),
    )
    with pytest.raises(InvalidRequestError, match="Vertex AI embedding batches are not supported"):
        embedder.submit_embed_batch(["a", "b"])
    with pytest.raises(InvalidRequestError, match="not a Vertex AI batch prediction job id"):
        _model(fake).get_batch("projects/other/locations/us-central1/batchPredictionJobs/1")
    assert fake.seen == []


@pytest.mark.parametrize(
    "bucket", ["my-bucket", "gs://", "gs://ab", "gs://My_Bucket/x", "gs://-bucket", "gs://b-1/a*b"]
)
def test_a_batch_bucket_that_is_not_a_cloud_storage_uri_is_a_configuration_error(bucket) -> None:
    with pytest.raises(ConfigurationError, match="batch_bucket"):
        _model(FakeVertex(), batch_bucket=bucket)


def test_the_bucket_folder_is_optional() -> None:
    from modelport_google._vertex_batches import parse_batch_bucket

    bucket = parse_batch_bucket("gs://my.bucket_1")
    assert (bucket.bucket, bucket.prefix, bucket.uri("a", "b"), bucket.object_name("a")) == (
        "my.bucket_1",
        "",
        "gs://my.bucket_1/a/b",
        "a",
    )


def test_a_failed_line_without_json_and_a_line_without_the_label() -> None:
    from modelport.errors import ProviderResponseError
    from modelport_google._vertex_batches import results_steps

    provider = _model(FakeVertex()).provider
    steps = results_steps(JOB, "google-vertex", provider.error_from_response)
    steps.send(None)
    listed = steps.send(
        _reply({"outputInfo": {"gcsOutputDirectory": "gs://my-bucket/out/prediction-model-1"}})
    )
    assert listed.url == f"{STORAGE}/storage/v1/b/my-bucket/o?prefix=out%2Fprediction-model-1%2F"
    with pytest.raises(StopIteration) as stop:
        steps.send(_reply({"items": [{"name": "out/prediction-model-1/predictions.jsonl"}]}))
    (download,) = stop.value.value
    (line,) = download.parse(
        {"status": "Internal error occurred.", "request": {"labels": {"modelport_custom_id": "7"}}}
    )
    assert line.custom_id == "7" and isinstance(line.error, ProviderError)
    assert (line.error.status_code, line.error.message) == (500, "Internal error occurred.")
    with pytest.raises(ProviderResponseError, match="no 'modelport_custom_id' label"):
        download.parse({"status": "", "request": {}, "response": {}})


def _reply(data: Any) -> Any:
    from modelport.http import HttpResponse

    return HttpResponse(200, {}, data, json.dumps(data).encode())
