"""Vertex AI batch prediction jobs for Gemini models, as pure steps: the requests go up to Cloud
Storage, a ``batchPredictionJobs`` resource runs them, and the predictions come back from Cloud
Storage (all on the provider's own OAuth credentials).

- Submit: the requests are written to a temporary JSON Lines file (one ``{"request": body}`` a line,
  the ``generateContent`` body ``generate`` would send) and sent with the Cloud Storage JSON API's
  media upload (``POST /upload/storage/v1/b/{bucket}/o?uploadType=media&name=...``, streamed from the
  file); then ``POST {parent}/batchPredictionJobs`` with ``inputConfig`` (``jsonl``, ``gcsSource``)
  and ``outputConfig`` (``jsonl``, ``gcsDestination.outputUriPrefix``).
- Poll: ``GET {parent}/batchPredictionJobs/{id}`` (``state`` ``JOB_STATE_*``, ``completionStats``);
  cancel: ``POST ...:cancel``.
- Results: the job's ``outputInfo.gcsOutputDirectory`` is listed (``GET /storage/v1/b/{bucket}/o
  ?prefix=``, page by page) and each ``predictions*.jsonl`` object downloaded (``?alt=media``) and
  read a line at a time: ``{"status", "processed_time", "request", "response"}``.

Custom ids: Vertex has no key field, but each output line carries its request back, and a Vertex
``generateContent`` request has ``labels``; the custom id travels as the label
``modelport_custom_id`` (so it must be a valid label value: up to 63 lowercase letters, digits,
``_`` or ``-``; the default ids ``"0"``, ``"1"``, ... are).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple
from urllib.parse import quote, urlencode

from modelport.batches import (
    BatchCounts,
    BatchDownload,
    BatchLine,
    BatchRequest,
    BatchState,
    BatchStatus,
    count,
    item_error,
    spooled_upload,
    timestamp,
)
from modelport.errors import ConfigurationError, InvalidRequestError, ProviderError, ProviderResponseError
from modelport.http import HttpRequest, Steps

from ._batches import ErrorFrom, file_digest_name
from ._labels import check_labels

__all__ = [
    "CUSTOM_ID_LABEL",
    "MAX_BATCH_REQUESTS",
    "MAX_INPUT_BYTES",
    "MAX_LISTING_PAGES",
    "STORAGE_URL",
    "BatchBucket",
    "batch_state",
    "cancel_steps",
    "get_steps",
    "job_name",
    "parse_batch_bucket",
    "results_steps",
    "submit_steps",
]

#: The Cloud Storage JSON API.
STORAGE_URL = "https://storage.googleapis.com"
#: Vertex AI's bounds on a Gemini batch prediction job: requests per job, size of the input file.
MAX_BATCH_REQUESTS = 200_000
MAX_INPUT_BYTES = 1024 * 1024 * 1024
#: At most this many pages of a job's output directory are listed (1,000 objects a page).
MAX_LISTING_PAGES = 1_000
#: The request label that carries a request's custom id through the job.
CUSTOM_ID_LABEL = "modelport_custom_id"

_STATUS: Mapping[str, BatchStatus] = {
    "JOB_STATE_QUEUED": "queued",
    "JOB_STATE_PENDING": "queued",
    "JOB_STATE_RUNNING": "running",
    "JOB_STATE_CANCELLING": "running",
    "JOB_STATE_UPDATING": "running",
    "JOB_STATE_PAUSED": "running",
    "JOB_STATE_SUCCEEDED": "succeeded",
    "JOB_STATE_PARTIALLY_SUCCEEDED": "succeeded",
    "JOB_STATE_FAILED": "failed",
    "JOB_STATE_CANCELLED": "cancelled",
    "JOB_STATE_EXPIRED": "expired",
}


class BatchBucket(NamedTuple):
    """Where a job's files go: a Cloud Storage bucket and a folder in it (``""``: its top)."""

    bucket: str
    prefix: str

    def object_name(self, *names: str) -> str:
        """The name of an object in the folder (``{prefix}/{names...}``)."""
        return "/".join(part for part in (self.prefix, *names) if part)

    def uri(self, *names: str) -> str:
        """``gs://{bucket}/{prefix}/{names...}``."""
        return f"gs://{self.bucket}/{self.object_name(*names)}"


def parse_batch_bucket(value: Any) -> BatchBucket:
    """The ``batch_bucket`` option (``"gs://bucket"`` or ``"gs://bucket/folder"``), checked by Cloud
    Storage's bucket-name rules: 3-63 characters, lowercase letters, digits, ``-``, ``_`` and ``.``,
    starting and ending with a letter or digit."""
    if not isinstance(value, str) or not value.startswith("gs://"):
        raise ConfigurationError(f"batch_bucket must be a gs://bucket[/folder] URI, got {value!r}")
    bucket, _, prefix = value[len("gs://") :].partition("/")
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789-_.")
    if not (
        3 <= len(bucket) <= 63 and set(bucket) <= allowed and bucket[0].isalnum() and bucket[-1].isalnum()
    ):
        raise ConfigurationError(
            f"batch_bucket {value!r} does not name a Cloud Storage bucket (3-63 lowercase letters, "
            "digits, '-', '_' or '.', starting and ending with a letter or digit)"
        )
    prefix = prefix.strip("/")
    if any(ord(char) < 32 or char in "\x7f#[]*?" for char in prefix):
        raise ConfigurationError(f"batch_bucket {value!r} has a folder Cloud Storage does not allow")
    return BatchBucket(bucket, prefix)


def submit_steps(
    parent: str, model: str, bucket: BatchBucket, requests: Sequence[BatchRequest]
) -> Steps[BatchState]:
    """Upload the requests as one JSON Lines object, then create the job reading it."""
    if len(requests) > MAX_BATCH_REQUESTS:
        raise InvalidRequestError(
            f"a Vertex AI batch prediction job holds at most {MAX_BATCH_REQUESTS} requests, "
            f"got {len(requests)}"
        )
    if any(not request.spec.url.endswith(":generateContent") for request in requests):
        raise InvalidRequestError(
            "Vertex AI embedding batches are not supported; embed() them, or batch generations"
        )
    lines = (_input_line(request) for request in requests)  # all written (and checked) before any I/O
    spooled = spooled_upload(lines, max_bytes=MAX_INPUT_BYTES)
    try:
        name = file_digest_name(spooled.path)
        input_object = bucket.object_name(name, "input.jsonl")
        query = urlencode({"uploadType": "media", "name": input_object})
        yield HttpRequest(
            f"{STORAGE_URL}/upload/storage/v1/b/{bucket.bucket}/o?{query}",
            spooled,
            headers={"content-type": "application/jsonl"},
        )
    finally:
        spooled.remove()
    body = {
        "displayName": name,
        "model": model,
        "inputConfig": {
            "instancesFormat": "jsonl",
            "gcsSource": {"uris": [f"gs://{bucket.bucket}/{input_object}"]},
        },
        "outputConfig": {
            "predictionsFormat": "jsonl",
            "gcsDestination": {"outputUriPrefix": bucket.uri(name, "output")},
        },
    }
    reply = yield HttpRequest(f"{parent}/batchPredictionJobs", body=body)
    assert reply is not None
    return batch_state(reply.data)


def _input_line(request: BatchRequest) -> dict[str, Any]:
    custom_id = request.custom_id
    labels = {**(request.spec.body.get("labels") or {}), CUSTOM_ID_LABEL: custom_id}
    try:
        check_labels(labels)
    except InvalidRequestError as error:
        raise InvalidRequestError(
            f"custom id {custom_id!r} cannot travel through a Vertex AI batch: it goes as the request "
            f"label {CUSTOM_ID_LABEL!r}, so it must be at most 63 lowercase letters, digits, '_' or '-' "
            f"({error})"
        ) from None
    return {"request": {**request.spec.body, "labels": labels}}


def get_steps(name: str) -> Steps[BatchState]:
    reply = yield HttpRequest(name, method="GET")
    assert reply is not None
    return batch_state(reply.data)


def cancel_steps(name: str) -> Steps[BatchState]:
    """``POST {job}:cancel`` (an empty answer), then the job as it is after asking."""
    yield HttpRequest(f"{name}:cancel", body={})
    return (yield from get_steps(name))


def results_steps(name: str, provider: str, error_from: ErrorFrom) -> Steps[Iterable[BatchDownload]]:
    """The predictions files of the ended job: its output directory listed, each file for the core
    to stream."""
    reply = yield HttpRequest(name, method="GET")
    assert reply is not None
    directory = ((reply.data or {}).get("outputInfo") or {}).get("gcsOutputDirectory")
    if not isinstance(directory, str) or not directory.startswith("gs://"):
        state = batch_state(reply.data)
        raise InvalidRequestError(f"batch {state.id!r} has no results yet ({state.raw_status})")
    bucket, _, folder = directory[len("gs://") :].partition("/")
    listing = f"{STORAGE_URL}/storage/v1/b/{quote(bucket, safe='')}/o"
    query = {"prefix": f"{folder.rstrip('/')}/"}
    found: list[BatchDownload] = []
    for _ in range(MAX_LISTING_PAGES):
        page = yield HttpRequest(f"{listing}?{urlencode(query)}", method="GET")
        assert page is not None
        for item in (page.data or {}).get("items") or ():
            object_name = str(item.get("name", ""))
            if object_name.rsplit("/", 1)[-1].startswith("predictions") and object_name.endswith(".jsonl"):
                spec = HttpRequest(f"{listing}/{quote(object_name, safe='')}?alt=media", method="GET")
                found.append(
                    BatchDownload(
                        spec,
                        lambda line: [_prediction(line, provider, error_from)],
                        identify=lambda line: line["request"]["labels"][CUSTOM_ID_LABEL],
                    )
                )
        token = (page.data or {}).get("nextPageToken")
        if not token:
            return found
        if not isinstance(token, str) or token == query.get("pageToken"):
            raise ProviderResponseError("the predictions listing names no new next page", provider=provider)
        query["pageToken"] = token
    raise ProviderResponseError(
        f"the predictions listing did not end within {MAX_LISTING_PAGES} pages", provider=provider
    )


def _prediction(line: Mapping[str, Any], provider: str, error_from: ErrorFrom) -> BatchLine:
    """A predictions line: the response, or the ``status`` that says why there is none."""
    labels = (line.get("request") or {}).get("labels") or {}
    custom_id = labels.get(CUSTOM_ID_LABEL)
    if not isinstance(custom_id, str):
        raise ProviderResponseError(
            f"a predictions line has no {CUSTOM_ID_LABEL!r} label: not a job modelport submitted",
            provider=provider,
        )
    if line.get("response") is not None:
        return BatchLine(custom_id, line["response"])
    status = line.get("status")
    if not status:
        return BatchLine(
            custom_id, error=item_error(custom_id, provider, "missing", "no response and no status")
        )
    return BatchLine(custom_id, error=_status_error(str(status), error_from))


def _status_error(status: str, error_from: ErrorFrom) -> ProviderError:
    """A failed line's ``status``: text, often ending in the API's JSON error (``Bad Request:
    {"error": {"code": 400, ...}}``), typed as that HTTP error would be."""
    start = status.find("{")
    if start >= 0:
        try:
            body = json.loads(status[start:])
        except ValueError:
            body = None
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict):
            code = error.get("code")
            return error_from(code if isinstance(code, int) and code >= 400 else 500, {}, status[start:])
    return error_from(500, {}, json.dumps({"error": {"message": status}}))


def batch_state(data: Mapping[str, Any]) -> BatchState:
    """A ``BatchPredictionJob`` as a BatchState."""
    raw = str(data["state"])
    stats = data.get("completionStats") or {}
    succeeded, failed, incomplete = (
        count(stats.get(key)) for key in ("successfulCount", "failedCount", "incompleteCount")
    )
    status = _STATUS.get(raw, "running")
    left = max(incomplete, 0)
    counts = BatchCounts(
        total=succeeded + failed + left,
        processing=left if status in ("queued", "running") else 0,
        succeeded=succeeded,
        failed=failed,
        cancelled=left if status == "cancelled" else 0,
        expired=left if status == "expired" else 0,
    )
    output = (data.get("outputInfo") or {}).get("gcsOutputDirectory")
    return BatchState(
        id=str(data["name"]).rsplit("/", 1)[-1],
        status=status,
        raw_status=raw,
        counts=counts,
        created_at=timestamp(data.get("createTime")),
        ended_at=timestamp(data.get("endTime")),
        provider_data={"display_name": data.get("displayName"), "output_directory": output},
    )


def job_name(parent: str, batch_id: str) -> str:
    """``{parent}/batchPredictionJobs/{id}`` for a bare id; a full name of this parent stays."""
    bare = batch_id.removeprefix(f"{parent}/batchPredictionJobs/")
    if not bare.isdigit():
        raise InvalidRequestError(f"not a Vertex AI batch prediction job id of {parent}: {batch_id!r}")
    return f"{parent}/batchPredictionJobs/{bare}"
