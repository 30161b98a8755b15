"""``response_format`` on the Messages API: native JSON outputs (``output_config.format``) on the
models that have them, else the forced answer tool: the body names one tool and forces it, and the
tool's input comes back as the answer's text (generate and stream), a finished answer.

The stream is a real recording of this route (vercel ``anthropic-json-tool.1.chunks.txt``: a
forced tool named ``json``, its input in three ``input_json_delta`` fragments, ``stop_reason``
``tool_use``)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from modelport.errors import InvalidRequestError
from modelport.types import FunctionTool

from . import corpus
from .fakes import message, model

JSON_TOOL = "vercel__ai/packages__anthropic__src____fixtures____anthropic-json-tool.1.chunks.txt"
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
FORMAT = {"type": "json_schema", "name": "json", "schema": SCHEMA}
#: A model without JSON outputs: the forced answer tool is its route.
TOOL_MODEL = "claude-sonnet-4-20250514"
#: The recorded stream's model has JSON outputs; the recording took the tool route by choice.
BY_TOOL = {"anthropic": {"structured_output": "tool"}}


def recorded_answer() -> str:
    frames = corpus.interactions(JSON_TOOL)[0].frames()
    return "".join(f["delta"]["partial_json"] for f in frames if f["type"] == "content_block_delta")


def test_the_body_forces_one_answer_tool() -> None:
    m, answers = model([httpx.Response(200, json=message())], name=TOOL_MODEL)
    m.generate(prompt="Where?", response_format={**FORMAT, "description": "The city."})
    body = answers.body()
    assert body["tools"] == [{"name": "json", "description": "The city.", "input_schema": SCHEMA}]
    assert body["tool_choice"] == {"type": "tool", "name": "json"}


def test_json_without_a_schema_is_any_object_under_the_default_name() -> None:
    m, answers = model([httpx.Response(200, json=message())])
    m.generate(prompt="Where?", response_format="json")
    body = answers.body()
    assert body["tools"] == [
        {
            "name": "response",
            "description": "Give the answer as this tool's input.",
            "input_schema": {"type": "object"},
        }
    ]


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_the_recorded_answer_tool_stream_is_the_answer_text(asynchronous: bool) -> None:
    import asyncio

    recorded = corpus.interactions(JSON_TOOL)[0]
    m, _ = model(
        [httpx.Response(200, headers=recorded.headers, content=recorded.body)], name="claude-haiku-4-5"
    )
    if asynchronous:
        result = asyncio.run(
            m.astream(prompt="Weather?", response_format=FORMAT, provider_options=BY_TOOL).result()
        )
    else:
        result = m.stream(prompt="Weather?", response_format=FORMAT, provider_options=BY_TOOL).result()
    assert result.text == recorded_answer()
    assert json.loads(result.text) == {
        "elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]
    }
    assert (result.finish_reason, result.raw_finish_reason, result.tool_calls) == ("stop", "tool_use", [])


def test_a_generated_answer_tool_call_is_the_answer_text() -> None:
    block = {"type": "tool_use", "id": "toolu_1", "name": "json", "input": {"city": "Paris"}}
    m, _ = model(
        [httpx.Response(200, json=message(content=[block], stop_reason="tool_use"))], name=TOOL_MODEL
    )
    result = m.generate(prompt="Where?", response_format=FORMAT)
    assert (result.text, result.finish_reason, result.tool_calls) == ('{"city": "Paris"}', "stop", [])


@pytest.mark.parametrize(
    ("request_", "problem"),
    [
        ({"reasoning": {"budget_tokens": 2048}, "max_output_tokens": 8192}, "thinking"),
        ({"tools": [FunctionTool(name="clock")]}, "function tools"),
    ],
)
def test_a_forced_answer_with_thinking_or_tools_fails_before_any_io(
    request_: dict[str, Any], problem: str
) -> None:
    m, answers = model([], name=TOOL_MODEL)
    with pytest.raises(InvalidRequestError, match=problem):
        m.generate(prompt="Where?", response_format=FORMAT, **request_)
    assert answers.requests == []


# --------------------------------------------------------------------------- native JSON outputs


@pytest.mark.parametrize("name", ["claude-sonnet-4-5", "claude-haiku-4-5-20251001", "claude-opus-4-6"])
def test_models_with_json_outputs_get_output_config_format(name: str) -> None:
    bounded = {**SCHEMA, "properties": {"city": {"type": "string", "maxLength": 20}}}
    m, answers = model(
        [httpx.Response(200, json=message(content=[{"type": "text", "text": '{"city": "Paris"}'}]))],
        name=name,
    )
    result = m.generate(
        prompt="Where?", response_format={**FORMAT, "schema": bounded, "strict": True}, max_output_tokens=512
    )
    body = answers.body()
    assert body["output_config"] == {
        "format": {"type": "json_schema", "schema": {**SCHEMA, "additionalProperties": False}}
    }
    assert "tools" not in body and "tool_choice" not in body
    assert (result.text, result.finish_reason) == ('{"city": "Paris"}', "stop")
    assert [(w.setting, w.details) for w in result.warnings] == [
        (
            "response_format",
            "Anthropic strict tool use cannot express these schema keywords; not sent: maxLength (at properties.city)",
        )
    ]


def test_json_outputs_go_with_thinking_and_function_tools() -> None:
    m, answers = model([httpx.Response(200, json=message())], name="claude-opus-4-6")
    m.generate(
        prompt="Where?",
        response_format=FORMAT,
        reasoning={"effort": "low"},
        tools=[FunctionTool(name="clock", parameters={"type": "object"})],
    )
    body = answers.body()
    assert body["output_config"] == {
        "format": {"type": "json_schema", "schema": {**SCHEMA, "additionalProperties": False}},
        "effort": "low",
    }
    assert body["thinking"] == {"type": "adaptive"}
    assert [t["name"] for t in body["tools"]] == ["clock"] and "tool_choice" not in body


def test_any_json_has_no_native_form_and_goes_as_the_answer_tool() -> None:
    m, answers = model([httpx.Response(200, json=message())], name="claude-sonnet-4-5")
    m.generate(prompt="Where?", response_format="json")
    body = answers.body()
    assert "output_config" not in body
    assert body["tool_choice"] == {"type": "tool", "name": "response"}


@pytest.mark.parametrize(
    ("name", "response_format", "problem"),
    [
        (TOOL_MODEL, FORMAT, "claude-sonnet-4-20250514 has no JSON outputs"),
        ("claude-sonnet-4-5", "json", "type 'json' has no schema"),
    ],
)
def test_native_asked_where_there_is_none_fails_before_any_io(
    name: str, response_format: Any, problem: str
) -> None:
    m, answers = model([], name=name)
    with pytest.raises(InvalidRequestError, match=problem):
        m.generate(
            prompt="Where?",
            response_format=response_format,
            provider_options={"anthropic": {"structured_output": "native"}},
        )
    assert answers.requests == []
