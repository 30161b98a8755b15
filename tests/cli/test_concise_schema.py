"""``--schema 'city, country'``: a JSON schema written as a field list, as llm's concise syntax.

The round trip runs against the recorded Ollama answer to pydantic-ai's ``CityLocation`` request
(tests/corpus, REAL): the field list ``city, country`` sends the same properties and required list
that pydantic-ai's model did, and the parsed answer is printed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import main
from modelport.cli._concise_schema import MAX_CONCISE_SCHEMA, concise_schema
from tests.loopback import Loopback

from .test_generate_options import CITY_SCHEMA, MODEL, _structured


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_a_field_list_sends_the_schema_a_model_would_and_prints_the_answer() -> None:
    with Loopback(_structured) as server:
        result = run("generate", MODEL, "--base-url", server.url + "/v1", "--schema", "city, country", "q")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"city": "Paris", "country": "France"}
    sent = json.loads(server.received[0].body)["response_format"]["json_schema"]["schema"]
    assert sent["properties"] == CITY_SCHEMA["properties"]
    assert sent["required"] == CITY_SCHEMA["required"]


def test_types_descriptions_and_new_lines() -> None:
    assert concise_schema("name, age int: in years\nheight float, alive BOOL,  bio string : one line") == {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "age": {"type": "integer", "description": "in years"},
            "height": {"type": "number"},
            "alive": {"type": "boolean"},
            "bio": {"type": "string", "description": "one line"},
        },
        "required": ["name", "age", "height", "alive", "bio"],
        "additionalProperties": False,
    }
    assert concise_schema("note: a, b")["properties"] == {  # a comma ends the description
        "note": {"type": "string", "description": "a"},
        "b": {"type": "string"},
    }


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("age integerr", "field 'age': type 'integerr' is not one of str, int, float, bool"),
        ("name, name int", "field 'name' is given twice"),
        ("2fast", "'2fast' is not NAME [TYPE][: DESCRIPTION] (e.g. 'age int: in years')"),
        ("age int extra", "'age int extra' is not NAME [TYPE][: DESCRIPTION] (e.g. 'age int: in years')"),
        (" , \n", "the field list names no field"),
        ("a," * MAX_CONCISE_SCHEMA, f"a field list is at most {MAX_CONCISE_SCHEMA} characters"),
    ],
)
def test_a_bad_field_list_is_one_line_of_usage_error(spec: str, why: str) -> None:
    with pytest.raises(ValueError) as raised:
        concise_schema(spec)
    assert str(raised.value) == why
    result = run("generate", MODEL, "--base-url", "http://127.0.0.1:9/v1", "--schema", spec, "q")
    assert result.exit_code == 2
    assert why in result.output
    assert "Traceback" not in result.output


def test_module_type_is_still_a_type_and_not_a_field_list() -> None:
    result = run(
        "generate", MODEL, "--base-url", "http://127.0.0.1:9/v1", "--schema", "no_such_mod:Person", "q"
    )
    assert result.exit_code == 2
    assert "no_such_mod:Person: No module named 'no_such_mod'" in result.output
