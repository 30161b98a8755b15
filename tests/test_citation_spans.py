"""One citation model on every provider: each citation of a recorded grounded answer is a span of
``result.text`` (character and UTF-8 byte offsets, exact) that selects exactly the words the
provider cited, with its sources (:func:`modelport.citations.cited_spans`).

Recordings (pydantic-ai's cassettes): Gemini 2.5 Pro with Google Search (``groundingSupports``
with UTF-8 byte offsets and the segment's text), gpt-5.2 on the Responses API with web search
(``url_citation`` with code-point offsets), Claude Sonnet 4.5 with web search (text blocks with
``web_search_result_location`` citations and their ``cited_text``); file search sources from
Gemini File Search (``retrievedContext``) and OpenAI ``file_citation`` (vercel/ai's fixture).
"""

from __future__ import annotations

import json

from modelport.citations import cite, cited_spans
from tests.anthropic import corpus as anthropic_corpus
from tests.google import corpus as google_corpus
from tests.openai import responses_corpus
from tests.recordings import answered as replayed

PYDANTIC_AI = "pydantic__pydantic-ai"


def _google(name: str) -> bytes:
    for interaction in google_corpus.cassette(PYDANTIC_AI, name):
        if interaction.uri.endswith(":generateContent") and b"groundingMetadata" in interaction.body:
            return interaction.body
    raise AssertionError(name)


def test_gemini_spans_are_the_grounding_segments_to_the_byte() -> None:
    body = _google("tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml")
    grounding = json.loads(body)["candidates"][0]["groundingMetadata"]
    result = replayed("google/gemini-2.5-pro", body)
    spans = cited_spans(result)
    segments = [s["segment"] for s in grounding["groundingSupports"]]
    assert len(spans) == len(segments) == 6
    raw = result.text.encode()
    for span, segment, support in zip(spans, segments, grounding["groundingSupports"]):
        assert (span.byte_start, span.byte_end) == (segment.get("startIndex", 0), segment["endIndex"])
        assert span.text == segment["text"] == raw[span.byte_start : span.byte_end].decode()
        assert span.text == result.text[span.start : span.end]
        chunks = grounding["groundingChunks"]
        assert [s.uri for s in span.sources] == [
            chunks[i]["web"]["uri"] for i in support["groundingChunkIndices"]
        ]
    assert spans[-1].byte_start > spans[-1].start  # "°F" before it: byte and character offsets differ


def test_openai_spans_are_the_annotated_characters() -> None:
    name = "tests__models__cassettes__test_openai_responses__test_openai_include_raw_annotations_non_streaming.yaml"
    body = responses_corpus.exchanges(f"{PYDANTIC_AI}/{name}")[0].body
    (message,) = [item for item in json.loads(body)["output"] if item["type"] == "message"]
    (content,) = message["content"]
    (note,) = content["annotations"]
    result = replayed("openai-responses/gpt-5.2", body)
    (span,) = cited_spans(result)
    assert (span.start, span.end) == (note["start_index"], note["end_index"])
    assert span.text == content["text"][note["start_index"] : note["end_index"]]
    assert (
        span.text == "([britannica.com](https://www.britannica.com/place/Mount-Columbia?utm_source=openai))"
    )
    prefix = content["text"][: note["start_index"]]
    assert (span.byte_start, span.byte_end) == (
        len(prefix.encode()),
        len(prefix.encode()) + len(span.text.encode()),
    )
    assert [(s.title, s.uri) for s in span.sources] == [(note["title"], note["url"])]


def test_anthropic_spans_are_the_cited_text_blocks_with_their_quotes() -> None:
    name = "tests__models__cassettes__test_anthropic__test_anthropic_web_search_tool.yaml"
    recorded = anthropic_corpus.interactions(f"{PYDANTIC_AI}/{name}")[0]
    blocks = recorded.json()["content"]
    result = replayed("anthropic/claude-sonnet-4-5", recorded.body)
    cited = [b for b in blocks if b["type"] == "text" and b.get("citations")]
    spans = cited_spans(result)
    assert [(s.text, s.cited_text, [x.uri for x in s.sources]) for s in spans] == [
        (b["text"], b["citations"][0]["cited_text"], [b["citations"][0]["url"]]) for b in cited
    ]
    raw = result.text.encode()
    assert all(raw[s.byte_start : s.byte_end].decode() == s.text for s in spans)
    assert any(s.byte_start != s.start for s in spans)  # "66°F": a two-byte character before a span


def test_a_gemini_file_search_source_shows_its_passage_not_a_bare_number() -> None:
    body = _google(
        "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml"
    )
    (chunk,) = json.loads(body)["candidates"][0]["groundingMetadata"]["groundingChunks"]
    result = replayed("google/gemini-3-flash-preview", body)
    (source,) = result.sources
    assert source.excerpt == chunk["retrievedContext"]["text"]
    assert cite(result).sources_block() == (
        "Sources:\n[1] “Paris is the capital of France. The Eiffel Tower is a famous landmark in Paris.”"
    )


def test_an_openai_file_citation_names_the_file_and_its_id() -> None:
    path = "vercel__ai/packages__openai__src__responses____fixtures____openai-file-search-tool.1.json"
    body = responses_corpus.exchanges(path)[0].body
    result = replayed("openai-responses/gpt-5", body)
    (span,) = cited_spans(result)
    assert [(s.title, s.file_id) for s in span.sources] == [("ai.pdf", "file-Ebzhf8H4DPGPr9pUhr7n7v")]
    assert (span.start, span.end, span.text) == (438, 438, "")  # OpenAI cites a point: a zero-width span
    assert cite(result).sources_block() == "Sources:\n[1] ai.pdf"


def test_only_a_vertex_search_document_gives_a_gemini_source_a_file_id() -> None:
    # Google documents ``retrievedContext.documentName`` as the Vertex AI Search document's full
    # resource name, "not supported in Gemini API"; the Gemini API's File Search names its store
    # (``fileSearchStore``), which is no file: the recorded chunk gives no file id.
    body = _google(
        "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml"
    )
    (chunk,) = json.loads(body)["candidates"][0]["groundingMetadata"]["groundingChunks"]
    assert "documentName" not in chunk["retrievedContext"] and chunk["retrievedContext"]["fileSearchStore"]
    (source,) = replayed("google/gemini-3-flash-preview", body).sources
    assert source.file_id is None
    # MOCK: a Vertex AI Search chunk in the documented shape (no recording of one is public).
    document = (
        "projects/p/locations/global/collections/default_collection/dataStores/d/branches/0/documents/7"
    )
    vertex = json.loads(body)
    vertex["candidates"][0]["groundingMetadata"]["groundingChunks"] = [
        {"retrievedContext": {"documentName": document, "title": "Paris", "text": "Paris is the capital."}}
    ]
    (source,) = replayed("google/gemini-3-flash-preview", json.dumps(vertex).encode()).sources
    assert (source.file_id, source.title, source.excerpt) == (document, "Paris", "Paris is the capital.")
