"""Files API helpers (issue 13): upload, get, list, delete and wait-until-active operations built and
validated before any request, run by the core's kit sync (``.run()``) or async (``await``). The
resumable upload's headers come from a recording (pydantic/pydantic-ai MIT; see
tests/corpus/gemini/MANIFEST.md); Files API objects follow the REST reference's ``File`` shape."""

from __future__ import annotations

import json
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
from modelport_google import files

from . import corpus as c
from .mock import KEY, model, no_sleep, response

BASE = "https://generativelanguage.googleapis.com"
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
    with pytest.raises(InvalidRequestError, match="refused to send credentials to https://elsewhere"):
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
