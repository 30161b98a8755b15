"""``FallbackModel([primary, secondary, ...])``: the next model when one fails in a way another may not.

A call tries the models in order. It moves on only on an error that means "another model may
succeed": a retryable error (:attr:`~modelport.errors.ModelportError.retryable`: rate-limited,
overloaded, a server error, no connection, a time-out). Any other error (an invalid request, a
rejected credential, an exhausted quota, a passed deadline) surfaces at once. When every model failed,
the last model's error is raised.

Each model makes its own retries first (its ``max_retries``); pass ``max_retries=0`` to
:func:`modelport.get_model` to fall back at once. ``cooldown`` seconds after a model failed, calls try
it only after the others (a circuit breaker that never refuses a call). ``deadline`` bounds the whole
chain: every model's attempts, retries and waits.

A stream falls back only before its first event: once an event reached the caller, an error
surfaces with what had arrived (``error.partial``). The result says which model answered:
``result.origin`` (provider and model). Each model validates the request itself, so a history is
replayed to it under the ``reasoning_replay`` policy (:mod:`modelport.reasoning`) like any model change.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .._model import Model, ValidCall
from .._model.streams import AsyncResultStream, ResultStream
from ..deadlines import Deadline
from ..errors import ConfigurationError, InvalidRequestError, ModelportError

if TYPE_CHECKING:
    from ..events import StreamAccumulator, StreamEvent
    from ..provider import EmbedRequest
    from ..types import EmbeddingResult, Request, Result

__all__ = ["FallbackCall", "FallbackModel"]

_R = TypeVar("_R")

#: The clock of cool-downs (a test replaces it).
_now = time.monotonic


def _retryable(error: ModelportError) -> bool:
    return error.retryable


def _seconds(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and value > 0


class FallbackCall:
    """One call validated by every model of a fallback (``calls``, in order); ``request`` is the
    first model's (what a tool loop's step records)."""

    __slots__ = ("calls",)

    def __init__(self, calls: Sequence[ValidCall]) -> None:
        self.calls = list(calls)

    @property
    def request(self) -> Request:
        return self.calls[0].request

    @property
    def warnings(self) -> list[Any]:
        return self.calls[0].warnings

    @property
    def output(self) -> Any:
        return self.calls[0].output

    def _replace(self, **changes: Any) -> FallbackCall:
        """Every model's call with ``changes`` (a middleware's request goes to every model)."""
        return FallbackCall([call._replace(**changes) for call in self.calls])


class FallbackModel(Model):
    """Models tried in order on retryable errors; see the module's docstring.

    ``fall_back_on(error)`` decides which errors move on (default: ``error.retryable``).
    ``weights`` (one per model) spread calls over the healthy models instead of always starting
    with the first: each is tried first in proportion to its weight (``rng``: the
    :class:`random.Random` that draws, for a reproducible order).
    ``provider``, ``name`` and the retry policy are the first model's (what a tool loop reads).
    """

    def __init__(
        self,
        models: Sequence[Model],
        *,
        cooldown: float | None = None,
        deadline: float | None = None,
        fall_back_on: Callable[[ModelportError], bool] = _retryable,
        weights: Sequence[float] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        models = list(models)
        if not models or not all(isinstance(m, Model) for m in models):
            raise ConfigurationError(
                "FallbackModel needs a non-empty list of models (modelport.get_model(...))"
            )
        for name, value in (("cooldown", cooldown), ("deadline", deadline)):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0
            ):
                raise ConfigurationError(
                    f"FallbackModel {name} must be a positive number of seconds, got {value!r}"
                )
        if weights is not None and (len(weights) != len(models) or not all(_seconds(w) for w in weights)):
            raise ConfigurationError("FallbackModel weights must be one positive number per model")
        self.models = models
        self.weights = None if weights is None else [float(w) for w in weights]
        self._random = rng or random.Random()
        self.cooldown = cooldown
        self.deadline = deadline
        self.fall_back_on = fall_back_on
        first = models[0]
        self.provider = first.provider
        self.name = first.name
        self.retry_policy = first.retry_policy
        self._failed_at: dict[int, float] = {}
        self._lock = threading.Lock()

    @property
    def id(self) -> str:
        return "fallback:" + ",".join(model.id for model in self.models)

    def __repr__(self) -> str:
        return f"FallbackModel([{', '.join(repr(m) for m in self.models)}])"

    # Which model next --------------------------------------------------------------------------

    def order(self) -> list[int]:
        """The models' indexes in the order a call tries them now: the healthy in their order (with
        ``weights``: in a weighted random order), then those cooling down after a failure."""
        cooling: set[int] = set()
        if self.cooldown is not None:
            now = _now()
            with self._lock:
                cooling = {i for i, at in self._failed_at.items() if now - at < self.cooldown}
        healthy = [i for i in range(len(self.models)) if i not in cooling]
        if self.weights is not None:
            healthy = self._shuffled(healthy, self.weights)
        return healthy + sorted(cooling)

    def _shuffled(self, indexes: list[int], weights: list[float]) -> list[int]:
        """``indexes`` in a random order where each comes first in proportion to its weight
        (weighted sampling without replacement: Efraimidis and Spirakis' ``u ** (1 / w)`` keys)."""
        with self._lock:
            keys = {i: self._random.random() ** (1 / weights[i]) for i in indexes}
        return sorted(indexes, key=keys.__getitem__, reverse=True)

    def _failed(self, index: int, error: ModelportError) -> bool:
        """Whether to go on after ``error`` of model ``index`` (recording its failure if so)."""
        if not self.fall_back_on(error):
            return False
        with self._lock:
            self._failed_at[index] = _now()
        return True

    def _answered(self, index: int) -> None:
        with self._lock:
            self._failed_at.pop(index, None)

    # Validation: by every model, before any I/O -------------------------------------------------

    def _validate(self, kwargs: Mapping[str, Any]) -> FallbackCall:  # type: ignore[override]
        return FallbackCall([model._validate(kwargs) for model in self.models])

    def _calls(self, call: ValidCall | FallbackCall) -> list[ValidCall]:
        """Each model's call: its own, or one call (a middleware's) for every model."""
        return call.calls if isinstance(call, FallbackCall) else [call] * len(self.models)

    def _counted(self, kwargs: Mapping[str, Any]) -> Request:
        raise InvalidRequestError(
            "count_tokens of a FallbackModel: ask one of its models (fallback.models[i])"
        )

    # Calls ---------------------------------------------------------------------------------------

    def _chain(self, attempt: Callable[[int], _R]) -> _R:
        with Deadline.for_call(self.deadline).applied() as deadline:
            tries = _Tries(self, deadline)
            for index in tries:
                try:
                    answer = attempt(index)
                except ModelportError as error:
                    tries.failed(index, error)
                    continue
                self._answered(index)
                return answer
        raise tries.exhausted()

    async def _achain(self, attempt: Callable[[int], Awaitable[_R]]) -> _R:
        with Deadline.for_call(self.deadline).applied() as deadline:
            tries = _Tries(self, deadline)
            for index in tries:
                try:
                    answer = await attempt(index)
                except ModelportError as error:
                    tries.failed(index, error)
                    continue
                self._answered(index)
                return answer
        raise tries.exhausted()

    def _generate(self, call: ValidCall | FallbackCall) -> Result:  # type: ignore[override]
        calls, models = self._calls(call), self.models
        return self._chain(lambda i: models[i]._generate(calls[i]))

    async def _agenerate(self, call: ValidCall | FallbackCall) -> Result:  # type: ignore[override]
        calls, models = self._calls(call), self.models
        return await self._achain(lambda i: models[i]._agenerate(calls[i]))

    def _stream(self, call: ValidCall | FallbackCall) -> ResultStream:  # type: ignore[override]
        return _FallbackStream(self, self._calls(call))

    def _astream(self, call: ValidCall | FallbackCall) -> AsyncResultStream:  # type: ignore[override]
        return _AsyncFallbackStream(self, self._calls(call))

    def _embed(self, request: EmbedRequest) -> EmbeddingResult:
        models = self.models
        return self._chain(lambda i: models[i]._embed(request))

    async def _aembed(self, request: EmbedRequest) -> EmbeddingResult:
        models = self.models
        return await self._achain(lambda i: models[i]._aembed(request))

    def _batches_refused(self) -> InvalidRequestError:
        return InvalidRequestError("a FallbackModel has no batch service: submit to one of its models")

    def submit_batch(self, requests: Any) -> Any:
        raise self._batches_refused()

    def submit_embed_batch(self, requests: Any) -> Any:
        raise self._batches_refused()

    async def asubmit_batch(self, requests: Any) -> Any:
        raise self._batches_refused()

    async def asubmit_embed_batch(self, requests: Any) -> Any:
        raise self._batches_refused()

    def close(self) -> None:
        for model in self.models:
            model.close()

    async def aclose(self) -> None:
        for model in self.models:
            await model.aclose()


class _Tries:
    """One call's walk down the chain: the models in :meth:`FallbackModel.order`, the deadline
    checked before each next one, each failure recorded (``__context__`` links it to the one before,
    so a traceback shows every model's error)."""

    __slots__ = ("deadline", "last", "model")

    def __init__(self, model: FallbackModel, deadline: Deadline) -> None:
        self.model = model
        self.deadline = deadline
        self.last: ModelportError | None = None

    def __iter__(self) -> Iterator[int]:
        for index in self.model.order():
            if self.last is not None and self.deadline.expired():
                raise self.deadline.exceeded(self.model.models[index].provider.id) from self.last
            yield index

    def failed(self, index: int, error: ModelportError) -> None:
        """Go on after ``error`` of model ``index``, or raise it (an error no model may fix)."""
        if not self.model._failed(index, error):
            raise error
        if error.__context__ is None and self.last is not None:
            error.__context__ = self.last
        self.last = error

    def exhausted(self) -> ModelportError:
        """The error to raise when every model failed: the last one's."""
        assert self.last is not None
        return self.last


# Streams: the generators hold the model and a box for the answering stream's accumulator, never the
# stream object (see ``modelport._model.streams`` on cycles).


class _Box:
    __slots__ = ("accumulator", "opened")

    def __init__(self, accumulator: StreamAccumulator) -> None:
        self.accumulator = accumulator
        self.opened: list[Any] = []


class _Chained:
    """What both fallback streams hold: the calls, one per model, and the box whose accumulator is
    that of the first model that sent an event."""

    def __init__(self, model: FallbackModel, calls: list[ValidCall]) -> None:
        from ..events import StreamAccumulator

        self._model = model
        self._request = calls[0].request
        self._output = calls[0].output
        self._calls = calls
        self._box = _Box(StreamAccumulator(origin=None, warnings=calls[0].warnings))

    @property
    def accumulator(self) -> StreamAccumulator:
        return self._box.accumulator


class _FallbackStream(_Chained, ResultStream):  # type: ignore[misc,override]
    """The stream of the first model that sent an event; its accumulator is this one's."""

    def _run(self) -> Iterator[StreamEvent]:
        model = self._model
        assert isinstance(model, FallbackModel)
        return _events(model, self._calls, self._box)

    def close(self) -> None:
        super().close()
        for stream in self._box.opened:
            stream.close()


def _events(model: FallbackModel, calls: list[ValidCall], box: _Box) -> Iterator[StreamEvent]:
    deadline = Deadline.for_call(model.deadline)
    tries = _Tries(model, deadline)
    for index in tries:
        stream = model.models[index]._stream(calls[index])
        box.opened.append(stream)
        events = iter(stream)
        try:
            with deadline.applied():  # the stream reads it when it starts (its first event)
                first = next(events)
        except ModelportError as error:
            tries.failed(index, error)
            continue
        model._answered(index)
        box.accumulator = stream.accumulator
        yield first
        yield from events  # an error now surfaces, with what arrived
        return
    raise tries.exhausted()


class _AsyncFallbackStream(_Chained, AsyncResultStream):  # type: ignore[misc,override]
    """Async twin of :class:`_FallbackStream`."""

    def _run(self) -> AsyncIterator[StreamEvent]:
        model = self._model
        assert isinstance(model, FallbackModel)
        return _aevents(model, self._calls, self._box)

    async def aclose(self) -> None:
        await super().aclose()
        for stream in self._box.opened:
            await stream.aclose()


async def _aevents(model: FallbackModel, calls: list[ValidCall], box: _Box) -> AsyncIterator[StreamEvent]:
    deadline = Deadline.for_call(model.deadline)
    tries = _Tries(model, deadline)
    for index in tries:
        stream = model.models[index]._astream(calls[index])
        box.opened.append(stream)
        events = stream.__aiter__()
        try:
            with deadline.applied():
                first = await events.__anext__()
        except ModelportError as error:
            tries.failed(index, error)
            continue
        model._answered(index)
        box.accumulator = stream.accumulator
        yield first
        async for event in events:
            yield event
        return
    raise tries.exhausted()
