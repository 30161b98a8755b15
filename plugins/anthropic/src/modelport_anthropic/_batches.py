"""Message Batches (``/v1/messages/batches``) as pure steps: create, poll, cancel, read the results.

A batch holds at most 100,000 requests and 256 MB; its results are a JSON Lines file at the
batch's ``results_url``, one line per request (``succeeded``, ``errored``, ``canceled``,
``expired``), in any order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
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
    item_error,
    jsonl_lines,
    spooled_upload,
    timestamp,
)
from modelport.errors import InvalidRequestError
from modelport.http import HttpRequest, Steps

__all__ = [
    "MAX_BATCH_BYTES",
    "MAX_BATCH_REQUESTS",
    "batch_state",
    "cancel_steps",
    "get_steps",
    "result_line",
    "result_lines",
    "results_steps",
    "submit_steps",
]

MAX_BATCH_REQUESTS = 100_000
MAX_BATCH_BYTES = 256 * 1000 * 1000
_PATH = "/v1/messages/batches"

_ENDED: Mapping[str, BatchStatus] = {"in_progress": "running", "canceling": "running"}


def submit_steps(requests: Sequence[BatchRequest]) -> Steps[BatchState]:
    """``POST /v1/messages/batches`` with every request's ``params`` (streamed from a spooled file)."""
    if len(requests) > MAX_BATCH_REQUESTS:
        raise InvalidRequestError(
            f"an Anthropic batch holds at most {MAX_BATCH_REQUESTS} requests, got {len(requests)}"
        )
    body = spooled_upload(
        _entries(requests), before=b'{"requests":[', after=b"]}", max_bytes=MAX_BATCH_BYTES, separator=b","
    )
    try:
        reply = yield HttpRequest(_PATH, body=body, headers={"content-type": "application/json"})
    finally:
        body.remove()
    assert reply is not None
    return batch_state(reply.data)


def _entries(requests: Sequence[BatchRequest]) -> Iterator[dict[str, Any]]:
    for request in requests:
        yield {"custom_id": request.custom_id, "params": request.spec.body}


def get_steps(batch_id: str) -> Steps[BatchState]:
    reply = yield HttpRequest(f"{_PATH}/{_checked(batch_id)}", method="GET")
    assert reply is not None
    return batch_state(reply.data)


def cancel_steps(batch_id: str) -> Steps[BatchState]:
    reply = yield HttpRequest(f"{_PATH}/{_checked(batch_id)}/cancel", body={})
    assert reply is not None
    return batch_state(reply.data)


def results_steps(
    state: BatchState, provider: str, decode_error: Any
) -> Steps[Iterable[BatchLine | BatchDownload]]:
    """The results file at the batch's ``results_url``, for the core to stream line by line. The
    URL comes from a response (or a restored job): the kit sends it the key only on the API root's
    origin, and refuses a path that climbs out of it."""
    url = state.provider_data.get("results_url")
    if not isinstance(url, str) or not url:
        raise InvalidRequestError(f"batch {state.id!r} has no results yet ({state.raw_status})")
    return downloads(
        BatchDownload(
            HttpRequest(url, method="GET"),
            lambda line: [result_line(line, provider, decode_error)],
            identify=lambda line: line["custom_id"],
        )
    )


def result_lines(content: bytes, provider: str, decode_error: Any) -> Iterator[BatchLine]:
    """Each line of a whole results file (see :func:`result_line`)."""
    for line in jsonl_lines(content):
        yield result_line(line, provider, decode_error)


def result_line(line: Mapping[str, Any], provider: str, decode_error: Any) -> BatchLine:
    """One line of a results file: the message of a ``succeeded`` request, else its typed error (a
    line of another shape raises; the core makes that the request's typed error)."""
    custom_id = line["custom_id"]
    result = line["result"]
    if not isinstance(custom_id, str) or not isinstance(result, Mapping):
        raise TypeError("a results line needs a string custom_id and a result object")
    kind = result["type"]
    if kind == "succeeded":
        return BatchLine(custom_id, result["message"])
    if kind == "errored":
        error = result.get("error") or {}
        return BatchLine(custom_id, error=decode_error(_status(error), {}, json.dumps(error)))
    reason = "cancelled" if kind == "canceled" else str(kind)[:40]  # canceled, expired
    return BatchLine(
        custom_id, error=item_error(custom_id, provider, reason, f"request {custom_id!r} {reason}")
    )


def _status(error: Mapping[str, Any]) -> int:
    """The HTTP status an errored request's error type stands for (the results carry none)."""
    kind = (
        (error.get("error") or {}).get("type")
        if isinstance(error.get("error"), Mapping)
        else error.get("type")
    )
    return _STATUS_OF.get(str(kind), 500)


_STATUS_OF = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}


def batch_state(data: Mapping[str, Any]) -> BatchState:
    """A ``message_batch`` object as the contract's :class:`BatchState`."""
    raw = str(data["processing_status"])
    counts = data.get("request_counts") or {}
    done = BatchCounts(
        processing=count(counts.get("processing")),
        succeeded=count(counts.get("succeeded")),
        failed=count(counts.get("errored")),
        cancelled=count(counts.get("canceled")),
        expired=count(counts.get("expired")),
    )
    done = BatchCounts(
        **{
            **done.model_dump(),
            "total": done.processing + done.succeeded + done.failed + done.cancelled + done.expired,
        }
    )
    return BatchState(
        id=str(data["id"]),
        status=_ENDED.get(raw) or _ended(done),
        raw_status=raw,
        counts=done,
        created_at=timestamp(data.get("created_at")),
        ended_at=timestamp(data.get("ended_at")),
        provider_data={"results_url": data.get("results_url"), "expires_at": data.get("expires_at")},
    )


def _ended(counts: BatchCounts) -> BatchStatus:
    """An ``ended`` batch: cancelled or expired when no request ran, else succeeded (results ready)."""
    if counts.succeeded or counts.failed:
        return "succeeded"
    if counts.cancelled and not counts.expired:
        return "cancelled"
    return "expired" if counts.expired else "succeeded"


def _checked(batch_id: str) -> str:
    if not batch_id or not batch_id.replace("_", "").isalnum():
        raise InvalidRequestError(f"not an Anthropic batch id: {batch_id!r}")
    return batch_id
