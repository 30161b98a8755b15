"""Telemetry is a wrapper chosen once per model, not a check per call: ``get_model`` makes an
``InstrumentedModel`` while tracing is on and a plain ``Model`` otherwise; a traced call validates its
keywords once, like an untraced one. Recorded Gemini traffic on ``httpx.MockTransport``."""

from __future__ import annotations

from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import modelport
from modelport import _api, _model, telemetry
from tests.google import corpus as c
from tests.google import mock

from .conftest import Otel

GROUNDED = "mock-responses__googleai__unary-success-google-search-grounding.json"
STREAMED = "mock-responses__googleai__streaming-success-url-context.txt"


def grounded() -> Any:
    return mock.response(200, c.load_json(c.FIREBASE, GROUNDED))


def test_a_model_made_while_tracing_is_off_is_plain() -> None:
    assert not telemetry.enabled()
    model, _ = mock.model([])
    assert type(model) is modelport.Model


def test_a_model_made_while_tracing_is_on_is_instrumented(otel: Otel) -> None:
    model, _ = mock.model([grounded()])
    assert type(model) is telemetry.InstrumentedModel
    assert repr(model) == "Model('google/gemini-2.5-flash')"
    model.generate(prompt="What is the weather in London?")
    assert otel.span().name == "chat gemini-2.5-flash"


def test_a_model_made_before_tracing_is_traced_once_wrapped() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    model, recorder = mock.model([grounded(), grounded()])
    telemetry.instrument(tracer_provider=provider)
    try:
        model.generate(prompt="What is the weather in London?")
        assert exporter.get_finished_spans() == ()  # decided when it was made: it checks nothing
        traced = telemetry.instrument_model(model)
        assert telemetry.instrument_model(traced) is traced
        assert traced.provider is model.provider  # the same provider and clients
        traced.generate(prompt="What is the weather in London?")
        assert [s.name for s in exporter.get_finished_spans()] == ["chat gemini-2.5-flash"]
        assert len(recorder.requests) == 2
    finally:
        telemetry.uninstrument()
        provider.shutdown()


def test_a_shared_model_made_before_tracing_is_traced_once_tracing_is_on() -> None:
    """Module-level calls share a model the application never holds: it is wrapped for it."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    model, recorder = mock.model([grounded(), grounded()])
    model_id = "google/shared-before-tracing"
    _api._DEFAULT_MODELS[(model_id, None, None)] = model
    try:
        modelport.generate(model_id, prompt="What is the weather in London?")
        assert exporter.get_finished_spans() == ()
        telemetry.instrument(tracer_provider=provider)
        modelport.generate(model_id, prompt="What is the weather in London?")
        assert [s.name for s in exporter.get_finished_spans()] == ["chat gemini-2.5-flash"]
        shared = _api._DEFAULT_MODELS[(model_id, None, None)]
        assert type(shared) is telemetry.InstrumentedModel and shared.provider is model.provider
        assert len(recorder.requests) == 2
    finally:
        _api._DEFAULT_MODELS.pop((model_id, None, None), None)
        telemetry.uninstrument()
        provider.shutdown()


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The keywords of every validation into a ``Request``."""
    seen: list[dict[str, Any]] = []
    build = _model.build_request

    def counting(kwargs: Any) -> Any:
        seen.append(dict(kwargs))
        return build(kwargs)

    monkeypatch.setattr(_model, "build_request", counting)
    return seen


def test_a_traced_call_validates_once(otel: Otel, validations: list[dict[str, Any]]) -> None:
    telemetry.capture_content(True)  # the span's content comes from the validated request
    model, _ = mock.model([grounded(), mock.response(200, c.raw(c.FIREBASE, STREAMED), mock.SSE)])
    model.generate(prompt="What is the weather in London?", temperature=0.2)
    model.stream(prompt="Describe https://google.com").result()
    assert validations == [
        {"prompt": "What is the weather in London?", "temperature": 0.2},
        {"prompt": "Describe https://google.com"},
    ]
    chat, stream = otel.spans()
    assert dict(chat.attributes or {})["gen_ai.input.messages"] == (
        '[{"role":"user","parts":[{"type":"text","content":"What is the weather in London?"}]}]'
    )
    assert dict(stream.attributes or {})["gen_ai.request.stream"] is True
