"""Edges of the tool loop (issue 23): outputs a request cannot carry, errors that end a run keep the
finished steps, tool parameters named like pydantic's own attributes, a blocking tool past the
deadline, an async tool (or hook) in a sync run inside a running event loop.

The model's side is recorded OpenAI traffic replayed on ``httpx.MockTransport`` (simonw/llm's
``test_tool_use_chain_of_two_calls``: ``lookup_population`` for Crumpet, ``can_have_dragons`` for
123124, then "YES"; pydantic-ai's o1-mini 400 for an error mid-run; tests/corpus/openai/MANIFEST.md).
"""

from __future__ import annotations

import asyncio
import threading
import time
import warnings
from typing import Any

import httpx
import pytest

import modelport
from modelport import DeadlineExceededError, ProviderRequestError, tool
from modelport.types import ToolCallPart

from ..openai.corpus import cassette
from ..openai.fakes import Recorder
from .test_tool_loop_approval import CHAIN, STREAMED, recorded, tool_messages

REJECTED = "pydantic__pydantic-ai/tests__models__cassettes__test_openai__test_openai_o1_mini_system_role[developer].yaml"
PROMPT = "Can the country of Crumpet have dragons? Answer with only YES or NO"


def nested(depth: int) -> Any:
    """``depth`` lists, one inside the other, around a string."""
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


def tools(population: Any, dragons: Any) -> list[Any]:
    """The cassette's two tools, returning (or raising) what a test gives them."""

    def answer(value: Any) -> Any:
        if isinstance(value, BaseException):
            raise value
        return value

    @tool
    def lookup_population(country: str) -> Any:
        """Returns the current population of the specified fictional country"""
        return answer(population)

    @tool
    def can_have_dragons(population: int) -> Any:
        """Returns True if the specified population can have dragons, False otherwise"""
        return answer(dragons)

    return [lookup_population, can_have_dragons]


# Outputs a request cannot carry ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("population", "dragons", "errors"),
    [
        (
            "123\ud800124",
            nested(200),
            [
                "the output of tool 'lookup_population' cannot be sent: it holds a lone surrogate "
                "'\\ud800', which UTF-8 cannot encode",
                "the output of tool 'can_have_dragons' is nested deeper than 128 levels",
            ],
        ),
        (
            {"country": "Cr\udc80mpet"},  # os.listdir() gives such names for undecodable bytes
            nested(100_000),  # too deep for pydantic and for str(): its text cannot be had either
            [
                "the output of tool 'lookup_population' cannot be sent: it holds a lone surrogate "
                "'\\udc80', which UTF-8 cannot encode",
                "the output of tool 'can_have_dragons' has no text: RecursionError: maximum recursion depth exceeded",
            ],
        ),
        (
            ValueError("no census for \udcff"),  # an exception's own text may hold a lone surrogate
            {"deep": nested(128)},  # 129 levels with the dict
            [
                "ValueError: no census for \\udcff",
                "the output of tool 'can_have_dragons' is nested deeper than 128 levels",
            ],
        ),
    ],
)
def test_an_output_a_request_cannot_carry_is_an_error_result_and_the_run_goes_on(
    population: Any, dragons: Any, errors: list[str]
) -> None:
    model, recorder = recorded(CHAIN)
    run = model.run(prompt=PROMPT, tools=tools(population, dragons))
    assert (run.text, run.stop_reason, len(run.steps)) == ("YES", "answer", 3)
    results = [r for step in run.steps for r in step.tool_results]
    if "RecursionError" in errors[1]:  # Python's wording goes on differently from version to version
        assert results[1].output.startswith(errors[1])
        errors = [errors[0], results[1].output]
    assert [(r.is_error, r.output) for r in results] == [(True, e) for e in errors]
    sent = tool_messages(recorder)[2]
    assert [m["content"] for m in sent] == errors


def test_an_output_at_the_depth_limit_is_sent_as_it_is() -> None:
    model, recorder = recorded(CHAIN)
    run = model.run(prompt=PROMPT, tools=tools(nested(128), True))
    assert run.steps[0].tool_results[0].output == nested(128)
    assert not run.steps[0].tool_results[0].is_error


# An error that ends a run keeps the finished steps ----------------------------------------------


def test_a_provider_error_mid_run_carries_the_finished_steps() -> None:
    chain, rejected = cassette(CHAIN), cassette(REJECTED)[0]
    replies = [
        httpx.Response(chain[0].status, headers=chain[0].headers, content=chain[0].body),
        httpx.Response(rejected.status, headers=rejected.headers, content=rejected.body),
    ]
    recorder = Recorder(replies)
    model = modelport.get_model(
        "openai/gpt-4o-mini", api_key="sk-test-edges-000000", transport=httpx.MockTransport(recorder)
    )
    with pytest.raises(ProviderRequestError) as info:
        model.run(prompt=PROMPT, tools=tools(123124, True))
    error = info.value
    assert error.status_code == 400
    assert error.steps is not None and len(error.steps) == 1
    (step,) = error.steps
    assert step.result.tool_calls[0].id == "call_TTY8UFNo7rNCaOBUNtlRSvMG"
    assert [(r.output, r.is_error) for r in step.tool_results] == [(123124, False)]


def test_errors_outside_a_run_carry_no_steps() -> None:
    assert modelport.InvalidRequestError("x").steps is None


# Tool parameters named like pydantic's own attributes ------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["model_config", "_path", "model_fields", "schema", "copy", "dict", "json", "validate", "__private"],
)
def test_a_parameter_keeps_its_name_whatever_pydantic_reserves(name: str) -> None:
    ns: dict[str, Any] = {}
    exec(
        f"def fetch(city: str, {name}: int = 3) -> str:\n    'Fetch.'\n    return f'{{city}}:{{{name}}}'", ns
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pydantic warns when a field shadows one of its attributes
        fetch = tool(ns["fetch"])
    assert fetch.parameters == {
        "additionalProperties": False,
        "properties": {"city": {"type": "string"}, name: {"default": 3, "type": "integer"}},
        "required": ["city"],
        "type": "object",
    }
    assert fetch.arguments({"city": "Oslo", name: "7"}) == {"city": "Oslo", name: 7}
    assert fetch.arguments({"city": "Oslo"}) == {"city": "Oslo", name: 3}
    with pytest.raises(
        modelport.InvalidRequestError,
        match=rf"invalid arguments for tool 'fetch': {name}: Input should be a valid integer",
    ):
        fetch.arguments({"city": "Oslo", name: "seven"})
    with pytest.raises(modelport.InvalidRequestError, match=r"p1: Extra inputs are not permitted"):
        fetch.arguments({"city": "Oslo", "p1": 4})  # the field's inner name is no way in


def test_a_reserved_parameter_name_reaches_the_function_through_the_loop() -> None:
    seen: list[Any] = []

    @tool
    def lookup_population(country: str, model_config: str = "default", _path: str = "/") -> int:
        """Returns the current population of the specified fictional country"""
        seen.append((country, model_config, _path))
        return 123124

    model, _ = recorded(CHAIN)
    run = model.run(prompt=PROMPT, tools=[lookup_population], max_steps=1)
    assert seen == [("Crumpet", "default", "/")]
    assert run.steps[0].tool_results[0].output == 123124


# A blocking tool and the deadline -------------------------------------------------------------


@pytest.fixture
def gate() -> Any:
    """An event a blocking tool waits on; set at the end so no thread outlives the test for long."""
    event = threading.Event()
    yield event
    event.set()


def deadline_model(deadline: float) -> modelport.Model:
    chain = cassette(CHAIN)
    replies = [httpx.Response(i.status, headers=i.headers, content=i.body) for i in chain]
    return modelport.get_model(
        "openai/gpt-4o-mini",
        api_key="sk-test-edges-000000",
        transport=httpx.MockTransport(Recorder(replies)),
        deadline=deadline,
    )


@pytest.fixture
def blocking_tools(gate: threading.Event) -> list[Any]:
    """The cassette's tools; ``can_have_dragons`` blocks until the test ends (a sync tool)."""

    @tool
    def lookup_population(country: str) -> int:
        """Returns the current population of the specified fictional country"""
        return 123124

    @tool
    def can_have_dragons(population: int) -> bool:
        """Returns True if the specified population can have dragons, False otherwise"""
        gate.wait(30)
        return True

    return [lookup_population, can_have_dragons]


DEADLINE_MESSAGE = (
    "openai: step 2 did not finish within its deadline of 1 s: tool 'can_have_dragons' still "
    "running (a sync tool's thread cannot be stopped; it runs on)"
)


def assert_ended_at_the_deadline(error: DeadlineExceededError, elapsed: float) -> None:
    assert 0.9 <= elapsed < 1.6
    assert str(error) == DEADLINE_MESSAGE
    assert error.steps is not None and [s.tool_results[0].output for s in error.steps] == [123124]
    assert error.partial is not None and error.partial.tool_calls[0].name == "can_have_dragons"


@pytest.mark.parametrize("way", ["run", "arun"])
def test_a_blocking_sync_tool_ends_the_run_at_the_deadline_with_the_steps_done(
    way: str, blocking_tools: list[Any]
) -> None:
    model = deadline_model(1.0)
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as info:
        if way == "run":
            model.run(prompt=PROMPT, tools=blocking_tools)
        else:
            asyncio.run(model.arun(prompt=PROMPT, tools=blocking_tools))
    assert_ended_at_the_deadline(info.value, time.monotonic() - started)


def test_a_blocking_tool_ends_a_streamed_run_at_the_deadline(gate: threading.Event) -> None:
    @tool
    def multiply(a: int, b: int) -> int:
        """Multiply two numbers."""
        gate.wait(30)
        return a * b

    replies = [httpx.Response(i.status, headers=i.headers, content=i.body) for i in cassette(STREAMED)]
    model = modelport.get_model(
        "openai/gpt-4o-mini",
        api_key="sk-test-edges-000000",
        transport=httpx.MockTransport(Recorder(replies)),
        deadline=1.0,
    )
    stream = model.run_stream(prompt="What is 1231 * 2331?", tools=[multiply])
    events: list[str] = []
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as info:
        for event in stream:
            events.append(event.type)
    assert 0.9 <= time.monotonic() - started < 1.6
    assert events[-1] == "finish" and "tool-result" not in events
    assert str(info.value) == (
        "openai: step 1 did not finish within its deadline of 1 s: tool 'multiply' still running "
        "(a sync tool's thread cannot be stopped; it runs on)"
    )
    assert info.value.steps == []
    assert info.value.partial is not None and info.value.partial.tool_calls[0].args == {"a": 1231, "b": 2331}


def test_an_async_tool_past_the_deadline_is_cancelled() -> None:
    cancelled = threading.Event()

    @tool
    def lookup_population(country: str) -> int:
        """Returns the current population of the specified fictional country"""
        return 123124

    @tool
    async def can_have_dragons(population: int) -> bool:
        """Returns True if the specified population can have dragons, False otherwise"""
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return True

    async def main() -> None:
        await deadline_model(1.0).arun(prompt=PROMPT, tools=[lookup_population, can_have_dragons])

    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as info:
        asyncio.run(main())
    assert_ended_at_the_deadline(info.value, time.monotonic() - started)
    assert cancelled.is_set()


def test_the_time_a_hook_takes_to_decide_is_not_counted() -> None:
    def approve(call: ToolCallPart) -> bool:
        time.sleep(0.7)  # a person reading the call
        return True

    run = deadline_model(0.5).run(prompt=PROMPT, tools=tools(123124, True), approve=approve)
    assert (run.text, [r.output for s in run.steps for r in s.tool_results]) == ("YES", [123124, True])


def test_tools_within_the_deadline_finish_the_run() -> None:
    run = deadline_model(5.0).run(prompt=PROMPT, tools=tools(123124, True))
    assert (run.text, len(run.steps)) == ("YES", 3)


# Async tools and hooks in a sync run inside a running event loop -------------------------------


def test_a_sync_run_inside_a_running_event_loop_runs_async_tools_and_hooks() -> None:
    @tool
    async def lookup_population(country: str) -> int:
        """Returns the current population of the specified fictional country"""
        await asyncio.sleep(0)
        return 123124

    @tool
    async def can_have_dragons(population: int) -> bool:
        """Returns True if the specified population can have dragons, False otherwise"""
        return population > 10000

    async def approve(call: ToolCallPart) -> bool:
        await asyncio.sleep(0)
        return True

    async def main() -> modelport.RunResult:
        model, _ = recorded(CHAIN)  # a sync run called from async code (a notebook, for one)
        return model.run(prompt=PROMPT, tools=[lookup_population, can_have_dragons], approve=approve)

    run = asyncio.run(main())
    assert [(r.is_error, r.output) for s in run.steps for r in s.tool_results] == [
        (False, 123124),
        (False, True),
    ]
    assert run.text == "YES"
