"""RFC 3339 timestamps for ``timeRangeFilter``: the strict parser and the Python-side conversion."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from modelport.errors import ProviderToolError

__all__ = ["parse_rfc3339", "timestamp"]

_RFC3339 = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?"
    r"(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))"
)


def parse_rfc3339(value: str) -> tuple[datetime, int]:
    """``(instant to the second, in UTC; nanoseconds)``, or ``ValueError``."""
    match = _RFC3339.fullmatch(value)
    if match is None:
        raise ValueError(f"{value!r} is not an RFC 3339 timestamp (e.g. 2025-01-31T00:00:00Z)")
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    fraction, zulu, sign = match.group(7), match.group(8), match.group(9)
    offset = timedelta(0)
    if not zulu:
        hours, minutes = int(match.group(10)), int(match.group(11))
        if hours > 23 or minutes > 59:
            raise ValueError(f"{value!r} has an invalid UTC offset")
        offset = timedelta(hours=hours, minutes=minutes) * (1 if sign == "+" else -1)
    try:
        instant = datetime(year, month, day, hour, minute, min(second, 59), tzinfo=timezone(offset))
    except ValueError:
        raise ValueError(f"{value!r} is not a valid date and time") from None
    if second > 60:  # 60 is a leap second, allowed by RFC 3339
        raise ValueError(f"{value!r} has an invalid seconds field")
    nanos = int((fraction or "0").ljust(9, "0"))
    try:
        utc = instant.astimezone(timezone.utc)
    except OverflowError:  # e.g. 9999-12-31T23:59:59-23:59 is in year 10000 in UTC
        raise ValueError(f"{value!r} is outside the years 1 to 9999 once in UTC") from None
    return utc, nanos + (1_000_000_000 if second == 60 else 0)


def timestamp(value: datetime | str, tool_id: str) -> str:
    """A ``timeRangeFilter`` end as an RFC 3339 string (an aware datetime in ISO form, ``Z`` for UTC)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise ProviderToolError(
            "time_range ends must be RFC 3339 strings or timezone-aware datetimes",
            tool_id=tool_id,
        )
    return value.isoformat().replace("+00:00", "Z")
