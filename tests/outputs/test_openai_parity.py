"""The same typed outputs and tool loop on ``openai`` (Chat Completions shapes, as in the vendored
corpus: ``tool_calls`` with ids and JSON-string arguments, ``role: tool`` results)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport import OutputValidationError

from .gemini_fakes import Person, weather

KEY = "sk-test-typed-outputs-000000000000"


def completion(
    message: dict[str, Any], finish: str = "stop", usage: tuple[int, int] = (10, 5)
) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1764000000,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)},
    }


def calls(*cities: str) -> dict[str, Any]:
    tool_calls = [
        {
            "id": f"call_{c}",
            "type": "function",
            "function": {"name": "weather", "arguments": json.dumps({"city": c})},
        }
        for c in cities
    ]
    return completion({"content": None, "tool_calls": tool_calls}, "tool_calls", usage=(20, 8))


class Fake:
    def __init__(self, *bodies: dict[str, Any]) -> None:
        self.bodies = list(bodies)
        self.requests: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(json.loads(request.content))
        return httpx.Response(200, json=self.bodies.pop(0) if len(self.bodies) > 1 else self.bodies[0])

    def model(self) -> modelport.Model:
        return modelport.get_model("openai/gpt-4o-mini", api_key=KEY, transport=httpx.MockTransport(self))


def test_a_pydantic_model_round_trip_sends_a_strict_schema() -> None:
    fake = Fake(completion({"content": '{"name": "Ada", "age": 36}'}))
    assert fake.model().generate(prompt="Who?", response_format=Person).parsed == Person(name="Ada", age=36)
    sent = fake.requests[0]["response_format"]
    assert sent["type"] == "json_schema"
    assert (sent["json_schema"]["name"], sent["json_schema"]["strict"]) == ("Person", True)
    assert sent["json_schema"]["schema"]["required"] == ["name", "age"]
    assert sent["json_schema"]["schema"]["additionalProperties"] is False


def test_an_invalid_answer_raises_the_typed_error() -> None:
    fake = Fake(completion({"content": '{"name": "Ada"}'}))
    with pytest.raises(OutputValidationError) as info:
        fake.model().generate(prompt="Who?", response_format=Person)
    assert (info.value.text, [e["loc"] for e in info.value.errors]) == ('{"name": "Ada"}', [("age",)])


def test_a_two_step_loop_with_parallel_calls() -> None:
    fake = Fake(calls("Paris", "Rome"), completion({"content": "Paris 21°C, Rome 25°C."}, usage=(40, 9)))
    run = fake.model().run(prompt="Weather in Paris and Rome?", tools=[weather])
    assert (run.text, run.stop_reason, len(run.steps)) == ("Paris 21°C, Rome 25°C.", "answer", 2)
    assert (run.usage.input_tokens, run.usage.output_tokens) == (60, 17)
    messages = fake.requests[1]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "tool"]
    assert [c["id"] for c in messages[1]["tool_calls"]] == ["call_Paris", "call_Rome"]
    assert [(m["tool_call_id"], json.loads(m["content"])["temperature"]) for m in messages[2:]] == [
        ("call_Paris", 21),
        ("call_Rome", 25),
    ]


def test_the_async_loop_and_max_steps() -> None:
    fake = Fake(calls("Oslo"))

    async def main() -> modelport.RunResult:
        return await fake.model().arun(prompt="?", tools=[weather], max_steps=2)

    run = asyncio.run(main())
    assert (run.stop_reason, len(run.steps), len(fake.requests)) == ("max-steps", 2, 2)


def test_a_failing_tool_is_an_error_result_sent_back() -> None:
    @modelport.tool
    def weather(city: str) -> str:
        """Fails."""
        raise ValueError("station offline")

    fake = Fake(calls("Oslo"), completion({"content": "Sorry."}))
    run = fake.model().run(prompt="?", tools=[weather])
    assert run.steps[0].tool_results[0].is_error
    assert fake.requests[1]["messages"][2] == {
        "role": "tool",
        "tool_call_id": "call_Oslo",
        "content": "ValueError: station offline",
    }
