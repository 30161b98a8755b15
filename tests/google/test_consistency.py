"""Consistency (issue 13): generate and stream treat a non-object ``groundingMetadata`` alike;
``merge_results`` leaves no stale ``partIndex``; a cumulative frame that revises an earlier grounding
item replaces it instead of appending a copy."""

from __future__ import annotations

import json
from typing import Any

import pytest

from modelport import cite
from modelport.errors import ProviderError, ProviderMetadataError
from modelport.types import Result, TextPart
from modelport.wire import MAX_DEPTH
from modelport_google.grounding import citations_from_grounding, grounding_metadata, merge_results
from modelport_google.grounding.envelope import build_envelope, decode

from . import corpus as c
from .mock import SSE, model, response


def candidate(parts: list[dict[str, Any]], grounding: Any, finish: str | None = "STOP") -> dict[str, Any]:
    out: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "groundingMetadata": grounding}
    if finish:
        out["finishReason"] = finish
    return out


@pytest.mark.parametrize("grounding", ["x", [], [{"groundingChunks": []}], 3, True])
def test_non_object_grounding_is_the_same_typed_error_both_ways(grounding: Any) -> None:
    data = {"candidates": [candidate([{"text": "hi"}], grounding)]}
    m, _ = model([response(200, data), response(200, c.sse_body([data]), SSE)])
    with pytest.raises(ProviderMetadataError, match="groundingMetadata"):
        m.generate(prompt="x")
    with pytest.raises(ProviderMetadataError, match="groundingMetadata"):
        m.stream(prompt="x").result()


def test_null_and_empty_grounding_are_ignored_both_ways() -> None:
    for grounding in (None, {}):
        data = {"candidates": [candidate([{"text": "hi"}], grounding)]}
        m, _ = model([response(200, data), response(200, c.sse_body([data]), SSE)])
        for result in (m.generate(prompt="x"), m.stream(prompt="x").result()):
            assert grounding_metadata(result) is None and result.text == "hi"


CHUNKS = [
    {"web": {"uri": "https://a.example", "title": "a"}},
    {"web": {"uri": "https://b.example", "title": "b"}},
]


def grounded_answer(first: str, second: str) -> dict[str, Any]:
    """A thought part, then two text parts; supports index them by partIndex (the thought counts)."""
    return {
        "candidates": [
            candidate(
                [{"text": "thinking", "thought": True}, {"text": first}, {"text": second}],
                {
                    "groundingChunks": CHUNKS,
                    "groundingSupports": [
                        {
                            "segment": {"partIndex": 1, "endIndex": len(first.encode())},
                            "groundingChunkIndices": [0],
                        },
                        {
                            "segment": {"partIndex": 2, "endIndex": len(second.encode())},
                            "groundingChunkIndices": [1],
                        },
                    ],
                },
            )
        ]
    }


def test_merge_results_leaves_no_stale_part_index() -> None:
    m, _ = model(
        [
            response(200, grounded_answer("Zürich grows.", " Bern too.")),
            response(200, grounded_answer("東京。", " Paris.")),
        ]
    )
    results = [m.generate(prompt="a"), m.generate(prompt="b")]
    merged = merge_results(results)
    assert grounding_metadata(merged) is not None
    segments = [s["segment"] for s in grounding_metadata(merged)["groundingSupports"]]
    assert all("partIndex" not in s for s in segments)
    # The merged metadata, read back against the merged text, cites what the results cited.
    sources, citations, warnings = citations_from_grounding(
        grounding_metadata(merged), [merged.text], provider="google"
    )
    assert warnings == [] and citations == merged.citations
    assert cite(merged).text == "Zürich grows.[1] Bern too.[2]\n\n東京。[3] Paris.[4]"


def test_an_unusable_part_index_is_dropped_when_merging() -> None:
    metadata = {
        "groundingChunks": CHUNKS[:1],
        "groundingSupports": [
            {"segment": {"partIndex": 7, "endIndex": 3, "text": "two"}, "groundingChunkIndices": [0]},
            {"segment": {"partIndex": 9, "endIndex": 3, "text": "absent"}, "groundingChunkIndices": [0]},
        ],
    }
    plain = Result(content=[TextPart(text="one")], finish_reason="stop")
    other = Result(content=[TextPart(text="one two")], grounding_metadata=metadata, finish_reason="stop")
    merged = merge_results([plain, other], separator=" ")
    assert grounding_metadata(merged) is not None
    first, second = (s["segment"] for s in grounding_metadata(merged)["groundingSupports"])
    assert first == {"text": "two", "startIndex": 8, "endIndex": 11}  # re-anchored on its text
    assert merged.text[8:11] == "two"
    assert second == {"text": "absent"}  # unusable, never wrong


def support(start: int, end: int, chunk: int) -> dict[str, Any]:
    return {"segment": {"startIndex": start, "endIndex": end}, "groundingChunkIndices": [chunk]}


def test_a_cumulative_frame_revising_an_item_replaces_it() -> None:
    text = "".join(f"Fact {i}. " for i in range(8))
    supports = [support(8 * i, 8 * i + 7, 0) for i in range(8)]
    revised = [*supports[:7], support(56, 64, 1)]  # the last support, revised (longer, other chunk)
    frames = [
        {
            "candidates": [
                candidate(
                    [{"text": text}], {"groundingChunks": CHUNKS[:1], "groundingSupports": supports}, None
                )
            ]
        },
        {"candidates": [candidate([], {"groundingChunks": CHUNKS, "groundingSupports": revised})]},
    ]
    m, _ = model([response(200, c.sse_body(frames), SSE)])
    result = m.stream(prompt="x").result()
    assert grounding_metadata(result) is not None
    assert grounding_metadata(result)["groundingSupports"] == revised  # eight, not nine or sixteen
    assert grounding_metadata(result)["groundingChunks"] == CHUNKS
    assert [x.sources for x in result.citations] == [[1]] * 7 + [[2]], result.warnings


def test_delta_frames_still_append() -> None:
    frames = [
        {
            "candidates": [
                candidate(
                    [{"text": "Fact one. "}],
                    {"groundingChunks": CHUNKS[:1], "groundingSupports": [support(0, 9, 0)]},
                    None,
                )
            ]
        },
        {
            "candidates": [
                candidate(
                    [{"text": "Fact two."}],
                    {"groundingChunks": CHUNKS[1:], "groundingSupports": [support(10, 19, 1)]},
                )
            ]
        },
    ]
    m, _ = model([response(200, c.sse_body(frames), SSE)])
    result = m.stream(prompt="x").result()
    assert grounding_metadata(result) is not None
    assert len(grounding_metadata(result)["groundingSupports"]) == 2
    assert grounding_metadata(result)["groundingChunks"] == CHUNKS


def nested_grounding(levels: int) -> dict[str, Any]:
    """An answer whose ``groundingMetadata`` holds a field nested ``levels`` lists deep (MOCK: no
    recording nests deeper than about 5; the depth bound is what is tested)."""
    deep: Any = "x"
    for _ in range(levels):
        deep = [deep]
    return {"candidates": [candidate([{"text": "hi"}], {"futureField": deep})]}


# The response nests 4 levels above the field (response, candidates, candidate, groundingMetadata).
@pytest.mark.parametrize("levels", [63, 64, 100, MAX_DEPTH - 4])
def test_deep_grounding_within_the_wire_bound_is_kept_both_ways(levels: int) -> None:
    data = nested_grounding(levels)
    m, _ = model([response(200, data), response(200, c.sse_body([data]), SSE)])
    unary, streamed = m.generate(prompt="x"), m.stream(prompt="x").result()
    expected = data["candidates"][0]["groundingMetadata"]
    assert grounding_metadata(unary) == expected
    assert grounding_metadata(streamed) == expected


def test_deep_grounding_past_the_wire_bound_is_the_same_typed_error_both_ways() -> None:
    data = nested_grounding(MAX_DEPTH - 3)
    m, _ = model([response(200, data), response(200, c.sse_body([data]), SSE)])
    with pytest.raises(ProviderError, match=f"nested deeper than {MAX_DEPTH} levels") as unary:
        m.generate(prompt="x")
    with pytest.raises(ProviderError, match=f"nested deeper than {MAX_DEPTH} levels") as streamed:
        m.stream(prompt="x").result()
    assert type(unary.value) is type(streamed.value)


def test_the_deepest_kept_answer_round_trips_through_the_envelope() -> None:
    data = nested_grounding(MAX_DEPTH - 4)
    m, _ = model([response(200, data)])
    result = m.generate(prompt="x")
    outcome, event_safe = decode(json.dumps(build_envelope(result, grounding_metadata(result))))
    assert outcome.result == result
    assert event_safe["metadata"] == data["candidates"][0]["groundingMetadata"]
