"""Streams with a Python type as ``response_format`` offer the typed output while it arrives: the core
emits a ``partial-object`` event after each text delta that changes the best-effort parse of the
JSON so far. MOCK chunks in OpenAI's ``chat.completion.chunk`` shape (content deltas), values
invented: what matters is how the JSON is cut."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel

import modelport
from modelport.events import PartialObjectEvent, accumulate, parse_event
from modelport.outputs import partial_json

from ..openai import fakes


class Person(BaseModel):
    name: str
    age: int


def _chunks(*pieces: str) -> list[dict[str, Any]]:
    first = fakes.chunk({"role": "assistant", "content": ""})
    return [first, *(fakes.chunk({"content": piece}) for piece in pieces), fakes.chunk({}, "stop")]


PIECES = ('{"na', 'me": "A', 'da", ', '"age": 3', "6}")


def test_a_stream_offers_the_object_while_it_arrives() -> None:
    model, _ = fakes.model([fakes.sse(_chunks(*PIECES))])
    stream = model.stream(prompt="?", response_format=Person)
    events = list(stream)
    partials = [e.value for e in events if isinstance(e, PartialObjectEvent)]
    assert partials == [
        {},
        {"name": "A"},
        {"name": "Ada"},
        {"name": "Ada", "age": 3},
        {"name": "Ada", "age": 36},
    ]
    # Each comes right after the text delta that changed it.
    kinds = [e.type for e in events]
    assert kinds[kinds.index("partial-object") - 1] == "text-delta"
    assert stream.result().parsed == Person(name="Ada", age=36)
    # The accumulated result is that of the provider's events alone.
    assert accumulate(events).text == "".join(PIECES)


def test_a_wrapped_type_offers_the_unwrapped_value() -> None:
    pieces = ('{"response": [{"name": "Ada", "age": 36}', ', {"name": "Al', 'an", "age": 41}]}')
    model, _ = fakes.model([fakes.sse(_chunks(*pieces))])
    stream = model.stream(prompt="?", response_format=list[Person])
    partials = [e.value for e in stream if isinstance(e, PartialObjectEvent)]
    assert partials == [
        [{"name": "Ada", "age": 36}],
        [{"name": "Ada", "age": 36}, {"name": "Al"}],
        [{"name": "Ada", "age": 36}, {"name": "Alan", "age": 41}],
    ]
    assert stream.result().parsed == [Person(name="Ada", age=36), Person(name="Alan", age=41)]


def test_the_async_stream_offers_the_same() -> None:
    model, _ = fakes.model([fakes.sse(_chunks(*PIECES))])

    async def main() -> list[Any]:
        return [
            e.value
            async for e in model.astream(prompt="?", response_format=Person)
            if e.type == "partial-object"
        ]

    assert asyncio.run(main())[-1] == {"name": "Ada", "age": 36}


def test_no_partial_objects_without_a_python_type() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    model, _ = fakes.model([fakes.sse(_chunks(*PIECES))])
    events = list(model.stream(prompt="?", response_format={"type": "json_schema", "schema": schema}))
    assert "partial-object" not in [e.type for e in events]


def test_the_event_is_part_of_the_stream_event_union() -> None:
    event = parse_event({"type": "partial-object", "value": {"a": [1]}})
    assert event == PartialObjectEvent(value={"a": [1]})
    assert modelport.accumulate([event]).content == []


def test_partial_json_cuts_where_the_text_ends() -> None:
    assert [partial_json(t) for t in ("", "  ", "[", '{"a": "b', '{"a": tr', "nul", '"x')] == [
        None,
        None,
        [],
        {"a": "b"},
        {},
        None,
        "x",
    ]
