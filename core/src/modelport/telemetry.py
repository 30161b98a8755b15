"""OpenTelemetry spans and metrics for modelport calls (the optional ``modelport[otel]`` extra).

Every ``generate``, ``stream`` and ``embed`` call (and their async twins) becomes one ``CLIENT`` span
named ``"{operation} {model}"`` that follows the OpenTelemetry GenAI semantic conventions, and feeds
the two GenAI client metrics (``gen_ai.client.token.usage`` and ``gen_ai.client.operation.duration``).
A stream's span covers the whole stream: it ends when the stream finishes, fails, or is closed.

Tracing is on when a tracer (or meter) provider is configured, either globally
(``opentelemetry.trace.set_tracer_provider(...)``, or ``OTEL_PYTHON_TRACER_PROVIDER``) or for
modelport alone with :func:`instrument`. :func:`modelport.get_model` decides once per model, when it
makes one: while tracing is on it makes an :class:`InstrumentedModel` (the model with spans around
its calls, as pydantic-ai's instrumented model wraps a model); otherwise a plain model, whose calls
check nothing. A model made before tracing was turned on is traced after :func:`instrument_model`.
This module imports no OpenTelemetry package unless the application already did.

Span attributes (when known): ``gen_ai.operation.name`` (``chat`` or ``embeddings``),
``gen_ai.provider.name`` (``gcp.gemini``, ``gcp.vertex_ai``, ``openai``, ``groq``, ``deepseek``,
``mistral_ai``, ``x_ai``, else the modelport provider id), ``gen_ai.request.model``, the request
parameters (``gen_ai.request.max_tokens``, ``temperature``, ``top_p``, ``top_k``, ``stop_sequences``,
``seed``, ``presence_penalty``, ``frequency_penalty``), ``gen_ai.request.stream``,
``gen_ai.output.type``, ``gen_ai.response.model``, ``gen_ai.response.id``,
``gen_ai.response.finish_reasons``, ``gen_ai.usage.input_tokens`` / ``output_tokens`` (every token
billed, as :class:`~modelport.types.Usage` counts them; and ``cache_read.input_tokens``,
``cache_creation.input_tokens``, ``reasoning.output_tokens``), ``server.address`` / ``server.port``,
``error.type`` on failure (with the span status set to error), and modelport's own:
``modelport.provider`` (the provider id), ``modelport.provider_tools`` (the ids of the provider
tools requested, e.g. ``google.google_search``), ``modelport.sources`` (how many numbered
sources the answer cites, :attr:`Result.sources <modelport.types.Result.sources>`) and
``modelport.server_tool_calls`` (how many times the provider ran its own tools, e.g. Gemini's search
queries: :attr:`Usage.server_tool_calls <modelport.types.Usage.server_tool_calls>`). Each retry is
a span event ``modelport.retry`` with ``modelport.retry.attempt``, ``modelport.retry.delay``
(seconds), ``modelport.retry.reason`` and ``error.type``.

Prompt and answer content is recorded only when asked for, with :func:`capture_content` or the
environment variable ``MODELPORT_OTEL_CAPTURE_CONTENT=1`` (the convention's
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`` works too): then the span carries
``gen_ai.system_instructions``, ``gen_ai.input.messages`` and ``gen_ai.output.messages`` as JSON
(inline file bytes are never recorded, only their media type).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ._model import Model, ValidCall
from ._model.streams import AsyncResultStream, ResultStream
from ._runtime.genai_attributes import as_json, content_attributes, request_attributes, usage_attributes
from ._runtime.otel import (
    _active,
    _Call,
    capture_content,
    capturing_content,
    enabled,
    instrument,
    uninstrument,
)
from ._runtime.otel import _state as _state  # instrument()'s providers (tests read them)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .events import StreamAccumulator, StreamEvent
    from .provider import EmbedRequest
    from .types import EmbeddingResult, Request, RequestKeywords, Result

__all__ = [
    "InstrumentedModel",
    "capture_content",
    "capturing_content",
    "enabled",
    "instrument",
    "instrument_model",
    "uninstrument",
]


def _chat_attributes(request: Request, *, stream: bool) -> dict[str, Any]:
    attributes = request_attributes(request, stream=stream)
    if capturing_content():
        attributes.update(content_attributes(request))
    return attributes


def _embed_attributes(request: EmbedRequest) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    if request.output_dimensionality is not None:
        attributes["gen_ai.embeddings.dimension.count"] = request.output_dimensionality
    if capturing_content():
        attributes["gen_ai.input.messages"] = as_json(
            [{"role": "user", "parts": [{"type": "text", "content": v}]} for v in request.values]
        )
    return attributes


def _embedding_result(call: _Call, result: EmbeddingResult) -> None:
    attributes = usage_attributes(result.usage)
    if result.model_version:
        attributes["gen_ai.response.model"] = result.model_version
    if result.embeddings and "gen_ai.embeddings.dimension.count" not in call.common:
        attributes["gen_ai.embeddings.dimension.count"] = result.dimensions()
    call.succeeded(attributes, result.usage, result.model_version)


class InstrumentedModel(Model):
    """A :class:`~modelport.Model` whose calls are spans and metrics (as pydantic-ai's instrumented
    model wraps a model): what :func:`modelport.get_model` makes while :func:`enabled`, decided once
    per model. The calls themselves are :class:`~modelport.Model`'s; a plain model pays nothing."""

    def generate(self, **kwargs: Unpack[RequestKeywords]) -> Result:
        return self._generate(self._validate_traced(kwargs))

    async def agenerate(self, **kwargs: Unpack[RequestKeywords]) -> Result:
        return await self._agenerate(self._validate_traced(kwargs))

    def _validate_traced(self, kwargs: Mapping[str, Any]) -> ValidCall:
        """The validated call; a refused request is a span of its own, failed at once."""
        try:
            return self._validate(kwargs)
        except BaseException as error:
            _Call(self.provider, self.name, "chat", {}).failed(error)
            raise

    def _generate(self, call: ValidCall) -> Result:
        span = _Call(self.provider, self.name, "chat", _chat_attributes(call.request, stream=False))
        with _active(span):
            result = super()._generate(call)
        span.result(result)
        return result

    async def _agenerate(self, call: ValidCall) -> Result:
        span = _Call(self.provider, self.name, "chat", _chat_attributes(call.request, stream=False))
        with _active(span):
            result = await super()._agenerate(call)
        span.result(result)
        return result

    def _stream_type(self) -> type[ResultStream]:
        return _TracedStream

    def _astream_type(self) -> type[AsyncResultStream]:
        return _TracedAsyncStream

    def _embed(self, request: EmbedRequest) -> EmbeddingResult:
        span = _Call(self.provider, self.name, "embeddings", _embed_attributes(request))
        with _active(span):
            result = super()._embed(request)
        _embedding_result(span, result)
        return result

    async def _aembed(self, request: EmbedRequest) -> EmbeddingResult:
        span = _Call(self.provider, self.name, "embeddings", _embed_attributes(request))
        with _active(span):
            result = await super()._aembed(request)
        _embedding_result(span, result)
        return result


def instrument_model(model: Model) -> Model:
    """``model`` with its calls traced: for a model made before telemetry was on (``get_model``
    decides once, when it makes one). The two share the provider and its clients."""
    if isinstance(model, InstrumentedModel):
        return model
    return InstrumentedModel(model.provider, model.name)


class _TracedStream(ResultStream):
    def _run(self) -> Iterator[StreamEvent]:
        return _traced(self, super()._run())


class _TracedAsyncStream(AsyncResultStream):
    def _run(self) -> AsyncIterator[StreamEvent]:
        return _atraced(self, super()._run())


def _stream_end(call: _Call, accumulator: StreamAccumulator, error: BaseException | None) -> None:
    if error is not None:
        partial = accumulator.snapshot() if accumulator.events else None
        call.failed(error, _partial_attributes(partial))
    elif accumulator.finished:
        call.result(accumulator.result())
    else:  # closed (or abandoned) before the end: not an error, but no final answer either
        partial = accumulator.snapshot()
        attributes = _partial_attributes(partial)
        attributes["modelport.stream.closed"] = True
        call.succeeded(attributes, None, partial.model_version)


def _partial_attributes(partial: Result | None) -> dict[str, Any]:
    if partial is None:
        return {}
    attributes: dict[str, Any] = {}
    if partial.model_version:
        attributes["gen_ai.response.model"] = partial.model_version
    if partial.response_id:
        attributes["gen_ai.response.id"] = partial.response_id
    return attributes


def _traced(owner: ResultStream, events: Iterator[StreamEvent]) -> Iterator[StreamEvent]:
    """``events`` (the stream's own iterator) inside a ``chat`` span that ends with the stream."""
    call = _Call(
        owner._model.provider, owner._model.name, "chat", _chat_attributes(owner._request, stream=True)
    )
    owner._attempts.telemetry = call
    # The generator holds the accumulator, not ``owner``: ``owner`` holds the generator, and a cycle
    # would leave an abandoned stream to the garbage collector (see ``_model.streams``).
    return _stream(call, owner.accumulator, events)


def _stream(
    call: _Call, accumulator: StreamAccumulator, events: Iterator[StreamEvent]
) -> Iterator[StreamEvent]:
    error: BaseException | None = None
    try:
        yield from events
    except GeneratorExit:
        raise
    except BaseException as raised:
        error = raised
        raise
    finally:
        _stream_end(call, accumulator, error)


def _atraced(owner: AsyncResultStream, events: AsyncIterator[StreamEvent]) -> AsyncIterator[StreamEvent]:
    """Async twin of :func:`_traced`."""
    call = _Call(
        owner._model.provider, owner._model.name, "chat", _chat_attributes(owner._request, stream=True)
    )
    owner._attempts.telemetry = call
    return _astream(call, owner.accumulator, events)


async def _astream(
    call: _Call, accumulator: StreamAccumulator, events: AsyncIterator[StreamEvent]
) -> AsyncIterator[StreamEvent]:
    error: BaseException | None = None
    try:
        async for event in events:
            yield event
    except GeneratorExit:
        raise
    except BaseException as raised:
        error = raised
        raise
    finally:
        aclose = getattr(events, "aclose", None)
        if aclose is not None:
            await aclose()
        _stream_end(call, accumulator, error)
