"""Citations on ``bedrock``: ``documents=`` become Converse ``document`` blocks with citations on,
and a cited answer's ``citation`` deltas become the contract's numbered sources and spans, on
ruby_llm's recording of a ConverseStream over a text document (tests/corpus/bedrock)."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest
import yaml
from modelport_aws._frames import merge_frames
from modelport_aws._stream import ConverseStream

import modelport
from modelport.errors import InvalidRequestError
from modelport.http.event_stream import EventStreamParser
from modelport.types import Citation, Source
from tests import recordings
from tests.aws.replay import answering, keys

HAIKU = "bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0"
FILE = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__chat_citations_with_bedrock_claude-haiku-4-5_streams_citations.yml"
QUOTE = "The Ruby programming language was created by Yukihiro Matsumoto in 1993. "


class _RubyLoader(yaml.SafeLoader):
    """Ruby VCR tags a binary body ``!binary`` (base64 text)."""


_RubyLoader.add_constructor("!binary", lambda loader, node: base64.b64decode(loader.construct_scalar(node)))  # type: ignore[arg-type]


def recorded() -> tuple[dict[str, Any], bytes]:
    text = recordings.bedrock(FILE).read_text(encoding="utf-8")
    item = yaml.load(text, Loader=_RubyLoader)["http_interactions"][0]  # noqa: S506 - a safe loader
    body = item["response"]["body"]["string"]
    return json.loads(item["request"]["body"]["string"]), body


def ask(transport: httpx.MockTransport, sent: dict[str, Any], *, stream: bool) -> Any:
    document = sent["messages"][0]["content"][1]["document"]
    model = modelport.get_model(HAIKU, transport=transport, **keys())
    call = model.stream if stream else model.generate
    answer = call(
        prompt="Who created Ruby? Use the document.",
        documents=[{"type": "text", "title": "facts", "text": document["source"]["text"]}],
        provider_options={"bedrock": {"inferenceConfig": {}}},
    )
    if stream:
        for _ in answer:
            pass
        return answer.result()
    return answer


def test_a_cited_stream_has_its_source_and_span() -> None:
    sent, body = recorded()
    seen: list[httpx.Request] = []
    result = ask(answering(body, seen=seen), sent, stream=True)
    assert json.loads(seen[0].content) == sent
    assert result.text == "Ruby was created by Yukihiro Matsumoto in 1993."
    assert result.sources == [Source(number=1, title="facts", id="0", kind="document")]
    assert result.citations == [Citation(start=0, end=47, sources=[1], cited_text=QUOTE)]
    assert modelport.cite(result).text == "Ruby was created by Yukihiro Matsumoto in 1993.[1]"


def test_the_whole_answer_of_the_same_stream_has_the_same_citations() -> None:
    sent, body = recorded()
    frames = list(EventStreamParser(provider="bedrock", on_error=lambda s, t: AssertionError(t)).feed(body))
    merged = merge_frames(frames)
    (block,) = merged["output"]["message"]["content"]
    assert block["citationsContent"]["content"] == [
        {"text": "Ruby was created by Yukihiro Matsumoto in 1993."}
    ]
    whole = ask(answering(merged), sent, stream=False)
    streamed = ask(answering(body), sent, stream=True)
    assert (whole.text, whole.sources, whole.citations) == (
        streamed.text,
        streamed.sources,
        streamed.citations,
    )


def test_a_document_index_counts_the_file_parts_before_the_documents() -> None:
    # Converse counts document blocks over the request: a message's file part is index 0 (no id in
    # documents=), the first of documents= is index 1. The citation shape is the recorded one.
    decoder = ConverseStream(origins=(None, 0))
    cite = {
        "location": {"documentChar": {"documentIndex": 1, "end": 5, "start": 0}},
        "sourceContent": [{"text": "Ruby."}],
        "title": "facts",
    }
    other = {
        "location": {"documentPage": {"documentIndex": 0, "end": 2, "start": 1}},
        "sourceContent": [{"text": "p1"}],
        "title": "Document 1",
    }
    frames = [
        {"event": "contentBlockDelta", "data": {"contentBlockIndex": 0, "delta": {"text": "Plain. "}}},
        {"event": "contentBlockStop", "data": {"contentBlockIndex": 0}},
        {"event": "contentBlockDelta", "data": {"contentBlockIndex": 1, "delta": {"citation": cite}}},
        {"event": "contentBlockDelta", "data": {"contentBlockIndex": 1, "delta": {"citation": other}}},
        {"event": "contentBlockDelta", "data": {"contentBlockIndex": 1, "delta": {"text": "Cited."}}},
        {"event": "contentBlockStop", "data": {"contentBlockIndex": 1}},
        {"event": "messageStop", "data": {"stopReason": "end_turn"}},
    ]
    for frame in frames:
        list(decoder.feed(frame))
    (finish,) = list(decoder.finish())
    assert finish.sources == [
        Source(number=1, title="facts", id="0", kind="document"),
        Source(number=2, title="Document 1", id=None, kind="document"),
    ]
    assert finish.citations == [
        Citation(start=7, end=13, sources=[1], cited_text="Ruby."),
        Citation(start=7, end=13, sources=[2], cited_text="p1"),
    ]


def test_documents_close_the_first_user_turn_and_are_named_after_the_file_parts() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        HAIKU, transport=answering(merge_frames([]) | {"stopReason": "end_turn"}, seen=seen), **keys()
    )
    model.generate(
        messages=[
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Compare."},
                    {"type": "file", "media_type": "application/pdf", "data": "JVBERi0="},
                ],
            }
        ],
        documents=[
            {
                "type": "file",
                "media_type": "application/pdf",
                "data": "JVBERi0=",
                "context": "the 2024 report",
            },
            {"type": "text", "text": "Plain notes."},
        ],
    )
    content = json.loads(seen[0].content)["messages"][0]["content"]
    assert [next(iter(b)) for b in content] == ["text", "document", "document", "document"]
    assert content[2]["document"] == {
        "format": "pdf",
        "name": "Document 2",
        "source": {"bytes": "JVBERi0="},
        "context": "the 2024 report",
        "citations": {"enabled": True},
    }
    assert content[3]["document"] == {
        "format": "txt",
        "name": "Document 3",
        "source": {"text": "Plain notes."},
        "citations": {"enabled": True},
    }
    assert "citations" not in content[1]["document"]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"type": "file", "media_type": "image/png", "data": "AAAA"}, "is not a document Converse takes"),
        (
            {"type": "text", "text": "x", "title": "notes.txt"},
            "the document name 'notes.txt' is not one Bedrock takes",
        ),
        (
            {"type": "file", "media_type": "application/pdf", "uri": "https://example.com/a.pdf"},
            "Bedrock fetches no URL",
        ),
    ],
)
def test_a_document_converse_cannot_take_is_refused_before_any_request(
    document: dict[str, Any], message: str
) -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(HAIKU, transport=answering({}, seen=seen), **keys())
    with pytest.raises(InvalidRequestError, match=message):
        model.generate(prompt="Read it.", documents=[document])
    assert seen == []
