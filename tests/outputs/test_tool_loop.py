"""Function tools from Python callables and the tool loop (issue 17), through the public API against
Gemini-shaped fakes (tests/outputs/gemini_fakes.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

import modelport
from modelport import tool

from .gemini_fakes import SIGNATURE, Fake, answer, weather

# Function tools ---------------------------------------------------------------------------------


def test_a_function_becomes_a_tool_with_its_docstring_and_schema() -> None:
    assert weather.name == "weather"
    assert weather.description == "The current weather in a city."
    assert weather.parameters == {
        "additionalProperties": False,
        "properties": {"city": {"type": "string"}, "unit": {"default": "celsius", "type": "string"}},
        "required": ["city"],
        "type": "object",
    }
    fake = Fake(answer([{"text": "ok"}]))
    fake.model().generate(prompt="hi", tools=[weather])
    declaration = {
        "name": "weather",
        "description": "The current weather in a city.",
        "parametersJsonSchema": weather.parameters,
    }
    assert fake.requests[0]["tools"] == [{"functionDeclarations": [declaration]}]


def test_arguments_are_validated_before_the_function_runs() -> None:
    calls: list[Any] = []

    @tool(name="count")
    def counter(n: int) -> int:
        calls.append(n)
        return n + 1

    assert counter.arguments({"n": "3"}) == {"n": 3}
    with pytest.raises(
        modelport.InvalidRequestError, match=r"invalid arguments for tool 'count': n: Input should"
    ):
        counter.arguments({"n": "three"})
    assert calls == []


# The tool loop ----------------------------------------------------------------------------------


def two_calls() -> dict[str, Any]:
    return answer(
        [
            {"functionCall": {"name": "weather", "args": {"city": "Paris"}}, "thoughtSignature": SIGNATURE},
            {"functionCall": {"name": "weather", "args": {"city": "Rome"}}},
        ],
        usage=(20, 8),
    )


def test_a_two_step_loop_runs_parallel_calls_and_replays_the_signature() -> None:
    fake = Fake(two_calls(), answer([{"text": "Paris 21°C, Rome 25°C."}], usage=(40, 9)))
    run = fake.model().run(prompt="Weather in Paris and Rome?", tools=[weather])
    assert run.text == "Paris 21°C, Rome 25°C."
    assert (run.stop_reason, len(run.steps)) == ("answer", 2)
    assert [r.output for r in run.steps[0].tool_results] == [
        {"city": "Paris", "temperature": 21, "unit": "celsius"},
        {"city": "Rome", "temperature": 25, "unit": "celsius"},
    ]
    assert (run.usage.input_tokens, run.usage.output_tokens, run.usage.total_tokens) == (60, 17, 77)
    second = fake.requests[1]["contents"]
    assert [c["role"] for c in second] == ["user", "model", "user"]
    assert second[1]["parts"][0] == {
        "functionCall": {"name": "weather", "args": {"city": "Paris"}},
        "thoughtSignature": SIGNATURE,
    }
    assert [p["functionResponse"]["response"]["temperature"] for p in second[2]["parts"]] == [21, 25]
    assert [m.role for m in run.messages] == ["user", "assistant", "tool", "assistant"]


def test_the_async_loop_gives_the_same_run() -> None:
    fake = Fake(two_calls(), answer([{"text": "done"}]))

    async def main() -> modelport.RunResult:
        return await fake.model().arun(prompt="Weather in Paris and Rome?", tools=[weather])

    run = asyncio.run(main())
    assert (run.text, len(run.steps)) == ("done", 2)
    assert [r.output["city"] for r in run.steps[0].tool_results] == ["Paris", "Rome"]


def test_max_steps_stops_a_model_that_keeps_calling() -> None:
    fake = Fake(two_calls())
    run = fake.model().run(prompt="?", tools=[weather], max_steps=3)
    assert (run.stop_reason, len(run.steps), len(fake.requests)) == ("max-steps", 3, 3)


def test_a_stop_condition_ends_the_run() -> None:
    fake = Fake(two_calls())
    stop: Callable[[Any], bool] = lambda step: len(step.tool_results) == 2  # noqa: E731
    run = fake.model().run(prompt="?", tools=[weather], stop_when=stop)
    assert (run.stop_reason, len(run.steps)) == ("stopped", 1)


def test_a_failing_tool_becomes_an_error_result_the_model_sees() -> None:
    @tool
    def broken(city: str) -> str:
        """Always fails."""
        raise RuntimeError(f"no data for {city}")

    call = answer([{"functionCall": {"name": "broken", "args": {"city": "Paris"}}}])
    fake = Fake(call, answer([{"text": "Sorry."}]))
    run = fake.model().run(prompt="?", tools=[broken])
    (result,) = run.steps[0].tool_results
    assert (result.is_error, result.output) == (True, "RuntimeError: no data for Paris")
    sent = fake.requests[1]["contents"][2]["parts"][0]["functionResponse"]
    assert sent == {"name": "broken", "response": {"error": "RuntimeError: no data for Paris"}}


def test_bad_arguments_and_unknown_tools_are_error_results_too() -> None:
    call = answer([
        {"functionCall": {"name": "weather", "args": {"town": "Paris"}}},
        {"functionCall": {"name": "nope", "args": {}}},
    ])  # fmt: skip
    fake = Fake(call, answer([{"text": "ok"}]))
    run = fake.model().run(prompt="?", tools=[weather])
    first, second = run.steps[0].tool_results
    assert first.is_error and first.output.startswith(
        "invalid arguments for tool 'weather': city: Field required"
    )
    assert (second.is_error, second.output) == (True, "no tool named 'nope' is available")


def test_a_provider_executed_call_is_never_run_locally() -> None:
    ran: list[str] = []

    @tool
    def run_python(code: str) -> str:
        """A local tool that must not be confused with the provider's own code execution."""
        ran.append(code)
        return "local"

    body = answer([
        {"executableCode": {"language": "PYTHON", "code": "print(1 + 1)"}},
        {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "2\n"}},
        {"text": "It is 2."},
    ])  # fmt: skip
    fake = Fake(body)
    run = fake.model().run(
        prompt="1+1?", tools=[run_python, {"type": "provider", "id": "google.code_execution"}]
    )
    assert (run.text, run.stop_reason, len(run.steps), ran) == ("It is 2.", "answer", 1, [])
    assert run.steps[0].tool_results == []  # the provider's call is neither run nor answered
    assert [p.provider_executed for p in run.result.content if p.type == "tool-call"] == [True]


def test_a_streamed_run_yields_every_step_and_the_same_result() -> None:
    fake = Fake(two_calls(), answer([{"text": "done"}]))
    stream = fake.model().run_stream(prompt="?", tools=[weather])
    types = [e.type for e in stream]
    assert types.count("stream-start") == 2 and types.count("finish") == 2
    run = stream.result()
    assert (run.text, len(run.steps)) == ("done", 2)
