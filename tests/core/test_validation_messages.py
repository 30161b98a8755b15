"""One formatter turns a pydantic ``ValidationError`` into the "where: problem" part of every message.

``modelport.errors.validation_message`` serves the core (request, Python tools, provider tools) and
the plugins (options, provider-tool builders, the grounding envelope); each caller's message is
asserted here to the byte, so the shared formatter changes none of them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from modelport_openai._options import parse_options as openai_options
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import modelport
from modelport.errors import InvalidRequestError, ProviderMetadataError, ProviderToolError, validation_message
from modelport.outputs import OutputValidationError, output_type
from modelport.types import Result, TextPart
from modelport_google._options import parse_options as google_options
from modelport_google.grounding import build_envelope, decode
from modelport_google.tools import file_search, google_search


class Point(BaseModel):
    model_config = ConfigDict(extra="forbid")

    x: int
    tags: list[str] = Field(default_factory=list)


def error_of(value: Any) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        Point.model_validate(value)
    return info.value


def test_every_problem_is_its_dotted_location_and_pydantic_text_in_order() -> None:
    error = error_of({"x": "one", "tags": ["a", 2], "z": 1})
    assert validation_message(error) == (
        "x: Input should be a valid integer, unable to parse string as an integer; "
        "tags.1: Input should be a valid string; z: Extra inputs are not permitted"
    )


def test_a_problem_with_the_whole_value_is_placed_at_root() -> None:
    error = error_of("not a mapping")
    assert validation_message(error, root="point") == (
        "point: Input should be a valid dictionary or instance of Point"
    )
    assert validation_message(error) == ": Input should be a valid dictionary or instance of Point"


def test_limit_keeps_the_first_problems() -> None:
    error = error_of({"x": "one", "tags": "a", "z": 1})
    assert validation_message(error, limit=1) == (
        "x: Input should be a valid integer, unable to parse string as an integer"
    )
    assert validation_message(error, limit=2).count("; ") == 1
    assert validation_message(error, limit=0) == ""


def test_the_list_of_problems_serves_as_well_as_the_error() -> None:
    problems = error_of({"x": "one", "tags": ["a", 2]}).errors(include_url=False, include_input=False)
    moved = [{**p, "loc": p["loc"][1:]} for p in problems]  # as a caller that strips an envelope
    assert validation_message(moved, root="answer") == (
        "answer: Input should be a valid integer, unable to parse string as an integer; "
        "1: Input should be a valid string"
    )


def test_the_value_given_never_reaches_the_message() -> None:
    secret = "sk-canary-0123456789abcdef"
    message = validation_message(error_of({"x": secret, "tags": [secret]}))
    assert secret not in message
    assert "https://errors.pydantic.dev" not in message


def test_the_formatter_is_public() -> None:
    assert "validation_message" in modelport.errors.__all__


# Each caller, by its message to the byte.


def test_request_keywords() -> None:
    with pytest.raises(InvalidRequestError) as info:
        modelport.get_model("google/gemini-2.5-flash", api_key="k").generate(prompt="hi", temprature=1)
    assert (
        str(info.value)
        == "invalid request: temprature: Extra inputs are not permitted (did you mean temperature=?)"
    )


def test_python_tool_arguments() -> None:
    @modelport.tool
    def count(n: int) -> int:
        """Count."""
        return n

    with pytest.raises(InvalidRequestError) as info:
        count.arguments({"n": "many"})
    assert str(info.value) == (
        "invalid arguments for tool 'count': n: Input should be a valid integer, "
        "unable to parse string as an integer"
    )


def test_google_options() -> None:
    with pytest.raises(InvalidRequestError) as info:
        google_options({"google": {"thinkingBudget": -5, "bogus": 1}}, "google")
    assert str(info.value) == (
        "invalid provider_options for Google: thinkingBudget: Input should be greater than or equal to -1; "
        "bogus: Extra inputs are not permitted"
    )


def test_openai_options_at_the_root_and_by_field() -> None:
    with pytest.raises(InvalidRequestError) as info:
        openai_options({"openai": "fast"}, "openai")  # type: ignore[dict-item]
    assert str(info.value) == (
        "invalid provider_options['openai']: openai: Input should be a valid dictionary or instance of OpenAIOptions"
    )
    with pytest.raises(InvalidRequestError) as info:
        openai_options({"groq": {"logprobs": "yes", "top_logprobs": 99}}, "groq")
    assert str(info.value) == (
        "invalid provider_options['groq']: logprobs: Input should be a valid boolean; "
        "top_logprobs: Input should be less than or equal to 20"
    )


def test_google_provider_tool_builders() -> None:
    with pytest.raises(ProviderToolError) as info:
        google_search(time_range=("2025-01-31T00:00:00Z", "yesterday"))
    assert str(info.value) == (
        "provider tool 'google.google_search': invalid arguments: timeRangeFilter.endTime: Value error, "
        "'yesterday' is not an RFC 3339 timestamp (e.g. 2025-01-31T00:00:00Z)"
    )
    with pytest.raises(ProviderToolError) as info:
        file_search(["fileSearchStores/a"], top_k="ten")  # type: ignore[arg-type]
    assert str(info.value) == (
        "provider tool 'google.file_search': invalid arguments: topK: Input should be a valid integer"
    )


def test_typed_output_names_five_problems_inside_the_envelope() -> None:
    text = json.dumps({"response": ["a", "b", "c", "d", "e", "f", "g"]})
    with pytest.raises(OutputValidationError) as info:
        output_type(list[int]).parse(Result(content=[TextPart(text=text)], finish_reason="stop"))
    problem = "Input should be a valid integer, unable to parse string as an integer"
    assert str(info.value) == "the answer is not a valid list: " + "; ".join(
        f"{i}: {problem}" for i in range(5)
    )
    assert len(info.value.errors) == 7
    with pytest.raises(OutputValidationError) as info:
        output_type(list[int]).parse(Result(content=[TextPart(text='{"list": [1]}')], finish_reason="stop"))
    assert str(info.value) == "the answer is not a valid list: answer: Field required"


def test_grounding_envelope_names_the_first_problem_only() -> None:
    result = Result(content=[TextPart(text="Hi")], finish_reason="stop")
    data = build_envelope(result, {})
    data["outcome"] = {"status": "done", "result": {"content": 5}}
    with pytest.raises(ProviderMetadataError) as info:
        decode(data)
    assert str(info.value) == (
        "google: invalid grounding envelope: outcome.status: Input should be 'ok', 'tool-calls' or 'streamed'"
    )
