"""``modelport.wire.loads`` refuses JSON nested deeper than ``MAX_DEPTH``: the check walks the parsed
value level by level with C iterators; it must agree exactly with a plain recursive depth."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modelport import wire
from modelport.wire import MAX_DEPTH, _too_deep

_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=4))
_JSON = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=30,
)


def depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


@given(_JSON, st.integers(min_value=0, max_value=8))
def test_the_level_walk_agrees_with_a_recursive_depth(value: Any, limit: int) -> None:
    assert _too_deep(value, limit) == (depth(value) > limit)


def nested(levels: int) -> str:
    """``levels`` containers, objects and arrays alternating, around ``1``; every object but the
    innermost also holds an empty array (more brackets than levels, no deeper)."""
    text = '{"a": 1}'
    for i in range(1, levels):
        text = f'[{text}, "x"]' if i % 2 else f'{{"a": {text}, "b": []}}'
    return text


@pytest.mark.parametrize("levels", [MAX_DEPTH - 1, MAX_DEPTH])
def test_a_document_at_the_bound_is_read(levels: int) -> None:
    text = nested(levels)
    assert text.count("[") + text.count("{") > MAX_DEPTH  # so the walk, not the bracket count, decides
    assert depth(wire.loads(text)) == levels == depth(json.loads(text))


def test_a_document_one_level_past_the_bound_is_refused() -> None:
    with pytest.raises(ValueError, match=f"nested deeper than {MAX_DEPTH} levels"):
        wire.loads(nested(MAX_DEPTH + 1))
