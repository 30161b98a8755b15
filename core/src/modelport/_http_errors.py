"""Error responses of HTTP APIs → typed errors: ``Retry-After``, the common error-body shape, and
what a status means. Public through :mod:`modelport.http`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import (
    ProviderAuthError,
    ProviderError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
)

__all__ = ["TRANSIENT_STATUSES", "error_message", "parse_retry_after", "status_error"]


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (delta-seconds or an HTTP date)."""
    import email.utils
    import math
    import time

    milliseconds = headers.get("retry-after-ms")
    if milliseconds:
        try:
            value = float(milliseconds) / 1000
        except ValueError:
            value = math.nan
        if math.isfinite(value):
            return max(0.0, value)
    raw = (headers.get("retry-after") or "").strip()
    if not raw:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None or when.tzinfo is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)


def error_message(body: str) -> tuple[str | None, str | None, Any]:
    """``(message, status or type or code, the error object)`` of a JSON error body, as most
    providers shape it: ``{"error": {"message", "type"|"status"|"code"}}`` or ``{"message"}``."""
    from .wire import loads

    try:
        data = loads(body)
    except ValueError:
        return None, None, None
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    if not isinstance(data, dict):
        return None, None, None
    error = data.get("error", data)
    if isinstance(error, str):
        return error, None, data
    if not isinstance(error, dict):
        return None, None, data
    message = error.get("message")
    kind = next((error[k] for k in ("status", "type", "code") if isinstance(error.get(k), str)), None)
    return (message if isinstance(message, str) else None), kind, error


#: Statuses that mean "try again": the server failed or is overloaded (529 is Anthropic's).
TRANSIENT_STATUSES = frozenset({408, 500, 502, 503, 504, 529})


def status_error(
    status: int,
    headers: Mapping[str, str],
    body: str,
    *,
    provider: str,
    message: str | None = None,
    provider_status: str | None = None,
    quota: bool = False,
    details: Any = None,
) -> ProviderError:
    """The typed error a status means for most HTTP APIs, for plugins that read their own error shape.

    :data:`TRANSIENT_STATUSES` are overloads (retried); 429 is a rate limit whose delay comes from
    ``retry-after-ms``/``retry-after``, or a quota error (never retried) when ``quota``; 401 and 403 are
    auth errors; anything else is a request error. ``message`` defaults to ``HTTP <status> error``;
    the request id comes from ``x-request-id`` (or ``request-id``).
    """
    common: dict[str, Any] = {
        "provider": provider,
        "status_code": status,
        "provider_status": provider_status,
        "request_id": headers.get("x-request-id") or headers.get("request-id"),
        "body": body,
        "details": details,
    }
    text = message or f"HTTP {status} error"
    if status in TRANSIENT_STATUSES:
        return ProviderOverloadedError(text, **common)
    if status == 429:
        if quota:
            return ProviderQuotaError(text, **common)
        return ProviderRateLimitError(text, retry_after=parse_retry_after(headers), **common)
    if status in (401, 403):
        return ProviderAuthError(text, **common)
    return ProviderRequestError(text, **common)
