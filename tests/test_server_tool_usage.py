"""Server tool use in usage: ``Usage.server_tool_calls`` counts the provider's own tool runs of an
answer (searches, fetches, code runs) on every provider, streamed or not, from real recordings.

Anthropic reports the count of web searches and fetches (``usage.server_tool_use``: pydantic-ai's
web-search and web-fetch cassettes) but not of code runs, so its code execution result blocks are
counted (pydantic-ai's bash code execution, vercel/ai's bash and text-editor runs, streamed); OpenAI's Responses API reports none, so its built-in tool items are counted (pydantic-ai's
gpt-5.2 web search; vercel/ai's code interpreter fixture with three runs); Gemini reports none, so
its search queries, fetched URLs and code runs are counted (pydantic-ai's Gemini 2.5 Pro search).
"""

from __future__ import annotations

import json

import httpx

import modelport
from tests.anthropic import corpus as anthropic_corpus
from tests.google import corpus as google_corpus
from tests.openai import responses_corpus
from tests.recordings import answered as replayed

PYDANTIC_AI = "pydantic__pydantic-ai"


def test_anthropic_counts_are_its_reported_server_tool_requests() -> None:
    for name, key in (
        (
            "tests__models__cassettes__test_anthropic__test_anthropic_web_search_tool.yaml",
            "web_search_requests",
        ),
        (
            "tests__models__cassettes__test_anthropic__test_anthropic_web_fetch_tool.yaml",
            "web_fetch_requests",
        ),
    ):
        recorded = anthropic_corpus.interactions(f"{PYDANTIC_AI}/{name}")[0]
        reported = recorded.json()["usage"]["server_tool_use"]
        assert reported[key] == 1 and sum(reported.values()) == 1
        assert replayed("anthropic/claude-sonnet-4-5", recorded.body).usage.server_tool_calls == 1


def _streamed(model_id: str, body: bytes, headers: dict[str, str]) -> modelport.Result:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers=headers)

    model = modelport.get_model(model_id, api_key="k", transport=httpx.MockTransport(answer), max_retries=0)
    return model.stream(prompt="Hi").result()


def test_anthropic_counts_its_code_runs_from_the_result_blocks() -> None:
    name = "tests__models__cassettes__test_anthropic__test_anthropic_code_execution_tool.yaml"
    recorded = anthropic_corpus.interactions(f"{PYDANTIC_AI}/{name}")[0]
    answer = recorded.json()
    assert answer["usage"]["server_tool_use"] == {"web_fetch_requests": 0, "web_search_requests": 0}
    runs = [b for b in answer["content"] if b["type"] == "bash_code_execution_tool_result"]
    result = replayed("anthropic/claude-sonnet-4-5", recorded.body)
    assert result.usage.server_tool_calls == len(runs) == 1


def test_anthropic_stream_counts_its_code_runs_the_same() -> None:
    for name, runs in (
        (
            f"{PYDANTIC_AI}/tests__models__cassettes__test_anthropic__test_anthropic_code_execution_tool_stream.yaml",
            1,
        ),
        (
            f"{PYDANTIC_AI}/tests__models__cassettes__test_anthropic__test_anthropic_text_editor_code_execution_tool_stream.yaml",
            3,
        ),
        (
            "vercel__ai/packages__anthropic__src____fixtures____anthropic-code-execution-20250825.1.chunks.txt",
            2,
        ),
    ):
        (recorded,) = [i for i in anthropic_corpus.interactions(name) if i.is_sse]
        blocks = [f["content_block"]["type"] for f in recorded.frames() if f["type"] == "content_block_start"]
        assert sum(kind.endswith("code_execution_tool_result") for kind in blocks) == runs
        result = _streamed("anthropic/claude-sonnet-4-5", recorded.body, recorded.headers)
        assert result.usage.server_tool_calls == runs, name


def test_openai_counts_are_the_answers_built_in_tool_calls() -> None:
    name = "tests__models__cassettes__test_openai_responses__test_openai_include_raw_annotations_non_streaming.yaml"
    body = responses_corpus.exchanges(f"{PYDANTIC_AI}/{name}")[0].body
    searches = [i for i in json.loads(body)["output"] if i["type"] == "web_search_call"]
    result = replayed("openai-responses/gpt-5.2", body)
    assert result.usage.server_tool_calls == len(searches) == 1
    code = "vercel__ai/packages__openai__src__responses____fixtures____openai-code-interpreter-tool.1.json"
    runs = replayed("openai-responses/gpt-5", responses_corpus.exchanges(code)[0].body)
    assert runs.usage.server_tool_calls == 3


def test_openai_stream_counts_the_same() -> None:
    name = (
        "vercel__ai/packages__openai__src__responses____fixtures____openai-code-interpreter-tool.1.chunks.txt"
    )
    (stream,) = responses_corpus.exchanges(name)
    assert _streamed("openai-responses/gpt-5", stream.body, stream.headers).usage.server_tool_calls == 3


def test_gemini_counts_its_search_queries() -> None:
    name = "tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml"
    body = google_corpus.cassette(PYDANTIC_AI, name)[0].body
    queries = json.loads(body)["candidates"][0]["groundingMetadata"]["webSearchQueries"]
    assert replayed("google/gemini-2.5-pro", body).usage.server_tool_calls == len(queries) == 1


def test_an_answer_without_server_tools_reports_none() -> None:
    plain = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]
    }
    assert replayed("google/gemini-2.5-flash", json.dumps(plain).encode()).usage.server_tool_calls is None
