"""Telemetry stays the outermost layer of a wrapped traced model: one span per call, around the
middleware chain (the request as the middleware changed it, the result as they returned it)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import modelport
from modelport import telemetry, testing
from modelport.events import StreamEvent, TextDeltaEvent
from modelport.types import Request, Result, TextPart, Usage
from modelport.wrappers.middleware import TracedWrappedModel
from tests.telemetry.conftest import Otel


class Shout(modelport.Middleware):
    def transform_request(self, request: Request, model: modelport.Model) -> Request:
        return request.model_copy(update={"max_output_tokens": 77})

    def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
        result = call_next(request)
        return result.model_copy(
            update={
                "content": [TextPart(text=result.text.upper())],
                "usage": Usage(input_tokens=5, output_tokens=2),
            }
        )

    def wrap_stream(self, request: Request, call_next: Any, model: modelport.Model) -> Iterator[StreamEvent]:
        for event in call_next(request):
            yield (
                event.model_copy(update={"delta": event.delta.upper()})
                if isinstance(event, TextDeltaEvent)
                else event
            )


def test_a_wrapped_traced_model_has_one_span_around_the_chain(otel: Otel, scripted: testing.Script) -> None:
    scripted.results.append(testing.text_result("hi"))
    traced = modelport.get_model("scripted/m", script=scripted)
    assert type(traced) is telemetry.InstrumentedModel
    model = modelport.wrap(traced, Shout())
    assert type(model) is TracedWrappedModel
    assert model.generate(prompt="x").text == "HI"
    span = otel.span()  # one span: the inner model is the plain one
    assert span.name == "chat m"
    assert span.attributes is not None
    assert span.attributes["gen_ai.request.max_tokens"] == 77  # as the middleware changed it
    assert (span.attributes["gen_ai.usage.input_tokens"], span.attributes["gen_ai.usage.output_tokens"]) == (
        5,
        2,
    )


def test_streams_of_a_wrapped_traced_model_are_one_span(otel: Otel, scripted: testing.Script) -> None:
    scripted.streams += [testing.text_events("a", "b"), testing.text_events("c")]
    model = modelport.wrap(modelport.get_model("scripted/m", script=scripted), Shout())
    assert model.stream(prompt="x").result().text == "AB"

    async def consume() -> str:
        return (await model.astream(prompt="x").result()).text

    assert asyncio.run(consume()) == "c"  # Shout has no async stream hook: the model's own stream
    assert [s.name for s in otel.spans()] == ["chat m", "chat m"]


def test_a_traced_model_wrapped_without_stream_hooks_keeps_its_stream_span(
    otel: Otel, scripted: testing.Script
) -> None:
    class GenerateOnly(modelport.Middleware):
        def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
            return call_next(request)

    scripted.streams.append(testing.text_events("a"))
    model = modelport.wrap(modelport.get_model("scripted/m", script=scripted), GenerateOnly())
    assert model.stream(prompt="x").result().text == "a"
    assert [s.name for s in otel.spans()] == ["chat m"]
