"""``modelport.wire.loads`` reads every number a double holds and refuses the ones it does not.

Python's ``json`` reads a literal too large for a double (``1e999``, a 400-digit mantissa with a
fraction) as an infinity, which every later ``model_dump_json`` writes as ``null``: a result holding
one does not round-trip (C5). The fuzz extension found one kept in Gemini's replay state
(batch-gemini-file case 26407, seed 2028); the parser now refuses them wherever they stand.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modelport import wire

OVERFLOWING = ["1e999", "-1e999", "1E400", "1e+309", "-1.8e308", "1" + "0" * 400 + ".0", "0.5e310"]


@pytest.mark.parametrize("literal", OVERFLOWING)
@pytest.mark.parametrize("where", ["{}", '{{"a": {}}}', '[1, "x", {{"b": [{}]}}]', " {} "])
def test_a_number_too_large_for_a_double_is_refused_anywhere(literal: str, where: str) -> None:
    text = where.format(literal)
    with pytest.raises(ValueError) as info:
        wire.loads(text)
    assert str(info.value) == "a number is too large for a double"
    with pytest.raises(ValueError):
        wire.loads(text.encode())


def test_the_message_never_holds_the_literal() -> None:
    huge = "9" * 5000 + ".5"
    with pytest.raises(ValueError) as info:
        wire.loads(f'{{"x": {huge}}}')
    assert len(str(info.value)) < 60


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ("1.7976931348623157e308", 1.7976931348623157e308),  # the largest double
        ("-1.7976931348623157e308", -1.7976931348623157e308),
        ("5e-324", 5e-324),  # the smallest subnormal
        ("1e-999", 0.0),  # underflows to zero: a finite double, as every JSON reader gives it
        ("-0.0", -0.0),
    ],
)
def test_every_double_at_the_edges_is_read(literal: str, value: float) -> None:
    got = wire.loads(f"[{literal}]")[0]
    assert got == value and math.copysign(1, got) == math.copysign(1, value)


def test_integers_stay_exact_however_long() -> None:
    big = "1" + "0" * 400
    assert wire.loads(f"[{big}, 9007199254740993]") == [10**400, 9007199254740993]


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_finite_double_survives_the_round_trip(value: float) -> None:
    assert wire.loads(json.dumps({"v": value}))["v"] == value
