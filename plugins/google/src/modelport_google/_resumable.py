"""The Files API's resumable upload as pure steps, shared by :func:`modelport_google.files.upload`
and a batch's input file (:mod:`._batches`)."""

from __future__ import annotations

from typing import Any

from modelport.errors import ProviderResponseError
from modelport.http import FileBody, HttpRequest, Steps

__all__ = ["MAX_FILE_BYTES", "upload_steps"]

#: The largest file the Files API takes (2 GB); ``Limits.max_upload_bytes`` may set a lower bound.
MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024


def upload_steps(
    start_url: str, data: bytes | FileBody, size: int, mime: str, display_name: str | None, provider: str
) -> Steps[Any]:
    """The resumable upload of ``data`` as pure steps (:func:`modelport_google.files.upload` runs
    them; a batch's input file is sent the same way): start a session at ``start_url``, then send
    and finalize. Returns the Files API's answer (the file object)."""
    metadata: dict[str, Any] = {"file": {"displayName": display_name}} if display_name else {}
    started = yield HttpRequest(
        start_url,
        metadata,
        headers={
            "x-goog-upload-protocol": "resumable",
            "x-goog-upload-command": "start",
            "x-goog-upload-header-content-length": str(size),
            "x-goog-upload-header-content-type": mime,
        },
    )
    assert started is not None
    session = started.headers.get("x-goog-upload-url")
    if not session:
        raise ProviderResponseError(
            "the upload did not start: no x-goog-upload-url header", provider=provider
        )
    # The key goes with the bytes: the kit refuses a session URL off the API root's origin.
    done = yield HttpRequest(
        session,
        data,
        headers={
            "content-type": mime,
            "x-goog-upload-command": "upload, finalize",
            "x-goog-upload-offset": "0",
        },
    )
    assert done is not None
    status = done.headers.get("x-goog-upload-status")
    if status is not None and status != "final":
        raise ProviderResponseError(f"the upload did not finish (status {status!r})", provider=provider)
    return done.data
