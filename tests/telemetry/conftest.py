"""An in-memory OpenTelemetry SDK per test, given to modelport with ``telemetry.instrument`` (never the
global providers, which can be set only once per process), and undone afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from modelport import telemetry


@dataclass
class Otel:
    """What the instrumented calls exported."""

    exporter: InMemorySpanExporter
    reader: InMemoryMetricReader

    def spans(self) -> list[ReadableSpan]:
        return list(self.exporter.get_finished_spans())

    def span(self) -> ReadableSpan:
        """The only span exported."""
        spans = self.spans()
        assert len(spans) == 1, [s.name for s in spans]
        return spans[0]

    def metrics(self) -> dict[str, list[dict[str, Any]]]:
        """Each metric's data points: ``{"attributes", "count", "sum"}``."""
        data = self.reader.get_metrics_data()
        out: dict[str, list[dict[str, Any]]] = {}
        for resource in data.resource_metrics if data else ():
            for scope in resource.scope_metrics:
                assert scope.scope.name == "modelport"
                for metric in scope.metrics:
                    out[metric.name] = [
                        {"attributes": dict(p.attributes or {}), "count": p.count, "sum": p.sum}
                        for p in metric.data.data_points
                    ]
        return out


@pytest.fixture
def otel(monkeypatch: pytest.MonkeyPatch) -> Iterator[Otel]:
    """modelport traced into in-memory exporters; content capture as the environment says (unset)."""
    monkeypatch.delenv("MODELPORT_OTEL_CAPTURE_CONTENT", raising=False)
    monkeypatch.delenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", raising=False)
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    reader = InMemoryMetricReader()
    meter_provider = MeterProvider(metric_readers=[reader])
    telemetry.instrument(tracer_provider=tracer_provider, meter_provider=meter_provider)
    try:
        yield Otel(exporter, reader)
    finally:
        telemetry.uninstrument()
        telemetry.capture_content(None)
        tracer_provider.shutdown()
        meter_provider.shutdown()
