"""OpenTelemetry state of :mod:`modelport.telemetry`: whether calls are traced, the tracer and
meters, and the span of one call. Imports no OpenTelemetry package unless the application did."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .genai_attributes import error_type, result_attributes, retry_attributes, server

if TYPE_CHECKING:
    from ..provider import Provider
    from ..types import Result

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
    from .._version import __version__

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

    def __init__(
        self, provider: Provider, model_name: str, operation: str, attributes: dict[str, Any]
    ) -> None:
        from opentelemetry.trace import SpanKind

        tracer, self.tokens, self.duration = _instruments()
        common: dict[str, Any] = {
            "gen_ai.operation.name": operation,
            "gen_ai.provider.name": provider.telemetry_name or provider.id,
            "gen_ai.request.model": model_name,
        }
        common.update(server(provider))
        self.common = common
        self.span = tracer.start_span(
            f"{operation} {model_name}",
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


@contextmanager
def _active(call: _Call) -> Iterator[None]:
    """``call``'s span is the current span inside; an error raised there fails it."""
    from opentelemetry import context, trace

    token = context.attach(trace.set_span_in_context(call.span))
    try:
        yield
    except BaseException as error:
        call.failed(error)
        raise
    finally:
        context.detach(token)


def retried(error: BaseException, delay: float, attempt: int, call: Any = None) -> None:
    """Record a retry as an event on ``call``'s span, else on the current span when it records."""
    if call is not None:
        call.retry(error, delay, attempt)
        return
    from opentelemetry import trace

    span = trace.get_current_span()
    if span.is_recording():
        span.add_event("modelport.retry", retry_attributes(error, delay, attempt))
