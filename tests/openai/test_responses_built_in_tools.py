"""OpenAI's built-in Responses tools (``openai.web_search``, ``openai.file_search``,
``openai.code_interpreter``, ``openai.image_generation``): validated strictly before any request,
sent as the recorded requests sent them, and their output items, annotations and images mapped with
the recorded values (provider-executed calls and results, sources, citation spans, file parts).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from modelport_openai import tools

import modelport
from modelport.errors import ProviderToolError
from modelport.types import (
    Citation,
    FilePart,
    Message,
    ProviderTool,
    Result,
    Source,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)

from . import responses_corpus as corpus
from .replay import KEY

V = "vercel__ai/packages__openai__src__responses____fixtures____"
P = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__"
FANTASY_SEARCH = "charmbracelet__fantasy/providertests__testdata__TestOpenAIWebSearch__generate.yaml"


def _replayed(name: str, index: int = 0, **request: Any) -> tuple[Result, dict[str, Any]]:
    """The result of one recorded exchange (streamed when recorded so) and the body sent for it."""
    exchanges = corpus.exchanges(name)
    recorded = corpus.Recorded(exchanges[index:])
    model = recorded.model()
    if "messages" not in request:
        request.setdefault("prompt", "Hello")
    if exchanges[index].is_sse:
        with model.stream(**request) as stream:
            for _ in stream:
                pass
            result = stream.result()
    else:
        result = model.generate(**request)
    return result, recorded.sent[0]


def _without_nulls(tool: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in tool.items() if v is not None}


@pytest.mark.parametrize(
    ("name", "index", "tool", "choice"),
    [
        (FANTASY_SEARCH, 0, tools.web_search(), None),
        (
            P + "test_openai_include_raw_annotations_non_streaming.yaml",
            0,
            tools.web_search(search_context_size="medium"),
            None,
        ),
        (
            P + "test_openai_responses_model_file_search_tool_stream.yaml",
            3,
            tools.file_search(vector_store_ids=["vs_6931d752e41c8191833fcaad1cf47055"]),
            None,
        ),
        (
            P + "test_openai_responses_thinking_with_code_execution_tool_stream.yaml",
            0,
            tools.code_interpreter(),
            None,
        ),
        (
            P + "test_openai_responses_image_generation_jpeg.yaml",
            0,
            tools.image_generation(
                background="auto",
                moderation="auto",
                output_compression=100,
                output_format="jpeg",
                partial_images=0,
                quality="auto",
                size="auto",
            ),
            "any",
        ),
    ],
    ids=["web-search", "web-search-context", "file-search", "code-interpreter", "image-generation"],
)
def test_built_in_tools_are_sent_as_recorded(name: str, index: int, tool: ProviderTool, choice: Any) -> None:
    _, sent = _replayed(name, index, tools=[tool], tool_choice=choice)
    recorded = corpus.exchanges(name)[index].request
    assert sent["tools"] == [_without_nulls(t) for t in recorded["tools"]]
    assert sent.get("tool_choice", "auto") == recorded["tool_choice"]


def test_every_search_setting_with_a_required_tool() -> None:
    search = tools.web_search(
        search_context_size="high",
        user_location={"city": "Paris", "country": "FR", "timezone": "Europe/Paris"},
        filters={"allowed_domains": ["lemonde.fr"]},
    )
    files = tools.file_search(
        vector_store_ids=["vs_1"],
        max_num_results=5,
        filters={
            "type": "and",
            "filters": [
                {"type": "eq", "key": "lang", "value": "fr"},
                {"type": "gte", "key": "year", "value": 2020},
            ],
        },
        ranking_options={"ranker": "auto", "score_threshold": 0.5},
    )
    code = tools.code_interpreter(container="cntr_1")
    _, sent = _replayed(FANTASY_SEARCH, tools=[search, files, code], tool_choice="any")
    assert sent["tools"] == [
        {
            "type": "web_search",
            "search_context_size": "high",
            "user_location": {
                "type": "approximate",
                "city": "Paris",
                "country": "FR",
                "timezone": "Europe/Paris",
            },
            "filters": {"allowed_domains": ["lemonde.fr"]},
        },
        {
            "type": "file_search",
            "vector_store_ids": ["vs_1"],
            "max_num_results": 5,
            "filters": {
                "type": "and",
                "filters": [
                    {"type": "eq", "key": "lang", "value": "fr"},
                    {"type": "gte", "key": "year", "value": 2020},
                ],
            },
            "ranking_options": {"ranker": "auto", "score_threshold": 0.5},
        },
        {"type": "code_interpreter", "container": "cntr_1"},
    ]
    assert sent["tool_choice"] == "required"


@pytest.mark.parametrize(
    ("tool", "message"),
    [
        (tools.web_search(search_context_size="huge"), "search_context_size"),
        (tools.web_search(user_location={"country": "FRA"}), "country"),
        (tools.web_search(filters={"allowed_domains": []}), "allowed_domains"),
        (tools.web_search(filters={"blocked_domains": ["x.com"]}), "blocked_domains"),
        (tools.web_search(max_uses=3), "max_uses"),
        (tools.file_search(), "vector_store_ids"),
        (tools.file_search(vector_store_ids=[]), "vector_store_ids"),
        (tools.file_search(vector_store_ids=["vs_1"], max_num_results=51), "max_num_results"),
        (
            tools.file_search(vector_store_ids=["vs_1"], filters={"type": "like", "key": "a", "value": 1}),
            "filters",
        ),
        (
            tools.file_search(vector_store_ids=["vs_1"], ranking_options={"score_threshold": 2}),
            "score_threshold",
        ),
        (tools.code_interpreter(container={"type": "auto", "memory_limit": "2g"}), "memory_limit"),
        (tools.code_interpreter(container=7), "container"),
        (tools.image_generation(partial_images=4), "partial_images"),
        (tools.image_generation(output_format="gif"), "output_format"),
        (ProviderTool(id="google.google_search"), "belongs to provider 'google'"),
    ],
)
def test_bad_arguments_are_refused_before_any_request(tool: ProviderTool, message: str) -> None:
    def handler(sent: httpx.Request) -> httpx.Response:
        raise AssertionError("no request may be sent")

    model = modelport.get_model("openai-responses/gpt-5", api_key=KEY, transport=httpx.MockTransport(handler))
    with pytest.raises(ProviderToolError, match=message):
        model.generate(prompt="Hi", tools=[tool])


def test_chat_completions_takes_no_built_in_tools() -> None:
    def handler(sent: httpx.Request) -> httpx.Response:
        raise AssertionError("no request may be sent")

    model = modelport.get_model("openai/gpt-4o", api_key=KEY, transport=httpx.MockTransport(handler))
    with pytest.raises(ProviderToolError, match="accepts no provider tools"):
        model.generate(prompt="Hi", tools=[tools.web_search()])


def _annotations(response: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    (message,) = [item for item in response["output"] if item["type"] == "message"]
    (content,) = message["content"]
    return content["text"], content["annotations"]


@pytest.mark.parametrize(
    "name", [V + "openai-web-search-tool.1.json", V + "openai-web-search-tool.1.chunks.txt"]
)
def test_url_citations_become_sources_and_exact_spans(name: str) -> None:
    result, _ = _replayed(name)
    text, annotations = _annotations(corpus.exchanges(name)[0].final())
    assert result.text == text
    urls = list(dict.fromkeys(a["url"] for a in annotations))
    assert [(s.number, s.uri) for s in result.sources] == list(enumerate(urls, 1))
    titles = {a["url"]: a["title"] for a in annotations}
    assert [s.title for s in result.sources] == [titles[u] for u in urls]
    assert len(result.citations) == len(annotations)
    for citation, annotation in zip(result.citations, annotations):
        (number,) = citation.sources
        source = result.sources[number - 1]
        assert source.uri == annotation["url"]
        # The span is the recorded one, in code points: the "([domain](url))" link it annotates.
        assert (citation.start, citation.end) == (annotation["start_index"], annotation["end_index"])
        assert (
            result.text[citation.start : citation.end]
            == f"([{source.domain.removeprefix('www.')}]({source.uri}))"
        )
    (part,) = [p for p in result.content if isinstance(p, TextPart)]
    assert part.provider_metadata == {
        "openai-responses": {
            "item_id": part.provider_metadata["openai-responses"]["item_id"],
            "annotations": annotations,
        }
    }


def test_the_first_recorded_citation_in_full() -> None:
    result, _ = _replayed(V + "openai-web-search-tool.1.json")
    assert result.sources[0] == Source(
        number=1,
        title="Why OpenAI declared a code red for ChatGPT | The Verge",
        uri="https://www.theverge.com/podcast/838932/openai-chatgpt-code-red-vergecast",
        domain="www.theverge.com",
        kind="web-page",
    )
    assert result.citations[0] == Citation(start=426, end=517, sources=[1])
    assert result.citations[5] == Citation(start=1835, end=1926, sources=[1])  # cited again, same number
    searches = [p for p in result.content if isinstance(p, ToolCallPart)]
    assert [(c.name, c.args, c.provider_executed) for c in searches] == [
        ("web_search", {"type": "search", "query": "tech news today December 5 2025"}, True),
        (
            "web_search",
            {
                "type": "open_page",
                "url": "https://www.theverge.com/podcast/838932/openai-chatgpt-code-red-vergecast",
            },
            True,
        ),
        (
            "web_search",
            {
                "type": "find_in_page",
                "pattern": "Vercel",
                "url": "https://www.theverge.com/podcast/838932/openai-chatgpt-code-red-vergecast",
            },
            True,
        ),
    ]
    first = [p for p in result.content if isinstance(p, ToolResultPart)][0]
    assert first.call_id == searches[0].id == "ws_0953eda47ee1741200693330682c988195aaa470a8cc51dfe4"
    assert first.provider_executed and not first.is_error
    assert first.output["status"] == "completed"
    assert first.output["sources"][0] == {
        "type": "url",
        "url": "https://www.theverge.com/podcast/838932/openai-chatgpt-code-red-vergecast",
    }


def test_a_file_citation_is_a_zero_width_span_at_its_index() -> None:
    result, _ = _replayed(V + "openai-file-search-tool.1.json")
    assert result.sources == [
        Source(
            number=1,
            title="ai.pdf",
            file_id="file-Ebzhf8H4DPGPr9pUhr7n7v",
            id="file-Ebzhf8H4DPGPr9pUhr7n7v",
            kind="file",
        )
    ]
    assert result.citations == [Citation(start=438, end=438, sources=[1])]
    assert len(result.text) == 439
    (call,) = [p for p in result.content if isinstance(p, ToolCallPart)]
    (outcome,) = [p for p in result.content if isinstance(p, ToolResultPart)]
    assert call.name == "file_search" and call.provider_executed
    assert call.args["queries"][0] == "What is an embedding model according to this document?"
    assert len(call.args["queries"]) == 4
    assert outcome.output == {"status": "completed", "results": None}
    assert result.finish_reason == "stop"  # the provider ran the tool: nothing for the caller to run


def test_container_file_citation_and_code_interpreter_calls() -> None:
    result, _ = _replayed(V + "openai-code-interpreter-tool.1.json")
    assert result.sources == [
        Source(
            number=1,
            title="two_dice_sums_10000.txt",
            file_id="cfile_6903bf45e3288191af3d56e6d23c3a4d",
            id="cfile_6903bf45e3288191af3d56e6d23c3a4d",
            kind="file",
        )
    ]
    assert result.citations == [Citation(start=195, end=236, sources=[1])]
    assert result.text[195:236] == "sandbox:/mnt/data/two_dice_sums_10000.txt"
    calls = [p for p in result.content if isinstance(p, ToolCallPart)]
    outcomes = [p for p in result.content if isinstance(p, ToolResultPart)]
    assert [c.name for c in calls] == ["code_interpreter"] * 3
    assert calls[0].args["container_id"] == "cntr_6903bf2c0470819090b2b1e63e0b66800c139a5d654a42ec"
    assert calls[0].args["code"].startswith("import random\r\n\r\ntrials = 10000\r\n")
    assert outcomes[0].output == {
        "status": "completed",
        "outputs": [{"type": "logs", "logs": "(10000, 70024)"}],
    }


def test_generated_image_is_a_file_part() -> None:
    name = P + "test_openai_responses_image_generation_jpeg.yaml"
    result, _ = _replayed(name)
    (item,) = [i for i in corpus.exchanges(name)[0].final()["output"] if i["type"] == "image_generation_call"]
    (image,) = [p for p in result.content if isinstance(p, FilePart)]
    assert image.media_type == "image/jpeg"
    assert image.data is not None and image.data.startswith(b"\xff\xd8\xff")  # a JPEG
    (outcome,) = [p for p in result.content if isinstance(p, ToolResultPart)]
    assert outcome.name == "image_generation" and outcome.call_id == item["id"]
    assert outcome.output == {
        k: item[k] for k in ("background", "output_format", "quality", "revised_prompt", "size", "status")
    }
    kinds = [p.type for p in result.content]
    assert kinds[kinds.index("tool-call") :] == ["tool-call", "tool-result", "file", "text"]


def test_mcp_calls_and_tool_lists() -> None:
    result, _ = _replayed(V + "openai-mcp-tool.1.json")
    calls = [p for p in result.content if isinstance(p, ToolCallPart)]
    assert [(c.name, c.provider_executed) for c in calls] == [
        ("mcp_list_tools", True),
        ("web_search_exa", True),
    ]
    assert calls[0].args == {"server_label": "dmcp"}
    assert calls[1].args == {"query": "NYC mayoral election results 2025 latest", "numResults": 5}
    assert calls[1].provider_metadata == {
        "openai-responses": {
            "item_id": "mcp_0a4801d792de11eb00690ccb8c3fac8197a4fd94f4528cd432",
            "item_type": "mcp_call",
            "server_label": "dmcp",
        }
    }
    outcomes = [p for p in result.content if isinstance(p, ToolResultPart)]
    assert outcomes[1].output.startswith('{"requestId": "c72ab09f496225ba33162f7aca08ef60"')
    assert outcomes[0].output["tools"][0]["name"] == "web_search_exa"


@pytest.mark.parametrize("store", [False, True])
def test_the_turn_after_a_web_search(store: bool) -> None:
    # pydantic-ai's gpt-5 stream: reasoning, web_search_call, reasoning, message; then a follow-up.
    name = P + "test_openai_responses_model_web_search_tool_stream.yaml"
    exchanges = corpus.exchanges(name)
    recorded = corpus.Recorded(exchanges)
    model = recorded.model()
    options = {"openai-responses": {"store": True}} if store else None
    question = Message(role="user", content="What is the weather in San Francisco today?")
    with model.stream(messages=[question], tools=[tools.web_search()], provider_options=options) as stream:
        first = stream.result()
    follow_up = Message(role="user", content="how about Mexico City?")
    model.generate(
        messages=[question, first.message, follow_up], tools=[tools.web_search()], provider_options=options
    )
    sent = recorded.sent[1]["input"]
    wanted = exchanges[1].request["input"]  # what pydantic-ai sent (store on, the search item whole)
    if store:
        assert [i.get("type", "message") for i in sent] == [
            "message",
            "reasoning",
            "item_reference",
            "reasoning",
            "message",
            "message",
        ]
        assert sent[2] == {"type": "item_reference", "id": wanted[2]["id"]}
        assert sent[4] == {k: v for k, v in wanted[4].items() if k != "status"}
    else:
        # Nothing stored: the search cannot be referred to, nor the reasoning that led to it; the
        # reasoning before the answer goes with it, and the answer without its msg_ id.
        assert [i.get("type", "message") for i in sent] == ["message", "reasoning", "message", "message"]
        assert sent[2] == {k: v for k, v in wanted[4].items() if k not in ("status", "id")}
    reasoning = [i for i in sent if i.get("type") == "reasoning"]
    assert reasoning[-1]["id"] == wanted[3]["id"]
    assert reasoning[-1]["encrypted_content"] == next(
        f["item"]["encrypted_content"]
        for f in exchanges[0].frames()
        if f.get("type") == "response.output_item.done" and f["item"]["id"] == wanted[3]["id"]
    )
    assert json.loads(json.dumps(sent[-1])) == {"role": "user", "content": "how about Mexico City?"}


def test_another_providers_search_in_the_history_is_left_out() -> None:
    # A conversation moved from Anthropic: its server-run search has no Responses item to stand for.
    search = ToolCallPart(
        id="srvtoolu_01",
        name="web_search",
        args={"query": "tallest mountain in Alberta"},
        provider_executed=True,
        provider_metadata={"anthropic": {"block_type": "server_tool_use"}},
    )
    found = ToolResultPart(call_id="srvtoolu_01", name="web_search", output=[], provider_executed=True)
    answer = Message(role="assistant", content=[search, found, TextPart(text="Mount Columbia.")])
    question = Message(role="user", content="Tallest mountain in Alberta?")
    for store in (False, True):
        _, sent = _replayed(
            FANTASY_SEARCH,
            messages=[question, answer, Message(role="user", content="How high?")],
            provider_options={"openai-responses": {"store": store}},
        )
        assert sent["input"] == [
            {"role": "user", "content": "Tallest mountain in Alberta?"},
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Mount Columbia.", "annotations": []}],
            },
            {"role": "user", "content": "How high?"},
        ]


def test_a_remote_mcp_server_is_sent_as_the_recorded_mcp_tool() -> None:
    # pydantic-ai's recorded deepwiki request (test_openai_responses_model_mcp_server_tool): its
    # tool entry, without the "headers" openai.mcp does not take; the answer is vercel's mcp_call body.
    server = tools.mcp(
        server_label="deepwiki",
        server_url="https://mcp.deepwiki.com/mcp",
        server_description="DeepWiki MCP server",
        allowed_tools=["ask_question"],
        require_approval="never",
    )
    result, sent = _replayed(V + "openai-mcp-tool.1.json", tools=[server])
    assert sent["tools"] == [
        {
            "type": "mcp",
            "server_label": "deepwiki",
            "server_url": "https://mcp.deepwiki.com/mcp",
            "server_description": "DeepWiki MCP server",
            "allowed_tools": ["ask_question"],
            "require_approval": "never",
        }
    ]
    assert [p.name for p in result.content if isinstance(p, ToolCallPart)] == [
        "mcp_list_tools",
        "web_search_exa",
    ]


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ({"server_label": "x", "server_url": "https://h/mcp", "headers": {"a": "b\r\nc: d"}}, "header 'a'"),
        ({"server_label": "x", "server_url": "https://h/mcp", "headers": {}}, "headers"),
        ({"server_label": "x", "server_url": "https://h/mcp", "authorization": "t"}, "authorization"),
        ({"server_label": "x", "server_url": "ftp://h/mcp"}, "server_url"),
        ({"server_label": "1x", "server_url": "https://h/mcp"}, "server_label"),
    ],
)
def test_mcp_arguments_it_cannot_take_are_refused_before_io(args: dict[str, Any], problem: str) -> None:
    def no_io(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"a request was sent: {request.url}")

    model = modelport.get_model(
        "openai-responses/gpt-5", api_key="k" * 24, transport=httpx.MockTransport(no_io)
    )
    with pytest.raises(ProviderToolError, match=problem):
        model.prepare(prompt="Hi", tools=[tools.mcp(**args)])
