"""RFC 3339 timestamps whose UTC instant falls outside years 1-9999 (a valid local time with an
extreme offset) are typed errors naming the value, not a bare ``OverflowError``: in
``google_search(time_range=...)``, the raw tool arguments and ``caches.create(expire_time=...)``."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from modelport.errors import InvalidRequestError, ProviderToolError
from modelport_google import caches
from modelport_google.tools import google_search

from .mock import model

LATE = "9999-12-31T23:59:59-23:59"
EARLY = "0001-01-01T00:00:00+23:59"


@pytest.mark.parametrize(
    ("time_range", "field", "value"),
    [
        (("2025-01-01T00:00:00Z", LATE), "endTime", LATE),
        ((EARLY, "2025-01-01T00:00:00Z"), "startTime", EARLY),
        (
            (datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=23))), "2025-01-01T00:00:00Z"),
            "startTime",
            "0001-01-01T00:00:00+23:00",
        ),
    ],
)
def test_a_time_range_end_outside_the_utc_years_is_a_tool_error(
    time_range: tuple[Any, Any], field: str, value: str
) -> None:
    with pytest.raises(ProviderToolError) as caught:
        google_search(time_range=time_range)
    assert str(caught.value) == (
        "provider tool 'google.google_search': invalid arguments: "
        f"timeRangeFilter.{field}: Value error, '{value}' is outside the years 1 to 9999 once in UTC"
    )


def test_raw_tool_arguments_are_checked_the_same_way() -> None:
    m, recorder = model([])
    tool = {
        "type": "provider",
        "id": "google.google_search",
        "args": {"timeRangeFilter": {"startTime": "2025-01-01T00:00:00Z", "endTime": LATE}},
    }
    with pytest.raises(ProviderToolError, match="is outside the years 1 to 9999 once in UTC"):
        m.generate(prompt="hi", tools=[tool])
    assert recorder.requests == []


def test_a_cache_expiry_outside_the_utc_years_is_an_invalid_request() -> None:
    m, recorder = model([])
    with pytest.raises(InvalidRequestError) as caught:
        caches.create(m, prompt="x", expire_time=LATE)
    assert str(caught.value) == f"expire_time: '{LATE}' is outside the years 1 to 9999 once in UTC"
    assert recorder.requests == []
