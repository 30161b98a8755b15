"""Providers' batch time stamps on every Python: Unix seconds and RFC 3339 with any number of
fraction digits (Gemini writes nanoseconds, Vertex and the fakes fewer; Python 3.10 reads only 3 or
6 digits by itself)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from modelport.batches import timestamp

UTC = timezone.utc


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-08-19T14:40:30.652367187Z", datetime(2026, 8, 19, 14, 40, 30, 652367, tzinfo=UTC)),
        ("2026-08-19T14:44:51.493319+00:00", datetime(2026, 8, 19, 14, 44, 51, 493319, tzinfo=UTC)),
        ("2026-12-01T18:20:05.5+00:00", datetime(2026, 12, 1, 18, 20, 5, 500000, tzinfo=UTC)),
        ("2026-08-19T14:44:51.12Z", datetime(2026, 8, 19, 14, 44, 51, 120000, tzinfo=UTC)),
        ("2026-08-19T14:44:51Z", datetime(2026, 8, 19, 14, 44, 51, tzinfo=UTC)),
        (1787150474, datetime(2026, 8, 19, 14, 41, 14, tzinfo=UTC)),
        (None, None),
    ],
)
def test_time_stamps_read_the_same_on_every_python(text: object, expected: datetime | None) -> None:
    assert timestamp(text) == expected
