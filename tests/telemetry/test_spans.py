"""OpenTelemetry spans and GenAI metrics (issue 16), checked attribute by attribute against recorded
Gemini traffic served by ``httpx.MockTransport`` (never the network)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from opentelemetry import trace as otel_trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.trace import SpanKind, StatusCode

from modelport import ProviderOverloadedError, telemetry
from modelport._runtime import retry as _retry
from tests.google import corpus as c
from tests.google import mock

from .conftest import Otel

GROUNDED = "mock-responses__googleai__unary-success-google-search-grounding.json"
STREAMED = "mock-responses__googleai__streaming-success-url-context.txt"
EMBEDDED = "tests__cassettes__test_gemini__test_embedding_batch.yaml"
SEARCH = {"type": "provider", "id": "google.google_search"}
URL_CONTEXT = {"type": "provider", "id": "google.url_context"}

SERVER = {"server.address": "generativelanguage.googleapis.com", "server.port": 443}
CHAT = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "gcp.gemini",
    "gen_ai.request.model": "gemini-2.5-flash",
    **SERVER,
}

#: The whole span of the grounded call: every attribute, every value (from the recording).
GROUNDED_SPAN = {
    **CHAT,
    "modelport.provider": "google",
    "gen_ai.request.temperature": 0.2,
    "gen_ai.request.seed": 7,
    "gen_ai.request.max_tokens": 256,
    "modelport.provider_tools": ("google.google_search",),
    "gen_ai.response.finish_reasons": ("stop",),
    "gen_ai.response.model": "gemini-2.0-flash",
    "gen_ai.response.id": "qA5DaPG6AZ_KhMIPkLCIoAU",
    "gen_ai.usage.input_tokens": 8,
    "gen_ai.usage.output_tokens": 60,
    "modelport.sources": 2,
    "modelport.server_tool_calls": 1,  # webSearchQueries: ["current weather in London"]
}

#: The whole span of the streamed url-context call.
STREAMED_SPAN = {
    **CHAT,
    "modelport.provider": "google",
    "gen_ai.request.max_tokens": 500,
    "gen_ai.request.top_p": 0.9,
    "gen_ai.request.top_k": 40,
    "gen_ai.request.stop_sequences": ("END",),
    "gen_ai.request.stream": True,
    "modelport.provider_tools": ("google.url_context",),
    "gen_ai.response.finish_reasons": ("stop",),
    "gen_ai.response.model": "gemini-2.5-flash",
    "gen_ai.response.id": "IJLJaPGIL7uN1MkPvI6K0QQ",
    # Every token billed, as OpenTelemetry defines these: the prompt's 438 plus the 619 of the
    # tool-use prompt as input, the answer's 81 plus the 39 of reasoning as output.
    "gen_ai.usage.input_tokens": 438 + 619,
    "gen_ai.usage.output_tokens": 81 + 39,
    "gen_ai.usage.reasoning.output_tokens": 39,
    "modelport.sources": 1,
    "modelport.server_tool_calls": 1,  # urlContextMetadata: one URL fetched, https://google.com
}


def grounded_model(**options: Any) -> tuple[Any, mock.Recorder]:
    return mock.model([mock.response(200, c.load_json(c.FIREBASE, GROUNDED))], **options)


def grounded_call(model: Any) -> Any:
    return model.generate(
        prompt="What is the weather in London?",
        tools=[SEARCH],
        temperature=0.2,
        seed=7,
        max_output_tokens=256,
    )


def streamed_model(**options: Any) -> tuple[Any, mock.Recorder]:
    return mock.model([mock.response(200, c.raw(c.FIREBASE, STREAMED), mock.SSE)], **options)


def stream_keywords() -> dict[str, Any]:
    return {
        "prompt": "Describe https://google.com",
        "tools": [URL_CONTEXT],
        "max_output_tokens": 500,
        "top_p": 0.9,
        "top_k": 40,
        "stop_sequences": ["END"],
    }


def token_points(response_model: str, input_tokens: int, output_tokens: int) -> list[dict[str, Any]]:
    common = {**CHAT, "gen_ai.response.model": response_model}
    return [
        {"attributes": {**common, "gen_ai.token.type": "input"}, "count": 1, "sum": input_tokens},
        {"attributes": {**common, "gen_ai.token.type": "output"}, "count": 1, "sum": output_tokens},
    ]


def check_duration(otel: Otel, attributes: dict[str, Any], span: Any) -> None:
    (point,) = otel.metrics()["gen_ai.client.operation.duration"]
    assert point["attributes"] == attributes
    assert point["count"] == 1
    span_seconds = (span.end_time - span.start_time) / 1e9
    assert 0 < point["sum"] <= span_seconds + 0.05


# Grounded generate ------------------------------------------------------------------------------


def test_grounded_gemini_call_whole_span(otel: Otel) -> None:
    model, recorder = grounded_model()
    result = grounded_call(model)
    assert result.provider_metadata["google"]["groundingMetadata"]["webSearchQueries"] == [
        "current weather in London"
    ]
    span = otel.span()
    assert span.name == "chat gemini-2.5-flash"
    assert span.kind is SpanKind.CLIENT
    assert span.instrumentation_scope.name == "modelport"
    assert dict(span.attributes or {}) == GROUNDED_SPAN
    assert span.status.status_code is StatusCode.UNSET
    assert span.events == ()
    assert span.parent is None
    metrics = otel.metrics()
    assert metrics["gen_ai.client.token.usage"] == token_points("gemini-2.0-flash", 8, 60)
    check_duration(otel, {**CHAT, "gen_ai.response.model": "gemini-2.0-flash"}, span)
    assert len(recorder.requests) == 1


def test_span_is_current_during_the_call_so_http_spans_nest(otel: Otel) -> None:
    seen: list[Any] = []

    def reply(request: httpx.Request) -> httpx.Response:
        seen.append(otel_trace.get_current_span().get_span_context())
        return mock.response(200, c.load_json(c.FIREBASE, GROUNDED))

    model, _ = mock.model([reply])
    grounded_call(model)
    assert seen == [otel.span().get_span_context()]


def test_a_user_span_is_the_parent(otel: Otel) -> None:
    tracer = telemetry._state.tracer_provider.get_tracer("app")
    model, _ = grounded_model()
    with tracer.start_as_current_span("request handler") as parent:
        grounded_call(model)
    chat, handler = otel.spans()
    assert handler.name == "request handler"
    assert chat.parent is not None and chat.parent.span_id == parent.get_span_context().span_id


# Streams ----------------------------------------------------------------------------------------


def test_streamed_call_whole_span(otel: Otel) -> None:
    model, _ = streamed_model()
    stream = model.stream(**stream_keywords())
    assert otel.spans() == []  # the span starts with the stream's first event...
    events = list(stream)
    assert events[-1].type == "finish"
    span = otel.span()  # ...and ends with its last
    assert span.name == "chat gemini-2.5-flash"
    assert span.kind is SpanKind.CLIENT
    assert dict(span.attributes or {}) == STREAMED_SPAN
    assert span.status.status_code is StatusCode.UNSET
    assert span.events == ()
    assert otel.metrics()["gen_ai.client.token.usage"] == token_points("gemini-2.5-flash", 438 + 619, 81 + 39)
    check_duration(otel, {**CHAT, "gen_ai.response.model": "gemini-2.5-flash"}, span)


def test_stream_result_ends_the_span_once(otel: Otel) -> None:
    model, _ = streamed_model()
    stream = model.stream(**stream_keywords())
    stream.result()
    stream.result()
    assert dict(otel.span().attributes or {}) == STREAMED_SPAN


def test_stream_closed_early_ends_its_span(otel: Otel) -> None:
    model, _ = streamed_model()
    with model.stream(**stream_keywords()) as stream:
        for event in stream:
            if event.type == "text-delta":
                break
    span = otel.span()
    attributes = dict(span.attributes or {})
    assert attributes["modelport.stream.closed"] is True
    assert attributes["gen_ai.response.id"] == "IJLJaPGIL7uN1MkPvI6K0QQ"
    assert "gen_ai.response.finish_reasons" not in attributes
    assert "gen_ai.usage.input_tokens" not in attributes
    assert span.status.status_code is StatusCode.UNSET
    assert "gen_ai.client.token.usage" not in otel.metrics()


def test_stream_error_mid_stream(otel: Otel) -> None:
    body = c.raw(c.FIREBASE, "mock-responses__vertexai__streaming-failure-error-mid-stream.txt")
    model, _ = mock.model([mock.response(200, body, mock.SSE)])
    with pytest.raises(Exception) as raised:
        model.stream(prompt="Hi").result()
    span = otel.span()
    attributes = dict(span.attributes or {})
    assert attributes["error.type"] == type(raised.value).__qualname__
    assert span.status.status_code is StatusCode.ERROR
    assert [e.name for e in span.events] == ["exception"]


# Errors and retries ------------------------------------------------------------------------------


def overloaded() -> httpx.Response:
    error = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    return mock.response(503, error)


def test_retries_are_span_events_and_a_final_error_sets_error_type(
    otel: Otel, monkeypatch: pytest.MonkeyPatch
) -> None:
    delays = mock.no_sleep(monkeypatch)
    monkeypatch.setattr(_retry.random, "random", lambda: 1.0)  # backoff without jitter: 0.5 s, 1 s
    model, recorder = mock.model([overloaded(), overloaded(), overloaded()])
    with pytest.raises(ProviderOverloadedError):
        model.generate(prompt="Hi", temperature=0.5)
    assert delays == [0.5, 1.0]
    assert len(recorder.requests) == 3
    span = otel.span()
    assert dict(span.attributes or {}) == {
        **CHAT,
        "modelport.provider": "google",
        "gen_ai.request.temperature": 0.5,
        "error.type": "ProviderOverloadedError",
    }
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description is not None and "overloaded" in span.status.description
    retries = [e for e in span.events if e.name == "modelport.retry"]
    assert [dict(e.attributes or {}) for e in retries] == [
        {
            "modelport.retry.attempt": attempt,
            "modelport.retry.delay": delay,
            "modelport.retry.reason": "ProviderOverloadedError (HTTP 503)",
            "error.type": "ProviderOverloadedError",
        }
        for attempt, delay in ((1, 0.5), (2, 1.0))
    ]
    assert [e.name for e in span.events] == ["modelport.retry", "modelport.retry", "exception"]
    check_duration(otel, {**CHAT, "error.type": "ProviderOverloadedError"}, span)
    assert "gen_ai.client.token.usage" not in otel.metrics()


def test_a_retry_that_succeeds(otel: Otel, monkeypatch: pytest.MonkeyPatch) -> None:
    mock.no_sleep(monkeypatch)
    monkeypatch.setattr(_retry.random, "random", lambda: 1.0)
    model, _ = mock.model([overloaded(), mock.response(200, c.load_json(c.FIREBASE, GROUNDED))])
    grounded_call(model)
    span = otel.span()
    assert dict(span.attributes or {}) == GROUNDED_SPAN
    assert [(e.name, dict(e.attributes or {})) for e in span.events] == [
        (
            "modelport.retry",
            {
                "modelport.retry.attempt": 1,
                "modelport.retry.delay": 0.5,
                "modelport.retry.reason": "ProviderOverloadedError (HTTP 503)",
                "error.type": "ProviderOverloadedError",
            },
        )
    ]


def test_stream_retry_before_the_first_event(otel: Otel, monkeypatch: pytest.MonkeyPatch) -> None:
    mock.no_sleep(monkeypatch)
    monkeypatch.setattr(_retry.random, "random", lambda: 1.0)
    body = c.raw(c.FIREBASE, STREAMED)
    model, _ = mock.model([overloaded(), mock.response(200, body, mock.SSE)])
    model.stream(**stream_keywords()).result()
    span = otel.span()
    assert dict(span.attributes or {}) == STREAMED_SPAN
    assert [(e.name, dict(e.attributes or {})["modelport.retry.attempt"]) for e in span.events] == [
        ("modelport.retry", 1)
    ]


def test_invalid_request_is_an_error_span(otel: Otel) -> None:
    model, recorder = mock.model([])
    with pytest.raises(Exception, match="temperature"):
        model.generate(prompt="Hi", temperature=-1.0)
    span = otel.span()
    assert dict(span.attributes or {})["error.type"] == "InvalidRequestError"
    assert recorder.requests == []


# Embeddings ---------------------------------------------------------------------------------------


def test_embed_span(otel: Otel) -> None:
    recorded = c.cassette(c.LLM_GEMINI, EMBEDDED)[0]
    model, _ = mock.model([mock.response(200, recorded.body)], "google/gemini-embedding-2")
    result = model.embed(["First text", "Second text"], output_dimensionality=768)
    assert [len(e) for e in result.embeddings] == [768, 768]
    span = otel.span()
    assert span.name == "embeddings gemini-embedding-2"
    assert span.kind is SpanKind.CLIENT
    embeddings = {**CHAT, "gen_ai.operation.name": "embeddings", "gen_ai.request.model": "gemini-embedding-2"}
    assert dict(span.attributes or {}) == {
        **embeddings,
        "modelport.provider": "google",
        "gen_ai.embeddings.dimension.count": 768,
        "gen_ai.usage.input_tokens": 4,
    }
    (tokens,) = otel.metrics()["gen_ai.client.token.usage"]
    assert tokens == {"attributes": {**embeddings, "gen_ai.token.type": "input"}, "count": 1, "sum": 4}
    check_duration(otel, embeddings, span)


# Async --------------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_async_generate_and_stream(otel: Otel) -> None:
    model, _ = mock.model(
        [
            mock.response(200, c.load_json(c.FIREBASE, GROUNDED)),
            mock.response(200, c.raw(c.FIREBASE, STREAMED), mock.SSE),
        ],
        asynchronous=True,
    )
    await model.agenerate(
        prompt="What is the weather in London?",
        tools=[SEARCH],
        temperature=0.2,
        seed=7,
        max_output_tokens=256,
    )
    events = [event async for event in model.astream(**stream_keywords())]
    assert events[-1].type == "finish"
    grounded, streamed = otel.spans()
    assert dict(grounded.attributes or {}) == GROUNDED_SPAN
    assert dict(streamed.attributes or {}) == STREAMED_SPAN
    assert streamed.parent is None  # the first span was not left current


@pytest.mark.asyncio
async def test_async_stream_closed_early(otel: Otel) -> None:
    model, _ = streamed_model(asynchronous=True)
    async with model.astream(**stream_keywords()) as stream:
        async for event in stream:
            if event.type == "text-delta":
                break
    assert dict(otel.span().attributes or {})["modelport.stream.closed"] is True


@pytest.mark.asyncio
async def test_async_embed(otel: Otel) -> None:
    recorded = c.cassette(c.LLM_GEMINI, EMBEDDED)[0]
    model, _ = mock.model([mock.response(200, recorded.body)], "google/gemini-embedding-2", asynchronous=True)
    await model.aembed(["First text", "Second text"], output_dimensionality=768)
    assert otel.span().name == "embeddings gemini-embedding-2"


# Content capture ----------------------------------------------------------------------------------

CONTENT_KEYS = {"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions"}


def test_content_is_absent_unless_opted_in(otel: Otel) -> None:
    model, _ = mock.model(
        [
            mock.response(200, c.load_json(c.FIREBASE, GROUNDED)),
            mock.response(200, c.raw(c.FIREBASE, STREAMED), mock.SSE),
        ]
    )
    model.generate(prompt="What is the weather in London?", system="Be brief.")
    model.stream(**stream_keywords()).result()
    for span in otel.spans():
        assert not CONTENT_KEYS & set(span.attributes or {})
        assert "London" not in json.dumps(dict(span.attributes or {}))


def test_content_when_opted_in(otel: Otel) -> None:
    telemetry.capture_content(True)
    model, _ = grounded_model()
    model.generate(prompt="What is the weather in London?", system="Be brief.")
    attributes = dict(otel.span().attributes or {})
    assert json.loads(attributes["gen_ai.system_instructions"]) == [{"type": "text", "content": "Be brief."}]
    assert json.loads(attributes["gen_ai.input.messages"]) == [
        {"role": "user", "parts": [{"type": "text", "content": "What is the weather in London?"}]}
    ]
    answer = c.load_json(c.FIREBASE, GROUNDED)["candidates"][0]["content"]["parts"][0]["text"]
    assert json.loads(attributes["gen_ai.output.messages"]) == [
        {"role": "assistant", "parts": [{"type": "text", "content": answer}], "finish_reason": "stop"}
    ]


def test_content_opt_in_from_the_environment(otel: Otel, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODELPORT_OTEL_CAPTURE_CONTENT", "1")
    model, _ = streamed_model()
    model.stream(**stream_keywords()).result()
    attributes = dict(otel.span().attributes or {})
    assert json.loads(attributes["gen_ai.input.messages"]) == [
        {"role": "user", "parts": [{"type": "text", "content": "Describe https://google.com"}]}
    ]
    (output,) = json.loads(attributes["gen_ai.output.messages"])
    assert output["finish_reason"] == "stop"
    assert output["parts"][0]["content"].startswith("\nThe Google homepage")
    telemetry.capture_content(False)  # an explicit no beats the environment
    model, _ = streamed_model()
    model.stream(**stream_keywords()).result()
    assert not CONTENT_KEYS & set(otel.spans()[-1].attributes or {})


# Off means off ----------------------------------------------------------------------------------


def test_no_span_without_a_configured_provider() -> None:
    assert not telemetry.enabled()  # the API is imported here, but no provider is configured
    model, _ = grounded_model()
    assert grounded_call(model).text


def test_a_global_tracer_provider_turns_tracing_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    # What set_tracer_provider does, undone afterwards (the real one can run only once a process).
    monkeypatch.setattr(otel_trace, "_TRACER_PROVIDER", provider)
    assert telemetry.enabled()
    model, _ = grounded_model()
    grounded_call(model)
    (span,) = exporter.get_finished_spans()
    assert dict(span.attributes or {}) == GROUNDED_SPAN
    monkeypatch.setattr(otel_trace, "_TRACER_PROVIDER", otel_trace.NoOpTracerProvider())
    assert not telemetry.enabled()
    provider.shutdown()


def test_nothing_is_imported_when_the_application_does_not_use_opentelemetry() -> None:
    """Tracing off costs nothing when the extra is absent or unused (measured by benchmark figure P2o)."""
    script = """
import sys, httpx, modelport
reply = httpx.Response(200, json={"candidates": [{"content": {"parts": [{"text": "hi"}]}, "finishReason": "STOP"}]})
client = httpx.Client(transport=httpx.MockTransport(lambda request: reply))
model = modelport.get_model("google/gemini-2.5-flash", api_key="k", http_client=client)
assert model.generate(prompt="Hi").text == "hi"
assert model.stream(prompt="Hi") is not None
print(sorted(m for m in sys.modules if m.startswith("opentelemetry") or m == "modelport.telemetry"))
"""
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=root, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_without_the_extra_telemetry_still_imports_and_instrument_says_why() -> None:
    script = """
import sys
sys.modules["opentelemetry"] = None  # as if opentelemetry-api were not installed
import httpx, modelport
from modelport import telemetry
reply = httpx.Response(200, json={"candidates": [{"content": {"parts": [{"text": "hi"}]}, "finishReason": "STOP"}]})
client = httpx.Client(transport=httpx.MockTransport(lambda request: reply))
model = modelport.get_model("google/gemini-2.5-flash", api_key="k", http_client=client)
assert not telemetry.enabled()
assert model.generate(prompt="Hi").text == "hi"
try:
    telemetry.instrument()
except ImportError:
    print("ImportError")
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ImportError"
