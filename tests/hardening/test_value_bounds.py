"""Input and usage bounds (issue 14, item 11): out-of-range seeds, tool parameters that are no JSON
schema object, ``reasoning.enabled`` coerced from a string, negative usage counts, and a
non-object ``functionCall.args`` turned silently into ``{}``.

(The request body cached on the provider is covered with the core's I/O.)
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError, ProviderResponseError
from modelport.types import MAX_SAFE_INTEGER, ToolCallPart, Usage

KEY = "test-key-not-a-secret"
OK = {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}


class Counting(httpx.MockTransport):
    def __init__(self, body: Any = OK, *, sse: bool = False) -> None:
        self.requests: list[httpx.Request] = []

        def handle(request: httpx.Request) -> httpx.Response:
            self.requests.append(request)
            if sse:
                frames = body if isinstance(body, list) else [body]
                content = "".join(f"data: {json.dumps(f)}\r\n\r\n" for f in frames).encode()
                return httpx.Response(200, content=content, headers={"content-type": "text/event-stream"})
            return httpx.Response(200, json=body)

        super().__init__(handle)


def model(transport: httpx.MockTransport) -> modelport.Model:
    return modelport.get_model("google/gemini-2.5-flash", api_key=KEY, transport=transport, max_retries=0)


def rejected(kwargs: dict[str, Any]) -> str:
    """The message of the InvalidRequestError the request gives, on every call, with nothing sent."""
    transport = Counting()
    messages = set()
    for call in ("generate", "stream", "agenerate"):
        with pytest.raises(InvalidRequestError) as info:
            if call == "agenerate":
                asyncio.run(model(transport).agenerate(**kwargs))
            elif call == "stream":
                model(transport).stream(**kwargs).result()
            else:
                model(transport).generate(**kwargs)
        assert type(info.value) is InvalidRequestError
        messages.add(str(info.value))
    assert transport.requests == []
    assert len(messages) == 1
    return messages.pop()


# --------------------------------------------------------------------------- seed


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        (2**80, "invalid request: seed: Input should be less than or equal to 9007199254740991"),
        (
            MAX_SAFE_INTEGER + 1,
            "invalid request: seed: Input should be less than or equal to 9007199254740991",
        ),
        (-(2**80), "invalid request: seed: Input should be greater than or equal to -9007199254740991"),
    ],
)
def test_a_seed_outside_the_exact_json_range_is_rejected(seed: int, message: str) -> None:
    assert rejected({"prompt": "x", "seed": seed}) == message


@pytest.mark.parametrize("seed", [0, 42, -7, 2**31 - 1, -(2**31)])
def test_seeds_in_range_are_sent(seed: int) -> None:
    # Gemini's seed is an int32 on the wire (its provider's request_bounds, issue 34).
    transport = Counting()
    model(transport).generate(prompt="x", seed=seed)
    assert json.loads(transport.requests[0].content)["generationConfig"]["seed"] == seed


@pytest.mark.parametrize("seed", [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER])
def test_the_exact_json_range_is_the_request_models_bound(seed: int) -> None:
    chat = modelport.get_model("openai/gpt-4.1", api_key=KEY)
    body = chat.provider.prepare(chat.name, chat.prepare(prompt="x", seed=seed)).wire.body
    assert body["seed"] == seed


# --------------------------------------------------------------------------- tool parameters

PARAMS_PREFIX = "invalid request: tools.0.function.parameters: Value error, "


@pytest.mark.parametrize(
    ("parameters", "problem"),
    [
        ({"type": 5}, "must be a JSON schema of type 'object', got type 5"),
        ({"type": "string"}, "must be a JSON schema of type 'object', got type 'string'"),
        ({"type": ["object", "null"]}, "must be a JSON schema of type 'object', got type ['object', 'null']"),
        (
            {"type": "object", "properties": []},
            "'properties' must map each argument name to its JSON schema (an object)",
        ),
        (
            {"type": "object", "properties": {"a": 5}},
            "'properties' must map each argument name to its JSON schema (an object)",
        ),
        ({"type": "object", "required": "a"}, "'required' must be a list of argument names"),
        ({"type": "object", "required": [1]}, "'required' must be a list of argument names"),
    ],
)
def test_tool_parameters_must_be_an_object_schema(parameters: dict[str, Any], problem: str) -> None:
    tool = {"type": "function", "name": "lookup", "parameters": parameters}
    assert rejected({"prompt": "x", "tools": [tool]}) == PARAMS_PREFIX + problem


@pytest.mark.parametrize(
    "parameters",
    [
        {"type": "object", "properties": {}},
        {"type": "object", "properties": {"city": {"type": "string"}, "any": True}, "required": ["city"]},
        {"properties": {"city": {"type": "string"}}},  # "type" left out: an object schema by default
    ],
)
def test_object_schemas_are_sent(parameters: dict[str, Any]) -> None:
    transport = Counting()
    model(transport).generate(
        prompt="x", tools=[{"type": "function", "name": "lookup", "parameters": parameters}]
    )
    body = json.loads(transport.requests[0].content)
    assert body["tools"][0]["functionDeclarations"][0]["parametersJsonSchema"] == parameters


# --------------------------------------------------------------------------- reasoning.enabled


@pytest.mark.parametrize("enabled", ["no", "false", "true", 0, 1, "0"])
def test_reasoning_enabled_must_be_a_bool(enabled: Any) -> None:
    assert rejected({"prompt": "x", "reasoning": {"enabled": enabled}}) == (
        "invalid request: reasoning.enabled: Input should be a valid boolean"
    )


# --------------------------------------------------------------------------- usage counts


def test_a_negative_usage_count_is_not_reported() -> None:
    assert Usage(input_tokens=-5, output_tokens=3, total_tokens=-1) == Usage(output_tokens=3)
    assert Usage(input_tokens=MAX_SAFE_INTEGER + 1).input_tokens is None
    assert Usage.model_validate({"cached_input_tokens": -2}).cache_read_input_tokens is None
    assert Usage(input_tokens=0, output_tokens=MAX_SAFE_INTEGER).output_tokens == MAX_SAFE_INTEGER


@pytest.mark.parametrize("stream", [False, True])
def test_negative_counts_from_the_provider_are_dropped(stream: bool) -> None:
    body = {
        **OK,
        "usageMetadata": {"promptTokenCount": -5, "candidatesTokenCount": 3, "totalTokenCount": -2},
    }
    m = model(Counting(body, sse=stream))
    result = m.stream(prompt="x").result() if stream else m.generate(prompt="x")
    assert result.usage == Usage(output_tokens=3)


# --------------------------------------------------------------------------- functionCall.args


def _call(args: Any) -> dict[str, Any]:
    return {
        "candidates": [
            {
                "content": {"parts": [{"functionCall": {"name": "lookup", "args": args}}]},
                "finishReason": "STOP",
            }
        ]
    }


@pytest.mark.parametrize(
    ("args", "kind"), [([1, 2], "list"), ("city=Paris", "str"), (5, "int"), (True, "bool")]
)
@pytest.mark.parametrize("stream", [False, True])
def test_non_object_function_call_args_are_a_response_error(args: Any, kind: str, stream: bool) -> None:
    m = model(Counting(_call(args), sse=stream))
    with pytest.raises(ProviderResponseError) as info:
        m.stream(prompt="x").result() if stream else m.generate(prompt="x")
    assert type(info.value) is ProviderResponseError
    assert str(info.value) == (
        f"google: malformed Gemini response: TypeError: functionCall.args must be an object, got {kind}"
    )


@pytest.mark.parametrize("args", [None, {}])
def test_absent_or_null_function_call_args_are_no_arguments(args: Any) -> None:
    result = model(Counting(_call(args))).generate(prompt="x")
    assert result.tool_calls == [ToolCallPart(id="call-0", name="lookup", args={})]


def test_replaying_raw_parts_with_non_object_args_is_an_invalid_request() -> None:
    message = {
        "role": "assistant",
        "content": [{"type": "tool-call", "id": "call-0", "name": "lookup", "args": {}}],
        "provider_metadata": {"google": {"parts": [{"functionCall": {"name": "lookup", "args": [1]}}]}},
    }
    messages = [
        {"role": "user", "content": "hi"},
        message,
        {
            "role": "tool",
            "content": [{"type": "tool-result", "call_id": "call-0", "name": "lookup", "output": 1}],
        },
    ]
    assert rejected({"messages": messages}) == (
        "provider_metadata['google']['parts'] is malformed: functionCall.args must be an object, got list"
    )
