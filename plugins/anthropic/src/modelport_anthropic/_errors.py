"""Messages API error bodies → typed modelport errors (pure).

Anthropic answers ``{"type": "error", "error": {"type", "message"}, "request_id"}``; the status
decides the class (the kit's :func:`~modelport.http.status_error`: 529 ``overloaded_error`` is an
overload, 429 a rate limit with ``retry-after``), and the request id is the body's ``request_id``,
else the ``request-id`` header. An in-stream ``event: error`` carries no status: the core types it
by its ``type`` through :data:`modelport.http.ERROR_TYPES` (never an invented status).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modelport.errors import ProviderError
from modelport.http import error_message, status_error
from modelport.wire import loads

__all__ = ["error_from_response"]


def error_from_response(
    status: int, headers: Mapping[str, str], body: str, *, provider: str
) -> ProviderError:
    """The typed error for a non-2xx response."""
    message, kind, found = error_message(body)
    try:
        data = loads(body)
    except ValueError:
        data = None
    request_id = data.get("request_id") if isinstance(data, dict) else None
    error: dict[str, Any] = found if isinstance(found, dict) else {}
    return status_error(
        status,
        headers,
        body,
        provider=provider,
        message=message,
        provider_status=kind,
        details=error or None,
        request_id=request_id if isinstance(request_id, str) else None,
    )
