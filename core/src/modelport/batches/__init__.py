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

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, Union

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError

from .._runtime import retry as _retry
from ..errors import (
    ConfigurationError,
    DeadlineExceededError,
    InvalidRequestError,
    validation_message,
)
from ..http.batch_records import (
    MAX_COUNT,
    TERMINAL_STATUSES,
    BatchCounts,
    BatchDownload,
    BatchLine,
    BatchRequest,
    BatchState,
    BatchStatus,
    BatchValues,
    SpooledFile,
    count,
    downloads,
    item_error,
    jsonl_lines,
    spooled_upload,
    timestamp,
)
from ._results import BatchItem, BatchResults
from .records import BatchKind, BatchModel, SavedRequest

if TYPE_CHECKING:
    from ..http import HttpProvider

__all__ = [
    "BatchCounts",
    "BatchDownload",
    "BatchEntry",
    "BatchItem",
    "BatchJob",
    "BatchKind",
    "BatchModel",
    "BatchLine",
    "BatchRequest",
    "BatchResults",
    "BatchState",
    "BatchStatus",
    "BatchValues",
    "EmbedEntry",
    "MAX_COUNT",
    "SavedRequest",
    "SpooledFile",
    "TERMINAL_STATUSES",
    "count",
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


class BatchJob(BaseModel):
    """A batch on a provider's batch service, as last seen (``refresh()`` asks again).

    Saved with ``model_dump_json()`` and brought back with :func:`modelport.restore_batch`.
    ``status`` is one of :data:`BatchStatus`; ``raw_status`` is the provider's own word for it.
    ``connection`` is what reaches the same server again (the base URL and the provider options
    that matter, never a credential): a restored job goes there, never to a default host.
    ``provider_data`` and ``raw_status`` are kept scrubbed of the provider's credentials.
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
    connection: dict[str, Any] = {}
    requests: list[SavedRequest] = []

    _bound: BatchModel | None = PrivateAttr(default=None)

    @classmethod
    def restored(cls, saved: str | bytes | Mapping[str, Any]) -> BatchJob:
        """The job saved as ``saved`` (its JSON text, or its ``model_dump()``), bound to no model;
        a damaged one is an :class:`~modelport.errors.InvalidRequestError` saying what is wrong
        (never the values: a saved job may hold private prompts)."""
        try:
            if isinstance(saved, Mapping):
                return cls.model_validate(saved)
            if isinstance(saved, (str, bytes)):
                return cls.model_validate_json(saved)
        except ValidationError as error:
            raise InvalidRequestError(
                f"not a saved batch job: {validation_message(error, root='job', limit=3)}"
            ) from None
        except (RecursionError, ValueError) as error:
            raise InvalidRequestError(f"not a saved batch job: {type(error).__name__}") from None
        raise InvalidRequestError(f"not a saved batch job: a {type(saved).__name__}")

    def connection_options(self, saved_options: Iterable[str]) -> dict[str, Any]:
        """``get_model`` keywords that reach the server the job was submitted to (its
        ``connection``); a name other than ``base_url`` and the provider's ``saved_options`` is an
        ``InvalidRequestError``."""
        kept = {"base_url", *saved_options}
        unknown = sorted(set(self.connection) - kept)
        if unknown:
            raise InvalidRequestError(f"batch {self.id!r}: its connection cannot set {unknown[:3]}")
        return dict(self.connection)

    @property
    def done(self) -> bool:
        """Whether the batch has ended (succeeded, failed, cancelled or expired)."""
        return self.status in TERMINAL_STATUSES

    def bind(self, model: BatchModel) -> BatchJob:
        """Use ``model`` (the same provider and model) for this job's requests; returns the job."""
        if model.provider.id != self.provider or model.name != self.model:
            raise InvalidRequestError(
                f"batch {self.id!r} belongs to {self.provider}/{self.model}, not {model.id}"
            )
        self._bound = model
        return self

    def _model(self) -> BatchModel:
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
        return self._update(_state(provider, _ran(provider, lambda: provider.batch_get(self.id))))

    def cancel(self) -> BatchJob:
        """Ask the provider to cancel the batch (requests already done keep their results)."""
        provider = _provider_of(self._model())
        return self._update(_state(provider, _ran(provider, lambda: provider.batch_cancel(self.id))))

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
        """The results in the order the provider gives them, decoded one by one (a line that cannot
        be read is that request's typed error; the lines after it still arrive). A batch that has
        not ended is an :class:`~modelport.errors.InvalidRequestError` (``refresh()`` or ``wait()``)."""
        from ._results import decoded, lines

        model = self._model()
        provider = _provider_of(model)
        self._check_ended()
        found = _ran(provider, lambda: provider.batch_results(self._state()))
        return decoded(self, model, provider, lines(provider, found))

    def results(self) -> BatchResults:
        """One item per request, in the order the requests were given (see :class:`BatchResults`);
        a request the provider gave no result for is a :class:`~modelport.errors.BatchItemNotRunError`;
        a second result for a request, a result for no request of the job and a results line naming
        no request are typed errors too (after the requests' items)."""
        from ._results import ordered

        return ordered(self, self.iter_results())

    def _check_ended(self) -> None:
        if not self.done:
            raise InvalidRequestError(
                f"batch {self.id!r} has not ended ({self.status}: {self.raw_status}): its results come "
                "once it ends (job.refresh() asks again, job.wait() polls)"
            )

    # Async -----------------------------------------------------------------------------------

    async def arefresh(self) -> BatchJob:
        """Async twin of :meth:`refresh`."""
        provider = _provider_of(self._model())
        return self._update(_state(provider, await _aran(provider, lambda: provider.batch_get(self.id))))

    async def acancel(self) -> BatchJob:
        """Async twin of :meth:`cancel`."""
        provider = _provider_of(self._model())
        return self._update(_state(provider, await _aran(provider, lambda: provider.batch_cancel(self.id))))

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
        from ._results import adecoded_lines, decoded, ordered

        model = self._model()
        provider = _provider_of(model)
        self._check_ended()
        found = await _aran(provider, lambda: provider.batch_results(self._state()))
        return ordered(self, decoded(self, model, provider, await adecoded_lines(provider, found)))

    def _state(self) -> BatchState:
        """The provider's side of the job: its :class:`BatchState` fields."""
        return BatchState(**{name: getattr(self, name) for name in BatchState.model_fields})


# What ``Model.submit_batch`` and friends do -------------------------------------------------------


class _Pending(NamedTuple):
    """A batch built and not yet sent: what ``_submitted`` turns into a job once the provider took it."""

    model: BatchModel
    kind: BatchKind
    saved: list[SavedRequest]


def _prepared(
    model: BatchModel, entries: Sequence[Any], kind: BatchKind
) -> tuple[HttpProvider, _Pending, list[BatchRequest]]:
    """Every entry validated and built by the provider before anything is sent."""
    from ._entries import built_entries

    provider = _provider_of(model)
    built = built_entries(model, provider, entries, kind)
    saved = [SavedRequest(custom_id=custom_id, request=text) for custom_id, text, _ in built]
    return provider, _Pending(model, kind, saved), [BatchRequest(c, spec) for c, _, spec in built]


def _submitted(pending: _Pending, state: BatchState) -> BatchJob:
    model = pending.model
    provider = _provider_of(model)
    job = BatchJob(
        provider=model.provider.id,
        model=model.name,
        kind=pending.kind,
        requests=pending.saved,
        connection=provider.saved_connection(),
        **dict(_state(provider, state)),
    )
    return job.bind(model)


def _ran(provider: HttpProvider, steps: Callable[[], Any]) -> Any:
    """A batch hook's operation run, under the decoder guard (a bare Python error from a batch
    object of an unexpected shape is a typed :class:`~modelport.errors.ProviderResponseError`)."""
    from ..http import DECODE_ERRORS

    try:
        return provider.operation(steps).run()
    except DECODE_ERRORS as error:
        raise provider.decode_error(error) from error


async def _aran(provider: HttpProvider, steps: Callable[[], Any]) -> Any:
    """Async twin of :func:`_ran`."""
    from ..http import DECODE_ERRORS

    try:
        return await provider.operation(steps)
    except DECODE_ERRORS as error:
        raise provider.decode_error(error) from error


def _state(provider: HttpProvider, state: Any) -> BatchState:
    """The plugin's :class:`BatchState`, its ``provider_data`` and ``raw_status`` scrubbed of the
    provider's credentials by value (a server may echo the key in a batch object)."""
    from ..errors import ProviderResponseError
    from ..secrets import redact, redact_data

    if not isinstance(state, BatchState):
        raise ProviderResponseError("the batch hook gave no BatchState", provider=provider.name)
    secrets = provider.endpoint().secrets
    return state.model_copy(
        update={
            "provider_data": redact_data(state.provider_data, secrets),
            "raw_status": redact(state.raw_status, secrets),
        }
    )


def _fetched(model: BatchModel, state: BatchState) -> BatchJob:
    """A job fetched by id: its requests are not known."""
    return _submitted(_Pending(model, "generate", []), state)


def _provider_of(model: BatchModel) -> HttpProvider:
    from ..http import HttpProvider

    provider = model.provider
    if not isinstance(provider, HttpProvider) or not provider.capabilities.batch:
        why = provider.unsupported_reasons.get("batch")
        raise InvalidRequestError(f"provider {provider.id!r} has no batch API" + (f": {why}" if why else ""))
    return provider


def _check_time(started: float, delay: float, timeout: float | None, job: BatchJob) -> None:
    if timeout is not None and time.monotonic() - started + delay > timeout:
        raise DeadlineExceededError(
            f"batch {job.id!r} is still {job.raw_status} after {timeout} s (it goes on running)",
            provider=job.provider,
        )
