"""Merging grounded answers (S9), inline evidence (S10) and query accounting (S11)."""

from __future__ import annotations

from typing import Any

import pytest

from modelport import cite
from modelport.citations import check_evidence as core_check_evidence
from modelport.citations import split_sources_block
from modelport.errors import ProviderMetadataError
from modelport.types import Citation, Result, Source, TextPart
from modelport_google.grounding import (
    GroundingStats,
    check_evidence,
    citations_from_grounding,
    grounding_metadata,
    grounding_stats,
    inline_evidence,
    merge_grounding,
    merge_results,
    result_stats,
)

ZURICH = "Zürich raised its rate. Geneva did not."  # 39 characters, 40 bytes
ZURICH_MD: dict[str, Any] = {
    "groundingChunks": [{"web": {"uri": "https://a.example/1", "title": "a.example"}}],
    "groundingSupports": [
        {"segment": {"endIndex": 24, "text": "Zürich raised its rate."}, "groundingChunkIndices": [0]}
    ],
    "webSearchQueries": ["zurich rate"],
    "searchEntryPoint": {"renderedContent": "<a>zurich</a>"},
}
TOKYO_PARTS = ["", "東京は晴れ。", "Paris pleut."]  # a thought part first: partIndex counts it
TOKYO_MD: dict[str, Any] = {
    "groundingChunks": [
        {"web": {"uri": "https://b.example"}},
        {"web": {"uri": "https://c.example", "title": "c"}},
    ],
    "groundingSupports": [
        {"segment": {"partIndex": 1, "endIndex": 18}, "groundingChunkIndices": [1, 0]},
        {
            "segment": {"partIndex": 2, "startIndex": 6, "endIndex": 12, "text": "pleut."},
            "groundingChunkIndices": [1],
        },
    ],
    "webSearchQueries": ["tokyo weather"],
    "imageSearchQueries": ["paris rain"],
    "searchEntryPoint": {"renderedContent": "<a>tokyo</a>"},
}


def render(text: str, metadata: dict[str, Any]) -> str:
    sources, citations, warnings = citations_from_grounding(metadata, [text], provider="google")
    assert warnings == []
    return cite(Result(content=[TextPart(text=text)], sources=sources, citations=citations)).text


# --------------------------------------------------------------------------- S9


def test_merging_renumbers_chunks_and_shifts_byte_offsets() -> None:
    text, merged = merge_grounding([(ZURICH, ZURICH_MD), ("No sources here.", None), (TOKYO_PARTS, TOKYO_MD)])
    assert text == "Zürich raised its rate. Geneva did not.\n\nNo sources here.\n\n東京は晴れ。Paris pleut."
    assert merged is not None
    # 40 + 2 + 16 + 2 bytes come before the third answer; its parts become absolute offsets
    assert [s["segment"] for s in merged["groundingSupports"]] == [
        {"endIndex": 24, "text": "Zürich raised its rate.", "startIndex": 0},
        {"endIndex": 78, "startIndex": 60},
        {"startIndex": 84, "endIndex": 90, "text": "pleut."},
    ]
    assert [s["groundingChunkIndices"] for s in merged["groundingSupports"]] == [[0], [2, 1], [2]]
    assert [c["web"]["uri"] for c in merged["groundingChunks"]] == [
        "https://a.example/1",
        "https://b.example",
        "https://c.example",
    ]
    assert merged["webSearchQueries"] == ["zurich rate", "tokyo weather"]
    assert merged["imageSearchQueries"] == ["paris rain"]
    assert merged["searchEntryPoint"] == {"renderedContent": "<a>tokyo</a>"}  # latest wins
    assert render(text, merged) == (
        "Zürich raised its rate.[1] Geneva did not.\n\nNo sources here.\n\n東京は晴れ。[2][3]Paris pleut.[3]"
    )


def test_merging_ungrounded_answers_gives_no_metadata() -> None:
    assert merge_grounding([("a", None), ("b", {})], separator=" ") == ("a b", None)
    assert merge_grounding([]) == ("", None)


def test_merged_metadata_is_validated() -> None:
    with pytest.raises(ProviderMetadataError):
        merge_grounding([("a", {"groundingChunks": "x"})])
    big = {"webSearchQueries": ["x" * 200_000]}
    with pytest.raises(ProviderMetadataError, match="bound"):
        merge_grounding([("a", big), ("b", {"webSearchQueries": ["y" * 200_000]})])


def _grounded(parts: list[str], metadata: dict[str, Any]) -> Result:
    sources, citations, warnings = citations_from_grounding(metadata, parts, provider="google")
    return Result(
        content=[TextPart(text=p) for p in parts if p],
        finish_reason="stop",
        provider_metadata={"google": {"groundingMetadata": metadata}},
        grounding_metadata=metadata,
        sources=sources,
        citations=citations,
        warnings=warnings,
    )


def test_merge_results_renumbers_sources_and_shifts_spans() -> None:
    first = _grounded([ZURICH], ZURICH_MD)
    second = _grounded(
        ["東京は晴れ。", "Paris pleut."],
        {
            **TOKYO_MD,
            "groundingSupports": [
                {"segment": {"endIndex": 18}, "groundingChunkIndices": [1, 0]},
                {"segment": {"startIndex": 24, "endIndex": 30}, "groundingChunkIndices": [1]},
            ],
        },
    )
    merged = merge_results([first, second], separator=" ")
    assert merged.text == "Zürich raised its rate. Geneva did not. 東京は晴れ。Paris pleut."
    assert [s.number for s in merged.sources] == [1, 2, 3]
    assert merged.sources[2] == Source(number=3, title="c", uri="https://c.example", kind="web-page")
    assert merged.citations == [
        Citation(start=0, end=23, sources=[1]),
        Citation(start=40, end=46, sources=[3, 2]),
        Citation(start=52, end=58, sources=[3]),
    ]
    assert cite(merged).text == "Zürich raised its rate.[1] Geneva did not. 東京は晴れ。[2][3]Paris pleut.[3]"
    assert grounding_metadata(merged) is not None
    assert merged.provider_metadata == {"google": {"groundingMetadata": grounding_metadata(merged)}}
    # the merged metadata renders the same markers as the merged citations
    assert render(merged.text, grounding_metadata(merged)) == cite(merged).text


# --------------------------------------------------------------------------- S10


EVIDENCE = (
    "Zürich raised its rate.[1] Geneva did not.\n\n東京は晴れ。[2][3]Paris pleut.[3]\n\n"
    "Sources:\n"
    "[1] a.example - https://a.example/1\n"
    "[2] https://b.example\n"
    "[3] c - https://c.example"
)


def test_inline_evidence_is_text_with_markers_and_a_sources_list() -> None:
    text, metadata = merge_grounding([(ZURICH, ZURICH_MD), (TOKYO_PARTS, TOKYO_MD)])
    assert metadata is not None
    result = _grounded([text], metadata)
    assert inline_evidence(result) == EVIDENCE
    assert check_evidence(EVIDENCE) == []


def test_inline_evidence_computes_sources_from_metadata_when_missing() -> None:
    bare = Result(content=[TextPart(text=ZURICH)], grounding_metadata=ZURICH_MD)
    assert inline_evidence(bare) == (
        "Zürich raised its rate.[1] Geneva did not.\n\nSources:\n[1] a.example - https://a.example/1"
    )
    assert inline_evidence(Result(content=[TextPart(text="plain")])) == "plain"


@pytest.mark.parametrize(
    ("text", "unlisted"),
    [
        (EVIDENCE, []),
        ("Rates went up [1] and down [4].\n\nSources:\n[1] a\n[2] b", [4]),
        (EVIDENCE.replace("[3] c - https://c.example", ""), [3]),  # a source line was dropped
        ("Paraphrase with markers [1][2] but no list.", [1, 2]),
        ("No markers at all.", []),
        ("Sources:\n[1] only a list", []),
    ],
)
def test_check_evidence_finds_markers_without_a_listed_source(text: str, unlisted: list[int]) -> None:
    assert check_evidence(text) == unlisted
    assert core_check_evidence is check_evidence


def test_split_sources_block() -> None:
    body, listed = split_sources_block(EVIDENCE)
    assert body == "Zürich raised its rate.[1] Geneva did not.\n\n東京は晴れ。[2][3]Paris pleut.[3]"
    assert listed == [1, 2, 3]


# --------------------------------------------------------------------------- S11


def test_query_accounting_of_a_grounded_answer() -> None:
    assert grounding_stats(TOKYO_MD, TOKYO_PARTS) == GroundingStats(
        grounded=True,
        queries=2,
        web_search_queries=1,
        image_search_queries=1,
        sources=2,
        citations=2,
        answer_bytes=30,  # 18 + 12
        covered_bytes=24,  # all of "東京は晴れ。" and "pleut."
        coverage=24 / 30,
    )


def test_overlapping_supports_are_counted_once() -> None:
    metadata = {
        "groundingChunks": [{}],
        "groundingSupports": [
            {"segment": {"endIndex": 24}, "groundingChunkIndices": [0]},
            {"segment": {"startIndex": 8, "endIndex": 40}, "groundingChunkIndices": [0]},
            {"segment": {"startIndex": 25, "endIndex": 31}, "groundingChunkIndices": [0]},
        ],
    }
    stats = grounding_stats(metadata, [ZURICH])
    assert (stats.covered_bytes, stats.answer_bytes, stats.coverage, stats.queries) == (40, 40, 1.0, 0)


def test_query_accounting_of_an_ungrounded_answer() -> None:
    expected = GroundingStats(
        grounded=False,
        queries=0,
        web_search_queries=0,
        image_search_queries=0,
        sources=0,
        citations=0,
        answer_bytes=40,
        covered_bytes=0,
        coverage=0.0,
    )
    assert grounding_stats(None, [ZURICH]) == expected
    assert result_stats(Result(content=[TextPart(text=ZURICH)])) == expected
    assert grounding_stats(None, []).coverage == 0.0


def test_result_stats_use_the_results_citations() -> None:
    result = _grounded([ZURICH], ZURICH_MD)
    stats = result_stats(result)
    assert (stats.grounded, stats.queries, stats.sources, stats.citations) == (True, 1, 1, 1)
    assert (stats.covered_bytes, stats.answer_bytes) == (24, 40)
    bare = Result(content=[TextPart(text=ZURICH)], grounding_metadata=ZURICH_MD)
    assert result_stats(bare) == stats


def test_grounding_exports() -> None:
    import modelport_google.grounding as grounding

    assert sorted(grounding.__all__) == sorted(
        [
            "LIST_FIELDS",
            "MAX_METADATA_BYTES",
            "GroundingAccumulator",
            "GroundingMetadata",
            "GroundingOutcome",
            "GroundingStats",
            "build_envelope",
            "check_evidence",
            "citations_from_grounding",
            "cited",
            "decode",
            "envelope",
            "grounding_metadata",
            "grounding_stats",
            "inline_evidence",
            "merge_grounding",
            "merge_results",
            "result_stats",
            "sources_from_chunks",
            "validate_grounding_metadata",
        ]
    )
    assert all(hasattr(grounding, name) for name in grounding.__all__)
    assert grounding.MAX_METADATA_BYTES == 262_144
