"""Files API and cached-content helpers (issue 13): operations built and validated before any request,
run by the core's kit sync (``.run()``) or async (``await``). The cache exchange and the resumable
upload's headers come from recordings (pydantic/pydantic-ai MIT; see tests/corpus/gemini/MANIFEST.md);
Files API objects follow the REST reference's ``File`` shape."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from modelport.errors import (
    DeadlineExceededError,
    InvalidRequestError,
    ProviderAuthError,
    ProviderResponseError,
)
from modelport.http import Operation
from modelport.types import FilePart
from modelport_google import caches, files

from . import corpus as c
from .mock import KEY, model, no_sleep, response

BASE = "https://generativelanguage.googleapis.com"
CACHE = "tests__models__google__cassettes__test_cache__test_google_model_cached_content.yaml"
FILE_SEARCH = (
    "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml"
)
SESSION = f"{BASE}/upload/v1beta/files?upload_id=AJ5rDh&upload_protocol=resumable"
FILE = {
    "name": "files/abc-123",
    "displayName": "note.txt",
    "mimeType": "text/plain",
    "sizeBytes": "11",
    "state": "PROCESSING",
    "uri": f"{BASE}/v1beta/files/abc-123",
    "expirationTime": "2026-12-02T00:00:00Z",
}
VERTEX = {"api_key": None, "token": "tok", "project": "p"}


def upload_replies(final: dict[str, Any] | None = None, session: str = SESSION) -> list[Any]:
    # The start and finish responses have the recorded shape of the resumable protocol (the
    # pydantic-ai File Search upload): an empty text/plain answer carrying the session URL, then JSON.
    recorded = c.cassette(c.PYDANTIC, FILE_SEARCH)
    start_headers = {
        k: v for k, v in recorded[1].headers.items() if k in ("content-type", "x-goog-upload-status")
    }
    final_headers = {
        k: v for k, v in recorded[2].headers.items() if k in ("content-type", "x-goog-upload-status")
    }
    assert (
        start_headers["x-goog-upload-status"] == "active" and final_headers["x-goog-upload-status"] == "final"
    )
    return [
        response(200, b"", {**start_headers, "x-goog-upload-url": session}),
        response(200, {"file": final or FILE}, final_headers),
    ]


def test_upload_from_a_path_with_the_resumable_protocol(tmp_path: Path) -> None:
    path = tmp_path / "note.txt"
    path.write_bytes(b"hello world")
    m, recorder = model(upload_replies())
    op = files.upload(m, path)
    assert isinstance(op, Operation) and recorder.requests == []  # nothing sent until it runs
    uploaded = op.run()
    start, finish = recorder.requests
    assert (start.method, str(start.url)) == ("POST", f"{BASE}/upload/v1beta/files")
    assert {k: start.headers[k] for k in start.headers if k.startswith("x-goog-upload")} == {
        "x-goog-upload-protocol": "resumable",
        "x-goog-upload-command": "start",
        "x-goog-upload-header-content-length": "11",
        "x-goog-upload-header-content-type": "text/plain",
    }
    assert json.loads(start.content) == {"file": {"displayName": "note.txt"}}
    assert start.headers["x-goog-api-key"] == KEY and "key=" not in str(start.url)
    assert str(finish.url) == SESSION and finish.content == b"hello world"
    assert finish.headers["content-type"] == "text/plain"
    assert finish.headers["x-goog-upload-command"] == "upload, finalize"
    assert finish.headers["x-goog-upload-offset"] == "0"
    assert (uploaded.name, uploaded.state, uploaded.size_bytes) == ("files/abc-123", "PROCESSING", 11)
    assert uploaded.part() == FilePart(media_type="text/plain", uri=FILE["uri"])


def test_an_uploaded_file_is_referenced_by_a_file_part() -> None:
    ok = {"candidates": [{"content": {"parts": [{"text": "A note."}]}, "finishReason": "STOP"}]}
    m, recorder = model([*upload_replies({**FILE, "state": "ACTIVE"}), response(200, ok)])
    uploaded = files.upload(m, b"hello world", mime_type="text/plain").run()
    m.generate(
        messages=[{"role": "user", "content": [uploaded.part(), {"type": "text", "text": "What is it?"}]}]
    )
    assert recorder.body["contents"][0]["parts"][0] == {
        "fileData": {"mimeType": "text/plain", "fileUri": FILE["uri"]}
    }


@pytest.mark.asyncio
async def test_upload_is_awaitable() -> None:
    m, recorder = model(upload_replies(), asynchronous=True)
    uploaded = await files.upload(m, b"%PDF-1.7", mime_type="application/pdf", display_name="r.pdf")
    assert uploaded.name == "files/abc-123" and len(recorder.requests) == 2
    assert json.loads(recorder.requests[0].content) == {"file": {"displayName": "r.pdf"}}


def test_get_list_and_delete() -> None:
    pages = [
        response(200, {"files": [FILE], "nextPageToken": "t/1"}),
        response(200, {"files": [{**FILE, "name": "files/second"}]}),
    ]
    m, recorder = model([response(200, FILE), *pages, response(200, b"{}")])
    assert files.get(m, "abc-123").run().name == "files/abc-123"
    assert [f.name for f in files.list_files(m, page_size=1).run()] == ["files/abc-123", "files/second"]
    assert files.delete(m, "files/abc-123").run() is None
    assert [(r.method, str(r.url)) for r in recorder.requests] == [
        ("GET", f"{BASE}/v1beta/files/abc-123"),
        ("GET", f"{BASE}/v1beta/files?pageSize=1"),
        ("GET", f"{BASE}/v1beta/files?pageSize=1&pageToken=t%2F1"),
        ("DELETE", f"{BASE}/v1beta/files/abc-123"),
    ]


def test_wait_until_active_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    waits = no_sleep(monkeypatch)
    m, recorder = model(
        [response(200, FILE), response(200, FILE), response(200, {**FILE, "state": "ACTIVE"})]
    )
    assert files.wait_until_active(m, "files/abc-123", interval=1.5).run().state == "ACTIVE"
    assert len(recorder.requests) == 3 and waits == [1.5, 1.5]


def test_wait_until_active_failure_and_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    no_sleep(monkeypatch)
    failed = {**FILE, "state": "FAILED", "error": {"code": 3, "message": "unsupported format"}}
    m, _ = model([response(200, failed)])
    with pytest.raises(ProviderResponseError, match="unsupported format"):
        files.wait_until_active(m, "abc-123").run()
    m, recorder = model([response(200, FILE)])
    with pytest.raises(DeadlineExceededError, match="still PROCESSING"):
        files.wait_until_active(m, "abc-123", timeout=0.01, interval=5).run()
    assert len(recorder.requests) == 1


def test_upload_errors_are_typed_and_scrubbed() -> None:
    m, recorder = model(
        [
            response(
                403, {"error": {"code": 403, "message": f"key {KEY} denied", "status": "PERMISSION_DENIED"}}
            )
        ]
    )
    with pytest.raises(ProviderAuthError) as info:
        files.upload(m, b"x", mime_type="text/plain").run()
    assert KEY not in str(info.value)
    m, recorder = model(upload_replies(session="https://elsewhere.example/upload?id=1"))
    with pytest.raises(ProviderResponseError, match="another origin"):
        files.upload(m, b"x", mime_type="text/plain").run()
    assert len(recorder.requests) == 1  # the bytes never went to the other origin


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m, tmp: files.upload(m, tmp / "missing.pdf"), "no such file"),
        (lambda m, tmp: files.upload(m, b"abc"), "mime_type"),
        (lambda m, tmp: files.upload(m, b"", mime_type="text/plain"), "empty"),
        (lambda m, tmp: files.upload(m, 42), "path or bytes"),
        (lambda m, tmp: files.get(m, "files/a/b"), "not a file name"),
        (lambda m, tmp: files.list_files(m, page_size=0), "page_size"),
        (lambda m, tmp: files.wait_until_active(m, "a", timeout=-1), "positive"),
    ],
)
def test_bad_file_input_is_rejected_before_any_request(call: Any, message: str, tmp_path: Path) -> None:
    m, recorder = model([])
    with pytest.raises(InvalidRequestError, match=message):
        call(m, tmp_path)
    assert recorder.requests == []


def test_the_files_api_is_refused_on_vertex_before_any_request() -> None:
    m, recorder = model([], "google-vertex/gemini-2.5-flash", **VERTEX)
    with pytest.raises(InvalidRequestError, match="Cloud Storage"):
        files.upload(m, b"x", mime_type="text/plain")
    assert recorder.requests == []


# --------------------------------------------------------------------------- cached contents


def test_cache_lifecycle_matches_the_recording() -> None:
    recorded = c.cassette(c.PYDANTIC, CACHE)
    create, first_use, _, remove = recorded
    sent = create.request_body
    text = sent["contents"][0]["parts"][0]["text"]
    system = sent["systemInstruction"]["parts"][0]["text"]
    m, recorder = model([response(200, create.json()), response(200, first_use.json()), response(200, b"{}")])
    cache = caches.create(m, system=system, messages=[{"role": "user", "content": text}], ttl=120).run()
    assert str(recorder.requests[0].url) == create.uri
    assert recorder.bodies()[0] == {
        "model": sent["model"],
        "contents": sent["contents"],
        "systemInstruction": {"parts": sent["systemInstruction"]["parts"]},
        "ttl": sent["ttl"],
    }
    assert cache.name == create.json()["name"] and cache.total_token_count == 3512
    result = m.generate(
        prompt="What is the capital of France?", provider_options={"google": {"cached_content": cache.name}}
    )
    assert recorder.bodies()[1]["cachedContent"] == first_use.request_body["cachedContent"]
    assert result.usage.cache_read_input_tokens == 3512
    caches.delete(m, cache.name).run()
    assert (recorder.requests[2].method, str(recorder.requests[2].url)) == (remove.method, remove.uri)


def test_vertex_caches_use_full_resource_names() -> None:
    answer = {"name": "projects/p/locations/us-central1/cachedContents/9", "model": "m"}
    m, recorder = model(
        [response(200, answer), response(200, answer), response(200, answer)]
        + [
            response(200, {"cachedContents": [answer], "nextPageToken": "n"}),
            response(200, {"cachedContents": [answer]}),
        ],
        "google-vertex/gemini-2.5-flash",
        **VERTEX,
    )
    caches.create(
        m, prompt="long context", expire_time=datetime(2030, 1, 1, tzinfo=timezone.utc), display_name="d"
    ).run()
    caches.get(m, "cachedContents/9").run()
    caches.update(m, "9", ttl=timedelta(minutes=10)).run()
    assert len(caches.list_caches(m, page_size=5).run()) == 2
    parent = "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1"
    assert [(r.method, str(r.url)) for r in recorder.requests] == [
        ("POST", f"{parent}/cachedContents"),
        ("GET", f"{parent}/cachedContents/9"),
        ("PATCH", f"{parent}/cachedContents/9?updateMask=ttl"),
        ("GET", f"{parent}/cachedContents?pageSize=5"),
        ("GET", f"{parent}/cachedContents?pageSize=5&pageToken=n"),
    ]
    created, _, updated, *_ = [json.loads(r.content or b"null") for r in recorder.requests]
    assert created == {
        "model": "projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash",
        "contents": [{"role": "user", "parts": [{"text": "long context"}]}],
        "expireTime": "2030-01-01T00:00:00Z",
        "displayName": "d",
    }
    assert updated == {"ttl": "600s"}


@pytest.mark.asyncio
async def test_cache_operations_are_awaitable() -> None:
    m, recorder = model([response(200, {"name": "cachedContents/1"})], asynchronous=True)
    cache = await caches.update(m, "1", expire_time="2030-01-01T00:00:00Z")
    assert cache.name == "cachedContents/1"
    assert json.loads(recorder.requests[0].content) == {"expireTime": "2030-01-01T00:00:00Z"}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m: caches.create(m, prompt="x", ttl=10, expire_time="2030-01-01T00:00:00Z"), "not both"),
        (lambda m: caches.create(m, prompt="x", ttl=-5), "positive"),
        (lambda m: caches.create(m, prompt="x", temperature=0.2), "temperature"),
        (lambda m: caches.create(m, prompt="x", expire_time=datetime(2030, 1, 1)), "timezone"),
        (lambda m: caches.create(m, prompt="x", expire_time="tomorrow"), "RFC 3339"),
        (
            lambda m: caches.create(
                m, prompt="x", tools=[{"type": "provider", "id": "google.google_search", "args": {"x": 1}}]
            ),
            "invalid arguments",
        ),
        (lambda m: caches.update(m, "1"), "ttl or expire_time"),
        (lambda m: caches.get(m, "a?b"), "cached content name"),
    ],
)
def test_bad_cache_input_is_rejected_before_any_request(call: Any, message: str) -> None:
    m, recorder = model([])
    with pytest.raises(Exception, match=message) as info:
        call(m)
    assert type(info.value).__name__ in ("InvalidRequestError", "ProviderToolError")
    assert recorder.requests == []
