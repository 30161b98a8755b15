"""Citations: a PDF sent with citations on, and the answer's cited spans and sources.

The answers are real recordings: prism's ``generate-text-with-pdf-citations-1.json`` (two
``page_location`` citations of one document) and pydantic-ai's web-search answer
(``web_search_result_location`` citations, each with its URL and title)."""

from __future__ import annotations

import httpx

from modelport.types import FilePart, Message, TextPart

from . import corpus
from .fakes import message, model

PDF = "prism-php__prism/tests__Fixtures__anthropic__generate-text-with-pdf-citations-1.json"
SEARCH = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_web_search_tool.yaml"


def test_a_pdf_goes_with_its_title_and_citations_on() -> None:
    m, answers = model([httpx.Response(200, json=message())])
    document = FilePart(
        media_type="application/pdf",
        uri="https://example.com/grass.pdf",
        provider_metadata={"anthropic": {"title": "Grass and sky", "citations": {"enabled": True}}},
    )
    m.generate(
        messages=[Message(role="user", content=[document, TextPart(text="What colour is the grass?")])]
    )
    assert answers.body()["messages"][0]["content"][0] == {
        "type": "document",
        "source": {"type": "url", "url": "https://example.com/grass.pdf"},
        "title": "Grass and sky",
        "citations": {"enabled": True},
    }


def test_page_citations_are_spans_of_the_answer_with_the_document_as_source() -> None:
    recorded = corpus.interactions(PDF)[0]
    m, _ = model([httpx.Response(200, headers=recorded.headers, content=recorded.body)])
    result = m.generate(prompt="What colour are the grass and the sky?")
    assert result.text == "According to the text, the grass is green and the sky is blue."
    assert [(result.text[c.start : c.end], c.sources) for c in result.citations] == [
        ("the grass is green", [1]),
        ("the sky is blue", [1]),
    ]
    assert [(s.number, s.title, s.uri) for s in result.sources] == [
        (1, "All aboout the grass and the sky", None)
    ]


def test_web_search_citations_keep_each_url_and_title() -> None:
    recorded = corpus.interactions(SEARCH)[0]
    m, _ = model([httpx.Response(200, headers=recorded.headers, content=recorded.body)])
    result = m.generate(prompt="What is the weather in San Francisco today?")
    cited = [
        (block["text"], c["url"], c["title"])
        for block in recorded.json()["content"]
        if block["type"] == "text"
        for c in block.get("citations") or []
    ]
    sources = {s.number: s for s in result.sources}
    got = [
        (result.text[c.start : c.end], sources[n].uri, sources[n].title)
        for c in result.citations
        for n in c.sources
    ]
    assert got == cited
    assert {s.domain for s in result.sources} >= {"www.wunderground.com"}
