"""Gemini API batch mode (``models/{model}:batchGenerateContent``) as pure steps: create, poll the
``batches/{id}`` operation, cancel, read the responses.

The requests go inline when they fit the API's 20 MB bound on the create request; a larger batch
goes up as a JSON Lines file through the Files API (one ``{"key", "request"}`` object a line, sent
with the resumable upload, streamed from a spooled file), and its responses come back as a file
(``responsesFile``) downloaded from ``/download/v1beta/files/{id}:download?alt=media``, one
``{"key", "response"|"error"}`` a line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from modelport.batches import (
    BatchCounts,
    BatchDownload,
    BatchLine,
    BatchRequest,
    BatchState,
    BatchStatus,
    BatchValues,
    count,
    item_error,
    jsonl_lines,
    spooled_upload,
    timestamp,
)
from modelport.errors import InvalidRequestError, ProviderError, ProviderResponseError
from modelport.http import HttpRequest, Steps
from modelport.wire import dumps

__all__ = [
    "MAX_INLINE_BYTES",
    "batch_state",
    "display_name",
    "file_digest_name",
    "file_lines",
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


def submit_steps(
    base_url: str, model_url: str, model: str, requests: Sequence[BatchRequest], provider: str
) -> Steps[BatchState]:
    """``POST {model_url}:batchGenerateContent`` (``:asyncBatchEmbedContent`` for embeddings, one
    value a request): the requests inline when they fit, else as an uploaded JSON Lines file."""
    from ._resumable import MAX_FILE_BYTES, upload_steps

    method = _batch_method(requests)
    lines = ({"key": request.custom_id, "request": request.spec.body} for request in requests)
    spooled = spooled_upload(lines, max_bytes=MAX_FILE_BYTES)
    source: dict[str, Any]
    try:
        if spooled.size + _INLINE_OVERHEAD * len(requests) <= MAX_INLINE_BYTES:
            inline = _inline(model, requests)
            name = display_name(inline)
            source = {"requests": {"requests": inline}}
        else:
            name = file_digest_name(spooled.path)
            start = _service_url(base_url, "upload", "files")
            uploaded = yield from upload_steps(
                start, spooled, spooled.size, "application/jsonl", name, provider
            )
            source = {"fileName": _uploaded_name(uploaded, provider)}
    finally:
        spooled.remove()
    body = {"batch": {"displayName": name, "inputConfig": source}}
    reply = yield HttpRequest(f"{model_url}:{method}", body=body)
    assert reply is not None
    return batch_state(reply.data)


#: The batch method for each single-call method a batch's requests were built for.
_BATCH_METHODS = {"generateContent": "batchGenerateContent", "embedContent": "asyncBatchEmbedContent"}


def _batch_method(requests: Sequence[BatchRequest]) -> str:
    """``batchGenerateContent`` for generations, ``asyncBatchEmbedContent`` for embeddings (one value
    a request: ``:batchEmbedContents`` has no batch form); anything else refused before any I/O."""
    methods = {request.spec.url.rpartition(":")[2] for request in requests}
    if methods == {"batchEmbedContents"} or "batchEmbedContents" in methods:
        raise InvalidRequestError("a Gemini embedding batch takes one value a request")
    if len(methods) != 1 or next(iter(methods)) not in _BATCH_METHODS:
        raise InvalidRequestError(f"a Gemini batch takes generations or embeddings, not {sorted(methods)}")
    return _BATCH_METHODS[next(iter(methods))]


#: What an inline request adds to its JSON Lines form (the model, the metadata wrapper).
_INLINE_OVERHEAD = 128


def _inline(model: str, requests: Sequence[BatchRequest]) -> list[dict[str, Any]]:
    return [
        {"request": {**request.spec.body, "model": model}, "metadata": {"custom_id": request.custom_id}}
        for request in requests
    ]


def _service_url(base_url: str, service: str, path: str) -> str:
    """``https://host/v1beta`` → ``https://host/{service}/v1beta/{path}`` (the upload and download
    services of the Files API)."""
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}/{service}{parts.path}/{path}"


def display_name(inline: Sequence[Mapping[str, Any]]) -> str:
    """The batch's label (``displayName``, required by the API; the batch id is its identity):
    ``modelport-`` and a digest of its inline requests, so the same batch gets the same name, in the
    console and in a recording that replays."""
    digest = hashlib.sha256(dumps(list(inline))).hexdigest()
    return f"modelport-{digest[:16]}"


def file_digest_name(path: str) -> str:
    """:func:`display_name` of a batch sent as a file: the digest of the file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return f"modelport-{digest.hexdigest()[:16]}"


def get_steps(batch_id: str) -> Steps[BatchState]:
    reply = yield HttpRequest(_name(batch_id), method="GET")
    assert reply is not None
    return batch_state(reply.data)


def cancel_steps(batch_id: str) -> Steps[BatchState]:
    """``POST batches/{id}:cancel`` (an empty answer), then the batch as it is after asking."""
    yield HttpRequest(f"{_name(batch_id)}:cancel", body={})
    return (yield from get_steps(batch_id))


def results_steps(
    base_url: str, state: BatchState, provider: str, error_from: ErrorFrom
) -> Steps[Iterable[BatchLine | BatchDownload | BatchValues]]:
    """The responses of the ended batch: inlined in its operation, or in its responses file."""
    reply = yield HttpRequest(_name(state.id), method="GET")
    assert reply is not None
    output = (reply.data or {}).get("response") or {}
    responses_file = output.get("responsesFile")
    if isinstance(responses_file, str) and responses_file:
        file_id = _file_name(responses_file)
        spec = HttpRequest(_service_url(base_url, "download", f"{file_id}:download?alt=media"), method="GET")
        return [
            BatchDownload(
                spec, lambda line: [_file_line(line, provider, error_from)], identify=lambda line: line["key"]
            )
        ]
    # Embedding batches name their inline list ``inlinedEmbedContentResponses`` (as the SDKs read it).
    inlined = output.get("inlinedResponses") or output.get("inlinedEmbedContentResponses") or {}
    inline = inlined.get("inlinedResponses") if isinstance(inlined, dict) else None
    if inline is None:
        raise InvalidRequestError(f"batch {state.id!r} has no results yet ({state.raw_status})")
    if not isinstance(inline, list):
        raise ProviderResponseError("the batch's inlined responses are not a list", provider=provider)
    # Each entry read on its own, under the core's decoder guard: one bad entry is that request's error.
    return [
        BatchValues(
            list(enumerate(inline)),
            lambda pair: [_entry(pair[0], pair[1], provider, error_from)],
            identify=lambda pair: _entry_id(pair[0], pair[1]),
        )
    ]


def file_lines(content: bytes, provider: str, error_from: ErrorFrom) -> Iterator[BatchLine]:
    """Each line of a whole responses file (see :func:`_file_line`)."""
    for line in jsonl_lines(content):
        yield _file_line(line, provider, error_from)


def _file_line(line: Mapping[str, Any], provider: str, error_from: ErrorFrom) -> BatchLine:
    """A line of a responses file (``{"key", "response"|"error"}``), read as an inlined entry."""
    key = line["key"]
    if not isinstance(key, str):
        raise TypeError("a responses file line needs a string key")
    return _entry(0, {**line, "metadata": {"custom_id": key}}, provider, error_from)


def result_lines(
    inline: Iterable[Mapping[str, Any]], provider: str, error_from: ErrorFrom
) -> Iterator[BatchLine]:
    """Each inlined response (``{"metadata": {"custom_id"}, "response"|"error"}``) as a BatchLine."""
    for index, entry in enumerate(inline):
        yield _entry(index, entry, provider, error_from)


def _entry_id(index: int, entry: Mapping[str, Any]) -> str:
    """An inlined response's custom id (its ``metadata``), else its position."""
    metadata = entry.get("metadata") or {}
    custom_id = metadata.get("custom_id", index) if isinstance(metadata, Mapping) else None
    if isinstance(custom_id, bool) or not isinstance(custom_id, (str, int)):
        raise TypeError("an inlined response's custom_id is no string")
    return str(custom_id)


def _entry(index: int, entry: Mapping[str, Any], provider: str, error_from: ErrorFrom) -> BatchLine:
    """One inlined response (a line of another shape raises: the core makes it a typed error)."""
    custom_id = _entry_id(index, entry)
    if "response" in entry:
        return BatchLine(custom_id, entry["response"])
    if "error" in entry:  # a google.rpc.Status: code (gRPC), message, details
        error = entry["error"] or {}
        if not isinstance(error, Mapping):
            raise TypeError("an inlined response's error is no object")
        return BatchLine(custom_id, error=error_from(_http_status(error), {}, json.dumps({"error": error})))
    return BatchLine(custom_id, error=item_error(custom_id, provider, "missing", "no response and no error"))


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
        count(stats.get(k))
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


def _uploaded_name(answer: Any, provider: str) -> str:
    """The ``files/{id}`` name of the Files API's answer to an upload."""
    file = answer.get("file") if isinstance(answer, dict) else None
    name = file.get("name") if isinstance(file, dict) else None
    if not isinstance(name, str):
        raise ProviderResponseError("the Files API answer has no file object with a name", provider=provider)
    return _file_name(name)


def _file_name(name: str) -> str:
    bare = name.removeprefix("files/")
    if not bare or not bare.replace("-", "").replace("_", "").isalnum():
        raise ProviderResponseError(f"not a Files API file name: {name!r}", provider="google")
    return f"files/{bare}"


def _name(batch_id: str) -> str:
    bare = batch_id.removeprefix("batches/")
    if not bare or not bare.replace("-", "").replace("_", "").isalnum():
        raise InvalidRequestError(f"not a Gemini batch id: {batch_id!r}")
    return f"batches/{bare}"
