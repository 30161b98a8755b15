"""``anthropic-bedrock`` error answers → typed errors (pure).

Bedrock answers its own errors as AWS does (``{"message": ...}``, the type in ``x-amzn-errortype``:
:func:`modelport.http.aws_errors.aws_error_from_response`); an error Claude itself wrote comes in
the Messages shape (``{"type": "error", "error": {...}}``) and is mapped as on the Anthropic API.
"""

from __future__ import annotations

from collections.abc import Mapping

from modelport.errors import ProviderError
from modelport.http.aws_errors import aws_error_from_response
from modelport.wire import loads

from ._errors import error_from_response as messages_error

__all__ = ["error_from_response"]


def error_from_response(
    status: int, headers: Mapping[str, str], body: str, *, provider: str
) -> ProviderError:
    """The typed error for a non-2xx response (or an in-stream error with its own status)."""
    if not headers.get("x-amzn-errortype"):
        try:
            data = loads(body) if body.strip() else None
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("error"), dict):
            return messages_error(status, headers, body, provider=provider)
    return aws_error_from_response(status, headers, body, provider=provider)
