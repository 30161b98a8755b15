"""Typed outputs (issue 17): a response format given as a Python type sends its schema and parses the
answer, through the public API against Gemini-shaped fakes (tests/outputs/gemini_fakes.py)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from typing_extensions import TypedDict

from modelport import OutputValidationError

from .gemini_fakes import Fake, Person, answer


def test_a_pydantic_model_as_response_format_sends_its_schema_and_parses_the_answer() -> None:
    fake = Fake(answer([{"text": '{"name": "Ada", "age": 36}'}]))
    result = fake.model().generate(prompt="Who?", response_format=Person)
    assert result.parsed == Person(name="Ada", age=36)
    config = fake.requests[0]["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"] == {  # pydantic's schema, in Gemini's dialect
        "description": "A person.",
        "properties": {
            "name": {"title": "Name", "type": "string"},
            "age": {"title": "Age", "type": "integer"},
        },
        "required": ["name", "age"],
        "title": "Person",
        "type": "object",
    }


@pytest.mark.parametrize(
    ("tp", "text", "expected"),
    [
        (list[int], '{"response": [1, 2, 3]}', [1, 2, 3]),  # wrapped: not an object
        (TypedDict("Point", {"x": int, "y": int}), '{"x": 1, "y": 2}', {"x": 1, "y": 2}),
    ],
)
def test_any_type_pydantic_adapts_is_an_output_type(tp: Any, text: str, expected: Any) -> None:
    fake = Fake(answer([{"text": text}]))
    assert fake.model().generate(prompt="?", response_format=tp).parsed == expected


def test_a_dataclass_output() -> None:
    @dataclass
    class City:
        name: str
        population: int

    fake = Fake(answer([{"text": '{"name": "Oslo", "population": 709000}'}]))
    assert fake.model().generate(prompt="?", response_format=City).parsed == City("Oslo", 709000)


def test_an_answer_that_does_not_validate_raises_the_typed_output_error() -> None:
    fake = Fake(answer([{"text": '{"name": "Ada", "age": "old"}'}]))
    with pytest.raises(OutputValidationError) as info:
        fake.model().generate(prompt="Who?", response_format=Person)
    error = info.value
    assert error.text == '{"name": "Ada", "age": "old"}'
    assert [(e["loc"], e["type"]) for e in error.errors] == [(("age",), "int_parsing")]
    assert str(error).startswith("the answer is not a valid Person: age: Input should be a valid integer")
    assert error.result.text == error.text


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_stream_gives_the_same_parsed_result(asynchronous: bool) -> None:
    fake = Fake(answer([{"text": '{"name": "Ada", "age": 36}'}]))
    model = fake.model()
    if asynchronous:

        async def main() -> Any:
            return await model.astream(prompt="Who?", response_format=Person).result()

        result = asyncio.run(main())
    else:
        result = model.stream(prompt="Who?", response_format=Person).result()
    assert result.parsed == Person(name="Ada", age=36)


def test_plain_requests_have_no_parsed_value() -> None:
    assert Fake(answer([{"text": "hi"}])).model().generate(prompt="hi").parsed is None
