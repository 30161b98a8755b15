"""``files.upload`` streams a file from disk as it is sent (never whole in memory) and refuses one
larger than ``Limits.max_upload_bytes`` (default 2 GiB, the Files API's limit) before any request.

Memory is measured with tracemalloc on a generated file sent to a transport that hashes what it
reads and keeps nothing; the bytes on the wire are checked against a loopback server. The answers
follow the recorded resumable-upload shape used in test_files_api.py (MOCK file object:
invented name and size, the upload's own).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import tracemalloc
from pathlib import Path

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from modelport.http import FileBody, Limits
from modelport_google import files
from tests.loopback import Loopback, Received, Reply

MIB = 1024 * 1024
FILE = {"name": "files/up-1", "mimeType": "application/octet-stream", "state": "ACTIVE"}


def _generated(path: Path, mib: int) -> str:
    """A file of ``mib`` MiB of varied bytes, written a MiB at a time; its SHA-256."""
    digest = hashlib.sha256()
    with path.open("wb") as handle:
        for index in range(mib):
            chunk = hashlib.sha256(str(index).encode()).digest() * (MIB // 32)
            digest.update(chunk)
            handle.write(chunk)
    return digest.hexdigest()


class _Hashing:
    """Answers the resumable protocol; hashes the uploaded bytes as they are read, keeping none."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()
        self.size = 0
        self.content_length: str | None = None

    def _answer(self, request: httpx.Request) -> httpx.Response | None:
        if request.headers.get("x-goog-upload-command") == "start":
            session = "https://generativelanguage.googleapis.com/upload/v1beta/files?upload_id=u1"
            return httpx.Response(
                200, headers={"x-goog-upload-url": session, "x-goog-upload-status": "active"}
            )
        self.content_length = request.headers.get("content-length")
        return None

    def _final(self) -> httpx.Response:
        headers = {"content-type": "application/json", "x-goog-upload-status": "final"}
        return httpx.Response(200, content=json.dumps({"file": FILE}).encode(), headers=headers)


class _SyncHashing(_Hashing, httpx.BaseTransport):
    def handle_request(self, request: httpx.Request) -> httpx.Response:
        answer = self._answer(request)
        if answer is not None:
            request.read()
            return answer
        for chunk in request.stream:  # type: ignore[union-attr]
            self.digest.update(chunk)
            self.size += len(chunk)
        return self._final()


class _AsyncHashing(_Hashing, httpx.AsyncBaseTransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        answer = self._answer(request)
        if answer is not None:
            await request.aread()
            return answer
        async for chunk in request.stream:  # type: ignore[union-attr]
            self.digest.update(chunk)
            self.size += len(chunk)
        return self._final()


def _peak(run: object) -> int:
    tracemalloc.start()
    try:
        run()  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_sync_upload_holds_no_more_than_a_chunk(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    expected = _generated(path, 24)
    transport = _SyncHashing()
    model = modelport.get_model("google/gemini-2.5-flash", api_key="k-1", transport=transport)
    peak = _peak(lambda: files.upload(model, path).run())
    assert transport.size == 24 * MIB and transport.digest.hexdigest() == expected
    assert transport.content_length == str(24 * MIB)
    assert peak < 6 * MIB, f"peak {peak / MIB:.1f} MiB for a 24 MiB file"


def test_an_async_upload_holds_no_more_than_a_chunk(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    expected = _generated(path, 24)
    transport = _AsyncHashing()
    model = modelport.get_model("google/gemini-2.5-flash", api_key="k-1", transport=transport)

    async def upload() -> None:
        await files.upload(model, path)
        await model.aclose()

    peak = _peak(lambda: asyncio.run(upload()))
    assert transport.size == 24 * MIB and transport.digest.hexdigest() == expected
    assert peak < 6 * MIB, f"peak {peak / MIB:.1f} MiB for a 24 MiB file"


@pytest.mark.parametrize("mode", ["sync", "httpx", "aiohttp"])
def test_the_wire_carries_the_file_exactly(mode: str, tmp_path: Path) -> None:
    if mode == "aiohttp":
        pytest.importorskip("httpx_aiohttp")
    path = tmp_path / "data.bin"
    expected = _generated(path, 3)

    def handler(received: Received) -> Reply:
        if received.headers.get("x-goog-upload-command") == "start":
            return Reply(headers={"x-goog-upload-url": f"{server.url}/upload/v1beta/files?upload_id=u1"})
        return Reply(
            headers={"content-type": "application/json", "x-goog-upload-status": "final"},
            body=json.dumps({"file": FILE}).encode(),
        )

    with Loopback(handler) as server:
        options = {} if mode == "sync" else {"async_transport": mode}
        model = modelport.get_model(
            "google/gemini-2.5-flash", api_key="k-1", base_url=f"{server.url}/v1beta", **options
        )
        operation = files.upload(model, path, mime_type="application/octet-stream")
        if mode == "sync":
            uploaded = operation.run()
            model.close()
        else:

            async def upload() -> files.GoogleFile:
                try:
                    return await operation
                finally:
                    await model.aclose()

            uploaded = asyncio.run(upload())
    start, upload = server.received
    assert start.headers["x-goog-upload-header-content-length"] == str(3 * MIB)
    assert upload.path == "/upload/v1beta/files?upload_id=u1"
    assert upload.headers["content-length"] == str(3 * MIB)
    assert "transfer-encoding" not in upload.headers
    assert hashlib.sha256(upload.body).hexdigest() == expected
    assert uploaded.name == "files/up-1"


def test_a_file_over_the_bound_is_refused_before_any_request(tmp_path: Path) -> None:
    path = tmp_path / "over.bin"
    path.write_bytes(b"x" * 1001)
    sent: list[httpx.Request] = []
    model = modelport.get_model(
        "google/gemini-2.5-flash",
        api_key="k-1",
        limits=Limits(max_upload_bytes=1000),
        transport=httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(500)),
    )
    message = "the file has 1001 bytes, more than an upload may send (1000 bytes: Limits.max_upload_bytes)"
    with pytest.raises(InvalidRequestError) as caught:
        files.upload(model, path)
    assert str(caught.value) == message
    with pytest.raises(InvalidRequestError) as caught:
        files.upload(model, b"x" * 1001, mime_type="text/plain")
    assert str(caught.value) == message
    assert sent == []


def test_the_default_bound_is_the_files_apis_limit() -> None:
    assert Limits().max_upload_bytes == files.MAX_FILE_BYTES == 2 * 1024 * 1024 * 1024


def test_a_file_that_shrank_before_it_was_sent_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "shrinks.bin"
    path.write_bytes(b"abc")
    body = FileBody(path, 5)
    with pytest.raises(InvalidRequestError, match="became shorter than 5 bytes"):
        list(body)
    assert b"".join(FileBody(path, 3)) == b"abc"
