"""``Model``: a provider bound to a model name, with validation, retries and stream bookkeeping."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any, TypeVar

from pydantic import ValidationError

from .errors import (
    InvalidRequestError,
    ModelportError,
    ProviderError,
    StreamInterruptedError,
)
from .events import ErrorEvent, FinishEvent, StreamAccumulator, StreamEvent, StreamStartEvent
from .provider import EmbedRequest, Provider
from .provider_tools import validate_provider_tools
from .types import EmbeddingResult, ProviderTool, Request, Result

__all__ = ["AsyncResultStream", "Model", "ResultStream", "build_request"]

T = TypeVar("T")

#: Test seam: how retries wait.
sleep: Callable[[float], None] = time.sleep
async_sleep: Callable[[float], Any] = asyncio.sleep


def build_request(kwargs: dict[str, Any]) -> Request:
    """Validate request keywords into a :class:`Request`, or raise :class:`InvalidRequestError`."""
    try:
        return Request.model_validate(kwargs)
    except ValidationError as error:
        problems = []
        for item in error.errors(include_url=False, include_input=False):
            where = ".".join(str(x) for x in item["loc"]) or "request"
            problems.append(f"{where}: {item['msg']}")
        raise InvalidRequestError("invalid request: " + "; ".join(problems)) from None


def _embed_request(
    values: str | Sequence[str],
    output_dimensionality: int | None,
    task_type: str | None,
    provider_options: dict[str, dict[str, Any]] | None,
) -> EmbedRequest:
    single = isinstance(values, str)
    items = (values,) if isinstance(values, str) else tuple(values)
    if not items:
        raise InvalidRequestError("embed needs at least one value")
    if not all(isinstance(v, str) for v in items):
        raise InvalidRequestError("embed values must be strings")
    if output_dimensionality is not None and (
        not isinstance(output_dimensionality, int) or output_dimensionality <= 0
    ):
        raise InvalidRequestError("output_dimensionality must be a positive integer")
    return EmbedRequest(
        values=items,
        single=single,
        output_dimensionality=output_dimensionality,
        task_type=task_type,
        provider_options=provider_options or {},
    )


class Model:
    """A provider bound to one model name. Create it with :func:`modelport.get_model`."""

    def __init__(self, provider: Provider, model_name: str) -> None:
        self.provider = provider
        self.name = model_name
        self._policy = provider.config
        from ._retry import RetryPolicy

        self.retry_policy = RetryPolicy(
            max_retries=provider.config.max_retries, max_delay=provider.config.max_retry_delay
        )

    @property
    def id(self) -> str:
        """``provider/model`` as given to :func:`modelport.get_model`."""
        return f"{self.provider.id}/{self.name}"

    def __repr__(self) -> str:
        return f"Model({self.id!r})"

    # Validation ------------------------------------------------------------------------------

    def prepare(self, **kwargs: Any) -> Request:
        """Build and fully validate a request without sending it."""
        request = build_request(kwargs)
        provider = self.provider
        provider_tools = [t for t in request.tools or [] if isinstance(t, ProviderTool)]
        if provider_tools:
            validate_provider_tools(
                provider_tools, namespace=provider.tool_namespace, backend=provider.backend
            )
        provider.check_request(self.name, request)
        return request

    # Sync ------------------------------------------------------------------------------------

    def generate(self, **kwargs: Any) -> Result:
        """Generate a complete result. Keywords are those of :class:`~modelport.types.Request`."""
        request = self.prepare(**kwargs)
        attempt = 0
        while True:
            try:
                return self.provider.generate(self.name, request)
            except ModelportError as error:
                delay = self.retry_policy.delay(error, attempt)
                if delay is None:
                    raise
                attempt += 1
                sleep(delay)

    def stream(self, **kwargs: Any) -> ResultStream:
        """Stream events; iterate the returned :class:`ResultStream`, or call ``.result()``."""
        request = self.prepare(**kwargs)
        return ResultStream(self, request)

    def embed(
        self,
        values: str | Sequence[str],
        *,
        output_dimensionality: int | None = None,
        task_type: str | None = None,
        provider_options: dict[str, dict[str, Any]] | None = None,
    ) -> EmbeddingResult:
        """Embed one value or a batch; embeddings come back in input order."""
        request = _embed_request(values, output_dimensionality, task_type, provider_options)
        attempt = 0
        while True:
            try:
                return self.provider.embed(self.name, request)
            except ModelportError as error:
                delay = self.retry_policy.delay(error, attempt)
                if delay is None:
                    raise
                attempt += 1
                sleep(delay)

    # Async -----------------------------------------------------------------------------------

    async def agenerate(self, **kwargs: Any) -> Result:
        """Async twin of :meth:`generate`."""
        request = self.prepare(**kwargs)
        attempt = 0
        while True:
            try:
                return await self.provider.agenerate(self.name, request)
            except ModelportError as error:
                delay = self.retry_policy.delay(error, attempt)
                if delay is None:
                    raise
                attempt += 1
                await async_sleep(delay)

    def astream(self, **kwargs: Any) -> AsyncResultStream:
        """Async twin of :meth:`stream`."""
        request = self.prepare(**kwargs)
        return AsyncResultStream(self, request)

    async def aembed(
        self,
        values: str | Sequence[str],
        *,
        output_dimensionality: int | None = None,
        task_type: str | None = None,
        provider_options: dict[str, dict[str, Any]] | None = None,
    ) -> EmbeddingResult:
        """Async twin of :meth:`embed`."""
        request = _embed_request(values, output_dimensionality, task_type, provider_options)
        attempt = 0
        while True:
            try:
                return await self.provider.aembed(self.name, request)
            except ModelportError as error:
                delay = self.retry_policy.delay(error, attempt)
                if delay is None:
                    raise
                attempt += 1
                await async_sleep(delay)

    def close(self) -> None:
        """Close the HTTP clients the provider created."""
        self.provider.close()

    async def aclose(self) -> None:
        """Close the HTTP clients the provider created (async)."""
        await self.provider.aclose()


def _attach_partial(error: BaseException, acc: StreamAccumulator) -> BaseException:
    if isinstance(error, ProviderError) and error.partial is None and acc.events:
        error.partial = acc.snapshot()
    return error


def _unfinished(model: Model, acc: StreamAccumulator) -> StreamInterruptedError:
    return StreamInterruptedError(
        "the stream ended without a finish event",
        provider=model.provider.id,
        partial=acc.snapshot(),
    )


class ResultStream:
    """An iterator of :data:`~modelport.events.StreamEvent` that also accumulates the :class:`Result`.

    A retryable error is retried only while no event has been handed to the caller (the leading
    ``stream-start`` is held back until something else arrives). An error after that is raised
    with ``partial`` set to everything that had arrived.
    """

    def __init__(self, model: Model, request: Request) -> None:
        self._model = model
        self._request = request
        self.accumulator = StreamAccumulator()
        self._iterator: Iterator[StreamEvent] | None = None

    def __iter__(self) -> Iterator[StreamEvent]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    def _run(self) -> Iterator[StreamEvent]:
        model, acc = self._model, self.accumulator
        attempt = 0
        while True:
            held: StreamEvent | None = None
            yielded = False
            try:
                for event in model.provider.stream(model.name, self._request):
                    if not yielded and held is None and isinstance(event, StreamStartEvent):
                        held = event
                        continue
                    if held is not None:
                        acc.add(held)
                        yield held
                        held = None
                    yielded = True
                    if isinstance(event, ErrorEvent):
                        continue
                    acc.add(event)
                    yield event
                    if isinstance(event, FinishEvent):
                        return
            except ModelportError as error:
                delay = None if yielded else model.retry_policy.delay(error, attempt)
                if delay is None:
                    raise _attach_partial(error, acc) from error.__cause__
                attempt += 1
                sleep(delay)
                continue
            if held is not None:
                acc.add(held)
                yield held
            raise _unfinished(model, acc)

    def result(self) -> Result:
        """Consume what is left and return the accumulated result."""
        for _ in self:
            pass
        return self.accumulator.result()


class AsyncResultStream:
    """Async twin of :class:`ResultStream`."""

    def __init__(self, model: Model, request: Request) -> None:
        self._model = model
        self._request = request
        self.accumulator = StreamAccumulator()
        self._iterator: AsyncIterator[StreamEvent] | None = None

    def __aiter__(self) -> AsyncIterator[StreamEvent]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    async def _run(self) -> AsyncIterator[StreamEvent]:
        model, acc = self._model, self.accumulator
        attempt = 0
        while True:
            held: StreamEvent | None = None
            yielded = False
            try:
                async for event in model.provider.astream(model.name, self._request):
                    if not yielded and held is None and isinstance(event, StreamStartEvent):
                        held = event
                        continue
                    if held is not None:
                        acc.add(held)
                        yield held
                        held = None
                    yielded = True
                    if isinstance(event, ErrorEvent):
                        continue
                    acc.add(event)
                    yield event
                    if isinstance(event, FinishEvent):
                        return
            except ModelportError as error:
                delay = None if yielded else model.retry_policy.delay(error, attempt)
                if delay is None:
                    raise _attach_partial(error, acc) from error.__cause__
                attempt += 1
                await async_sleep(delay)
                continue
            if held is not None:
                acc.add(held)
                yield held
            raise _unfinished(model, acc)

    async def result(self) -> Result:
        """Consume what is left and return the accumulated result."""
        async for _ in self:
            pass
        return self.accumulator.result()
