"""Gemini error bodies → typed modelport errors (G18).

Google answers errors with ``{"error": {"code", "message", "status", "details"}}``; a 429 may carry a
``Retry-After`` header or a ``google.rpc.RetryInfo`` detail whose ``retryDelay`` is a duration string
such as ``"42s"`` or ``"17.30897372s"``. The mapping is a pure function of status, headers and body.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from modelport.errors import ProviderError
from modelport.http import parse_retry_after as http_retry_after
from modelport.http import status_error
from modelport.wire import loads as strict_loads

__all__ = ["error_from_response", "parse_error_body", "parse_retry_after", "parse_duration"]

_RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
_ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


def parse_error_body(body: bytes | str) -> dict[str, Any] | None:
    """The ``error`` object of a Google error body, or ``None`` when the body is not one."""
    try:
        data = strict_loads(body)
    except ValueError:
        return None
    # Some endpoints wrap the error in a one-element list.
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    error = data.get("error") if isinstance(data, dict) else None
    return error if isinstance(error, dict) else None


def parse_duration(value: object) -> float | None:
    """Seconds of a protobuf duration string (``"42s"``, ``"17.30897372s"``), else ``None``."""
    if not isinstance(value, str):
        return None
    match = _DURATION.match(value)
    return float(match.group(1)) if match else None


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header: delta-seconds or an HTTP date; ``None`` if unusable
    (the core's parser, :func:`modelport.http.parse_retry_after`, for one header value)."""
    return http_retry_after({"retry-after": value} if value else {}, now)


def _details(error: Mapping[str, Any]) -> list[dict[str, Any]]:
    details = error.get("details")
    return [d for d in details if isinstance(d, dict)] if isinstance(details, list) else []


def _retry_delay(error: Mapping[str, Any]) -> float | None:
    for detail in _details(error):
        if detail.get("@type") == _RETRY_INFO:
            return parse_duration(detail.get("retryDelay"))
    return None


def _reasons(error: Mapping[str, Any]) -> set[str]:
    return {
        str(d.get("reason")) for d in _details(error) if d.get("@type") == _ERROR_INFO and d.get("reason")
    }


def error_from_response(
    status: int,
    headers: Mapping[str, str],
    body: bytes | str,
    *,
    provider: str,
) -> ProviderError:
    """The typed error for a non-2xx response (or an in-stream error object with its ``code``),
    classed by the core's mapping (:func:`modelport.http.error_class`): a 429 is a rate limit when
    Google gave a delay (``Retry-After`` or ``RetryInfo``) and a quota error when it gave none (the
    delay goes with every retried status: a 503 as well); an ``ErrorInfo`` reason such as
    ``API_KEY_INVALID`` makes a 400 an auth error."""
    error = parse_error_body(body) or {}
    message = error.get("message") if isinstance(error.get("message"), str) else None
    provider_status = error.get("status") if isinstance(error.get("status"), str) else None
    delay = parse_retry_after(headers.get("retry-after"))
    if delay is None:
        delay = _retry_delay(error)
    text = body if isinstance(body, str) else body.decode("utf-8", errors="replace")
    return status_error(
        status,
        headers,
        text,
        provider=provider,
        message=message,
        provider_status=provider_status,
        quota=delay is None,
        details=error.get("details"),
        kinds=[provider_status, *sorted(_reasons(error))],
        retry_after=delay,
        request_id=headers.get("x-request-id") or headers.get("x-goog-request-id"),
    )
