"""``modelport.wire.loads`` parses with ``raw_decode`` first and leaves every other case to
``JSONDecoder.decode`` (issue 24, the per-frame cost): for any document with any whitespace (JSON's
and other) or extra text around it, it returns what ``decode`` returns and raises what ``decode``
raises, with the same message."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modelport.wire import loads

_DECODE = json.JSONDecoder().decode
_DOCUMENTS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
).map(json.dumps)
_AROUND = st.text(alphabet=" \t\r\n\x0b\x0c\u00a0x]", max_size=3)


def outcome(parse: Any, text: str) -> tuple[str, Any]:
    try:
        return "value", parse(text)
    except ValueError as error:
        return type(error).__name__, str(error)


@given(_AROUND, _DOCUMENTS, _AROUND)
def test_loads_answers_as_decode_does(before: str, document: str, after: str) -> None:
    text = before + document + after
    assert outcome(loads, text) == outcome(_DECODE, text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a":1}', ("value", {"a": 1})),
        (' {"a":1}\r\n', ("value", {"a": 1})),
        ('{"a":1}\x0b', ("JSONDecodeError", "Extra data: line 1 column 8 (char 7)")),
        ('{"a":1} {}', ("JSONDecodeError", "Extra data: line 1 column 9 (char 8)")),
        ("  ", ("JSONDecodeError", "Expecting value: line 1 column 3 (char 2)")),
    ],
)
def test_whitespace_and_extra_data(text: str, expected: tuple[str, Any]) -> None:
    assert outcome(loads, text) == expected
