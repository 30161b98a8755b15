"""The Batch API (``/v1/files`` and ``/v1/batches``) as pure steps: upload the requests as a JSON
Lines file, create the batch, poll, cancel, read the output and error files.

A batch holds at most 50,000 requests in a file of at most 200 MB, all for one endpoint
(``/v1/chat/completions`` or ``/v1/responses``, as the provider's ``build_request`` says).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from modelport.batches import (
    BatchCounts,
    BatchDownload,
    BatchLine,
    BatchRequest,
    BatchState,
    BatchStatus,
    count,
    downloads,
    jsonl_lines,
    spooled_upload,
    timestamp,
)
from modelport.errors import InvalidRequestError, ProviderError
from modelport.http import HttpRequest, Steps

__all__ = [
    "MAX_BATCH_BYTES",
    "MAX_BATCH_REQUESTS",
    "batch_state",
    "cancel_steps",
    "get_steps",
    "result_line",
    "results_steps",
    "submit_steps",
]

MAX_BATCH_REQUESTS = 50_000
MAX_BATCH_BYTES = 200 * 1000 * 1000

_STATUS: Mapping[str, BatchStatus] = {
    "validating": "queued",
    "in_progress": "running",
    "finalizing": "running",
    "cancelling": "running",
    "completed": "succeeded",
    "failed": "failed",
    "expired": "expired",
    "cancelled": "cancelled",
}

ErrorFrom = Callable[[int, Mapping[str, str], str], ProviderError]


def submit_steps(
    requests: Sequence[BatchRequest],
    paths: Sequence[str],
    *,
    endpoint: str | None = None,
    max_requests: int = MAX_BATCH_REQUESTS,
) -> Steps[BatchState]:
    """Upload the JSON Lines file (multipart, streamed from a spooled file), then create the batch
    for the one endpoint every request goes to (``paths``: each request's URL path, each line's
    ``url``; ``endpoint``: the create body's, when the service names it otherwise, as Azure does)."""
    if len(requests) > max_requests:
        raise InvalidRequestError(
            f"an OpenAI batch holds at most {max_requests} requests, got {len(requests)}"
        )
    endpoints = sorted(set(paths))
    if len(endpoints) != 1:
        raise InvalidRequestError(f"an OpenAI batch goes to one endpoint, got {endpoints}")
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="batch.jsonl"\r\n'
        "Content-Type: application/jsonl\r\n\r\n"
    )
    lines = (
        {"custom_id": request.custom_id, "method": "POST", "url": path, "body": request.spec.body}
        for request, path in zip(requests, paths, strict=True)
    )
    body = spooled_upload(
        lines, before=head.encode(), after=f"\n\r\n--{boundary}--\r\n".encode(), max_bytes=MAX_BATCH_BYTES
    )
    try:
        uploaded = yield HttpRequest(
            "/files", body=body, headers={"content-type": f"multipart/form-data; boundary={boundary}"}
        )
    finally:
        body.remove()
    assert uploaded is not None
    created = yield HttpRequest(
        "/batches",
        body={
            "input_file_id": uploaded.data["id"],
            "endpoint": endpoint or endpoints[0],
            "completion_window": "24h",
        },
    )
    assert created is not None
    return batch_state(created.data)


def get_steps(batch_id: str) -> Steps[BatchState]:
    reply = yield HttpRequest(f"/batches/{_checked(batch_id)}", method="GET")
    assert reply is not None
    return batch_state(reply.data)


def cancel_steps(batch_id: str) -> Steps[BatchState]:
    reply = yield HttpRequest(f"/batches/{_checked(batch_id)}/cancel", body={})
    assert reply is not None
    return batch_state(reply.data)


def results_steps(state: BatchState, error_from: ErrorFrom) -> Steps[Iterable[BatchLine | BatchDownload]]:
    """The output file, then the error file (either may be absent), for the core to stream."""
    files = [
        BatchDownload(
            HttpRequest(f"/files/{_checked(str(file_id))}/content", method="GET"),
            lambda line: [result_line(line, error_from)],
            identify=lambda line: line["custom_id"],
        )
        for file_id in (state.provider_data.get(key) for key in ("output_file_id", "error_file_id"))
        if file_id
    ]
    if not files and state.status == "running":
        raise InvalidRequestError(f"batch {state.id!r} has no results yet ({state.raw_status})")
    return downloads(*files)


def result_lines(content: bytes, error_from: ErrorFrom) -> Iterator[BatchLine]:
    """Each line of a whole output or error file (see :func:`result_line`)."""
    for line in jsonl_lines(content):
        yield result_line(line, error_from)


def result_line(line: Mapping[str, Any], error_from: ErrorFrom) -> BatchLine:
    """One line of an output or error file: a 200 response's body, else the typed error (a line of
    another shape raises; the core makes that the request's typed error)."""
    custom_id = line["custom_id"]
    response = line.get("response") or {}
    if not isinstance(custom_id, str) or not isinstance(response, Mapping):
        raise TypeError("a results line needs a string custom_id and a response object")
    status = response.get("status_code")
    if status == 200 and not line.get("error"):
        return BatchLine(custom_id, response["body"])
    if status is not None and (isinstance(status, bool) or not isinstance(status, int)):
        raise TypeError("a results line's status_code is no number")
    request_id = response.get("request_id")
    headers = {"x-request-id": request_id[:200]} if isinstance(request_id, str) and request_id else {}
    body = response.get("body") if response.get("body") else {"error": line.get("error")}
    return BatchLine(custom_id, error=error_from(status or 500, headers, json.dumps(body)))


def batch_state(data: Mapping[str, Any]) -> BatchState:
    """A ``batch`` object as the contract's :class:`BatchState`."""
    raw = str(data["status"])
    counts = data.get("request_counts") or {}
    total, succeeded, failed = (count(counts.get(k)) for k in ("total", "completed", "failed"))
    status = _STATUS.get(raw.lower(), "running")  # Azure has written "Validating", "Completed"
    left = max(total - succeeded - failed, 0)
    done = BatchCounts(
        total=total,
        processing=0 if status in ("succeeded", "failed", "cancelled", "expired") else left,
        succeeded=succeeded,
        failed=failed,
        cancelled=left if status == "cancelled" else 0,
        expired=left if status == "expired" else 0,
    )
    ended = next(
        (data.get(k) for k in ("completed_at", "failed_at", "expired_at", "cancelled_at") if data.get(k)),
        None,
    )
    return BatchState(
        id=str(data["id"]),
        status=status,
        raw_status=raw,
        counts=done,
        created_at=timestamp(data.get("created_at")),
        ended_at=timestamp(ended),
        provider_data={
            key: data.get(key)
            for key in (
                "endpoint",
                "input_file_id",
                "output_file_id",
                "error_file_id",
                "expires_at",
                "errors",
            )
        },
    )


def _checked(identifier: str) -> str:
    if not identifier or not identifier.replace("_", "").replace("-", "").isalnum():
        raise InvalidRequestError(f"not an OpenAI batch or file id: {identifier!r}")
    return identifier
