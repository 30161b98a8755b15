"""A ``typing.TypedDict`` works as ``response_format`` on every Python: pydantic adapts only
``typing_extensions.TypedDict`` below 3.12, so the core converts one (nested ones too, keys,
optionality and docstrings kept); what cannot be converted is a typed ``InvalidRequestError`` before
any I/O, never pydantic's raw error. Run on 3.10 and 3.12 too (tox py310, py312)."""

from __future__ import annotations

import sys
import typing
from typing import Annotated, TypedDict

import pytest
from pydantic import Field

from modelport.errors import InvalidRequestError
from modelport.outputs import output_type, portable

from .test_openai_parity import Fake, completion


class Inner(TypedDict):
    """A point."""

    x: int


class Outer(TypedDict, total=False):
    points: Annotated[list[Inner], Field(description="the points")]
    label: str | None


class Named(TypedDict):
    name: str


class Mixed(Named, total=False):
    extra: int


class Tree(TypedDict):
    children: list[Tree]


def test_a_typing_typeddict_round_trips_through_a_provider() -> None:
    fake = Fake(completion({"content": '{"points": [{"x": 1}, {"x": 2}], "label": null}'}))
    result = fake.model().generate(prompt="?", response_format=Outer)
    assert result.parsed == {"points": [{"x": 1}, {"x": 2}], "label": None}
    schema = fake.requests[0]["response_format"]["json_schema"]["schema"]
    assert schema["$defs"]["Inner"]["description"] == "A point."
    assert schema["properties"]["points"]["description"] == "the points"
    assert schema["required"] == ["points", "label"]  # strict mode: every key asked for


def test_keys_and_optionality_are_kept() -> None:
    schema = output_type(Outer).schema
    assert (schema["title"], "required" in schema) == ("Outer", False)  # total=False: none required
    assert output_type(Mixed).schema["required"] == ["name"]
    assert output_type(list[Inner]).partial('{"response": [{"x": 1}, {"x"') == [{"x": 1}, {}]


def test_conversion_only_below_3_12() -> None:
    converted = portable(list[Outer])
    if sys.version_info >= (3, 12):
        assert converted is not None and converted == list[Outer]
    else:
        (item,) = typing.get_args(converted)
        assert item is not Outer and item.__name__ == "Outer" and item.__doc__ == Outer.__doc__


def test_a_type_pydantic_cannot_adapt_is_a_typed_error_before_any_io() -> None:
    class Opaque:
        pass

    fake = Fake(completion({"content": "{}"}))
    with pytest.raises(
        InvalidRequestError, match="response_format list: Unable to generate pydantic-core schema"
    ):
        fake.model().generate(prompt="?", response_format=list[Opaque])
    if sys.version_info < (3, 12):  # a recursive one is not converted
        with pytest.raises(InvalidRequestError, match="recursive typing.TypedDict needs typing_extensions"):
            fake.model().generate(prompt="?", response_format=Tree)
    else:
        assert output_type(Tree).schema["$defs"]["Tree"]["properties"]["children"]["items"] == {
            "$ref": "#/$defs/Tree"
        }
    assert fake.requests == []
