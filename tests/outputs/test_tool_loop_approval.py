"""The tool loop's approval hook (``approve=``) and the ``tool-result`` events of ``run_stream``.

The model's side is recorded OpenAI traffic replayed on ``httpx.MockTransport``: simonw/llm's
``test_tool_use_chain_of_two_calls`` (gpt-4o-mini asks ``lookup_population`` for Crumpet, then
``can_have_dragons`` for 123124, then answers "YES") and ``test_tool_use_basic`` (a streamed
``multiply`` call with arguments over 12 deltas, then streamed text). See tests/corpus/openai/MANIFEST.md.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport import Approval, Refusal, tool
from modelport.types import ToolCallPart

from ..openai.corpus import cassette
from ..openai.fakes import Recorder

CHAIN = "simonw__llm/tests__cassettes__test_tools__test_tool_use_chain_of_two_calls.yaml"
STREAMED = "simonw__llm/tests__cassettes__test_tools__test_tool_use_basic.yaml"
KEY = "sk-test-tool-loop-approval-0000"


def recorded(name: str) -> tuple[modelport.Model, Recorder]:
    replies = [httpx.Response(i.status, headers=i.headers, content=i.body) for i in cassette(name)]
    recorder = Recorder(replies)
    return modelport.get_model(
        "openai/gpt-4o-mini", api_key=KEY, transport=httpx.MockTransport(recorder)
    ), recorder


class Dragons:
    """The cassette's two tools, keeping the arguments each ran with."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, Any]] = []

        @tool
        def lookup_population(country: str) -> int:
            """Returns the current population of the specified fictional country"""
            self.ran.append(("lookup_population", country))
            return 123124

        @tool
        def can_have_dragons(population: int) -> bool:
            """Returns True if the specified population can have dragons, False otherwise"""
            self.ran.append(("can_have_dragons", population))
            return population > 10000

        self.tools = [lookup_population, can_have_dragons]


def tool_messages(recorder: Recorder) -> list[list[dict[str, Any]]]:
    """The ``role: tool`` messages of each request sent."""
    return [[m for m in body["messages"] if m["role"] == "tool"] for body in recorder.bodies()]


def test_a_hook_that_allows_sees_every_call_in_order_and_the_run_is_unchanged() -> None:
    model, recorder = recorded(CHAIN)
    dragons, asked = Dragons(), []

    def approve(call: ToolCallPart) -> bool:
        asked.append((call.id, call.name, call.args))
        return True

    run = model.run(prompt="Can the country of Crumpet have dragons?", tools=dragons.tools, approve=approve)
    assert (run.text, run.stop_reason, len(run.steps)) == ("YES", "answer", 3)
    assert asked == [
        ("call_TTY8UFNo7rNCaOBUNtlRSvMG", "lookup_population", {"country": "Crumpet"}),
        ("call_aq9UyiSFkzX6W8Ydc33DoI9Y", "can_have_dragons", {"population": 123124}),
    ]
    assert dragons.ran == [("lookup_population", "Crumpet"), ("can_have_dragons", 123124)]
    assert tool_messages(recorder)[2] == [
        {"role": "tool", "tool_call_id": "call_TTY8UFNo7rNCaOBUNtlRSvMG", "content": "123124"},
        {"role": "tool", "tool_call_id": "call_aq9UyiSFkzX6W8Ydc33DoI9Y", "content": "true"},
    ]
    assert run.steps[0].tool_calls == run.steps[0].result.tool_calls


@pytest.mark.parametrize("decision", [False, Refusal("the user declined to share census data")])
def test_a_refused_call_never_runs_and_the_model_sees_the_refusal_as_an_error_result(decision: Any) -> None:
    model, recorder = recorded(CHAIN)
    dragons = Dragons()

    def approve(call: ToolCallPart) -> Any:
        return decision if call.name == "lookup_population" else Approval()

    run = model.run(prompt="Can the country of Crumpet have dragons?", tools=dragons.tools, approve=approve)
    reason = decision.reason if isinstance(decision, Refusal) else "the call was refused by the user"
    (refused,) = run.steps[0].tool_results
    assert (refused.call_id, refused.is_error, refused.output) == (
        "call_TTY8UFNo7rNCaOBUNtlRSvMG",
        True,
        reason,
    )
    assert dragons.ran == [("can_have_dragons", 123124)]  # the refused tool never ran
    assert tool_messages(recorder)[1] == [
        {"role": "tool", "tool_call_id": "call_TTY8UFNo7rNCaOBUNtlRSvMG", "content": reason}
    ]
    assert run.text == "YES"


def test_an_edit_runs_with_the_new_arguments_and_records_them() -> None:
    model, recorder = recorded(CHAIN)
    dragons = Dragons()

    def approve(call: ToolCallPart) -> Approval:
        return Approval(args={"country": "Muffin"}) if call.name == "lookup_population" else Approval()

    run = model.run(prompt="Can the country of Crumpet have dragons?", tools=dragons.tools, approve=approve)
    assert dragons.ran == [("lookup_population", "Muffin"), ("can_have_dragons", 123124)]
    (edited,) = run.steps[0].tool_calls
    assert (edited.id, edited.name, edited.args) == (
        "call_TTY8UFNo7rNCaOBUNtlRSvMG",
        "lookup_population",
        {"country": "Muffin"},
    )
    # The model's own turn is replayed exactly as it came (the provider checks it), the edit is on the step.
    assert run.steps[0].result.tool_calls[0].args == {"country": "Crumpet"}
    assistant = recorder.bodies()[1]["messages"][1]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"country": "Crumpet"}
    assert run.steps[0].tool_results[0].output == 123124


def test_an_edit_the_tool_cannot_take_is_the_callers_error_with_the_steps_done() -> None:
    model, _ = recorded(CHAIN)
    dragons = Dragons()

    def approve(call: ToolCallPart) -> Approval:
        return Approval(args={"population": "many"}) if call.name == "can_have_dragons" else Approval()

    with pytest.raises(modelport.InvalidRequestError) as info:
        model.run(prompt="Can the country of Crumpet have dragons?", tools=dragons.tools, approve=approve)
    assert str(info.value) == (
        "the arguments approve gave to call 'call_aq9UyiSFkzX6W8Ydc33DoI9Y': invalid arguments for tool "
        "'can_have_dragons': population: Input should be a valid integer, unable to parse string as an integer"
    )
    assert info.value.steps is not None
    assert [s.tool_results[0].output for s in info.value.steps] == [123124]
    assert dragons.ran == [("lookup_population", "Crumpet")]


@pytest.mark.parametrize("answer", [None, "yes", Approval])
def test_a_hook_answer_that_is_no_decision_is_a_typed_error(answer: Any) -> None:
    model, _ = recorded(CHAIN)
    with pytest.raises(
        modelport.InvalidRequestError,
        match=r"approve must return True, False, an Approval or a Refusal; for the call 'call_TTY8UFNo7rNCaOBUNtlRSvMG' of 'lookup_population' it returned ",
    ):
        model.run(prompt="?", tools=Dragons().tools, approve=lambda call: answer)


def test_decisions_are_checked_when_built() -> None:
    with pytest.raises(modelport.InvalidRequestError, match=r"Approval\(args=...\) takes a dict"):
        Approval(args=["Muffin"])  # type: ignore[arg-type]
    with pytest.raises(
        modelport.InvalidRequestError, match=r"Refusal\(reason=...\) takes a non-empty string"
    ):
        Refusal("")


def test_the_async_loop_awaits_an_async_hook() -> None:
    model, recorder = recorded(CHAIN)
    dragons = Dragons()

    async def approve(call: ToolCallPart) -> Approval | Refusal:
        await asyncio.sleep(0)
        return Refusal("no dragons today") if call.name == "can_have_dragons" else Approval()

    async def main() -> modelport.RunResult:
        return await model.arun(prompt="?", tools=dragons.tools, approve=approve)

    run = asyncio.run(main())
    assert dragons.ran == [("lookup_population", "Crumpet")]
    assert [(r.is_error, r.output) for s in run.steps for r in s.tool_results] == [
        (False, 123124),
        (True, "no dragons today"),
    ]
    assert tool_messages(recorder)[2][1]["content"] == "no dragons today"


def test_a_sync_run_runs_an_async_hook_too() -> None:
    model, _ = recorded(CHAIN)

    async def approve(call: ToolCallPart) -> bool:
        return call.name == "lookup_population"

    run = model.run(prompt="?", tools=Dragons().tools, approve=approve)
    assert [r.is_error for s in run.steps for r in s.tool_results] == [False, True]


# tool-result events ---------------------------------------------------------------------------


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two numbers."""
    return a * b


def test_a_streamed_run_emits_the_tool_results_between_the_turns() -> None:
    model, recorder = recorded(STREAMED)
    stream = model.run_stream(prompt="What is 1231 * 2331?", tools=[multiply])
    events = list(stream)
    run = stream.result()
    kinds = [e.type for e in events]
    first_finish, second_start = kinds.index("finish"), kinds.index("stream-start", 1)
    assert kinds[first_finish + 1 : second_start] == ["tool-result"]
    (event,) = [e for e in events if e.type == "tool-result"]
    assert event.part == run.steps[0].tool_results[0]
    assert (event.part.call_id, event.part.name, event.part.output, event.part.is_error) == (
        "call_1EYWDzueHEp8OsB8jJSEp7WB",
        "multiply",
        2869461,
        False,
    )
    # The step's result is what the model sent: the local result is not folded into it.
    assert [p.type for p in run.steps[0].result.content] == ["tool-call"]
    assert modelport.accumulate(events[: first_finish + 1]).content == run.steps[0].result.content
    assert modelport.accumulate(events[second_start:]).text == run.text
    assert run.text.startswith("The result of")
    assert tool_messages(recorder)[1] == [
        {"role": "tool", "tool_call_id": "call_1EYWDzueHEp8OsB8jJSEp7WB", "content": "2869461"}
    ]


def test_a_streamed_run_emits_refusals_and_edits_as_they_were_sent() -> None:
    model, _ = recorded(STREAMED)
    stream = model.run_stream(
        prompt="What is 1231 * 2331?", tools=[multiply], approve=lambda call: Approval(args={"a": 2, "b": 3})
    )
    (event,) = [e for e in stream if e.type == "tool-result"]
    assert (event.part.output, stream.result().steps[0].tool_calls[0].args) == (6, {"a": 2, "b": 3})

    model, _ = recorded(STREAMED)
    stream = model.run_stream(prompt="What is 1231 * 2331?", tools=[multiply], approve=lambda call: False)
    (event,) = [e for e in stream if e.type == "tool-result"]
    assert (event.part.is_error, event.part.output) == (True, "the call was refused by the user")
