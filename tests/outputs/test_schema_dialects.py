"""Response-format schemas compiled per provider (modelport.outputs.schemas): OpenAI's strict dialect, checked
against the ``openai`` package's own strict-schema helper; Gemini's ``responseJsonSchema`` subset;
Anthropic's tool input schema. The five shapes that used to break strict mode (an array root, a
recursive model, a ``$ref`` with siblings, fields named ``default`` and ``properties``) are sent as
the helper would send them and parsed back from a real-shaped OpenAI answer."""

from __future__ import annotations

import copy
import os
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from modelport.errors import InvalidRequestError
from modelport.outputs import output_type
from modelport.outputs.schemas import anthropic_tool_schema, gemini_schema, openai_strict_schema

from . import gemini_fakes as gemini
from .test_openai_parity import Fake, completion


class Person(BaseModel):
    name: str
    age: int | None = None


class Node(BaseModel):
    value: int
    children: list[Node] = []


class Address(BaseModel):
    """A postal address."""

    city: str


class Home(BaseModel):
    home: Address = Field(description="where they live")


class Defaulted(BaseModel):
    default: str
    other: int = 3


class Props(BaseModel):
    properties: list[str]
    required: bool


SHAPES: list[tuple[Any, str, Any]] = [
    (
        list[Person],
        '{"response": [{"name": "Ada", "age": 36}, {"name": "Alan", "age": null}]}',
        [Person(name="Ada", age=36), Person(name="Alan")],
    ),
    (
        Node,
        '{"value": 1, "children": [{"value": 2, "children": []}]}',
        Node(value=1, children=[Node(value=2)]),
    ),
    (Home, '{"home": {"city": "Paris"}}', Home(home=Address(city="Paris"))),
    (Defaulted, '{"default": "x", "other": 4}', Defaulted(default="x", other=4)),
    (Props, '{"properties": ["a"], "required": true}', Props(properties=["a"], required=True)),
]


def _openai_strict_helper() -> Any:
    try:
        from openai.lib._pydantic import _ensure_strict_json_schema
    except ImportError:
        message = "the openai package is needed for the strict-schema cross-check: pip install openai"
        if os.environ.get("CI"):
            pytest.fail(message + " (requirements-dev.txt installs it)")
        pytest.skip(message)
    return _ensure_strict_json_schema


@pytest.mark.parametrize(("tp", "answer", "expected"), SHAPES, ids=lambda v: getattr(v, "__name__", "x"))
def test_each_shape_is_a_fixed_point_of_the_openai_helper_and_parses_back(
    tp: Any, answer: str, expected: Any
) -> None:
    helper = _openai_strict_helper()
    fake = Fake(completion({"content": answer}))
    result = fake.model().generate(prompt="?", response_format=tp)
    assert result.parsed == expected
    assert result.warnings == []
    sent = fake.requests[0]["response_format"]["json_schema"]
    assert sent["strict"] is True
    schema = sent["schema"]
    assert helper(copy.deepcopy(schema), path=(), root=copy.deepcopy(schema)) == schema
    assert schema["type"] == "object" and schema["additionalProperties"] is False


def test_the_shapes_keep_their_meaning() -> None:
    wrapped = openai_strict_schema(output_type(list[Person]).schema).schema
    assert wrapped["required"] == ["response"]
    assert wrapped["properties"]["response"]["items"] == {"$ref": "#/$defs/Person"}
    assert wrapped["$defs"]["Person"]["required"] == ["name", "age"]
    # A recursive root: the model itself at the root, its references to itself kept.
    node = openai_strict_schema(output_type(Node).schema).schema
    assert "$ref" not in node and node["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert node["$defs"]["Node"]["required"] == ["value", "children"]
    # A $ref with a sibling description: inlined, the description kept over the target's.
    home = openai_strict_schema(output_type(Home).schema).schema["properties"]["home"]
    assert (home["description"], home["required"], home["additionalProperties"]) == (
        "where they live",
        ["city"],
        False,
    )
    # Fields named like keywords stay fields.
    defaulted = openai_strict_schema(output_type(Defaulted).schema).schema
    assert defaulted["properties"] == {
        "default": {"type": "string", "title": "Default"},
        "other": {"title": "Other", "type": "integer"},
    }
    props = openai_strict_schema(output_type(Props).schema).schema
    assert list(props["properties"]) == ["properties", "required"] and props["required"] == [
        "properties",
        "required",
    ]


def test_compiling_is_pure_and_idempotent() -> None:
    for tp, _, _ in SHAPES:
        schema = output_type(tp).schema
        before = copy.deepcopy(schema)
        for compile_ in (openai_strict_schema, gemini_schema, anthropic_tool_schema):
            once = compile_(schema)
            assert schema == before
            assert compile_(once.schema).schema == once.schema


def test_a_keyword_strict_mode_cannot_express_is_dropped_with_a_warning_on_the_result() -> None:
    class Tagged(BaseModel):
        name: str = Field(min_length=2)
        tags: list[str] = Field(max_length=3)

    fake = Fake(completion({"content": '{"name": "Ada", "tags": []}'}))
    result = fake.model().generate(prompt="?", response_format=Tagged)
    sent = fake.requests[0]["response_format"]["json_schema"]["schema"]
    assert sent["properties"]["name"] == {"title": "Name", "type": "string"}
    assert sent["properties"]["tags"]["maxItems"] == 3  # strict mode takes maxItems
    assert [(w.type, w.setting) for w in result.warnings] == [("unsupported-setting", "response_format")]
    assert result.warnings[0].details == (
        "OpenAI strict mode cannot express these schema keywords; not sent: minLength (at properties.name)"
    )


def test_what_strict_mode_cannot_express_at_all_is_refused_before_any_io() -> None:
    fake = Fake(completion({"content": "{}"}))
    model = fake.model()
    with pytest.raises(InvalidRequestError, match="needs an object at the schema's root, not array"):
        model.generate(
            prompt="?", response_format={"type": "json_schema", "schema": {"type": "array"}, "strict": True}
        )
    with pytest.raises(InvalidRequestError, match="free-form keys"):
        model.generate(prompt="?", response_format=dict[str, int])
    with pytest.raises(InvalidRequestError, match="not local"):
        openai_strict_schema({"type": "object", "properties": {"a": {"$ref": "https://x.test/s.json"}}})
    assert fake.requests == []


def test_a_hand_written_schema_without_strict_is_sent_as_written() -> None:
    schema = {"type": "array", "items": {"type": "string", "minLength": 1}}
    fake = Fake(completion({"content": '["a"]'}))
    fake.model().generate(prompt="?", response_format={"type": "json_schema", "schema": schema})
    assert fake.requests[0]["response_format"]["json_schema"]["schema"] == schema


# --------------------------------------------------------------------------- Gemini


def test_gemini_gets_its_subset_with_optional_fields_optional() -> None:
    class Pet(BaseModel):
        kind: Literal["cat"]
        name: str = Field(pattern="^[A-Z]")
        owner: Home | None = None

    compiled = gemini_schema(output_type(Pet).schema)
    schema = compiled.schema
    assert schema["required"] == ["kind", "name"]  # optional stays optional
    assert schema["properties"]["kind"] == {"enum": ["cat"], "title": "Kind", "type": "string"}
    assert schema["properties"]["name"] == {"title": "Name", "type": "string"}
    assert "additionalProperties" not in schema
    home = schema["$defs"]["Home"]["properties"]["home"]
    assert "$ref" not in home and home["description"] == "where they live"
    assert [w.details for w in compiled.warnings] == [
        "Gemini responseJsonSchema cannot express these schema keywords; not sent: pattern (at properties.name)"
    ]


def test_the_google_plugin_sends_the_gemini_dialect_and_its_warnings() -> None:
    class Named(BaseModel):
        name: str = Field(max_length=9)

    fake = gemini.Fake(
        gemini.answer([{"text": '{"response": [{"name": "Ada", "age": null}]}'}]),
        gemini.answer([{"text": '{"name": "Ada"}'}]),
    )
    model = fake.model()
    assert model.generate(prompt="?", response_format=list[Person]).parsed == [Person(name="Ada")]
    config = fake.requests[0]["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"]["properties"]["response"]["items"] == {"$ref": "#/$defs/Person"}
    assert config["responseJsonSchema"]["$defs"]["Person"]["required"] == ["name"]
    result = model.generate(prompt="?", response_format=Named)
    assert result.parsed == Named(name="Ada")
    assert fake.requests[1]["generationConfig"]["responseJsonSchema"]["properties"]["name"] == {
        "title": "Name",
        "type": "string",
    }
    assert [w.details for w in result.warnings] == [
        "Gemini responseJsonSchema cannot express these schema keywords; not sent: maxLength (at properties.name)"
    ]


class Chain(BaseModel):
    value: int
    next: Chain  # required all the way: no answer could ever end


def test_gemini_takes_recursion_an_optional_property_breaks_and_refuses_the_rest() -> None:
    assert gemini_schema(output_type(Node).schema).schema["$defs"]["Node"]["required"] == ["value"]
    with pytest.raises(InvalidRequestError, match="through required properties alone"):
        gemini_schema(output_type(Chain).schema)


# --------------------------------------------------------------------------- Anthropic


def test_anthropic_tool_input_schema_needs_an_object_root() -> None:
    plain = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}
    assert anthropic_tool_schema(plain).schema == plain
    assert anthropic_tool_schema(plain).warnings == []
    with pytest.raises(InvalidRequestError, match="Anthropic tool input_schema needs an object"):
        anthropic_tool_schema({"type": "string"})


def test_anthropic_strict_closes_objects_and_drops_bounds_with_a_warning() -> None:
    class Order(BaseModel):
        count: int = Field(ge=1)
        items: list[str] = Field(min_length=2)
        note: str | None = None

    compiled = anthropic_tool_schema(output_type(Order).schema, strict=True)
    assert compiled.schema == {
        "properties": {
            "count": {"title": "Count", "type": "integer"},
            "items": {"items": {"type": "string"}, "title": "Items", "type": "array"},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Note"},
        },
        "required": ["count", "items"],
        "title": "Order",
        "type": "object",
        "additionalProperties": False,
    }
    assert [w.details for w in compiled.warnings] == [
        "Anthropic strict tool use cannot express these schema keywords; not sent: "
        "minimum (at properties.count); minItems 2 (at properties.items)"
    ]


def test_anthropic_strict_refuses_a_recursive_schema() -> None:
    assert anthropic_tool_schema(output_type(Node).schema).schema["$defs"]["Node"]["type"] == "object"
    with pytest.raises(
        InvalidRequestError, match=r"cannot express a schema that refers to itself \(#/\$defs/Node\)"
    ):
        anthropic_tool_schema(output_type(Node).schema, strict=True)
