"""The benchmark's W candidate (bench/decoding.py: pydantic_core's parser plus the checks it lacks)
would replace the parser of ``modelport.wire.loads`` only if it holds every test of it: for any text,
as ``str`` and as UTF-8 ``bytes``, both accept the same documents with the same value (types too: ``1`` stays an ``int``, ``1.0`` a ``float``) and refuse the same ones, with a
``ValueError``: NaN and infinities, numbers that overflow a double, lone surrogates (escaped, raw or
UTF-8-encoded), invalid UTF-8, control characters, nesting deeper than ``MAX_DEPTH``."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.decoding import pydantic_core_loads
from modelport.wire import MAX_DEPTH, loads

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=6)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)


def _typed(value: Any) -> Any:
    """``value`` with every scalar paired with its type, so ``1 == 1.0`` does not hide a change."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return (type(value).__name__, value)


def outcome(parse: Any, data: Any) -> tuple[str, Any]:
    try:
        return "value", _typed(parse(data))
    except ValueError:
        return "refused", None


def _agree(text: str) -> None:
    assert outcome(pydantic_core_loads, text) == outcome(loads, text), text[:200]
    raw = text.encode("utf-8", "surrogatepass")
    assert outcome(pydantic_core_loads, raw) == outcome(loads, raw), raw[:200]


@settings(max_examples=400)
@given(_VALUES, st.booleans())
def test_both_parsers_agree_on_any_document(value: Any, ascii_only: bool) -> None:
    try:
        text = json.dumps(value, ensure_ascii=ascii_only)
    except ValueError:  # an integer too long for str(): not a document anyone sends
        return
    _agree(text)


@settings(max_examples=400)
@given(st.text(alphabet='[]{}",:0123456789.eE+-tnfrulsa\\\\ud8dc0x \\x00\\x7f\\u00e9', max_size=16))
def test_both_parsers_agree_on_any_text(text: str) -> None:
    _agree(text)


@pytest.mark.parametrize(
    "text",
    [
        "NaN", "[Infinity]", "-Infinity", "1e999", "[-1E400]", "1" + "0" * 400 + ".0", "1" * 5000,
        "1.7976931348623157e308", "1e-400", "[1e308]", "2e308", '"\\ud800"', '"\\udc00x"',
        '"\\ud83d\\ude00"', '"\\ud83d"', "\ud800", '"\ud800"', '"\x01"', '{"a":1,"a":2}', "-0", "-0.0",
        "[" * MAX_DEPTH + "]" * MAX_DEPTH, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
        "[" * 300 + "]" * 300, "[" * 5000, " \t\n\r{}\r\n", "{}\x0c", "\ufeff{}", "", "01", "[1,]",
    ],
)  # fmt: skip
def test_both_parsers_agree_on_the_hard_cases(text: str) -> None:
    _agree(text)


def test_invalid_utf8_and_encoded_surrogates_are_refused_by_both() -> None:
    for raw in (b'"\xff"', b'"\xed\xa0\x80"', b'"\xc0\xaf"', b"\xef\xbb\xbf{}"):
        assert outcome(pydantic_core_loads, raw) == outcome(loads, raw) == ("refused", None), raw


def test_exact_values_of_the_edge_numbers() -> None:
    loads = pydantic_core_loads
    assert loads("1.7976931348623157e308") == 1.7976931348623157e308
    assert loads("1e-400") == 0.0
    assert math.copysign(1, loads("-0.0")) == -1
    assert loads("123456789012345678901234567890") == 123456789012345678901234567890
    with pytest.raises(ValueError, match="too large for a double"):
        loads(b"[2e308]")
    with pytest.raises(ValueError, match=f"nested deeper than {MAX_DEPTH} levels"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(ValueError, match="nested too deeply"):
        loads("[" * 300 + "]" * 300)
