"""A web-searched answer with citations gives the same sources, citation spans and rendered
``[n]`` markers whichever provider searched.

Each provider leg answers one canonical question with its own web-search tool, in its own wire
format: ``openai-responses`` with ``openai.web_search`` replays pydantic-ai's recorded gpt-5.2
answer (a ``web_search_call`` and one ``url_citation`` annotation, code-point offsets); ``google``
with ``google.google_search`` answers with the same text grounded on the same page (MOCK: a
``groundingMetadata`` written for this test, byte offsets over the same span, since no recorded
Gemini answer has this text). What must agree: the text, the numbered sources (title, URL,
domain), the citation spans and what :func:`modelport.cite` renders. What is the provider's own:
whether the search itself is a part (a provider-executed call and result on the Responses API; on
Gemini it is grounding metadata only), ids and ``provider_metadata``.

``anthropic`` with ``anthropic.web_search`` answers the same text in the Messages API's blocks (MOCK:
written for this test in the shapes of the recorded ``test_anthropic_web_search_tool.yaml``): a
``server_tool_use``, its ``web_search_tool_result``, and the text as blocks, the cited span a block of
its own with a ``web_search_result_location`` citation (Anthropic gives no offsets: the span is
where the block sits in the answer). More legs add an entry to :data:`LEGS`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import modelport
from modelport import cite
from modelport.types import ProviderTool, Result, TextPart, ToolCallPart, ToolResultPart
from tests.openai import responses_corpus as corpus

QUESTION = "What is the tallest mountain in Alberta? Provide one sentence with a citation."
RECORDED = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_include_raw_annotations_non_streaming.yaml"


def _recorded_answer() -> dict[str, Any]:
    return json.loads(corpus.exchanges(RECORDED)[0].body)  # type: ignore[no-any-return]


def _recorded_text_and_note() -> tuple[str, dict[str, Any]]:
    (message,) = [i for i in _recorded_answer()["output"] if i["type"] == "message"]
    (content,) = message["content"]
    (note,) = content["annotations"]
    return content["text"], note


def _gemini_answer() -> dict[str, Any]:
    """The recorded text, grounded by Gemini's shape on the page the recorded annotation names."""
    text, note = _recorded_text_and_note()
    prefix, span = text[: note["start_index"]], text[note["start_index"] : note["end_index"]]
    start = len(prefix.encode())
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": text}]},
                "finishReason": "STOP",
                "index": 0,
                "groundingMetadata": {
                    "webSearchQueries": ["tallest mountain in Alberta"],
                    "groundingChunks": [
                        {"web": {"uri": note["url"], "title": note["title"], "domain": "www.britannica.com"}}
                    ],
                    "groundingSupports": [
                        {
                            "segment": {
                                "startIndex": start,
                                "endIndex": start + len(span.encode()),
                                "text": span,
                            },
                            "groundingChunkIndices": [0],
                        }
                    ],
                },
            }
        ],
        "modelVersion": "gemini-2.5-flash",
        "responseId": "g-1",
        "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 40, "totalTokenCount": 60},
    }


def _anthropic_answer() -> dict[str, Any]:
    """The recorded text as Anthropic blocks, the cited span in its own block with its citation."""
    text, note = _recorded_text_and_note()
    start, end = note["start_index"], note["end_index"]
    cited = {
        "type": "web_search_result_location",
        "url": note["url"],
        "title": note["title"],
        "encrypted_index": "Eo8BCioIBxgC",
        "cited_text": text[start:end],
    }
    blocks = [
        {"type": "text", "text": text[:start]},
        {"type": "text", "text": text[start:end], "citations": [cited]},
    ]
    if text[end:]:
        blocks.append({"type": "text", "text": text[end:]})
    return {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {
                "type": "server_tool_use",
                "id": "srvtoolu_01",
                "name": "web_search",
                "input": {"query": "tallest mountain in Alberta"},
            },
            {
                "type": "web_search_tool_result",
                "tool_use_id": "srvtoolu_01",
                "content": [
                    {
                        "type": "web_search_result",
                        "url": note["url"],
                        "title": note["title"],
                        "encrypted_content": "EqgfCioIBxgC",
                    }
                ],
            },
            *blocks,
        ],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 20, "output_tokens": 40},
    }


#: Each leg: the model, its web-search tool and the body its fake answers with.
LEGS: dict[str, tuple[str, ProviderTool, Callable[[], dict[str, Any]]]] = {
    "google": ("google/gemini-2.5-flash", ProviderTool(id="google.google_search"), _gemini_answer),
    "openai-responses": (
        "openai-responses/gpt-5.2",
        ProviderTool(id="openai.web_search", args={"search_context_size": "medium"}),
        _recorded_answer,
    ),
    "anthropic": (
        "anthropic/claude-sonnet-4-5",
        ProviderTool(id="anthropic.web_search", args={"max_uses": 3}),
        _anthropic_answer,
    ),
}


def _answer(leg: str) -> tuple[Result, dict[str, Any]]:
    model_id, tool, body = LEGS[leg]
    sent: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=body())

    model = modelport.get_model(
        model_id, api_key="test-key-0123456789", transport=httpx.MockTransport(handler), max_retries=0
    )
    return model.generate(prompt=QUESTION, tools=[tool]), sent[0]


def test_the_recorded_openai_citation_in_full() -> None:
    result, sent = _answer("openai-responses")
    assert sent["tools"] == [{"type": "web_search", "search_context_size": "medium"}]
    text, note = _recorded_text_and_note()
    assert result.text == text
    assert [(s.number, s.title, s.uri, s.domain) for s in result.sources] == [
        (1, note["title"], note["url"], "www.britannica.com")
    ]
    (citation,) = result.citations
    assert (citation.start, citation.end, citation.sources) == (126, 211, [1])
    assert (
        result.text[126:211]
        == "([britannica.com](https://www.britannica.com/place/Mount-Columbia?utm_source=openai))"
    )
    assert cite(result).text == text + "[1]"


@pytest.mark.parametrize("leg", [leg for leg in LEGS if leg != "google"])
def test_a_web_searched_answer_has_the_same_citations(leg: str) -> None:
    google, _ = _answer("google")
    other, _ = _answer(leg)
    assert other.text == google.text
    assert other.sources == google.sources
    # The same spans and sources; Anthropic also quotes the source's words (the others do not).
    assert [c.model_copy(update={"cited_text": None}) for c in other.citations] == google.citations
    quoted = [c.cited_text for c in other.citations]
    assert quoted == (
        [other.text[c.start : c.end] for c in other.citations] if leg == "anthropic" else [None]
    )
    assert cite(other).text == cite(google).text
    assert (other.finish_reason, google.finish_reason) == ("stop", "stop")
    # The visible answer is the same text; how it is cut into parts is the API's (Anthropic gives a
    # text block per cited span), and the search itself is a part only where the API has one.
    assert "".join(p.text for p in other.content if isinstance(p, TextPart)) == "".join(
        p.text for p in google.content if isinstance(p, TextPart)
    )
    searches = [p for p in other.content if isinstance(p, (ToolCallPart, ToolResultPart))]
    assert all(p.provider_executed for p in searches)
    assert not [p for p in google.content if isinstance(p, (ToolCallPart, ToolResultPart))]
