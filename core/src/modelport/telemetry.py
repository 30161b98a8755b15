"""OpenTelemetry spans and metrics for modelport calls (the optional ``modelport[otel]`` extra).

Every ``generate``, ``stream`` and ``embed`` call (and their async twins) becomes one ``CLIENT`` span
named ``"{operation} {model}"`` that follows the OpenTelemetry GenAI semantic conventions, and feeds
the two GenAI client metrics (``gen_ai.client.token.usage`` and ``gen_ai.client.operation.duration``).
A stream's span covers the whole stream: it ends when the stream finishes, fails, or is closed.

Tracing is on when a tracer (or meter) provider is configured, either globally
(``opentelemetry.trace.set_tracer_provider(...)``, or ``OTEL_PYTHON_TRACER_PROVIDER``) or for
modelport alone with :func:`instrument`. Otherwise nothing happens at all: this module imports no
OpenTelemetry package unless the application already did, and a call pays one dictionary lookup.

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
tools requested, e.g. ``google.google_search``), ``modelport.search_queries`` (how many web searches
grounding ran) and ``modelport.sources`` (how many numbered sources the answer cites). Each retry is
a span event ``modelport.retry`` with ``modelport.retry.attempt``, ``modelport.retry.delay``
(seconds), ``modelport.retry.reason`` and ``error.type``.

Prompt and answer content is recorded only when asked for, with :func:`capture_content` or the
environment variable ``MODELPORT_OTEL_CAPTURE_CONTENT=1`` (the convention's
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`` works too): then the span carries
``gen_ai.system_instructions``, ``gen_ai.input.messages`` and ``gen_ai.output.messages`` as JSON
(inline file bytes are never recorded, only their media type).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ._genai_attributes import (
    as_json,
    content_attributes,
    error_type,
    number,
    request_attributes,
    result_attributes,
    retry_attributes,
    server,
    usage_attributes,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable

    from ._model import Model
    from ._streams import AsyncResultStream, ResultStream
    from .events import StreamAccumulator, StreamEvent
    from .types import EmbeddingResult, Request, Result

__all__ = ["capture_content", "capturing_content", "enabled", "instrument", "uninstrument"]

_modules = sys.modules

#: Instrumentation scope name of the tracer and the meter.
SCOPE = "modelport"

#: The bucket boundaries the GenAI conventions advise for the two histograms.
TOKEN_BUCKETS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864)
DURATION_BUCKETS = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92)


class _State:
    explicit = False  # instrument() was called
    tracer_provider: Any = None  # None: the global one
    meter_provider: Any = None
    capture: bool | None = None  # None: from the environment
    key: tuple[int, int] | None = None
    instruments: tuple[Any, Any, Any] | None = None  # tracer, token histogram, duration histogram


_state = _State()
_ENV_PROVIDERS = (
    "OTEL_PYTHON_TRACER_PROVIDER" in os.environ,
    "OTEL_PYTHON_METER_PROVIDER" in os.environ,
)


# Public API ------------------------------------------------------------------------------------


def instrument(*, tracer_provider: Any = None, meter_provider: Any = None) -> None:
    """Trace modelport calls with these providers (``None``: the global one), even when no global
    provider is set. Undo with :func:`uninstrument`. Needs ``opentelemetry-api`` (``modelport[otel]``).
    """
    from opentelemetry import metrics, trace  # noqa: F401  (without the extra: an ImportError here)

    _state.explicit = True
    _state.tracer_provider = tracer_provider
    _state.meter_provider = meter_provider
    _state.key = None
    _state.instruments = None


def uninstrument() -> None:
    """Undo :func:`instrument`: calls are traced again only when a global provider is configured."""
    _state.explicit = False
    _state.tracer_provider = _state.meter_provider = None
    _state.key = None
    _state.instruments = None


def capture_content(capture: bool | None = True) -> None:
    """Record prompts and answers on spans (``True``), never (``False``), or as the environment says
    (``None``: ``MODELPORT_OTEL_CAPTURE_CONTENT=1``). Off by default: content may be sensitive."""
    _state.capture = capture


def capturing_content() -> bool:
    """Whether prompts and answers are recorded on spans now."""
    if _state.capture is not None:
        return _state.capture
    flag = os.environ.get("MODELPORT_OTEL_CAPTURE_CONTENT", "").strip().lower()
    if not flag:
        flag = os.environ.get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "").strip().lower()
    return flag in ("1", "true", "yes", "on")


def enabled() -> bool:
    """Whether modelport calls are traced now: :func:`instrument` was called, or a global tracer or
    meter provider other than the no-op one is configured. Imports nothing the application did not."""
    if _state.explicit:
        return True
    if _modules.get("opentelemetry") is None:
        return False
    trace = _modules.get("opentelemetry.trace")
    if trace is not None and _configured(trace, "_TRACER_PROVIDER", "get_tracer_provider", _ENV_PROVIDERS[0]):
        return True
    metrics = _modules.get("opentelemetry.metrics._internal")
    return metrics is not None and _configured(
        metrics, "_METER_PROVIDER", "get_meter_provider", _ENV_PROVIDERS[1]
    )


def _configured(module: Any, attribute: str, getter: str, from_env: bool) -> bool:
    provider = getattr(module, attribute, None)
    if provider is None:
        if not from_env and hasattr(module, attribute):
            return False
        provider = getattr(module, getter)()  # loads a provider named in the environment
        if type(provider).__name__.startswith("_Proxy") or type(provider).__name__.startswith("Proxy"):
            return False
    return not type(provider).__name__.startswith("NoOp")


# Instruments -----------------------------------------------------------------------------------


def _instruments() -> tuple[Any, Any, Any]:
    from opentelemetry import metrics, trace

    tracer_provider = _state.tracer_provider or trace.get_tracer_provider()
    meter_provider = _state.meter_provider or metrics.get_meter_provider()
    key = (id(tracer_provider), id(meter_provider))
    if _state.key == key and _state.instruments is not None:
        return _state.instruments
    from . import __version__

    tracer = tracer_provider.get_tracer(SCOPE, __version__)
    meter = meter_provider.get_meter(SCOPE, __version__)
    tokens = _histogram(
        meter,
        "gen_ai.client.token.usage",
        "{token}",
        "Number of input and output tokens used.",
        TOKEN_BUCKETS,
    )
    duration = _histogram(
        meter, "gen_ai.client.operation.duration", "s", "GenAI operation duration.", DURATION_BUCKETS
    )
    _state.key, _state.instruments = key, (tracer, tokens, duration)
    return tracer, tokens, duration


def _histogram(meter: Any, name: str, unit: str, description: str, buckets: tuple[float, ...]) -> Any:
    try:
        return meter.create_histogram(
            name, unit=unit, description=description, explicit_bucket_boundaries_advisory=list(buckets)
        )
    except TypeError:  # opentelemetry-api before 1.23 has no advisory
        return meter.create_histogram(name, unit=unit, description=description)


# One call --------------------------------------------------------------------------------------


class _Call:
    """The span and metric attributes of one call, from start to end."""

    __slots__ = ("common", "duration", "ended", "span", "started", "tokens")

    def __init__(self, model: Model, operation: str, attributes: dict[str, Any]) -> None:
        from opentelemetry.trace import SpanKind

        tracer, self.tokens, self.duration = _instruments()
        provider = model.provider
        common: dict[str, Any] = {
            "gen_ai.operation.name": operation,
            "gen_ai.provider.name": provider.telemetry_name or provider.id,
            "gen_ai.request.model": model.name,
        }
        common.update(server(provider))
        self.common = common
        self.span = tracer.start_span(
            f"{operation} {model.name}",
            kind=SpanKind.CLIENT,
            attributes={**common, "modelport.provider": provider.id, **attributes},
        )
        self.started = time.perf_counter()
        self.ended = False

    def retry(self, error: BaseException, delay: float, attempt: int) -> None:
        self.span.add_event("modelport.retry", retry_attributes(error, delay, attempt))

    def succeeded(self, attributes: dict[str, Any], usage: Any, response_model: str | None) -> None:
        if self.ended:
            return
        self.ended = True
        span = self.span
        span.set_attributes(attributes)
        metric = dict(self.common)
        if response_model:
            metric["gen_ai.response.model"] = response_model
        if usage is not None:
            if usage.input_tokens is not None:
                self.tokens.record(usage.input_tokens, {**metric, "gen_ai.token.type": "input"})
            if usage.output_tokens is not None:
                self.tokens.record(usage.output_tokens, {**metric, "gen_ai.token.type": "output"})
        self.duration.record(time.perf_counter() - self.started, metric)
        span.end()

    def failed(self, error: BaseException, attributes: dict[str, Any] | None = None) -> None:
        if self.ended:
            return
        self.ended = True
        from opentelemetry.trace import Status, StatusCode

        span = self.span
        kind = error_type(error)
        if attributes:
            span.set_attributes(attributes)
        span.set_attribute("error.type", kind)
        span.record_exception(error)
        span.set_status(Status(StatusCode.ERROR, str(error)[:1000]))
        self.duration.record(time.perf_counter() - self.started, {**self.common, "error.type": kind})
        span.end()

    def result(self, result: Result) -> None:
        self.succeeded(
            result_attributes(result, content=capturing_content()), result.usage, result.model_version
        )


def _request_from(kwargs: dict[str, Any]) -> Request | None:
    from ._model import _canonical, build_request

    try:
        return build_request(_canonical(kwargs))
    except Exception:  # the call itself reports an invalid request
        return None


def _chat_attributes(kwargs: dict[str, Any]) -> dict[str, Any]:
    attributes = request_attributes(kwargs.get, stream=False)
    if capturing_content():
        attributes.update(content_attributes(_request_from(kwargs)))
    return attributes


def _stream_attributes(request: Request) -> dict[str, Any]:
    attributes = request_attributes(lambda name: getattr(request, name, None), stream=True)
    if capturing_content():
        attributes.update(content_attributes(request))
    return attributes


def _embed_attributes(output_dimensionality: Any, values: Any) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    if number(output_dimensionality):
        attributes["gen_ai.embeddings.dimension.count"] = output_dimensionality
    if capturing_content():
        items = (
            [values] if isinstance(values, str) else list(values) if isinstance(values, (list, tuple)) else []
        )
        attributes["gen_ai.input.messages"] = as_json(
            [{"role": "user", "parts": [{"type": "text", "content": v}]} for v in items if isinstance(v, str)]
        )
    return attributes


def _embedding_result(call: _Call, result: EmbeddingResult) -> None:
    attributes = usage_attributes(result.usage)
    if result.model_version:
        attributes["gen_ai.response.model"] = result.model_version
    if result.embeddings and "gen_ai.embeddings.dimension.count" not in call.common:
        attributes["gen_ai.embeddings.dimension.count"] = len(result.embeddings[0])
    call.succeeded(attributes, result.usage, result.model_version)


# The wrappers the model and the streams call (only when :func:`enabled`) ------------------------


def _current(call: _Call) -> Any:
    from opentelemetry import context, trace

    return context.attach(trace.set_span_in_context(call.span))


def _detach(token: Any) -> None:
    from opentelemetry import context

    context.detach(token)


def generate(model: Model, kwargs: dict[str, Any], run: Callable[[dict[str, Any]], Result]) -> Result:
    """``run(kwargs)`` (the model's own generate) inside a ``chat`` span."""
    call = _Call(model, "chat", _chat_attributes(kwargs))
    token = _current(call)
    try:
        result = run(kwargs)
    except BaseException as error:
        call.failed(error)
        raise
    finally:
        _detach(token)
    call.result(result)
    return result


async def agenerate(
    model: Model, kwargs: dict[str, Any], run: Callable[[dict[str, Any]], Awaitable[Result]]
) -> Result:
    """Async twin of :func:`generate`."""
    call = _Call(model, "chat", _chat_attributes(kwargs))
    token = _current(call)
    try:
        result = await run(kwargs)
    except BaseException as error:
        call.failed(error)
        raise
    finally:
        _detach(token)
    call.result(result)
    return result


def embed(
    model: Model, values: Any, output_dimensionality: Any, run: Callable[[], EmbeddingResult]
) -> EmbeddingResult:
    """``run()`` (the model's own embed) inside an ``embeddings`` span."""
    call = _Call(model, "embeddings", _embed_attributes(output_dimensionality, values))
    token = _current(call)
    try:
        result = run()
    except BaseException as error:
        call.failed(error)
        raise
    finally:
        _detach(token)
    _embedding_result(call, result)
    return result


async def aembed(
    model: Model, values: Any, output_dimensionality: Any, run: Callable[[], Awaitable[EmbeddingResult]]
) -> EmbeddingResult:
    """Async twin of :func:`embed`."""
    call = _Call(model, "embeddings", _embed_attributes(output_dimensionality, values))
    token = _current(call)
    try:
        result = await run()
    except BaseException as error:
        call.failed(error)
        raise
    finally:
        _detach(token)
    _embedding_result(call, result)
    return result


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


def stream(owner: ResultStream, events: Iterator[StreamEvent]) -> Iterator[StreamEvent]:
    """``events`` (the stream's own iterator) inside a ``chat`` span that ends with the stream."""
    call = _Call(owner._model, "chat", _stream_attributes(owner._request))
    owner._attempts.telemetry = call
    # The generator holds the accumulator, not ``owner``: ``owner`` holds the generator, and a cycle
    # would leave an abandoned stream to the garbage collector (see ``_streams``).
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


def astream(owner: AsyncResultStream, events: AsyncIterator[StreamEvent]) -> AsyncIterator[StreamEvent]:
    """Async twin of :func:`stream`."""
    call = _Call(owner._model, "chat", _stream_attributes(owner._request))
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


def retried(error: BaseException, delay: float, attempt: int, call: Any = None) -> None:
    """Record a retry as an event on ``call``'s span, else on the current span when it records."""
    if call is not None:
        call.retry(error, delay, attempt)
        return
    from opentelemetry import trace

    span = trace.get_current_span()
    if span.is_recording():
        span.add_event("modelport.retry", retry_attributes(error, delay, attempt))
