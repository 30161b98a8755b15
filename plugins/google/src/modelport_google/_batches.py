"""Gemini API batch mode (``models/{model}:batchGenerateContent``) as pure steps: create with the
requests inline, poll the ``batches/{id}`` operation, cancel, read the inlined responses.

Inline requests are bounded by the API at 20 MB for the whole create request; a larger batch is
refused before any request (the JSON Lines file input of the Files API is not used yet).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from modelport.batches import (
    BatchCounts,
    BatchLine,
    BatchRequest,
    BatchState,
    BatchStatus,
    item_error,
    timestamp,
)
from modelport.errors import InvalidRequestError, ProviderError, ProviderResponseError
from modelport.http import HttpRequest, Steps
from modelport.wire import dumps

__all__ = [
    "MAX_INLINE_BYTES",
    "batch_state",
    "display_name",
    "cancel_steps",
    "get_steps",
    "result_lines",
    "results_steps",
    "submit_steps",
]

MAX_INLINE_BYTES = 20 * 1000 * 1000

_STATUS: Mapping[str, BatchStatus] = {
    "BATCH_STATE_PENDING": "queued",
    "BATCH_STATE_RUNNING": "running",
    "BATCH_STATE_SUCCEEDED": "succeeded",
    "BATCH_STATE_FAILED": "failed",
    "BATCH_STATE_CANCELLED": "cancelled",
    "BATCH_STATE_EXPIRED": "expired",
}

ErrorFrom = Callable[[int, Mapping[str, str], str], ProviderError]


def submit_steps(model_url: str, model: str, requests: Sequence[BatchRequest]) -> Steps[BatchState]:
    """``POST {model_url}:batchGenerateContent`` with every request inline (generations only: the
    Gemini API batches embeddings through another endpoint, not mapped here)."""
    if any(not request.spec.url.endswith(":generateContent") for request in requests):
        raise InvalidRequestError(
            "Gemini embedding batches are not supported; embed() them, or batch generations"
        )
    inline = [
        {"request": {**request.spec.body, "model": model}, "metadata": {"custom_id": request.custom_id}}
        for request in requests
    ]
    body = {
        "batch": {
            "displayName": display_name(inline),
            "inputConfig": {"requests": {"requests": inline}},
        }
    }
    size = len(dumps(body))
    if size > MAX_INLINE_BYTES:
        raise InvalidRequestError(
            f"a Gemini batch with inline requests holds at most {MAX_INLINE_BYTES} bytes, got {size}"
        )
    reply = yield HttpRequest(f"{model_url}:batchGenerateContent", body=body)
    assert reply is not None
    return batch_state(reply.data)


def display_name(inline: Sequence[Mapping[str, Any]]) -> str:
    """The batch's label (``displayName``, required by the API; the batch id is its identity):
    ``modelport-`` and a digest of its inline requests, so the same batch gets the same name, in the
    console and in a recording that replays."""
    digest = hashlib.sha256(dumps(list(inline))).hexdigest()
    return f"modelport-{digest[:16]}"


def get_steps(batch_id: str) -> Steps[BatchState]:
    reply = yield HttpRequest(_name(batch_id), method="GET")
    assert reply is not None
    return batch_state(reply.data)


def cancel_steps(batch_id: str) -> Steps[BatchState]:
    """``POST batches/{id}:cancel`` (an empty answer), then the batch as it is after asking."""
    yield HttpRequest(f"{_name(batch_id)}:cancel", body={})
    return (yield from get_steps(batch_id))


def results_steps(state: BatchState, provider: str, error_from: ErrorFrom) -> Steps[Iterable[BatchLine]]:
    """The inlined responses of the ended batch's operation, each by its ``custom_id``."""
    reply = yield HttpRequest(_name(state.id), method="GET")
    assert reply is not None
    output = (reply.data or {}).get("response") or {}
    if "responsesFile" in output:
        raise ProviderResponseError(
            f"batch {state.id!r} wrote its responses to a file ({output['responsesFile']}); "
            "only inline responses are read",
            provider=provider,
        )
    inline = (output.get("inlinedResponses") or {}).get("inlinedResponses")
    if inline is None:
        raise InvalidRequestError(f"batch {state.id!r} has no results yet ({state.raw_status})")
    return result_lines(inline, provider, error_from)


def result_lines(
    inline: Sequence[Mapping[str, Any]], provider: str, error_from: ErrorFrom
) -> Iterator[BatchLine]:
    for index, entry in enumerate(inline):
        custom_id = str((entry.get("metadata") or {}).get("custom_id", index))
        if "response" in entry:
            yield BatchLine(custom_id, entry["response"])
        elif "error" in entry:  # a google.rpc.Status: code (gRPC), message, details
            error = entry["error"] or {}
            yield BatchLine(
                custom_id, error=error_from(_http_status(error), {}, json.dumps({"error": error}))
            )
        else:
            yield BatchLine(
                custom_id, error=item_error(custom_id, provider, "missing", "no response and no error")
            )


#: gRPC codes as the HTTP statuses Google maps them to.
_HTTP = {3: 400, 5: 404, 7: 403, 8: 429, 9: 400, 13: 500, 14: 503, 16: 401, 4: 504}


def _http_status(error: Mapping[str, Any]) -> int:
    code = error.get("code")
    return _HTTP.get(code, 500) if isinstance(code, int) else 500


def batch_state(data: Mapping[str, Any]) -> BatchState:
    """A ``batches/{id}`` operation (its ``metadata`` is the GenerateContentBatch) as a BatchState."""
    batch = data.get("metadata") or data
    raw = str(batch["state"])
    stats = batch.get("batchStats") or {}
    total, succeeded, failed, pending = (
        int(stats.get(k) or 0)
        for k in ("requestCount", "successfulRequestCount", "failedRequestCount", "pendingRequestCount")
    )
    status = _STATUS.get(raw, "running")
    left = max(total - succeeded - failed, 0)
    counts = BatchCounts(
        total=total,
        processing=pending if status in ("queued", "running") else 0,
        succeeded=succeeded,
        failed=failed,
        cancelled=left if status == "cancelled" else 0,
        expired=left if status == "expired" else 0,
    )
    return BatchState(
        id=str(data.get("name") or batch["name"]).removeprefix("batches/"),
        status=status,
        raw_status=raw,
        counts=counts,
        created_at=timestamp(batch.get("createTime")),
        ended_at=timestamp(batch.get("endTime")),
        provider_data={"display_name": batch.get("displayName")},
    )


def _name(batch_id: str) -> str:
    bare = batch_id.removeprefix("batches/")
    if not bare or not bare.replace("-", "").replace("_", "").isalnum():
        raise InvalidRequestError(f"not a Gemini batch id: {batch_id!r}")
    return f"batches/{bare}"
