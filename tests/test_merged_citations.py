"""Merging grounded answers (:func:`modelport.citations.merge_results`) works the same on every
provider, streamed or not: each merged citation selects the words it selected in its own answer,
keeps the provider's quote (``cited_text``) and points at its own sources, renumbered after the
sources of the answers before it; a citation whose offsets do not fit its own answer is dropped
with a warning, never moved into another answer (a stale index).

Recordings: pydantic-ai's Claude Sonnet 4.5 web search (message body and stream), gpt-5.2 on the
Responses API with web search (body), vercel/ai's gpt-5 web search stream, and pydantic-ai's
Gemini 2.5 Pro Google Search (body).
"""

from __future__ import annotations

import httpx
import pytest

import modelport
from modelport.citations import check_evidence, cite, cited_spans, merge_results
from modelport.types import Citation, Result
from tests.anthropic import corpus as anthropic_corpus
from tests.google import corpus as google_corpus
from tests.openai import responses_corpus
from tests.recordings import answered as replayed

PYDANTIC_AI = "pydantic__pydantic-ai"
ANTHROPIC = "anthropic/claude-sonnet-4-5"
RESPONSES = "openai-responses/gpt-5.2"


def _streamed(model_id: str, body: bytes) -> Result:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    model = modelport.get_model(model_id, api_key="k", transport=httpx.MockTransport(answer), max_retries=0)
    return model.stream(prompt="Hi").result()


def _anthropic(stream: bool) -> Result:
    suffix = "_stream" if stream else ""
    name = (
        f"{PYDANTIC_AI}/tests__models__cassettes__test_anthropic__test_anthropic_web_search_tool{suffix}.yaml"
    )
    (recorded,) = [i for i in anthropic_corpus.interactions(name) if i.is_sse == stream][:1]
    return _streamed(ANTHROPIC, recorded.body) if stream else replayed(ANTHROPIC, recorded.body)


def _openai(stream: bool) -> Result:
    if stream:
        name = (
            "vercel__ai/packages__openai__src__responses____fixtures____openai-web-search-tool.1.chunks.txt"
        )
        return _streamed(RESPONSES, responses_corpus.exchanges(name)[0].body)
    name = "tests__models__cassettes__test_openai_responses__test_openai_include_raw_annotations_non_streaming.yaml"
    return replayed(RESPONSES, responses_corpus.exchanges(f"{PYDANTIC_AI}/{name}")[0].body)


def _gemini() -> Result:
    name = "tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml"
    return replayed("google/gemini-2.5-pro", google_corpus.cassette(PYDANTIC_AI, name)[0].body)


def _cited(result: Result) -> list[tuple[str, str | None, list[str | None]]]:
    return [(s.text, s.cited_text, [x.uri for x in s.sources]) for s in cited_spans(result)]


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
def test_merged_answers_cite_what_each_answer_cited(stream: bool) -> None:
    answers = [_anthropic(stream), _openai(stream), _gemini()]
    assert all(cited_spans(a) for a in answers)  # every answer is grounded
    merged = merge_results(answers, separator="\n\n")
    assert merged.text == "\n\n".join(a.text for a in answers)
    assert _cited(merged) == [span for a in answers for span in _cited(a)]
    assert any(quote for _, quote, _ in _cited(merged))  # Anthropic's cited_text is kept
    assert [s.number for s in merged.sources] == list(range(1, sum(len(a.sources) for a in answers) + 1))
    assert [s.uri for s in merged.sources] == [s.uri for a in answers for s in a.sources]
    raw = merged.text.encode()
    assert all(raw[s.byte_start : s.byte_end].decode() == s.text for s in cited_spans(merged))
    assert merged.warnings == [w for a in answers for w in a.warnings]


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
def test_merged_evidence_numbers_each_answers_sources_apart(stream: bool) -> None:
    first, second = _anthropic(stream), _openai(stream)
    merged = merge_results([first, second])
    evidence = cite(merged).with_sources()
    assert check_evidence(evidence) == []
    shift = len(first.sources)
    expected = cite(second).text
    for n in sorted({n for c in second.citations for n in c.sources}, reverse=True):
        expected = expected.replace(f"[{n}]", f"[{n + shift}]")
    assert cite(merged).text == f"{cite(first).text}\n\n{expected}"


def test_a_stale_citation_is_dropped_with_a_warning_not_moved_into_the_next_answer() -> None:
    first, second = _anthropic(False), _openai(False)
    end = len(first.text)
    # MOCK: two citations no provider sent, one running past its answer's text, one naming a
    # source the answer does not list; moved by the merge, both would cite the other answer.
    stale = [Citation(start=end - 3, end=end + 9, sources=[1]), Citation(start=0, end=4, sources=[99])]
    tampered = first.model_copy(update={"citations": [*first.citations, *stale]})
    merged = merge_results([tampered, second])
    assert _cited(merged) == _cited(merge_results([first, second]))
    skipped = [w for w in merged.warnings if w.type == "skipped-citation"]
    assert [w.details for w in skipped] == [
        f"result 1's citation ({end - 3}, {end + 9}) of sources [1] is not a span of its {end} characters "
        "with a listed source; it is left out of the merged result",
        f"result 1's citation (0, 4) of sources [99] is not a span of its {end} characters "
        "with a listed source; it is left out of the merged result",
    ]
