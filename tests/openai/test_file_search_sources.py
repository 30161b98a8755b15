"""A ``file_citation`` names a file; its source's excerpt is the passage the file search retrieved
(``file_search_call.results``, returned when the request's ``include`` asks for it), streamed or not.

Base: vercel/ai's recorded gpt-5 file searches (``openai-file-search-tool.1``, a body and a stream):
a ``file_search_call`` (``results: null``, not requested) and ``file_citation`` of ``ai.pdf``.
MOCK: its ``results`` are filled in with invented passages in the documented shape (``file_id``,
``filename``, ``score``, ``text``, ``attributes``): no public recording requested the results.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

import modelport
from modelport.citations import cite, cited_spans
from tests.openai import responses_corpus
from tests.recordings import answered as replayed

FIXTURE = "vercel__ai/packages__openai__src__responses____fixtures____openai-file-search-tool.1"
FILE = "file-Ebzhf8H4DPGPr9pUhr7n7v"
BEST = "An embedding model turns words or images into a dense vector of numbers."  # MOCK text
RESULTS = [
    {
        "file_id": FILE,
        "filename": "ai.pdf",
        "score": 0.41,
        "text": "Generative models write text.",
        "attributes": {},
    },
    {"file_id": FILE, "filename": "ai.pdf", "score": 0.93, "text": BEST, "attributes": {}},
    {"file_id": "file-other", "filename": "other.pdf", "score": 0.99, "text": "Not cited.", "attributes": {}},
]


def _with_results(item: dict[str, Any]) -> dict[str, Any]:
    return {**item, "results": RESULTS} if item.get("type") == "file_search_call" else item


def _body() -> bytes:
    response = json.loads(responses_corpus.exchanges(f"{FIXTURE}.json")[0].body)
    response["output"] = [_with_results(item) for item in response["output"]]
    return json.dumps(response).encode()


def _stream() -> modelport.Result:
    (recorded,) = responses_corpus.exchanges(f"{FIXTURE}.chunks.txt")
    frames = []
    for frame in recorded.frames():
        if frame["type"] == "response.output_item.done":
            frame = {**frame, "item": _with_results(frame["item"])}
        frames.append(f"data: {json.dumps(frame)}\n\n")
    body = "".join(frames).encode()

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    model = modelport.get_model("openai-responses/gpt-5", api_key="k", transport=httpx.MockTransport(answer))
    return model.stream(prompt="Hi").result()


def test_a_file_citation_source_has_title_file_id_and_the_best_passage() -> None:
    result = replayed("openai-responses/gpt-5", _body())
    (span,) = cited_spans(result)
    assert [(s.number, s.title, s.file_id, s.excerpt) for s in span.sources] == [(1, "ai.pdf", FILE, BEST)]
    assert [s.file_id for s in result.sources] == [FILE]  # a retrieved file nobody cited is no source


def test_the_stream_gives_its_sources_the_passage_too() -> None:
    result = _stream()  # another recorded answer than the body's: two citations of the same file
    assert [(s.number, s.title, s.file_id, s.excerpt) for s in result.sources] == [(1, "ai.pdf", FILE, BEST)]
    assert [(c.start, c.end, c.sources) for c in result.citations] == [(154, 154, [1]), (382, 382, [1])]


def test_without_results_a_file_citation_has_no_excerpt() -> None:
    body = responses_corpus.exchanges(f"{FIXTURE}.json")[0].body  # as recorded: results null
    (source,) = replayed("openai-responses/gpt-5", body).sources
    assert (source.title, source.file_id, source.excerpt) == ("ai.pdf", FILE, None)
    assert cite(replayed("openai-responses/gpt-5", _body())).sources_block() == "Sources:\n[1] ai.pdf"
