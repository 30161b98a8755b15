"""How the core reads a batch's results (:mod:`modelport.batches`): every line of a results file or
inline result parsed by the plugin under the decoder guard, scrubbed of the provider's credentials,
decoded by the plugin's own mapping, and put in the order of the requests.

A line the plugin cannot read is that one request's typed
:class:`~modelport.errors.ProviderResponseError` (attributed by the plugin's ``identify``, else to
the custom id ``""``), and the lines after it still arrive. Two results for one request, or a result
for an id that is no request of the job, are typed per-item errors too (their data kept in
``partial``), never dropped in silence.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from pydantic import ValidationError

from ..errors import InvalidRequestError, ModelportError, ProviderResponseError, validation_message
from ..http import DECODE_ERRORS, BadLine
from ..http.batch_records import BatchDownload, BatchLine, BatchValues, item_error
from ..secrets import redact, redact_data
from ..types import EmbeddingResult, Result, Usage

if TYPE_CHECKING:
    from ..http import HttpProvider
    from .records import BatchModel, SavedRequest


class _Job(Protocol):
    """What decoding a job's results reads of it (a :class:`~modelport.batches.BatchJob` is one)."""

    @property
    def id(self) -> str: ...

    @property
    def provider(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def requests(self) -> list[SavedRequest]: ...


__all__ = ["BatchItem", "BatchResults", "adecoded_lines", "decoded", "lines", "ordered"]


class BatchItem(NamedTuple):
    """The outcome of one request of a batch: its ``result``, or the typed ``error`` of that request
    alone (exactly one of the two is set)."""

    custom_id: str
    result: Result | EmbeddingResult | None
    error: ModelportError | None


class BatchResults(list[BatchItem]):
    """The items of a batch in the order the requests were given, with their usage summed."""

    @property
    def usage(self) -> Usage:
        """Every field summed over the results that report it (``None`` where none does)."""
        totals: dict[str, int] = {}
        for item in self:
            if item.result is None:
                continue
            for name, value in item.result.usage.model_dump(exclude_none=True).items():
                totals[name] = totals.get(name, 0) + value
        return Usage(**totals)

    @property
    def errors(self) -> list[BatchItem]:
        """The items that failed."""
        return [item for item in self if item.error is not None]


#: The custom id of a results line that names no request the core could find.
UNATTRIBUTED = ""


def lines(provider: HttpProvider, found: Iterable[Any]) -> Iterator[BatchLine]:
    """The plugin's result lines: a :class:`BatchDownload` streamed line by line in its place, a
    :class:`BatchValues` read value by value, each under the guard (:func:`_parsed`)."""
    secrets = provider.endpoint().secrets
    for item in found:
        if isinstance(item, BatchDownload):
            for number, value in enumerate(provider.call_lines(item.spec, bad_lines=True), 1):
                yield from _parsed(provider, item, value, number, secrets)
        elif isinstance(item, BatchValues):
            for number, value in enumerate(item.values, 1):
                yield from _parsed(provider, item, value, number, secrets)
        else:
            yield _scrubbed(item, secrets)


async def adecoded_lines(provider: HttpProvider, found: Iterable[Any]) -> list[BatchLine]:
    """Async twin of :func:`lines`, collected."""
    secrets = provider.endpoint().secrets
    collected: list[BatchLine] = []
    for item in found:
        if isinstance(item, BatchDownload):
            values: AsyncIterator[Any] = provider.acall_lines(item.spec, bad_lines=True)
            number = 0
            async for value in values:
                number += 1
                collected.extend(_parsed(provider, item, value, number, secrets))
        elif isinstance(item, BatchValues):
            for number, value in enumerate(item.values, 1):
                collected.extend(_parsed(provider, item, value, number, secrets))
        else:
            collected.append(_scrubbed(item, secrets))
    return collected


def _parsed(
    provider: HttpProvider, source: BatchDownload | BatchValues, value: Any, number: int, secrets: Any
) -> list[BatchLine]:
    """One line's items, parsed by the plugin from the line scrubbed of every credential by value;
    anything it raises is that line's typed error."""
    problem: ModelportError | str
    if isinstance(value, BadLine):
        problem, custom_id = value.problem, UNATTRIBUTED
    else:
        value = _scrubbed_value(value, secrets)
        try:
            return [_checked(line) for line in source.parse(value)]
        except ModelportError as error:
            problem = error
        except DECODE_ERRORS as error:
            problem = provider.decode_error(error)
        custom_id = _identified(source.identify, value)
    return [
        BatchLine(
            custom_id,
            error=ProviderResponseError(
                f"results line {number}"
                + (f" ({custom_id!r})" if custom_id else "")
                + f" could not be read: {problem}",
                provider=provider.name,
                provider_status="unreadable",
                details={"custom_id": custom_id, "line": number},
            ),
        )
    ]


def _checked(line: Any) -> BatchLine:
    if not isinstance(line, BatchLine) or not isinstance(line.custom_id, str):
        raise TypeError("a plugin's parse gave something other than a BatchLine with a string custom id")
    return line


def _identified(identify: Callable[[Any], object] | None, value: Any) -> str:
    """The custom id ``identify`` finds in a line it could not read (a string), else ``""``."""
    if identify is None:
        return UNATTRIBUTED
    try:
        found = identify(value)
    except Exception:  # the line is already malformed: it names no request
        return UNATTRIBUTED
    return found if isinstance(found, str) and 0 < len(found) <= 1_000 else UNATTRIBUTED


def _scrubbed(given: Any, secrets: Any) -> BatchLine:
    line = _checked(given if isinstance(given, BatchLine) else BatchLine(*given))
    return line if line.data is None else line._replace(data=_scrubbed_value(line.data, secrets))


def _scrubbed_value(value: Any, secrets: tuple[str, ...]) -> Any:
    """``value`` with every credential scrubbed by value, walked only when its JSON text holds one
    (one scan a line, not one a string: a results file has many lines of many strings)."""
    if not secrets:
        return value
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return redact_data(value, secrets, shapes=False)
    if redact(text, secrets, shapes=False) == text:
        return value
    return redact_data(value, secrets, shapes=False)


def decoded(
    job: _Job, model: BatchModel, provider: HttpProvider, found: Iterable[BatchLine]
) -> Iterator[BatchItem]:
    """Each result line decoded by the provider's own mapping, as a single call's answer."""
    requests = {saved.custom_id: saved for saved in job.requests}
    decode = _embedding if job.kind == "embed" else _generation
    for line in found:
        if line.error is not None:
            yield BatchItem(line.custom_id, None, line.error)
            continue
        try:
            result = decode(provider, model, requests.get(line.custom_id), line.data)
        except ModelportError as error:
            yield BatchItem(line.custom_id, None, error)
        except ValidationError as error:  # a saved request that no longer reads (values not shown)
            problem = validation_message(error, root="request", limit=3)
            message = f"the saved request {line.custom_id!r} cannot be read: {problem}"
            yield BatchItem(line.custom_id, None, InvalidRequestError(message))
        except DECODE_ERRORS as error:
            yield BatchItem(line.custom_id, None, provider.decode_error(error))
        else:
            yield BatchItem(line.custom_id, result, None)


def _generation(provider: HttpProvider, model: BatchModel, saved: SavedRequest | None, data: Any) -> Result:
    # A job fetched by id has no requests: its results decode as plain answers (a forced tool of
    # response_format is not known then).
    request = saved.parsed() if saved is not None else model._validate({"prompt": "-"}).request
    # Stamped as generate stamps its answer: a batch answer sent back as a turn keeps its origin (C5).
    return provider.decode_result(data, provider.prepare(model.name, request).wire)._stamped(model.origin, [])


def _embedding(
    provider: HttpProvider, model: BatchModel, saved: SavedRequest | None, data: Any
) -> EmbeddingResult:
    from ..provider import EmbedRequest

    request = saved.parsed_embedding() if saved is not None else EmbedRequest(values=("-",), single=True)
    (spec,) = provider.embed_requests(model.name, request)
    return provider.decode_embedding_result(request, spec, data)


def ordered(job: _Job, items: Iterable[BatchItem]) -> BatchResults:
    """One item per request, in the order the requests were given; then, in the provider's order,
    the results for no request of the job and the lines no request could be found for. A second
    result for a request, or one for an unknown id, is a typed error (``provider_status``
    ``"duplicate"`` / ``"unknown"``), the answer it carried in ``partial``."""
    by_id: dict[str, BatchItem] = {}
    unread: list[BatchItem] = []
    for item in items:
        if item.custom_id == UNATTRIBUTED:
            unread.append(item)
        elif item.custom_id in by_id:
            message = f"batch {job.id!r} gave more than one result for {item.custom_id!r}"
            by_id[item.custom_id] = _flagged(job, (by_id[item.custom_id], item), "duplicate", message)
        else:
            by_id[item.custom_id] = item
    if not job.requests:  # fetched by id: the provider's order
        return BatchResults([*by_id.values(), *unread])
    results = BatchResults()
    for saved in job.requests:
        found = by_id.pop(saved.custom_id, None)
        if found is None:
            reason = job.status if job.status in ("cancelled", "expired") else "missing"
            error = item_error(
                saved.custom_id,
                job.provider,
                reason,
                f"batch {job.id!r} has no result for {saved.custom_id!r} ({reason})",
            )
            found = BatchItem(saved.custom_id, None, error)
        results.append(found)
    for custom_id, item in by_id.items():
        message = f"batch {job.id!r} gave a result for {custom_id!r}, which is no request of it"
        results.append(_flagged(job, (item,), "unknown", message))
    results.extend(unread)
    return results


def _flagged(job: _Job, items: tuple[BatchItem, ...], why: str, message: str) -> BatchItem:
    """The item of ``items``' custom id as a typed error saying ``why``; the first generation among
    them kept in its ``partial`` (an error already flagged stays as it is)."""
    first = items[0]
    if isinstance(first.error, ProviderResponseError) and first.error.provider_status == why:
        return first
    kept = next((item.result for item in items if isinstance(item.result, Result)), None)
    error = ProviderResponseError(
        message,
        provider=job.provider,
        provider_status=why,
        partial=kept,
        details={"custom_id": first.custom_id},
    )
    return BatchItem(first.custom_id, None, error)
