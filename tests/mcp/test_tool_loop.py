"""MCP tools in the tool loop, end to end: the model's side is simonw/llm's recorded OpenAI run
(gpt-4o-mini asks ``lookup_population`` for Crumpet, then ``can_have_dragons`` for 123124, then
answers "YES"; tests/corpus/openai/MANIFEST.md) replayed on ``httpx.MockTransport``; the tools run
on the real FastMCP server of tests/mcp/server.py, over stdio and over streamable HTTP."""

from __future__ import annotations

import re
from typing import Any

import pytest

from modelport import Refusal, mcp
from modelport.errors import DeadlineExceededError
from modelport.events import ToolResultEvent
from modelport.types import ToolCallPart

from .conftest import STREAMED, HttpServer, recorded, stdio_server, tool_messages

ANSWERS = [
    {"role": "tool", "tool_call_id": "call_TTY8UFNo7rNCaOBUNtlRSvMG", "content": "123124"},
    {"role": "tool", "tool_call_id": "call_aq9UyiSFkzX6W8Ydc33DoI9Y", "content": "true"},
]
PROMPT = "Can the country of Crumpet have dragons?"


def test_run_calls_the_servers_tools_and_sends_their_results_back() -> None:
    model, recorder = recorded()
    with stdio_server() as server:
        run = model.run(prompt=PROMPT, tools=server.tools(["lookup_population", "can_have_dragons"]))
    assert (run.text, run.stop_reason, len(run.steps)) == ("YES", "answer", 3)
    assert tool_messages(recorder) == [[], ANSWERS[:1], ANSWERS]
    sent = recorder.bodies()[0]["tools"]
    assert [t["function"]["name"] for t in sent] == ["lookup_population", "can_have_dragons"]
    assert sent[0]["function"]["parameters"] == {
        "type": "object",
        "properties": {"country": {"title": "Country", "type": "string"}},
        "required": ["country"],
    }


def test_approval_refusing_a_call_keeps_it_from_the_server() -> None:
    model, recorder = recorded()
    asked: list[str] = []

    def approve(call: ToolCallPart) -> Any:
        asked.append(call.name)
        return Refusal("no census today") if call.name == "lookup_population" else True

    with stdio_server() as server:
        run = model.run(prompt=PROMPT, tools=server.tools(), approve=approve)
    assert asked == ["lookup_population", "can_have_dragons"]
    (refused,) = run.steps[0].tool_results
    assert (refused.is_error, refused.output) == (True, "no census today")
    assert tool_messages(recorder)[2][1] == ANSWERS[1]


def test_run_stream_emits_the_servers_results_between_the_turns() -> None:
    model, recorder = recorded(STREAMED)
    with stdio_server() as server:
        stream = model.run_stream(prompt="What is 1231 * 2331?", tools=server.tools(["multiply"]))
        results = [e.part for e in stream if isinstance(e, ToolResultEvent)]
        run = stream.result()
    assert [(r.call_id, r.name, r.output, r.is_error) for r in results] == [
        ("call_1EYWDzueHEp8OsB8jJSEp7WB", "multiply", "2869461", False)
    ]
    assert results == run.steps[0].tool_results
    assert tool_messages(recorder)[1] == [
        {"role": "tool", "tool_call_id": "call_1EYWDzueHEp8OsB8jJSEp7WB", "content": "2869461"}
    ]


def standing_in(tool: mcp.McpTool) -> mcp.McpTool:
    """``tool`` under the name the recorded model calls (``lookup_population``)."""
    tool.name = "lookup_population"
    return tool


def test_an_error_result_and_arguments_off_the_schema_reach_the_model_as_error_results() -> None:
    model, _ = recorded()
    with stdio_server() as server:
        (secret,) = server.tools(["secret_population"])
        run = model.run(prompt=PROMPT, tools=[standing_in(secret)], max_steps=1)
        (result,) = run.steps[0].tool_results
        assert (result.is_error, result.output) == (
            True,
            "McpToolError: Error executing tool secret_population: the census of Crumpet is secret",
        )
        model, _ = recorded()
        (divide,) = server.tools(["divide"])
        run = model.run(prompt=PROMPT, tools=[standing_in(divide)], max_steps=1)
        (result,) = run.steps[0].tool_results
        assert result.is_error
        assert result.output.startswith("invalid arguments for tool 'lookup_population': ")


def test_a_tool_that_never_answers_is_bounded_by_the_steps_deadline() -> None:
    # Both ends keep to the step's deadline: the loop stops waiting (DeadlineExceededError), or, a
    # moment sooner, the MCP request gives up and the model gets an error result. Either way the
    # call ends with the deadline, though the server itself was given no timeout.
    model, _ = recorded(deadline=1.0)
    with stdio_server(timeout=None) as server:
        (hang,) = server.tools(["hang"])
        try:
            run = model.run(prompt=PROMPT, tools=[standing_in(hang)], max_steps=1)
        except DeadlineExceededError as error:
            assert "tool 'lookup_population' still running" in str(error)
            assert error.steps == []
        else:
            (result,) = run.steps[0].tool_results
            assert result.is_error
            assert re.fullmatch(
                r"McpTimeoutError: MCP server .+ did not answer tools/call 'hang' within 0\.\d+ s",
                result.output,
            )
        (census,) = server.tools(["census"])  # the session outlives the call given up on
        assert census.call(country="Crumpet") == {"dragons": 3, "people": 123124}


@pytest.mark.asyncio
async def test_arun_over_streamable_http(http_server: HttpServer) -> None:
    model, recorder = recorded()
    async with mcp.http(http_server.url, headers={"x-team": "dragons"}) as server:
        run = await model.arun(prompt=PROMPT, tools=await server.atools())
    assert (run.text, len(run.steps)) == ("YES", 3)
    assert tool_messages(recorder)[2] == ANSWERS
    assert http_server.headers and all(h.get("x-team") == "dragons" for h in http_server.headers)


def test_a_with_opened_http_server_serves_sync_and_async_runs(http_server: HttpServer) -> None:
    with mcp.http(http_server.url) as server:
        tools = server.tools()
        model, recorder = recorded()
        assert model.run(prompt=PROMPT, tools=tools).text == "YES"
        assert tool_messages(recorder)[2] == ANSWERS
        import asyncio

        model, recorder = recorded()
        assert asyncio.run(model.arun(prompt=PROMPT, tools=tools)).text == "YES"
        assert tool_messages(recorder)[2] == ANSWERS
