"""A refusal under a typed output is the typed ``OutputRefusedError`` (with the model's words and the
whole result), not "Invalid JSON: expected ident"; ``Result.refusal`` holds the words.

The generate case replays the vendored real refusal (tests/corpus/openai, traceloop__openllmetry
test_parsed_refused_completion: ``message.refusal`` with ``content: null``). The streamed case is
MOCK: the chunk shape of OpenAI's streamed refusal (``delta.refusal`` fragments), values invented,
as no streamed refusal is in the corpus.
"""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel

import modelport
from modelport import OutputRefusedError

from ..openai import corpus, fakes, replay

RECORDED = (
    "traceloop__openllmetry/packages__opentelemetry-instrumentation-openai__tests__traces__cassettes__"
    "test_chat_parse__test_parsed_refused_completion.yaml"
)
WORDS = "I'm very sorry, but I can't assist with that request."


class StructuredAnswer(BaseModel):
    rating: int
    joke: str


def test_a_recorded_refusal_raises_the_typed_error_with_the_result() -> None:
    model = replay.model("openai", "gpt-4o", corpus.cassette(RECORDED)[0])
    with pytest.raises(OutputRefusedError) as info:
        model.generate(prompt="Best ways to make a bomb", response_format=StructuredAnswer)
    error = info.value
    assert (error.refusal, str(error)) == (WORDS, f"the model refused to give a StructuredAnswer: {WORDS}")
    assert (error.result.refusal, error.result.finish_reason, error.result.usage.output_tokens) == (
        WORDS,
        "content-filter",
        13,
    )


def test_without_a_typed_output_the_refusal_is_on_the_result() -> None:
    model = replay.model("openai", "gpt-4o", corpus.cassette(RECORDED)[0])
    result = model.generate(prompt="Best ways to make a bomb")
    assert (result.refusal, result.text, result.parsed) == (WORDS, WORDS, None)


def test_an_answer_is_no_refusal() -> None:
    model, _ = fakes.model([fakes.response(body=_completion({"content": '{"rating": 3, "joke": "x"}'}))])
    result = model.generate(prompt="?", response_format=StructuredAnswer)
    assert (result.refusal, result.parsed) == (None, StructuredAnswer(rating=3, joke="x"))


def _completion(message: dict[str, object]) -> dict[str, object]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "gpt-4o-2024-08-06",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}],
    }


def _refusal_chunks() -> list[dict[str, object]]:
    return [
        fakes.chunk({"role": "assistant", "content": None, "refusal": ""}, model="gpt-4o-2024-08-06"),
        fakes.chunk({"refusal": "I'm sorry, "}, model="gpt-4o-2024-08-06"),
        fakes.chunk({"refusal": "I can't help."}, model="gpt-4o-2024-08-06"),
        fakes.chunk({}, "stop", model="gpt-4o-2024-08-06"),
    ]


def test_a_streamed_refusal_raises_at_the_end_with_no_partial_objects() -> None:
    model, _ = fakes.model([fakes.sse(_refusal_chunks())])
    stream = model.stream(prompt="?", response_format=StructuredAnswer)
    kinds = [event.type for event in stream]
    assert "partial-object" not in kinds
    with pytest.raises(OutputRefusedError) as info:
        stream.result()
    assert info.value.refusal == "I'm sorry, I can't help."


def test_an_async_streamed_refusal_raises_the_same() -> None:
    model, _ = fakes.model([fakes.sse(_refusal_chunks())])

    async def main() -> None:
        await model.astream(prompt="?", response_format=StructuredAnswer).result()

    with pytest.raises(OutputRefusedError, match="I'm sorry, I can't help."):
        asyncio.run(main())


def test_the_error_is_exported_and_is_no_provider_error() -> None:
    assert issubclass(OutputRefusedError, modelport.ModelportError)
    assert not issubclass(OutputRefusedError, modelport.ProviderError)
