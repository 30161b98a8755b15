"""groundingMetadata validation (S5) and stream accumulation (S7)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modelport.errors import ModelportError, ProviderMetadataError
from modelport.wire import MAX_DEPTH
from modelport_google.grounding import MAX_METADATA_BYTES, GroundingAccumulator, validate_grounding_metadata

METADATA: dict[str, Any] = {
    "groundingChunks": [
        {"web": {"uri": "https://a.example", "title": "a.example", "domain": "a.example"}},
        {},
    ],
    "groundingSupports": [
        {
            "segment": {"endIndex": 5, "text": "Hello"},
            "groundingChunkIndices": [0, 1],
            "confidenceScores": [0.5, 1],
        },
        {"segment": {"startIndex": 6, "endIndex": 11, "partIndex": 0}, "groundingChunkIndices": [1]},
    ],
    "webSearchQueries": ["hello"],
    "imageSearchQueries": [],
    "searchEntryPoint": {"renderedContent": "<style>.x{}</style><a href='#'>hello</a>", "sdkBlob": "AAAA"},
    "retrievalMetadata": {},
    "futureField": {"nested": [1, 2.5, None, True, "é"]},
}


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def test_valid_metadata_is_returned_untouched() -> None:
    raw = copy.deepcopy(METADATA)
    assert validate_grounding_metadata(raw, provider="google") is raw
    assert raw == METADATA  # unknown fields and provider HTML pass through unchanged


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(METADATA)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


SHAPE_CASES = {
    "not an object": ([METADATA], "expected a JSON object, got list"),
    "chunks not a list": (_with(("groundingChunks",), {}), "groundingChunks must be a list"),
    "chunk not an object": (_with(("groundingChunks", 0), "web"), r"groundingChunks\[0\] must be an object"),
    "chunk.web not an object": (
        _with(("groundingChunks", 0, "web"), []),
        r"groundingChunks\[0\].web must be",
    ),
    "chunk uri not a string": (_with(("groundingChunks", 0, "web", "uri"), 1), r"web.uri must be a string"),
    "supports not a list": (_with(("groundingSupports",), "x"), "groundingSupports must be a list"),
    "support not an object": (
        _with(("groundingSupports", 1), 3),
        r"groundingSupports\[1\] must be an object",
    ),
    "segment not an object": (_with(("groundingSupports", 0, "segment"), "x"), r"segment must be an object"),
    "negative offset": (_with(("groundingSupports", 0, "segment", "endIndex"), -1), "endIndex must be"),
    "boolean offset": (_with(("groundingSupports", 0, "segment", "endIndex"), True), "endIndex must be"),
    "string offset": (_with(("groundingSupports", 1, "segment", "startIndex"), "6"), "startIndex must be"),
    "float partIndex": (_with(("groundingSupports", 1, "segment", "partIndex"), 0.0), "partIndex must be"),
    "segment text not a string": (
        _with(("groundingSupports", 0, "segment", "text"), 5),
        r"segment.text must be",
    ),
    "chunk indices not ints": (
        _with(("groundingSupports", 0, "groundingChunkIndices"), ["0"]),
        "groundingChunkIndices",
    ),
    "scores not numbers": (_with(("groundingSupports", 0, "confidenceScores"), ["high"]), "confidenceScores"),
    "queries not strings": (
        _with(("webSearchQueries",), ["a", 1]),
        "webSearchQueries must be a list of strings",
    ),
    "queries not a list": (_with(("webSearchQueries",), "a"), "webSearchQueries must be a list"),
    "image queries": (_with(("imageSearchQueries",), [None]), "imageSearchQueries must be a list of strings"),
    "entry point not an object": (_with(("searchEntryPoint",), "<b>"), "searchEntryPoint must be an object"),
    "rendered content not a string": (
        _with(("searchEntryPoint", "renderedContent"), ["<b>"]),
        "renderedContent",
    ),
}


@pytest.mark.parametrize("case", sorted(SHAPE_CASES))
def test_shape_errors_are_typed(case: str) -> None:
    raw, message = SHAPE_CASES[case]
    with pytest.raises(ProviderMetadataError, match=message) as info:
        validate_grounding_metadata(raw, provider="google-vertex")
    assert info.value.provider == "google-vertex"


JSON_CASES = {
    "NaN": (_with(("futureField",), float("nan")), "not a JSON number"),
    "infinity": (_with(("groundingSupports", 0, "confidenceScores"), [float("inf")]), "not a JSON number"),
    "bytes": (_with(("futureField",), b"abc"), "bytes, which is not a JSON value"),
    "set": (_with(("futureField",), {"a"}), "set, which is not a JSON value"),
    "tuple": (_with(("futureField",), ("a",)), "tuple, which is not a JSON value"),
    "object": (_with(("futureField",), object()), "object, which is not a JSON value"),
    "non-string key": (_with(("futureField",), {1: "a"}), "non-string key"),
    "lone surrogate value": (_with(("webSearchQueries",), ["\ud800"]), "not valid UTF-8"),
    "lone surrogate key": (_with(("futureField",), {"\udfff": 1}), "not valid UTF-8"),
}


@pytest.mark.parametrize("case", sorted(JSON_CASES))
def test_non_json_values_are_typed_errors(case: str) -> None:
    raw, message = JSON_CASES[case]
    with pytest.raises(ProviderMetadataError, match=message):
        validate_grounding_metadata(raw, provider="google")


def test_deep_nesting_is_rejected_without_recursion_errors() -> None:
    deep: Any = "x"
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(ProviderMetadataError, match=f"nested deeper than {MAX_DEPTH} levels"):
        validate_grounding_metadata({"futureField": deep}, provider="google")


@pytest.mark.parametrize("filler", ["a", "é", "中", "😀"])
def test_size_bound_is_exact_in_encoded_bytes(filler: str) -> None:
    base = _size({"futureField": ""})
    width = len(filler.encode())
    count, rest = divmod(MAX_METADATA_BYTES - base, width)
    at_limit = {"futureField": filler * count + "a" * rest}
    assert _size(at_limit) == MAX_METADATA_BYTES
    assert validate_grounding_metadata(at_limit, provider="google") is at_limit
    over = {"futureField": at_limit["futureField"] + "a"}
    with pytest.raises(ProviderMetadataError, match="262145 bytes encoded, over the 262144-byte bound"):
        validate_grounding_metadata(over, provider="google")


# --------------------------------------------------------------------------- S7


def chunk(n: int) -> dict[str, Any]:
    return {"web": {"uri": f"https://s{n}.example", "title": f"s{n}"}}


def sup(end: int, *chunks: int) -> dict[str, Any]:
    return {"segment": {"endIndex": end}, "groundingChunkIndices": list(chunks)}


def test_placeholders_alone_mean_no_grounding() -> None:
    acc = GroundingAccumulator()
    frames: list[dict[str, Any] | None] = [{}, None, {}, {}]
    for frame in frames:
        acc.add(frame)
    assert acc.result() is None and not acc.grounded


def test_lists_are_appended_in_provider_order_other_fields_latest_wins() -> None:
    acc = GroundingAccumulator()
    acc.add({})
    acc.add(
        {
            "groundingChunks": [chunk(0)],
            "groundingSupports": [sup(5, 0)],
            "webSearchQueries": ["q1"],
            "searchEntryPoint": {"renderedContent": "<a>1</a>"},
            "retrievalMetadata": {"googleSearchDynamicRetrievalScore": 0.5},
        }
    )
    acc.add({})
    acc.add(
        {
            "groundingChunks": [chunk(1)],
            "groundingSupports": [sup(9, 1, 0)],  # indices refer to the combined chunk list
            "webSearchQueries": ["q2"],
            "imageSearchQueries": ["cat"],
            "searchEntryPoint": {"renderedContent": "<a>2</a>"},
            "retrievalMetadata": {},  # an empty placeholder does not erase the earlier value
        }
    )
    acc.add({"groundingChunks": None, "webSearchQueries": None})  # nor does a null field
    assert acc.result() == {
        "groundingChunks": [chunk(0), chunk(1)],
        "groundingSupports": [sup(5, 0), sup(9, 1, 0)],
        "webSearchQueries": ["q1", "q2"],
        "imageSearchQueries": ["cat"],
        "searchEntryPoint": {"renderedContent": "<a>2</a>"},
        "retrievalMetadata": {"googleSearchDynamicRetrievalScore": 0.5},
    }


def test_cumulative_frames_are_not_duplicated() -> None:
    acc = GroundingAccumulator()
    acc.add({"groundingChunks": [chunk(0)], "webSearchQueries": ["q1"]})
    acc.add({"groundingChunks": [chunk(0), chunk(1)], "webSearchQueries": ["q1"]})  # repeats as prefix
    acc.add({"groundingChunks": [chunk(2)], "webSearchQueries": ["q1", "q2"]})
    assert acc.result() == {
        "groundingChunks": [chunk(0), chunk(1), chunk(2)],
        "webSearchQueries": ["q1", "q2"],
    }


def test_size_is_checked_after_every_grounded_frame() -> None:
    acc = GroundingAccumulator(provider="google")
    acc.add({"webSearchQueries": ["x" * 100_000]})
    acc.add({"webSearchQueries": ["y" * 100_000]})
    with pytest.raises(ProviderMetadataError, match="over the 262144-byte bound"):
        acc.add({"webSearchQueries": ["z" * 100_000]})


@pytest.mark.parametrize(
    "frame", [[], "x", {"groundingChunks": "x"}, {"webSearchQueries": [b"q"]}, {"x": float("nan")}]
)
def test_bad_frames_are_typed_errors(frame: Any) -> None:
    with pytest.raises(ProviderMetadataError):
        GroundingAccumulator().add(frame)


def test_result_is_a_copy() -> None:
    acc = GroundingAccumulator()
    acc.add({"webSearchQueries": ["q1"]})
    first = acc.result()
    assert first is not None
    first["webSearchQueries"].append("changed")
    assert acc.result() == {"webSearchQueries": ["q1"]}


# --------------------------------------------------------------------------- totality (Q1)


LIST_KEYS = ["groundingChunks", "groundingSupports", "webSearchQueries", "imageSearchQueries"]
json_like = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),  # NaN and infinities included
        st.text(max_size=4),
        st.binary(max_size=2),
        st.sampled_from(["\ud800", "x\udfff"]),
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from([*LIST_KEYS, "segment", "web", "x"]) | st.integers(), inner, max_size=4
        )
        | st.sets(st.integers(), max_size=2)
        | st.tuples(inner)
    ),
    max_leaves=12,
)


@given(json_like)
def test_validation_is_total(raw: Any) -> None:
    try:
        assert validate_grounding_metadata(raw, provider="google") is raw
    except ProviderMetadataError:
        pass


@given(st.lists(json_like, max_size=4))
def test_accumulation_is_total(frames: list[Any]) -> None:
    acc = GroundingAccumulator()
    try:
        for frame in frames:
            acc.add(frame)
    except ModelportError:
        return
    result = acc.result()
    assert result is None or validate_grounding_metadata(result, provider="google") == result


# --------------------------------------------------------------------------- the fast path of S5's shape

_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=3),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=3),
    st.lists(st.integers(min_value=-1, max_value=2), max_size=2),
    st.dictionaries(st.sampled_from(["startIndex", "x"]), st.integers(-1, 2), max_size=1),
)
_SEGMENTS = st.one_of(
    _VALUES,
    st.dictionaries(
        st.sampled_from(["startIndex", "endIndex", "partIndex", "text", "other"]), _VALUES, max_size=4
    ),
)
_SUPPORTS = st.one_of(
    _VALUES,
    st.fixed_dictionaries(
        {},
        optional={
            "segment": _SEGMENTS,
            "groundingChunkIndices": st.one_of(_VALUES, st.lists(_VALUES, max_size=3)),
            "confidenceScores": st.one_of(_VALUES, st.lists(_VALUES, max_size=3)),
        },
    ),
)


@given(st.lists(_SUPPORTS, min_size=1, max_size=3))
def test_the_fast_shape_pass_never_accepts_a_support_the_full_check_refuses(supports: list[Any]) -> None:
    from modelport_google.grounding._validate import plainly_fine

    metadata = {"groundingSupports": supports}
    try:
        validate_grounding_metadata(copy.deepcopy(metadata), provider="google", from_wire=False)
        refused = False
    except ProviderMetadataError:
        refused = True
    if plainly_fine(supports):
        assert not refused


def test_a_support_the_fast_pass_declines_is_judged_and_named() -> None:
    # An int subclass the fast pass does not take is still an index; a bool is not.
    class Index(int):
        pass

    fine = {"segment": {"startIndex": Index(2), "endIndex": 5}, "groundingChunkIndices": [Index(0)]}
    assert validate_grounding_metadata({"groundingSupports": [fine]}, provider="google", from_wire=True)
    bad = {"segment": {"startIndex": 0, "endIndex": True}}
    with pytest.raises(ProviderMetadataError) as info:
        validate_grounding_metadata({"groundingSupports": [fine, bad]}, provider="google", from_wire=True)
    assert str(info.value) == (
        "google: invalid groundingMetadata: groundingSupports[1].segment.endIndex must be a non-negative integer"
    )
