"""Byte-offset supports → character-span citations (S8), by example and by property."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modelport import cite
from modelport.errors import ModelportError, ProviderMetadataError
from modelport.types import CallWarning, Citation, Result, Source, TextPart
from modelport_google.grounding import citations_from_grounding

CHUNKS = [
    {"web": {"uri": "https://a.example/1", "title": "a.example"}},
    {"web": {"uri": "https://b.example/2"}},
]


def support(
    end: int | None, start: int | None = None, chunks: list[Any] | None = None, **segment: Any
) -> dict[str, Any]:
    seg: dict[str, Any] = dict(segment)
    if start:  # Google omits startIndex when it is 0
        seg["startIndex"] = start
    if end is not None:
        seg["endIndex"] = end
    return {"segment": seg, "groundingChunkIndices": [0] if chunks is None else chunks}


def render(
    text_parts: list[str], supports: list[Any], chunks: list[Any] = CHUNKS
) -> tuple[str, list[Citation], list[CallWarning]]:
    metadata = {"groundingChunks": chunks, "groundingSupports": supports}
    sources, citations, warnings = citations_from_grounding(metadata, text_parts, provider="google")
    result = Result(content=[TextPart(text=t) for t in text_parts], sources=sources, citations=citations)
    return cite(result).text, citations, warnings


def skipped(number: int, details: str) -> CallWarning:
    return CallWarning(type="skipped-citation", setting=f"groundingSupports[{number}]", details=details)


ZURICH = "Zürich raised its rate. Geneva did not."


def test_byte_offsets_become_character_spans() -> None:
    # 39 characters, 40 bytes: the first sentence ends at byte 24 but at character 23.
    assert (len(ZURICH), len(ZURICH.encode())) == (39, 40)
    text, citations, warnings = render([ZURICH], [support(24), support(40, start=25, chunks=[1, 0])])
    assert text == "Zürich raised its rate.[1] Geneva did not.[1][2]"
    assert citations == [Citation(start=0, end=23, sources=[1]), Citation(start=24, end=39, sources=[2, 1])]
    assert warnings == []


def test_sources_are_chunks_numbered_from_one() -> None:
    chunks = [
        {"web": {"uri": "https://a.example/1", "title": "a.example", "domain": "a.example"}},
        {},
        {"retrievedContext": {"uri": "gs://bucket/doc", "title": "doc"}},
        {"image": {"sourceUri": "https://img.example/page", "title": "img"}},
        {"web": {"uri": 7, "title": ["x"]}},
    ]
    metadata = {"groundingChunks": chunks}
    sources, citations, warnings = citations_from_grounding(metadata, ["x"], provider="google")
    assert sources == [
        Source(number=1, title="a.example", uri="https://a.example/1", domain="a.example", kind="web-page"),
        Source(number=2),
        Source(number=3, title="doc", uri="gs://bucket/doc", kind="file"),
        Source(number=4, title="img", uri="https://img.example/page"),  # an image: kind not said
        Source(number=5, kind="web-page"),
    ]
    assert citations == [] and warnings == []


def test_cjk_and_emoji_offsets() -> None:
    text = "東京は晴れ。😀 Paris pleut."
    first_end = len("東京は晴れ。".encode())  # 18 bytes, 6 characters
    emoji_end = len("東京は晴れ。😀".encode())  # 22 bytes, 7 characters
    rendered, citations, _ = render(
        [text], [support(first_end), support(emoji_end, start=first_end, chunks=[1])]
    )
    assert rendered == "東京は晴れ。[1]😀[2] Paris pleut."
    assert [(c.start, c.end) for c in citations] == [(0, 6), (6, 7)]


def test_mid_character_offsets_are_skipped_and_reported() -> None:
    # "ü" is bytes 1..2; byte 2 is inside it.
    rendered, citations, warnings = render([ZURICH], [support(2), support(24)])
    assert rendered == "Zürich raised its rate.[1] Geneva did not."
    assert warnings == [skipped(0, "the support falls mid-character (bytes 0..2)")]


def test_mid_character_start_is_skipped_too() -> None:
    _, citations, warnings = render([ZURICH], [support(24, start=2)])
    assert citations == []
    assert warnings == [skipped(0, "the support falls mid-character (bytes 2..24)")]


def test_offsets_beyond_the_text_are_skipped_and_reported() -> None:
    _, citations, warnings = render([ZURICH], [support(41)])
    assert citations == []
    assert warnings == [skipped(0, "the support runs past the text (byte 41 of 40)")]


def test_offsets_past_the_text_are_reanchored_on_the_segment_text() -> None:
    rendered, _, warnings = render([ZURICH], [support(43, start=27, text="Geneva did not.")])
    assert rendered == "Zürich raised its rate. Geneva did not.[1]"
    assert warnings == [
        CallWarning(
            type="reanchored-citation",
            setting="groundingSupports[0]",
            details="citation re-anchored on segment.text: the support runs past the text (byte 43 of 40)",
        )
    ]


def test_mismatching_segment_text_is_reanchored_on_the_nearest_occurrence() -> None:
    text = "It rains. It rains. It rains."
    # offsets point at the second sentence but one byte early; the text names it
    rendered, citations, warnings = render([text], [support(18, start=9, text="It rains.")])
    assert rendered == "It rains. It rains.[1] It rains."
    assert citations == [Citation(start=10, end=19, sources=[1])]
    assert (
        warnings[0].details
        == "citation re-anchored on segment.text: the support does not match segment.text (bytes 9..18)"
    )


def test_mismatching_segment_text_that_does_not_occur_is_skipped() -> None:
    _, citations, warnings = render([ZURICH], [support(24, text="Zurich raised its rate.")])
    assert citations == []
    assert warnings == [
        skipped(0, "the support does not match segment.text (bytes 0..24) and segment.text does not occur")
    ]


def test_matching_segment_text_is_used_as_is() -> None:
    _, citations, warnings = render([ZURICH], [support(24, text="Zürich raised its rate.")])
    assert citations == [Citation(start=0, end=23, sources=[1])] and warnings == []


def test_chunk_indices_out_of_range_are_dropped_and_reported() -> None:
    rendered, citations, warnings = render(
        [ZURICH], [support(24, chunks=[5, 1, 1, -1, True]), support(40, chunks=[2])]
    )
    assert rendered == "Zürich raised its rate.[2] Geneva did not."
    assert citations == [Citation(start=0, end=23, sources=[2])]
    assert warnings == [
        skipped(0, "dropped chunk indices out of range: 5, -1, True"),
        skipped(1, "no chunk index in range (2)"),
    ]


def test_part_index_selects_a_part() -> None:
    parts = ["", "Première partie. ", "", "Deuxième."]
    rendered, citations, warnings = render(
        parts,
        [
            support(len("Première partie.".encode()), partIndex=1),
            support(len("Deuxième.".encode()), partIndex=3, chunks=[1]),
            support(len("Deuxième".encode()), partIndex=3, start=len(b"Deux"), text="ième"),
        ],
    )
    assert rendered == "Première partie.[1] Deuxième[1].[2]"
    assert citations == [
        Citation(start=0, end=16, sources=[1]),
        Citation(start=17, end=26, sources=[2]),
        Citation(start=21, end=25, sources=[1]),
    ]
    assert warnings == []


def test_part_index_out_of_range_is_skipped() -> None:
    _, citations, warnings = render(["abc"], [support(1, partIndex=1), support(1, partIndex=-1)])
    assert citations == []
    assert warnings == [
        skipped(0, "the support names part 1, which does not exist"),
        skipped(1, "the support names part -1, which does not exist"),
    ]


def test_wrong_part_index_is_recovered_through_the_segment_text() -> None:
    # The caller passed only text parts while Google counted a thought part too.
    parts = ["Première partie. ", "Deuxième."]
    rendered, citations, warnings = render(
        parts,
        [
            support(len("Deuxième.".encode()), partIndex=2, text="Deuxième."),
            support(len("Première".encode()), partIndex=1, text="Première"),
        ],
    )
    assert rendered == "Première[1] partie. Deuxième.[1]"
    assert citations == [Citation(start=17, end=26, sources=[1]), Citation(start=0, end=8, sources=[1])]
    assert [w.details for w in warnings] == [
        "citation re-anchored on segment.text: the support names part 2, which does not exist",
        "citation re-anchored on segment.text: the support does not match segment.text (bytes 0..9)",
    ]


@pytest.mark.parametrize(
    ("bad", "details"),
    [
        ("not a support", "the support has no segment"),
        ({"groundingChunkIndices": [0]}, "the support has no segment"),
        ({"segment": [], "groundingChunkIndices": [0]}, "the support has no segment"),
        (support(None), "the support has no valid startIndex/endIndex"),
        (support("12"), "the support has no valid startIndex/endIndex"),  # type: ignore[arg-type]
        (support(3, start=5), "the support starts after it ends (bytes 5..3)"),
        (support(3, chunks=[]), "no chunk index in range"),
        ({"segment": {"endIndex": 3}}, "no chunk index in range"),
    ],
)
def test_unusable_supports_are_skipped_and_reported(bad: Any, details: str) -> None:
    _, citations, warnings = render([ZURICH], [bad])
    assert citations == []
    assert warnings == [skipped(0, details)]


def test_no_supports_no_citations() -> None:
    assert citations_from_grounding({}, ["x"], provider="google") == ([], [], [])
    assert citations_from_grounding({"groundingSupports": "nope"}, [], provider="google") == ([], [], [])


@pytest.mark.parametrize(("metadata", "parts"), [([], ["x"]), ({}, "x"), ({}, [b"x"]), ({}, [None])])
def test_wrong_argument_types_are_typed_errors(metadata: Any, parts: Any) -> None:
    with pytest.raises(ProviderMetadataError) as info:
        citations_from_grounding(metadata, parts, provider="google")
    assert info.value.provider == "google"


# --------------------------------------------------------------------------- properties

#: Text pieces: ASCII, accented (precomposed and combining), CJK, emoji (ZWJ, skin tone, flag).
PIECES = [
    "a",
    "Z",
    " ",
    ".",
    "\n",
    "é",
    "ü",
    "ß",
    "°",
    "e\u0301",
    "中",
    "文",
    "日本語",
    "😀",
    "👍🏽",
    "👨‍👩‍👧",
    "🇫🇷",
    "€",
]

sentences = st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join)
MARKERS = re.compile(r"(?:\[\d+\])+")


def _markers_by_byte_end(rendered: str) -> dict[int, list[int]]:
    """Where the markers of ``rendered`` sit, as byte offsets into the text without them."""
    found: dict[int, list[int]] = {}
    plain_bytes = 0
    position = 0
    for match in MARKERS.finditer(rendered):
        plain_bytes += len(rendered[position : match.start()].encode())
        found[plain_bytes] = [int(n) for n in re.findall(r"\d+", match.group())]
        position = match.end()
    return found


@given(
    st.lists(
        st.tuples(sentences, st.booleans(), st.lists(st.integers(0, 2), min_size=1, max_size=3)),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
    st.booleans(),
)
def test_markers_land_on_character_boundaries_at_the_intended_byte_end(
    pieces: list[tuple[str, bool, list[int]]], per_part: bool, with_text: bool
) -> None:
    texts = [p[0] for p in pieces]
    chunks = [{"web": {"uri": f"https://s{i}.example"}} for i in range(3)]
    supports: list[dict[str, Any]] = []
    expected: dict[int, set[int]] = {}
    offset = 0
    for i, (text, cited, chunk_indices) in enumerate(pieces):
        size = len(text.encode())
        if cited:
            start, end = (0, size) if per_part else (offset, offset + size)
            seg: dict[str, Any] = {"endIndex": end}
            if start:
                seg["startIndex"] = start
            if per_part:
                seg["partIndex"] = i
            if with_text:
                seg["text"] = text
            supports.append({"segment": seg, "groundingChunkIndices": chunk_indices})
            expected.setdefault(offset + size, set()).update(n + 1 for n in chunk_indices)
        offset += size
    rendered, citations, warnings = render(texts, supports, chunks)
    joined = "".join(texts)
    assert warnings == []
    assert MARKERS.sub("", rendered) == joined
    assert _markers_by_byte_end(rendered) == {k: sorted(v) for k, v in expected.items()}
    for citation in citations:  # spans are character offsets whose UTF-8 prefixes end where Google said
        assert len(joined[: citation.end].encode()) in expected


json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 300), st.floats(allow_nan=False), st.text(max_size=5)
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
index_like = st.one_of(
    st.integers(-3, 120), st.booleans(), st.none(), st.text(max_size=2), st.floats(allow_nan=True)
)
segments = st.fixed_dictionaries(
    {},
    optional={
        "startIndex": index_like,
        "endIndex": index_like,
        "partIndex": index_like,
        "text": st.one_of(st.lists(st.sampled_from(PIECES), max_size=3).map("".join), json_value),
    },
)
supports_strategy = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {"segment": segments},
            optional={"groundingChunkIndices": st.one_of(st.lists(index_like, max_size=3), json_value)},
        ),
        json_value,
    ),
    max_size=5,
)


@given(
    st.lists(sentences, max_size=4),
    supports_strategy,
    st.one_of(st.lists(st.one_of(st.just({"web": {"title": "t"}}), json_value), max_size=4), json_value),
)
def test_any_supports_give_citations_or_typed_errors(parts: list[str], supports: Any, chunks: Any) -> None:
    metadata = {"groundingChunks": chunks, "groundingSupports": supports}
    try:
        sources, citations, warnings = citations_from_grounding(metadata, parts, provider="google")
    except ModelportError:
        return
    joined = "".join(parts)
    numbers = {s.number for s in sources}
    for citation in citations:
        assert 0 <= citation.start <= citation.end <= len(joined)
        assert set(citation.sources) <= numbers
    result = Result(content=[TextPart(text=p) for p in parts], sources=sources, citations=citations)
    assert MARKERS.sub("", cite(result).text) == joined
    assert all(w.type in ("skipped-citation", "reanchored-citation") for w in warnings)


@given(json_value, st.lists(st.text(max_size=6), max_size=3))
def test_arbitrary_metadata_never_raises_untyped_errors(metadata: Any, parts: list[str]) -> None:
    try:
        sources, citations, _ = citations_from_grounding(metadata, parts, provider="google")
    except ModelportError as error:
        # S5's typed refusal: the metadata (or the text parts) named, never a bare Python error.
        assert isinstance(error, ProviderMetadataError) and error.provider == "google", repr(error)
        assert re.fullmatch(
            r"google: (groundingMetadata must be an object|text parts must be a list of strings"
            r"|invalid groundingMetadata: .+|groundingMetadata is \d+ bytes encoded, over the \d+-byte bound)",
            str(error),
            re.DOTALL,
        ), str(error)
        return
    assert isinstance(metadata, dict)
    assert all(0 <= c.start <= c.end <= len("".join(parts)) for c in citations)
    assert {n for c in citations for n in c.sources} <= {s.number for s in sources}
