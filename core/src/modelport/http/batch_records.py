"""The data a provider plugin's batch hooks take and give (public through :mod:`modelport.batches`).

A plugin maps; the core runs. The hooks of :class:`~modelport.http.HttpProvider` receive the requests
already built by the plugin's own ``build_request`` (:class:`BatchRequest`), decode the provider's
batch object into a :class:`BatchState`, and hand back each result line as a :class:`BatchLine`,
whose body the core decodes with the plugin's ``decode_response``: one mapping path for a single
call and a batch.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator
from datetime import datetime, timezone
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from ..errors import ModelportError, ProviderError
from ..wire import dumps, loads
from ._file_body import FileBody

__all__ = [
    "BatchCounts",
    "BatchDownload",
    "BatchLine",
    "BatchRequest",
    "BatchState",
    "BatchStatus",
    "BatchValues",
    "MAX_COUNT",
    "SpooledFile",
    "TERMINAL_STATUSES",
    "count",
    "downloads",
    "item_error",
    "jsonl_lines",
    "spooled_upload",
    "timestamp",
]

#: Where a batch is: ``queued`` (accepted, not started; OpenAI's ``validating``), ``running``
#: (``cancelling`` too, until it stops), and the four ends.
BatchStatus = Literal["queued", "running", "succeeded", "failed", "cancelled", "expired"]

#: The statuses after which a batch changes no more; ``succeeded`` means its results can be read
#: (single requests inside it may still have failed: each result says).
TERMINAL_STATUSES: frozenset[str] = frozenset({"succeeded", "failed", "cancelled", "expired"})


#: The largest count a batch object may report (``2**53 - 1``, as for usage counts); a negative
#: count or a larger one is a malformed batch object.
MAX_COUNT = 2**53 - 1

_Count = Field(default=0, ge=0, le=MAX_COUNT, strict=True)


class BatchCounts(BaseModel):
    """How many requests of a batch are where, as the provider last reported (each an ``int`` from 0
    to :data:`MAX_COUNT`: anything else fails validation, which the core reports as a typed
    :class:`~modelport.errors.ProviderResponseError`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    total: int = _Count
    processing: int = _Count
    succeeded: int = _Count
    failed: int = _Count
    cancelled: int = _Count
    expired: int = _Count


class BatchState(BaseModel):
    """A provider's batch object, decoded by the plugin: what :class:`~modelport.batches.BatchJob`
    shows and saves. ``provider_data`` keeps what the plugin needs later (a results URL, an output
    file id), JSON only, so a saved job can be restored in another process."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    status: BatchStatus
    raw_status: str
    counts: BatchCounts = BatchCounts()
    created_at: datetime | None = None
    ended_at: datetime | None = None
    provider_data: dict[str, Any] = {}


class BatchRequest(NamedTuple):
    """One request of a batch as the plugin built it (``spec``: its
    :class:`~modelport.http.HttpRequest`, built by ``build_request(..., stream=False)``)."""

    custom_id: str
    spec: Any


class BatchLine(NamedTuple):
    """One result of a batch as the provider gave it: the response body the plugin's
    ``decode_response`` reads (``data``), or the typed ``error`` of that request."""

    custom_id: str
    data: Any = None
    error: ModelportError | None = None


class BatchDownload(NamedTuple):
    """A results file the core streams for the plugin (:meth:`~modelport.http.HttpProvider.call_lines`):
    ``spec`` is the request that downloads it, ``parse`` turns each JSON line into the
    :class:`BatchLine` items it holds. Never read whole.

    The core runs ``parse`` on each line under the decoder guard: a line it cannot read (a bare
    Python error, or a typed one) becomes that one request's
    :class:`~modelport.errors.ProviderResponseError`, attributed by ``identify`` (the line's custom
    id, or ``None``), and the lines after it still arrive."""

    spec: Any
    parse: Callable[[Any], Iterable[BatchLine]]
    identify: Callable[[Any], object] | None = None


class BatchValues(NamedTuple):
    """Results that came inline (in the batch object itself): each of ``values`` turned into its
    :class:`BatchLine` items by ``parse``, one by one under the decoder guard, as a
    :class:`BatchDownload`'s lines are."""

    values: Iterable[Any]
    parse: Callable[[Any], Iterable[BatchLine]]
    identify: Callable[[Any], object] | None = None


def downloads(*files: BatchDownload) -> Generator[Any, Any, list[BatchDownload]]:
    """The steps of a ``batch_results`` hook that sends nothing itself: the results are files for
    the core to stream (``return downloads(BatchDownload(...))``)."""
    return list(files)
    yield  # a generator: the steps of an Operation


def count(value: Any) -> int:
    """A count of a provider's batch object: an ``int`` (or the decimal text of one, as Google writes
    int64 values) from 0 to :data:`MAX_COUNT`; absent (``None``) is 0. Anything else (a negative or
    huge number, a boolean, a fraction, other text) is a ``ValueError``, which the core's decoder
    guard reports as a typed :class:`~modelport.errors.ProviderResponseError`."""
    if value is None:
        return 0
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 16:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise ValueError(f"not a count: {str(value)[:40]!r}")
    return value


def timestamp(value: Any) -> datetime | None:
    """A provider's time stamp (Unix seconds, or RFC 3339 with up to nanoseconds) as an aware
    :class:`~datetime.datetime`; ``None`` when absent. One that is no time stamp (a boolean, a
    number past year 9999 or not finite, text that is no date) is a ``ValueError``, which the
    core's decoder guard reports as a typed :class:`~modelport.errors.ProviderResponseError`."""
    if value is None or value == "":
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value, tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            raise ValueError(f"not a time stamp: {str(value)[:40]}") from None
    if not isinstance(value, str) or len(value) > 64:
        raise ValueError(f"not a time stamp: a {type(value).__name__}")
    text = value.replace("Z", "+00:00")
    head, dot, rest = text.partition(".")
    if dot:  # Python before 3.11 reads exactly 3 or 6 fraction digits: always give it 6
        digits = len(rest) - len(rest.lstrip("0123456789"))
        rest = rest[:digits][:6].ljust(6, "0") + rest[digits:]
        text = f"{head}.{rest}"
    return datetime.fromisoformat(text)


def jsonl_lines(content: bytes) -> Iterator[Any]:
    """The JSON values of a JSON Lines body, one by one (blank lines skipped)."""
    for line in content.splitlines():
        if line.strip():
            yield loads(line)


def spooled_upload(
    values: Iterable[Any],
    *,
    before: bytes = b"",
    separator: bytes = b"\n",
    after: bytes = b"\n",
    max_bytes: int,
) -> SpooledFile:
    """A request body written to a temporary file value by value (``before``, the values as strict
    JSON joined by ``separator``, ``after``; by default JSON Lines) and streamed from it when sent,
    so a large batch is never held in memory. More than ``max_bytes`` is an
    :class:`~modelport.errors.InvalidRequestError` before any request; a value JSON cannot carry
    too. Call the returned body's :meth:`~SpooledFile.remove` once it is sent."""
    from ..errors import InvalidRequestError

    descriptor, path = tempfile.mkstemp(prefix="modelport-batch-", suffix=".json")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            size = handle.write(before)
            for index, value in enumerate(values):
                size += handle.write(separator + dumps(value) if index else dumps(value))
                if size > max_bytes:
                    raise InvalidRequestError(
                        f"the batch is larger than the provider's limit of {max_bytes} bytes"
                    )
            size += handle.write(after)
        return SpooledFile(path, size)
    except BaseException:
        os.unlink(path)
        raise


class SpooledFile(FileBody):
    """A :class:`FileBody` of a temporary file (:func:`spooled_upload`): :meth:`remove` deletes it."""

    def remove(self) -> None:
        """Delete the file (once the request that sends it is done, retries included)."""
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass


def item_error(custom_id: str, provider: str, reason: str, message: str) -> ProviderError:
    """The error of a request that did not run (the batch was cancelled or expired first, or the
    provider gave no result for it)."""
    from ..errors import BatchItemNotRunError

    return BatchItemNotRunError(
        message, provider=provider, provider_status=reason, details={"custom_id": custom_id}
    )
