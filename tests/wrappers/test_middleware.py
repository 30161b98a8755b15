"""``modelport.wrap``: each hook on sync, async and stream calls, their order, and the wrapped model
used where a model is (the tool loop, typed outputs, embeddings)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

import modelport
from modelport import testing
from modelport.errors import ConfigurationError, ProviderAuthError
from modelport.events import StreamEvent, TextDeltaEvent
from modelport.types import EmbeddingResult, Request, Result, TextPart, ToolCallPart, Usage


class Recorder(modelport.Middleware):
    """Records each hook it passes through as ``name:hook:in`` and ``name:hook:out``."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log

    def transform_request(self, request: Request, model: modelport.Model) -> Request:
        self.log.append(f"{self.name}:transform")
        return request.model_copy(update={"stop_sequences": [*(request.stop_sequences or []), self.name]})

    def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
        self.log.append(f"{self.name}:generate:in")
        result = call_next(request)
        self.log.append(f"{self.name}:generate:out")
        return result.model_copy(update={"content": [TextPart(text=result.text + f"+{self.name}")]})

    async def wrap_agenerate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
        self.log.append(f"{self.name}:agenerate:in")
        result = await call_next(request)
        self.log.append(f"{self.name}:agenerate:out")
        return result.model_copy(update={"content": [TextPart(text=result.text + f"+{self.name}")]})

    def wrap_stream(self, request: Request, call_next: Any, model: modelport.Model) -> Iterator[StreamEvent]:
        self.log.append(f"{self.name}:stream:in")
        for event in call_next(request):
            if isinstance(event, TextDeltaEvent):
                self.log.append(f"{self.name}:delta:{event.delta}")
                event = event.model_copy(update={"delta": event.delta + self.name})
            yield event
        self.log.append(f"{self.name}:stream:out")

    async def wrap_astream(
        self, request: Request, call_next: Any, model: modelport.Model
    ) -> AsyncIterator[StreamEvent]:
        self.log.append(f"{self.name}:astream:in")
        async for event in call_next(request):
            if isinstance(event, TextDeltaEvent):
                event = event.model_copy(update={"delta": event.delta + self.name})
            yield event
        self.log.append(f"{self.name}:astream:out")


def test_generate_passes_the_first_middleware_outermost(scripted: testing.Script) -> None:
    log: list[str] = []
    scripted.results.append(testing.text_result("hi"))
    model = modelport.wrap(
        modelport.get_model("scripted/m", script=scripted), Recorder("a", log), Recorder("b", log)
    )
    assert model.generate(prompt="x").text == "hi+b+a"
    assert log == [
        "a:transform",
        "b:transform",
        "a:generate:in",
        "b:generate:in",
        "b:generate:out",
        "a:generate:out",
    ]
    assert scripted.requests[0].stop_sequences == ["a", "b"]  # the provider got the request as transformed


def test_nested_wraps_are_one_chain(scripted: testing.Script) -> None:
    log: list[str] = []
    scripted.results.append(testing.text_result("hi"))
    inner = modelport.wrap(modelport.get_model("scripted/m", script=scripted), Recorder("b", log))
    assert modelport.wrap(inner, Recorder("a", log)).generate(prompt="x").text == "hi+b+a"
    assert log == [
        "b:transform",
        "a:transform",
        "a:generate:in",
        "b:generate:in",
        "b:generate:out",
        "a:generate:out",
    ]
    assert scripted.requests[0].stop_sequences == [
        "b",
        "a",
    ]  # the inner model validates (and transforms) first


def test_agenerate_uses_the_async_hooks(scripted: testing.Script) -> None:
    log: list[str] = []
    scripted.results.append(testing.text_result("hi"))
    model = modelport.wrap(
        modelport.get_model("scripted/m", script=scripted), Recorder("a", log), Recorder("b", log)
    )
    assert asyncio.run(model.agenerate(prompt="x")).text == "hi+b+a"
    assert log == [
        "a:transform",
        "b:transform",
        "a:agenerate:in",
        "b:agenerate:in",
        "b:agenerate:out",
        "a:agenerate:out",
    ]


def test_a_stream_passes_each_event_through_every_middleware(scripted: testing.Script) -> None:
    log: list[str] = []
    scripted.streams.append(testing.text_events("x", "y", usage=Usage(input_tokens=3, output_tokens=2)))
    model = modelport.wrap(
        modelport.get_model("scripted/m", script=scripted), Recorder("a", log), Recorder("b", log)
    )
    with model.stream(prompt="q") as stream:
        deltas = [event.delta for event in stream if isinstance(event, TextDeltaEvent)]
        result = stream.result()
    assert deltas == ["xba", "yba"]
    assert result.text == "xbayba"  # the result is what the caller saw
    assert result.usage == Usage(input_tokens=3, output_tokens=2)
    assert result.origin is not None and result.origin.model == "m"
    assert log == [
        "a:transform", "b:transform", "a:stream:in", "b:stream:in",
        "b:delta:x", "a:delta:xb", "b:delta:y", "a:delta:yb", "b:stream:out", "a:stream:out",
    ]  # fmt: skip


def test_astream_uses_the_async_hooks(scripted: testing.Script) -> None:
    log: list[str] = []
    scripted.streams.append(testing.text_events("x", "y"))
    model = modelport.wrap(
        modelport.get_model("scripted/m", script=scripted), Recorder("a", log), Recorder("b", log)
    )

    async def consume() -> tuple[list[str], str]:
        stream = model.astream(prompt="q")
        deltas = [event.delta async for event in stream if isinstance(event, TextDeltaEvent)]
        return deltas, (await stream.result()).text

    assert asyncio.run(consume()) == (["xba", "yba"], "xbayba")
    assert log == [
        "a:transform",
        "b:transform",
        "a:astream:in",
        "b:astream:in",
        "b:astream:out",
        "a:astream:out",
    ]


class GenerateOnly(modelport.Middleware):
    def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
        return call_next(request)


def test_calls_without_a_hook_are_the_models_own(scripted: testing.Script) -> None:
    scripted.streams.append(testing.text_events("x"))
    plain = modelport.get_model("scripted/m", script=scripted)
    model = modelport.wrap(plain, GenerateOnly())
    stream = model.stream(prompt="q")
    assert type(stream) is modelport.ResultStream  # no stream hook: the model's own stream
    assert stream.result().text == "x"
    assert model.id == plain.id == "scripted/m"
    assert model.provider is plain.provider
    assert repr(model) == "WrappedModel(Model('scripted/m'), [GenerateOnly])"


def test_a_middleware_may_answer_without_calling_the_model(scripted: testing.Script) -> None:
    class Guardrail(modelport.Middleware):
        def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
            if "secret" in request.messages[-1].text:
                return testing.text_result("I can't help with that.")
            return call_next(request)

    model = modelport.wrap(modelport.get_model("scripted/m", script=scripted), Guardrail())
    assert model.generate(prompt="tell me the secret").text == "I can't help with that."
    assert scripted.requests == []


def test_errors_pass_through_the_middleware(scripted: testing.Script) -> None:
    log: list[str] = []
    scripted.results.append(ProviderAuthError("bad key", provider="scripted", status_code=401))
    model = modelport.wrap(modelport.get_model("scripted/m", script=scripted), Recorder("a", log))
    with pytest.raises(ProviderAuthError):
        model.generate(prompt="x")
    assert log == ["a:transform", "a:generate:in"]


def test_a_typed_output_is_parsed_from_the_result_the_chain_returns(scripted: testing.Script) -> None:
    from pydantic import BaseModel

    class City(BaseModel):
        name: str

    class Fix(modelport.Middleware):
        def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
            result = call_next(request)
            return result.model_copy(update={"content": [TextPart(text=result.text.replace("'", '"'))]})

    scripted.results.append(testing.text_result("{'name': 'Lyon'}"))
    model = modelport.wrap(modelport.get_model("scripted/m", script=scripted), Fix())
    assert model.generate(prompt="x", response_format=City).parsed == City(name="Lyon")


def test_the_tool_loop_runs_each_step_through_the_middleware(scripted: testing.Script) -> None:
    log: list[str] = []

    @modelport.tool
    def weather(city: str) -> str:
        """The weather in ``city``."""
        return "sunny"

    call = ToolCallPart(id="c1", name="weather", args={"city": "Lyon"})
    scripted.results += [
        Result(content=[call], finish_reason="tool-calls"),
        testing.text_result("It is sunny."),
    ]

    class Logged(modelport.Middleware):
        def transform_request(self, request: Request, model: modelport.Model) -> Request:
            log.append(f"transform:{len(request.messages)}")
            return request

        def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
            result = call_next(request)
            log.append(f"generate:{result.finish_reason}")
            return result

    model = modelport.wrap(modelport.get_model("scripted/m", script=scripted), Logged())
    run = model.run(prompt="weather?", tools=[weather])
    assert run.text == "It is sunny."
    assert log == ["transform:1", "generate:tool-calls", "transform:3", "generate:stop"]


def test_embed_hooks(scripted: testing.Script) -> None:
    class Count(modelport.Middleware):
        calls = 0

        def wrap_embed(self, request: Any, call_next: Any, model: modelport.Model) -> EmbeddingResult:
            Count.calls += 1
            return call_next(request)

    scripted.embeddings.append(EmbeddingResult(embeddings=[[0.5, 0.25]]))
    model = modelport.wrap(modelport.get_model("scripted/m", script=scripted), Count())
    assert model.embed("hello").embeddings == [[0.5, 0.25]]
    assert Count.calls == 1


def test_wrap_refuses_what_is_not_a_model_or_a_middleware(scripted: testing.Script) -> None:
    model = modelport.get_model("scripted/m", script=scripted)
    with pytest.raises(
        ConfigurationError, match="object is not a middleware: it defines none of transform_request"
    ):
        modelport.wrap(model, object())
    with pytest.raises(ConfigurationError, match=r"wrap\(\) needs a model"):
        modelport.wrap("scripted/m")  # type: ignore[arg-type]


def test_a_duck_typed_middleware_needs_only_its_hook(scripted: testing.Script) -> None:
    class Upper:
        def wrap_generate(self, request: Request, call_next: Any, model: Any) -> Result:
            result = call_next(request)
            return result.model_copy(update={"content": [TextPart(text=result.text.upper())]})

    scripted.results.append(testing.text_result("hi"))
    assert (
        modelport.wrap(modelport.get_model("scripted/m", script=scripted), Upper()).generate(prompt="x").text
        == "HI"
    )
