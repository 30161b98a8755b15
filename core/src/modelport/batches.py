"""Provider batch jobs: many requests run on the provider's own batch service, at about half the
price, for work beyond one process (``model.submit_batch``, ``model.get_batch``).

Each request is one ``generate`` call's keywords, validated and built by the provider's own mapping
before anything is sent; each result is decoded by the same mapping as a single call. A job is a
pydantic object: ``job.model_dump_json()`` saves it, :func:`modelport.restore_batch` brings it back
in another process (the requests travel with it, so their results decode there too)::

    job = model.submit_batch([{"prompt": "2 + 2?"}, ("capital", {"prompt": "Capital of France?"})])
    job.wait(progress=print)
    for item in job.results():
        print(item.custom_id, item.result.text if item.result else item.error)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Union

from pydantic import BaseModel, ConfigDict, PrivateAttr, field_validator

from . import _retry
from ._batch_types import (
    TERMINAL_STATUSES,
    BatchCounts,
    BatchDownload,
    BatchLine,
    BatchRequest,
    BatchState,
    BatchStatus,
    SpooledFile,
    downloads,
    item_error,
    jsonl_lines,
    spooled_upload,
    timestamp,
)
from .errors import ConfigurationError, DeadlineExceededError, InvalidRequestError, ModelportError
from .types import EmbeddingResult, Request, Result, Usage

if TYPE_CHECKING:
    from ._model import Model
    from .http import HttpProvider
    from .provider import EmbedRequest

__all__ = [
    "BatchCounts",
    "BatchDownload",
    "BatchEntry",
    "BatchItem",
    "BatchJob",
    "BatchKind",
    "BatchLine",
    "BatchRequest",
    "BatchResults",
    "BatchState",
    "BatchStatus",
    "EmbedEntry",
    "SavedRequest",
    "SpooledFile",
    "TERMINAL_STATUSES",
    "downloads",
    "item_error",
    "jsonl_lines",
    "spooled_upload",
    "timestamp",
]

#: One entry of ``submit_batch``: ``generate`` keywords, or a ``(custom_id, keywords)`` pair.
BatchEntry = Union[Mapping[str, Any], tuple[str, Mapping[str, Any]]]

#: One entry of ``submit_embed_batch``: a string, a dict of ``embed`` keywords, or a
#: ``(custom_id, entry)`` pair.
EmbedEntry = Union[str, Mapping[str, Any], tuple[str, Union[str, Mapping[str, Any]]]]

#: What a job's requests are: generations (results are :class:`Result`) or embeddings
#: (:class:`EmbeddingResult`).
BatchKind = Literal["generate", "embed"]


class SavedRequest(BaseModel):
    """A request of a job, kept so its result can be decoded wherever the job is restored: the
    validated request as compact JSON text (a tenth of the memory of the objects), read back one at
    a time while results are decoded."""

    model_config = ConfigDict(frozen=True)

    custom_id: str
    request: str

    @field_validator("request", mode="before")
    @classmethod
    def _as_text(cls, value: Any) -> Any:
        """A request given as a JSON object (a job written by hand) is kept as its text."""
        return json.dumps(value) if isinstance(value, Mapping) else value

    def parsed(self) -> Request:
        """The validated request (of a ``generate`` batch)."""
        return Request.model_validate_json(self.request)

    def parsed_embedding(self) -> EmbedRequest:
        """The validated request (of an ``embed`` batch)."""
        from .provider import EmbedRequest

        fields = json.loads(self.request)
        return EmbedRequest(**{**fields, "values": tuple(fields["values"])})


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


class BatchJob(BaseModel):
    """A batch on a provider's batch service, as last seen (``refresh()`` asks again).

    Saved with ``model_dump_json()`` and brought back with :func:`modelport.restore_batch`.
    ``status`` is one of :data:`BatchStatus`; ``raw_status`` is the provider's own word for it.
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    provider: str
    model: str
    kind: BatchKind = "generate"
    status: BatchStatus
    raw_status: str
    counts: BatchCounts = BatchCounts()
    created_at: datetime | None = None
    ended_at: datetime | None = None
    provider_data: dict[str, Any] = {}
    requests: list[SavedRequest] = []

    _bound: Model | None = PrivateAttr(default=None)

    @property
    def done(self) -> bool:
        """Whether the batch has ended (succeeded, failed, cancelled or expired)."""
        return self.status in TERMINAL_STATUSES

    def bind(self, model: Model) -> BatchJob:
        """Use ``model`` (the same provider and model) for this job's requests; returns the job."""
        if model.provider.id != self.provider or model.name != self.model:
            raise InvalidRequestError(
                f"batch {self.id!r} belongs to {self.provider}/{self.model}, not {model.id}"
            )
        self._bound = model
        return self

    def _model(self) -> Model:
        if self._bound is None:
            raise ConfigurationError(
                f"batch {self.id!r} is not bound to a model: restore it with modelport.restore_batch(saved), "
                "or call job.bind(model)"
            )
        return self._bound

    def _update(self, state: BatchState) -> BatchJob:
        """The job with the provider's latest :class:`BatchState` (every field of it)."""
        for name in BatchState.model_fields:
            setattr(self, name, getattr(state, name))
        return self

    # Sync ------------------------------------------------------------------------------------

    def refresh(self) -> BatchJob:
        """Ask the provider where the batch is now; returns the job, updated."""
        provider = _provider_of(self._model())
        return self._update(provider.operation(lambda: provider.batch_get(self.id)).run())

    def cancel(self) -> BatchJob:
        """Ask the provider to cancel the batch (requests already done keep their results)."""
        provider = _provider_of(self._model())
        return self._update(provider.operation(lambda: provider.batch_cancel(self.id)).run())

    def wait(
        self,
        *,
        poll_interval: float = 10.0,
        max_poll_interval: float = 300.0,
        timeout: float | None = None,
        progress: Callable[[BatchJob], object] | None = None,
    ) -> BatchJob:
        """Poll until the batch ends: every ``poll_interval`` seconds at first, half again longer
        each time up to ``max_poll_interval``; ``progress(job)`` after each poll. Past ``timeout``
        seconds, :class:`~modelport.errors.DeadlineExceededError` (the batch goes on running)."""
        started, delay = time.monotonic(), poll_interval
        while not self.refresh().done:
            if progress is not None:
                progress(self)
            _check_time(started, delay, timeout, self)
            _retry.sleep(delay)
            delay = min(max_poll_interval, delay * 1.5)
        if progress is not None:
            progress(self)
        return self

    def iter_results(self) -> Iterator[BatchItem]:
        """The results in the order the provider gives them, decoded one by one."""
        model = self._model()
        provider = _provider_of(model)
        found = provider.operation(lambda: provider.batch_results(self._state())).run()
        return _decoded(self, model, _streamed(provider, found))

    def results(self) -> BatchResults:
        """One item per request, in the order the requests were given (see :class:`BatchResults`);
        a request the provider gave no result for is a :class:`~modelport.errors.BatchItemNotRunError`."""
        return _ordered(self, self.iter_results())

    # Async -----------------------------------------------------------------------------------

    async def arefresh(self) -> BatchJob:
        """Async twin of :meth:`refresh`."""
        provider = _provider_of(self._model())
        return self._update(await provider.operation(lambda: provider.batch_get(self.id)))

    async def acancel(self) -> BatchJob:
        """Async twin of :meth:`cancel`."""
        provider = _provider_of(self._model())
        return self._update(await provider.operation(lambda: provider.batch_cancel(self.id)))

    async def await_done(
        self,
        *,
        poll_interval: float = 10.0,
        max_poll_interval: float = 300.0,
        timeout: float | None = None,
        progress: Callable[[BatchJob], object] | None = None,
    ) -> BatchJob:
        """Async twin of :meth:`wait`."""
        started, delay = time.monotonic(), poll_interval
        while not (await self.arefresh()).done:
            if progress is not None:
                progress(self)
            _check_time(started, delay, timeout, self)
            await _retry.async_sleep(delay)
            delay = min(max_poll_interval, delay * 1.5)
        if progress is not None:
            progress(self)
        return self

    async def aresults(self) -> BatchResults:
        """Async twin of :meth:`results`."""
        model = self._model()
        provider = _provider_of(model)
        found = await provider.operation(lambda: provider.batch_results(self._state()))
        lines: list[BatchLine] = []
        for item in found:
            if isinstance(item, BatchDownload):
                async for value in provider.acall_lines(item.spec):
                    lines.extend(item.parse(value))
            else:
                lines.append(item)
        return _ordered(self, _decoded(self, model, lines))

    def _state(self) -> BatchState:
        """The provider's side of the job: its :class:`BatchState` fields."""
        return BatchState(**{name: getattr(self, name) for name in BatchState.model_fields})


# What ``Model.submit_batch`` and friends do -------------------------------------------------------


class _Pending(NamedTuple):
    """A batch built and not yet sent: what ``_submitted`` turns into a job once the provider took it."""

    model: Model
    kind: BatchKind
    saved: list[SavedRequest]


def _prepared(
    model: Model, entries: Sequence[Any], kind: BatchKind
) -> tuple[HttpProvider, _Pending, list[BatchRequest]]:
    """Every entry validated and built by the provider before anything is sent."""
    from ._batch_entries import built_entries

    provider = _provider_of(model)
    built = built_entries(model, provider, entries, kind)
    saved = [SavedRequest(custom_id=custom_id, request=text) for custom_id, text, _ in built]
    return provider, _Pending(model, kind, saved), [BatchRequest(c, spec) for c, _, spec in built]


def _submitted(pending: _Pending, state: BatchState) -> BatchJob:
    model = pending.model
    job = BatchJob(
        provider=model.provider.id,
        model=model.name,
        kind=pending.kind,
        requests=pending.saved,
        **state.model_dump(),
    )
    return job.bind(model)


def _fetched(model: Model, state: BatchState) -> BatchJob:
    """A job fetched by id: its requests are not known."""
    return _submitted(_Pending(model, "generate", []), state)


def _provider_of(model: Model) -> HttpProvider:
    from .http import HttpProvider

    provider = model.provider
    if not isinstance(provider, HttpProvider) or not provider.capabilities.batch:
        raise InvalidRequestError(f"provider {provider.id!r} has no batch API")
    return provider


def _check_time(started: float, delay: float, timeout: float | None, job: BatchJob) -> None:
    if timeout is not None and time.monotonic() - started + delay > timeout:
        raise DeadlineExceededError(
            f"batch {job.id!r} is still {job.raw_status} after {timeout} s (it goes on running)",
            provider=job.provider,
        )


def _streamed(provider: HttpProvider, found: Iterable[Any]) -> Iterator[BatchLine]:
    """The plugin's result lines, a :class:`BatchDownload` streamed line by line in its place."""
    for item in found:
        if isinstance(item, BatchDownload):
            for value in provider.call_lines(item.spec):
                yield from item.parse(value)
        else:
            yield item


def _decoded(job: BatchJob, model: Model, lines: Any) -> Iterator[BatchItem]:
    """Each result line decoded by the provider's own mapping, as a single call's answer."""
    provider = _provider_of(model)
    requests = {saved.custom_id: saved for saved in job.requests}
    decode = _embedding if job.kind == "embed" else _generation
    for line in lines:
        line = line if isinstance(line, BatchLine) else BatchLine(*line)
        if line.error is not None:
            yield BatchItem(line.custom_id, None, line.error)
            continue
        try:
            yield BatchItem(
                line.custom_id, decode(provider, model, requests.get(line.custom_id), line.data), None
            )
        except ModelportError as error:
            yield BatchItem(line.custom_id, None, error)


def _generation(provider: HttpProvider, model: Model, saved: SavedRequest | None, data: Any) -> Result:
    # A job fetched by id has no requests: its results decode as plain answers (a forced tool of
    # response_format is not known then).
    request = saved.parsed() if saved is not None else model._validate({"prompt": "-"}).request
    # Stamped as generate stamps its answer: a batch answer sent back as a turn keeps its origin (C5).
    return provider.decode_result(data, provider.prepare(model.name, request).wire)._stamped(model.origin, [])


def _embedding(
    provider: HttpProvider, model: Model, saved: SavedRequest | None, data: Any
) -> EmbeddingResult:
    from .provider import EmbedRequest

    request = saved.parsed_embedding() if saved is not None else EmbedRequest(values=("-",), single=True)
    (spec,) = provider.embed_requests(model.name, request)
    return provider.decode_embedding_result(request, spec, data)


def _ordered(job: BatchJob, items: Iterator[BatchItem]) -> BatchResults:
    by_id = {item.custom_id: item for item in items}
    if not job.requests:  # fetched by id: the provider's order
        return BatchResults(by_id.values())
    ordered = BatchResults()
    for saved in job.requests:
        item = by_id.pop(saved.custom_id, None)
        if item is None:
            reason = job.status if job.status in ("cancelled", "expired") else "missing"
            error = item_error(
                saved.custom_id,
                job.provider,
                reason,
                f"batch {job.id!r} has no result for {saved.custom_id!r} ({reason})",
            )
            item = BatchItem(saved.custom_id, None, error)
        ordered.append(item)
    return ordered
