"""The citation invariant of the conformance suite (``check_citations``): spans inside the text,
byte offsets selecting the same words, every cited source listed once, and a stream's events
carrying the sources and citations of its result. It runs on every case; here it is shown to hold
on every provider's grounded cases and to catch each way a plugin could break it."""

from __future__ import annotations

from modelport.events import FinishEvent, TextDeltaEvent, TextEndEvent, TextStartEvent
from modelport.types import Citation, Result, Source, TextPart
from modelport_conformance.cases import discover_suites
from modelport_conformance.invariants import check_citations
from modelport_conformance.replay import execute

TEXT = "Mount Columbia is 3,747 m high."
SOURCE = Source(number=1, title="Britannica", uri="https://www.britannica.com/place/Mount-Columbia")


def _result(citations: list[Citation], sources: list[Source] | None = None) -> Result:
    return Result(
        content=[TextPart(text=TEXT)], sources=[SOURCE] if sources is None else sources, citations=citations
    )


def test_every_providers_grounded_cases_hold_it() -> None:
    suites, errors = discover_suites(["google", "openai-responses", "anthropic"])
    assert errors == {}
    grounded: dict[str, int] = {}
    for provider, suite in suites.items():
        assert suite is not None
        for case in suite.cases:
            run = execute(suite, case)
            result = run.result
            if result is None or not result.citations:
                continue
            grounded[provider] = grounded.get(provider, 0) + 1
            assert check_citations(result, run.events) == [], case.name
    # Each provider's suite has grounded (cited) answers for the invariant to run on.
    assert set(grounded) == {"google", "openai-responses", "anthropic"}
    assert min(grounded.values()) >= 2


def test_a_span_past_the_text_is_a_problem() -> None:
    problems = check_citations(_result([Citation(start=0, end=len(TEXT) + 1, sources=[1])]), [])
    assert problems == [f"citation [0, {len(TEXT) + 1}) ends past the text of {len(TEXT)} characters"]


def test_a_source_cited_but_not_listed_is_a_problem() -> None:
    assert check_citations(_result([Citation(start=0, end=14, sources=[1, 2])]), []) == [
        "citation [0, 14) cites sources [2] that are not listed"
    ]


def test_a_source_number_listed_twice_is_a_problem() -> None:
    result = _result([Citation(start=0, end=14, sources=[1])], [SOURCE, SOURCE])
    assert check_citations(result, []) == ["source numbers are listed more than once: [1, 1]"]


def test_a_stream_whose_events_cite_otherwise_is_a_problem() -> None:
    cited = _result([Citation(start=0, end=14, sources=[1])])
    events = [
        TextStartEvent(id="t"),
        TextDeltaEvent(id="t", delta=TEXT),
        TextEndEvent(id="t"),
        FinishEvent(
            finish_reason="stop", sources=[SOURCE], citations=[Citation(start=0, end=15, sources=[1])]
        ),
    ]
    assert check_citations(cited, events) == [
        "the stream's events carry other sources or citations than its result"
    ]
    same = [*events[:-1], FinishEvent(finish_reason="stop", sources=[SOURCE], citations=cited.citations)]
    assert check_citations(cited, same) == []
