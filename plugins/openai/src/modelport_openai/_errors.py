"""Chat Completions error bodies → typed modelport errors (pure).

OpenAI answers ``{"error": {"message", "type", "param", "code"}}``; OpenRouter puts the HTTP status
in ``code`` (a number) and the upstream's text in ``metadata.raw``; Groq's in-stream error carries
its own ``status_code`` (the core reads it: an in-stream error arrives here with that status, and
one without a status is typed by the core's table). The status decides the class (the kit's
:func:`~modelport.http.status_error`):
``insufficient_quota`` is a quota error (never retried); any other 429 is a rate limit whose delay
comes from ``retry-after-ms`` or ``retry-after``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modelport.errors import ProviderError
from modelport.http import error_message, status_error

__all__ = ["error_from_response"]


def error_from_response(
    status: int, headers: Mapping[str, str], body: str, *, provider: str
) -> ProviderError:
    """The typed error for a non-2xx response or an in-stream error object."""
    message, kind, found = error_message(body)
    error: dict[str, Any] = found if isinstance(found, dict) else {}
    code = error.get("code")
    provider_status = code if isinstance(code, str) else kind
    meta = error.get("metadata")
    raw = meta.get("raw") if isinstance(meta, dict) else None
    if isinstance(raw, str) and raw and raw not in (message or ""):
        message = f"{message or 'error'}: {raw}"
    return status_error(
        status,
        headers,
        body,
        provider=provider,
        message=message,
        provider_status=provider_status,
        quota="insufficient_quota" in (provider_status, kind, error.get("type")),
        details=error or None,
    )
