"""Request documents (contract 2.3) on the Messages API: document blocks with citations on, and the
sources their citations name.

The answers are real recordings (prism-php/prism, MIT, vendored in tests/corpus/anthropic): a PDF
answer with two ``page_location`` citations and a streamed answer with two ``char_location``
citations of one untitled document. The request bodies are exact: what the citations guide shows.
A reply built with :func:`fakes.message` is MOCK (for the mapping rules only)."""

from __future__ import annotations

import base64

import httpx
import pytest

from modelport.errors import InvalidRequestError
from modelport.types import Citation, FileDocument, Source, TextDocument, ToolCallPart, ToolResultPart

from . import corpus
from .fakes import message, model

PDF = "prism-php__prism/tests__Fixtures__anthropic__generate-text-with-pdf-citations-1.json"
STREAM = "prism-php__prism/tests__Fixtures__anthropic__stream-with-citations-1.sse"
CITED = {"enabled": True}


def test_documents_open_the_first_user_turn_as_cited_document_blocks() -> None:
    m, answers = model([httpx.Response(200, json=message())])
    m.generate(
        prompt="What colour is the grass?",
        documents=[
            TextDocument(text="The grass is green.", title="Grass", context="A children's book"),
            FileDocument(media_type="application/pdf", data=b"%PDF-1.4"),
            FileDocument(media_type="application/pdf", uri="https://example.com/sky.pdf", title="Sky"),
            FileDocument(media_type="text/plain", uri="file_011CNha8iCJcU1wXNR6q4V8w"),
            {"type": "file", "media_type": "text/plain", "data": base64.b64encode(b"caf\xc3\xa9").decode()},
        ],
    )
    assert answers.body()["messages"] == [
        {
            "role": "user",
            "content": [
                {
                    "type": "document",
                    "source": {"type": "text", "media_type": "text/plain", "data": "The grass is green."},
                    "title": "Grass",
                    "context": "A children's book",
                    "citations": CITED,
                },
                {
                    "type": "document",
                    "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0xLjQ="},
                    "citations": CITED,
                },
                {
                    "type": "document",
                    "source": {"type": "url", "url": "https://example.com/sky.pdf"},
                    "title": "Sky",
                    "citations": CITED,
                },
                {
                    "type": "document",
                    "source": {"type": "file", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w"},
                    "citations": CITED,
                },
                {
                    "type": "document",
                    "source": {"type": "text", "media_type": "text/plain", "data": "café"},
                    "citations": CITED,
                },
                {"type": "text", "text": "What colour is the grass?"},
            ],
        }
    ]


def test_documents_go_into_the_first_user_turn_of_a_history_with_tool_turns_and_into_the_count() -> None:
    # A tool result must follow the call it answers (refused before I/O otherwise), so the first
    # user turn never holds one: the documents lead it, before its text.
    m, answers = model([httpx.Response(200, json={"input_tokens": 575})])
    messages = [
        {"role": "user", "content": "Is the grass green?"},
        {"role": "assistant", "content": [ToolCallPart(id="toolu_1", name="look", args={"at": "grass"})]},
        {"role": "tool", "content": [ToolResultPart(call_id="toolu_1", name="look", output="green")]},
        {"role": "user", "content": "And the sky?"},
    ]
    m.count_tokens(messages=messages, documents=["The sky is blue."])
    sent = answers.body()["messages"]
    assert sent[0] == {
        "role": "user",
        "content": [
            {
                "type": "document",
                "source": {"type": "text", "media_type": "text/plain", "data": "The sky is blue."},
                "citations": CITED,
            },
            {"type": "text", "text": "Is the grass green?"},
        ],
    }
    assert sent[1] == {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "look", "input": {"at": "grass"}}],
    }
    assert sent[2:] == [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "green"}]},
        {"role": "user", "content": "And the sky?"},
    ]


@pytest.mark.parametrize(
    ("document", "message_part"),
    [
        (FileDocument(media_type="image/png", data=b"\x89PNG"), "documents[0].media_type: 'image/png'"),
        (FileDocument(media_type="text/plain", uri="https://example.com/a.txt"), "documents[0].uri"),
        (FileDocument(media_type="text/plain", data=b"\xff\xfe"), "documents[0].data: a text/plain"),
    ],
)
def test_a_document_the_api_cannot_take_is_refused_before_any_io(
    document: FileDocument, message_part: str
) -> None:
    m, answers = model([])
    with pytest.raises(InvalidRequestError) as raised:
        m.generate(prompt="What is in it?", documents=[document])
    assert message_part in str(raised.value)
    assert answers.requests == []


def test_page_citations_name_the_document_by_its_index_and_kind() -> None:
    recorded = corpus.interactions(PDF)[0]
    m, _ = model([httpx.Response(200, headers=recorded.headers, content=recorded.body)])
    result = m.generate(
        prompt="What color is the grass and sky?",
        documents=[{"type": "file", "media_type": "application/pdf", "uri": "https://example.com/g.pdf"}],
    )
    assert result.sources == [
        Source(number=1, title="All aboout the grass and the sky", id="0", kind="document")
    ]
    assert result.citations == [
        Citation(start=23, end=41, sources=[1], cited_text="The grass is green. "),
        Citation(start=46, end=61, sources=[1], cited_text="The sky is blue."),
    ]
    # cited_text is the document's words; the answer's words are the span of the text.
    assert result.text[23:41] == "the grass is green"


def test_streamed_char_citations_give_the_same_document_source() -> None:
    recorded = corpus.interactions(STREAM)[0]
    m, _ = model([httpx.Response(200, headers=recorded.headers, content=recorded.body)])
    result = m.stream(
        prompt="What color are the grass and the sky?",
        documents=["The grass is green. The sky is blue."],
    ).result()
    assert result.sources == [Source(number=1, id="0", kind="document")]
    assert result.citations == [
        Citation(start=33, end=52, sources=[1], cited_text="The grass is green. "),
        Citation(start=53, end=69, sources=[1], cited_text="The sky is blue."),
    ]
    assert result.text[33:52] == "The grass is green."
