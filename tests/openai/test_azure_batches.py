"""Azure OpenAI batches: OpenAI's files + batches exchange on Azure's routes.

No recording of an Azure batch exists: the exchange replayed here is OpenAI's real one (crmne/ruby_llm,
tests/corpus/batch), each request expected on its Azure route (the routes, line ``url`` and create
``endpoint`` are those of Azure's batch guide, https://learn.microsoft.com/azure/ai-foundry/openai/how-to/batch).
Every request goes to an ``httpx.MockTransport``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from modelport.secrets import encoded_forms
from tests.batches.replay import exchanges

ENDPOINT = "https://contoso.openai.azure.com"
KEY = "b" * 16 + "0123456789abcdef"  # the 32-hex shape of an Azure key, built at run time
TOKEN = "eyJ0eXAiOiJKV1QifQ." + "entra-canary-" + "x" * 24  # a JWT-shaped Entra ID token
ANSWERS = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_openai_gpt-5-nano_answers_staged_chats_and_appends_the_answers_to_their_conversations.yml"
PROMPTS = ["What is 2 + 2? Just the number.", "Name the largest planet in our solar system. One word."]
BATCH_ID = "batch_6a85c08a63188190982c56b42faa4ff5"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY", "OPENAI_API_VERSION", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def _azure_url(openai_url: str, version: str) -> str:
    """The Azure route of a recorded OpenAI URL (``https://api.openai.com/v1/batches/...``)."""
    path = openai_url.removeprefix("https://api.openai.com/v1/")
    if version == "v1":
        return f"{ENDPOINT}/openai/v1/{path}"
    return f"{ENDPOINT}/openai/{path}?api-version={version}"


class AzurePlayer:
    """Serves OpenAI's recorded exchanges in order, each expected on its Azure route."""

    def __init__(self, version: str = "v1", first: int = 0, last: int | None = None) -> None:
        self.recorded = exchanges(ANSWERS)[first:last]
        self.version = version
        self.sent: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        index = len(self.sent)
        self.sent.append(request)
        expected = self.recorded[index]
        assert (request.method, str(request.url)) == (
            expected.method,
            _azure_url(expected.url, self.version),
        ), f"request {index + 1}"
        request.read()
        return httpx.Response(
            expected.status, headers={"content-type": expected.content_type}, content=expected.answer
        )


def _model(handler: Any, provider: str = "azure-openai-responses", **options: Any) -> modelport.Model:
    options = {"endpoint": ENDPOINT, "api_key": KEY, **options}
    return modelport.get_model(
        f"{provider}/gpt-5-nano", transport=httpx.MockTransport(handler), max_retries=0, **options
    )


def _file_lines(upload: httpx.Request) -> list[dict[str, Any]]:
    boundary = re.search(r"boundary=(\w+)", upload.headers["content-type"])
    assert boundary is not None
    parts = upload.content.split(b"--" + boundary.group(1).encode())
    (file_part,) = [part for part in parts if b'name="file"' in part]
    return [json.loads(line) for line in file_part.split(b"\r\n\r\n", 1)[1].splitlines() if line.strip()]


def _recorded_texts() -> list[str]:
    lines = [json.loads(line) for line in exchanges(ANSWERS)[-1].answer.splitlines()]
    return [
        next(o for o in line["response"]["body"]["output"] if o["type"] == "message")["content"][0]["text"]
        for line in lines
    ]


# Routes, lines and the create body -------------------------------------------------------------


def test_a_v1_batch_uploads_creates_polls_and_reads_on_the_v1_routes() -> None:
    player = AzurePlayer("v1")
    model = _model(player)
    job = model.submit_batch([{"prompt": prompt} for prompt in PROMPTS])
    assert (job.id, job.status, job.raw_status) == (BATCH_ID, "queued", "validating")
    upload, create = player.sent
    lines = _file_lines(upload)
    assert [(line["custom_id"], line["method"], line["url"]) for line in lines] == [
        ("0", "POST", "/v1/responses"),
        ("1", "POST", "/v1/responses"),
    ]
    for line, prompt in zip(lines, PROMPTS, strict=True):  # the deployment's own body, model = deployment
        assert line["body"] == model.provider.prepare(model.name, model.prepare(prompt=prompt)).wire.body
        assert line["body"]["model"] == "gpt-5-nano"
    assert b'name="purpose"\r\n\r\nbatch\r\n' in upload.content
    assert json.loads(create.content) == {
        "input_file_id": "file-5dskxx7B6SVyAyRgAHzTJ2",
        "endpoint": "/responses",
        "completion_window": "24h",
    }
    job.wait(poll_interval=0)
    job.refresh()
    assert job.counts.model_dump() == {
        "total": 2,
        "processing": 0,
        "succeeded": 2,
        "failed": 0,
        "cancelled": 0,
        "expired": 0,
    }
    results = job.results()
    assert [item.result.text for item in results if item.result] == _recorded_texts() == ["4", "Jupiter"]
    assert len(player.sent) == len(player.recorded)
    assert (
        str(player.sent[-1].url)
        == f"{ENDPOINT}/openai/v1/files/{job.provider_data['output_file_id']}/content"
    )
    for request in player.sent:  # the key as Azure takes it, and nothing else
        assert request.headers["api-key"] == KEY and "authorization" not in request.headers


def test_a_dated_version_takes_the_resource_routes_with_api_version_and_bare_line_urls() -> None:
    player = AzurePlayer("2024-10-21", 0, 3)
    model = _model(player, provider="azure-openai", api_version="2024-10-21")
    job = model.submit_batch([{"prompt": prompt} for prompt in PROMPTS])
    job.refresh()
    upload, create, poll = player.sent
    assert str(upload.url) == f"{ENDPOINT}/openai/files?api-version=2024-10-21"
    assert str(poll.url) == f"{ENDPOINT}/openai/batches/{BATCH_ID}?api-version=2024-10-21"
    assert [line["url"] for line in _file_lines(upload)] == ["/chat/completions"] * 2
    assert _file_lines(upload)[0]["body"] == {
        "model": "gpt-5-nano",
        "messages": [{"role": "user", "content": PROMPTS[0]}],
    }
    assert json.loads(create.content)["endpoint"] == "/chat/completions"


def test_cancel_posts_to_the_batch_cancel_route() -> None:
    seen: list[httpx.Request] = []
    cancelling = {**exchanges(ANSWERS)[1].answer_json(), "status": "cancelling"}

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=cancelling)

    job = _model(handler, api_version="preview").get_batch(BATCH_ID)
    job.cancel()
    assert [(r.method, str(r.url)) for r in seen] == [
        ("GET", f"{ENDPOINT}/openai/v1/batches/{BATCH_ID}?api-version=preview"),
        ("POST", f"{ENDPOINT}/openai/v1/batches/{BATCH_ID}/cancel?api-version=preview"),
    ]
    assert (job.status, job.raw_status) == ("running", "cancelling")


def test_the_async_twins_take_the_same_routes() -> None:
    player = AzurePlayer("v1")

    async def run() -> list[str | None]:
        job = await _model(player).asubmit_batch([{"prompt": prompt} for prompt in PROMPTS])
        await job.await_done(poll_interval=0)
        await job.arefresh()
        return [item.result.text if item.result else None for item in await job.aresults()]

    assert asyncio.run(run()) == ["4", "Jupiter"]
    assert len(player.sent) == len(player.recorded)


# What Azure's batch object adds ------------------------------------------------------------------

#: MOCK: the batch object as Azure's guide prints it (2024-07-01-preview): status capitalised, RFC 3339
#: time stamps with seven fraction digits, null request counts.
AZURE_CREATED = {
    "cancelled_at": None,
    "completed_at": None,
    "completion_window": "24h",
    "created_at": "2024-07-19T17:13:57.2491382+00:00",
    "error_file_id": None,
    "expires_at": "2024-07-20T17:13:57.1918498+00:00",
    "id": "batch_fe3f047a-de39-4068-9008-346795bfc1db",
    "input_file_id": "file-21006e70789246658b86a1fc205899a4",
    "errors": None,
    "metadata": None,
    "object": "batch",
    "output_file_id": None,
    "request_counts": {"total": None, "completed": None, "failed": None},
    "status": "Validating",
}


def _serving(batch: dict[str, Any], seen: list[httpx.Request] | None = None) -> Any:
    def handler(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        return httpx.Response(200, json=batch)

    return handler


def test_a_capitalised_status_and_rfc3339_times_read_as_the_contract_s() -> None:
    job = _model(_serving(AZURE_CREATED), api_version="2024-07-01-preview").get_batch(AZURE_CREATED["id"])
    assert (job.status, job.raw_status) == ("queued", "Validating")
    assert job.created_at is not None and job.created_at.isoformat() == "2024-07-19T17:13:57.249138+00:00"
    assert job.counts.total == 0 and job.ended_at is None
    completed = {**AZURE_CREATED, "status": "Completed", "completed_at": 1725419955}
    done = _model(_serving(completed)).get_batch(completed["id"])
    assert (done.status, done.raw_status, int(done.ended_at.timestamp())) == (
        "succeeded",
        "Completed",
        1725419955,
    )


def test_a_failed_batch_keeps_azure_s_errors() -> None:
    # MOCK: the failed batch of Azure's troubleshooting section (errors.data with code empty_file).
    errors = {"object": "list", "data": [{"code": "empty_file", "message": "The input file is empty."}]}
    failed = {**AZURE_CREATED, "status": "failed", "errors": errors, "failed_at": 1725419955}
    job = _model(_serving(failed)).get_batch(failed["id"])
    assert (job.status, job.provider_data["errors"]) == ("failed", errors)


def test_blob_results_are_never_fetched_and_get_no_credential() -> None:
    seen: list[httpx.Request] = []
    blob = "https://contosostorage.blob.core.windows.net/batch-output/batch_1/output.jsonl"
    ended = {**AZURE_CREATED, "status": "completed", "completed_at": 1725419955, "output_blob": blob}
    job = _model(_serving(ended, seen)).get_batch(ended["id"])
    assert job.provider_data["output_blob"] == blob
    with pytest.raises(InvalidRequestError, match="Azure Blob Storage"):
        job.results()
    assert [r.url.host for r in seen] == ["contoso.openai.azure.com"]  # the get only


@pytest.mark.parametrize("file_id", ["https://evil.example/steal", "../../deployments", "file-1?x=y"])
def test_a_file_id_that_would_leave_the_route_is_refused_before_io(file_id: str) -> None:
    seen: list[httpx.Request] = []
    ended = {**AZURE_CREATED, "status": "completed", "output_file_id": file_id}
    job = _model(_serving(ended, seen)).get_batch(ended["id"])
    with pytest.raises(InvalidRequestError, match="not an OpenAI batch or file id"):
        job.results()
    assert len(seen) == 1


def test_a_results_line_keeps_azure_s_filter_annotations() -> None:
    """The output line's body is a real Azure chat completion (pydantic-ai's recording, with filter
    results); the line around it is OpenAI's recorded output-line shape (MOCK: no Azure batch output
    is recorded)."""
    import yaml

    from tests import recordings

    path = recordings.recording(
        "azure-openai",
        "pydantic__pydantic-ai/tests__providers__cassettes__test_azure__test_azure_provider_call.yaml",
    )
    body = yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"][0]["response"]["parsed_body"]
    recorded = json.loads(exchanges(ANSWERS)[-1].answer.splitlines()[0])
    line = {**recorded, "response": {**recorded["response"], "body": body}}
    ended = {**AZURE_CREATED, "status": "completed", "output_file_id": "file-out1"}
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("/content"):
            return httpx.Response(200, content=json.dumps(line).encode() + b"\n")
        return httpx.Response(200, json=ended)

    job = _model(handler, provider="azure-openai", api_version="2024-10-21").get_batch(ended["id"])
    (item,) = job.results()
    assert item.custom_id == recorded["custom_id"] and item.result is not None
    assert item.result.text == "The capital of France is **Paris**."
    kept = item.result.provider_metadata["azure-openai"]
    assert kept["prompt_filter_results"] == body["prompt_filter_results"]
    assert kept["content_filter_results"] == body["choices"][0]["content_filter_results"]
    assert str(seen[-1].url) == f"{ENDPOINT}/openai/files/file-out1/content?api-version=2024-10-21"


# Refused before any request ----------------------------------------------------------------------


def test_an_api_version_before_batches_is_refused_before_io() -> None:
    seen: list[httpx.Request] = []
    model = _model(_serving(AZURE_CREATED, seen), api_version="2024-06-01")
    with pytest.raises(InvalidRequestError, match="from api_version 2024-07-01-preview on"):
        model.submit_batch([{"prompt": "Hi"}])
    with pytest.raises(InvalidRequestError, match="2024-07-01-preview"):
        model.get_batch("batch_1")
    assert seen == []


def test_an_embedding_batch_is_refused_before_io() -> None:
    seen: list[httpx.Request] = []
    model = _model(_serving(AZURE_CREATED, seen), provider="azure-openai")
    with pytest.raises(InvalidRequestError, match="no embeddings"):
        model.submit_embed_batch(["first text"])
    assert seen == []


def test_azure_takes_more_requests_than_openai_in_one_file() -> None:
    from modelport_openai._azure_batches import AZURE_MAX_BATCH_REQUESTS
    from modelport_openai._batches import MAX_BATCH_REQUESTS, submit_steps

    assert (AZURE_MAX_BATCH_REQUESTS, MAX_BATCH_REQUESTS) == (100_000, 50_000)
    with pytest.raises(InvalidRequestError, match="at most 2 requests, got 3"):
        next(submit_steps([object()] * 3, ["/chat/completions"] * 3, max_requests=2))  # type: ignore[list-item]


# Credentials -------------------------------------------------------------------------------------


def _echoing(secret: str, seen: list[httpx.Request]) -> Any:
    """A batch object whose errors echo ``secret`` (as a server repeating a credential would)."""
    errors = {"object": "list", "data": [{"code": "invalid_key", "message": f"bad credential {secret}"}]}
    return _serving({**AZURE_CREATED, "status": "failed", "errors": errors}, seen)


def _shown(job: Any, caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join([repr(job), job.model_dump_json(), str(job.model_dump()), caplog.text])


@pytest.mark.parametrize("how", ["api_key", "token", "token_provider"])
def test_an_echoed_key_or_entra_token_is_in_no_job_repr_or_log(
    how: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = KEY if how == "api_key" else TOKEN
    seen: list[httpx.Request] = []
    given = {"api_key": KEY} if how == "api_key" else {how: TOKEN if how == "token" else (lambda: TOKEN)}
    model = modelport.get_model(
        "azure-openai/gpt-5-nano",
        endpoint=ENDPOINT,
        transport=httpx.MockTransport(_echoing(secret, seen)),
        max_retries=0,
        **given,
    )
    job = model.get_batch(AZURE_CREATED["id"])
    job.refresh()
    assert job.provider_data["errors"]["data"][0]["message"] == "bad credential [REDACTED]"
    shown = _shown(job, caplog)
    assert [form for form in encoded_forms(secret) if form in shown] == []
    header = ("api-key", KEY) if how == "api_key" else ("authorization", f"Bearer {TOKEN}")
    assert [(r.url.host, r.headers[header[0]]) for r in seen] == [("contoso.openai.azure.com", header[1])] * 2


def test_a_failed_batch_call_s_error_holds_no_key() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, json={"error": {"code": "401", "message": f"Access denied: {KEY}"}})

    with pytest.raises(modelport.ProviderAuthError) as caught:
        _model(handler).submit_batch([{"prompt": "Hi"}])
    shown = "\n".join([str(caught.value), repr(caught.value), caught.value.body_excerpt or ""])
    assert [form for form in encoded_forms(KEY) if form in shown] == []


def test_a_saved_job_resumes_on_the_same_routes_and_holds_no_credential() -> None:
    seen: list[httpx.Request] = []
    model = _model(_serving(AZURE_CREATED, seen), api_version="2024-10-21")
    saved = model.get_batch(AZURE_CREATED["id"]).model_dump_json()
    assert json.loads(saved)["connection"] == {"base_url": ENDPOINT, "api_version": "2024-10-21"}
    assert [form for form in encoded_forms(KEY) if form in saved] == []
    job = modelport.restore_batch(
        saved, api_key=KEY, transport=httpx.MockTransport(_serving(AZURE_CREATED, seen))
    )
    job.refresh()
    assert [str(r.url) for r in seen] == [
        f"{ENDPOINT}/openai/batches/{AZURE_CREATED['id']}?api-version=2024-10-21"
    ] * 2
