"""Citation rendering (C3, S10): markers at span ends, merged and checked, and a "Sources" list."""

from __future__ import annotations

import modelport
from modelport.types import Citation, Result, Source, TextPart


def grounded(text: str, citations: list[Citation], n_sources: int = 2) -> Result:
    sources = [
        Source(number=i, title=f"site{i}.org", uri=f"https://site{i}.org/") for i in range(1, n_sources + 1)
    ]
    return Result(content=[TextPart(text=text)], sources=sources, citations=citations)


def test_cite_inserts_markers_at_span_ends() -> None:
    result = grounded(
        "Zürich is 18 °C. Tokyo is 東京.",
        [
            Citation(start=0, end=16, sources=[1]),
            Citation(start=17, end=29, sources=[2, 1]),
        ],
    )
    cited = modelport.cite(result)
    assert cited.text == "Zürich is 18 °C.[1] Tokyo is 東京.[1][2]"
    assert cited.with_sources() == (
        "Zürich is 18 °C.[1] Tokyo is 東京.[1][2]\n\nSources:\n"
        "[1] site1.org - https://site1.org/\n[2] site2.org - https://site2.org/"
    )
    assert modelport.check_markers(cited.text, cited.sources) == []


def test_cite_merges_markers_and_ignores_bad_spans() -> None:
    result = grounded(
        "abc",
        [
            Citation(start=0, end=3, sources=[2]),
            Citation(start=1, end=3, sources=[2, 1]),
            Citation(start=0, end=99, sources=[1]),
            Citation(start=0, end=1, sources=[7]),
        ],
    )
    cited = modelport.cite(result)
    assert cited.text == "abc[1][2]"
    assert len(cited.citations) == 2


def test_cite_without_grounding_is_the_plain_text() -> None:
    cited = modelport.cite(Result(content=[TextPart(text="plain")]))
    assert (cited.text, cited.sources, cited.with_sources()) == ("plain", [], "plain")


def test_check_markers_finds_dangling_markers() -> None:
    assert modelport.check_markers("a[1] b[3] c[12]", [Source(number=1), Source(number=3)]) == [12]
