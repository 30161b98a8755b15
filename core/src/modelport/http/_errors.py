"""Error responses of HTTP APIs → typed errors: ``Retry-After``, the common error-body shape, and
what a status means. Public through :mod:`modelport.http`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from ..errors import (
    ProviderAuthError,
    ProviderError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
)

__all__ = [
    "ERROR_TYPES",
    "TRANSIENT_STATUSES",
    "error_class",
    "error_message",
    "own_status",
    "parse_retry_after",
    "status_error",
    "stream_error",
]


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
    from ..wire import loads

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

#: What a provider's error type means where no HTTP status says it (an error object inside a stream
#: usually has none): OpenAI's, OpenRouter's, Groq's and Anthropic's ``type``/``code`` strings and
#: Google's ``status`` (``google.rpc.Code`` names). docs/errors.md shows this table.
ERROR_TYPES: Mapping[str, type[ProviderError]] = MappingProxyType(
    {
        **dict.fromkeys(
            ("server_error", "api_error", "overloaded_error", "internal_error", "service_unavailable"),
            ProviderOverloadedError,
        ),
        **dict.fromkeys(("UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED"), ProviderOverloadedError),
        **dict.fromkeys(
            ("rate_limit_exceeded", "rate_limit_error", "RESOURCE_EXHAUSTED"), ProviderRateLimitError
        ),
        "insufficient_quota": ProviderQuotaError,
        # AWS exception types (an event stream's ``:exception-type``, in either case), docs/bedrock.md
        **dict.fromkeys(("ThrottlingException", "throttlingException"), ProviderRateLimitError),
        **dict.fromkeys(
            (
                "InternalServerException",
                "internalServerException",
                "ServiceUnavailableException",
                "serviceUnavailableException",
                "ModelNotReadyException",
                "modelNotReadyException",
                "ModelStreamErrorException",
                "modelStreamErrorException",
            ),
            ProviderOverloadedError,
        ),
        **dict.fromkeys(
            ("AccessDeniedException", "accessDeniedException", "UnrecognizedClientException"),
            ProviderAuthError,
        ),
        **dict.fromkeys(
            (
                "ValidationException",
                "validationException",
                "ResourceNotFoundException",
                "resourceNotFoundException",
                "ModelErrorException",
                "modelErrorException",
                "ModelTimeoutException",
            ),
            ProviderRequestError,
        ),
        **dict.fromkeys(
            (
                "authentication_error",
                "permission_error",
                "invalid_api_key",
                "UNAUTHENTICATED",
                "PERMISSION_DENIED",
                # google.rpc.ErrorInfo reasons Google sends with a 400 for a bad credential
                "API_KEY_INVALID",
                "API_KEY_SERVICE_BLOCKED",
                "ACCESS_TOKEN_EXPIRED",
            ),
            ProviderAuthError,
        ),
        **dict.fromkeys(
            (
                "invalid_request_error",
                "not_found_error",
                "request_too_large",
                "context_length_exceeded",
                "INVALID_ARGUMENT",
                "FAILED_PRECONDITION",
                "NOT_FOUND",
                "OUT_OF_RANGE",
            ),
            ProviderRequestError,
        ),
    }
)


def error_class(
    status: int | None, kinds: Iterable[object] = (), *, quota: bool = False
) -> type[ProviderError]:
    """The class of a provider error (the documented mapping, docs/errors.md).

    With an HTTP status the status decides: :data:`TRANSIENT_STATUSES` are overloads, 429 a rate
    limit (a quota error when ``quota`` or a kind says so), 401 and 403 auth errors, anything else a
    request error (an auth error when a kind says the credential is bad, as Google's 400s do).
    Without one the first of ``kinds`` (the error's type, status or code strings) found in
    :data:`ERROR_TYPES` decides, and an error of no known type is a plain :class:`ProviderError`.
    """
    known = [ERROR_TYPES[k] for k in kinds if isinstance(k, str) and k in ERROR_TYPES]
    if status is None:
        return known[0] if known else ProviderError
    if status in TRANSIENT_STATUSES:
        return ProviderOverloadedError
    if status == 429:
        return ProviderQuotaError if quota or ProviderQuotaError in known else ProviderRateLimitError
    if status in (401, 403) or ProviderAuthError in known:
        return ProviderAuthError
    return ProviderRequestError


def status_error(
    status: int | None,
    headers: Mapping[str, str],
    body: str,
    *,
    provider: str,
    message: str | None = None,
    provider_status: str | None = None,
    quota: bool = False,
    details: Any = None,
    kinds: Iterable[object] = (),
    retry_after: float | None = None,
    request_id: str | None = None,
) -> ProviderError:
    """The typed error a status (or, without one, an error type) means, for plugins that read their
    own error shape: the class is :func:`error_class` of ``status`` and ``kinds`` (default:
    ``provider_status``).

    A retried error's delay (an overload's or a rate limit's) is ``retry_after`` when given, else
    ``retry-after-ms``/``retry-after``. ``message`` defaults to ``HTTP <status> error``; the request
    id is ``request_id`` when given, else the ``x-request-id`` (or ``request-id``) header.
    """
    cls = error_class(status, kinds or (provider_status,), quota=quota)
    common: dict[str, Any] = {
        "provider": provider,
        "status_code": status,
        "provider_status": provider_status,
        "request_id": request_id or headers.get("x-request-id") or headers.get("request-id"),
        "body": body,
        "details": details,
    }
    text = message or (f"HTTP {status} error" if status is not None else "the provider reported an error")
    if cls.retryable:  # the server's delay, on every status that is retried (a 503 as well as a 429)
        delay = retry_after if retry_after is not None else parse_retry_after(headers)
        return cls(text, retry_after=delay, **common)
    return cls(text, **common)


def own_status(error: Mapping[str, Any]) -> int | None:
    """The HTTP status an error object carries itself: an integer ``code`` (OpenAI, OpenRouter,
    Google), ``status_code`` (Groq) or ``status`` (Azure OpenAI) between 400 and 599; ``None`` when
    it gave none."""
    for key in ("code", "status_code", "status"):
        value = error.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 400 <= value <= 599:
            return value
    return None


def stream_error(error: Mapping[str, Any], *, provider: str, body: str = "") -> ProviderError:
    """The typed error for an error object inside a stream that carries no status of its own (or a
    decoder's ``error`` event): classed by its type through :data:`ERROR_TYPES`, ``status_code``
    ``None`` unless it carries one (:func:`own_status`), never an invented one."""
    kinds = [error.get(key) for key in ("status", "type", "code")]
    message = error.get("message")
    return status_error(
        own_status(error),
        {},
        body,
        provider=provider,
        message=message if isinstance(message, str) and message else None,
        provider_status=next((k for k in kinds if isinstance(k, str)), None),
        kinds=kinds,
        details=dict(error) or None,
    )
