"""AWS service error answers → typed errors, for every provider on an AWS API (Bedrock's Converse,
InvokeModel). An AWS error is ``{"message": "..."}`` (``Message`` on some services) with its type
in the ``x-amzn-errortype`` header (``ValidationException:http://...``) or a ``__type`` field; the
status decides the class as everywhere (:func:`~modelport.http.status_error`: 429
``ThrottlingException`` a rate limit, 400 ``ValidationException`` a request error, 403
``AccessDeniedException`` an auth error, 503 ``ServiceUnavailableException`` an overload), the type
is ``provider_status``, and the request id is the ``x-amzn-requestid`` header."""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import ProviderError
from ..wire import loads
from ._errors import status_error

__all__ = ["aws_error_from_response", "aws_error_type"]


def aws_error_type(headers: Mapping[str, str], data: object) -> str | None:
    """The error's type name: the ``x-amzn-errortype`` header, else ``__type`` or ``code`` (the part
    before any ``:`` or after the last ``#``)."""
    raw = headers.get("x-amzn-errortype")
    if not raw and isinstance(data, dict):
        raw = data.get("__type") or data.get("code")
    if not isinstance(raw, str) or not raw:
        return None
    return raw.split(":", 1)[0].rsplit("#", 1)[-1] or None


def aws_error_from_response(
    status: int, headers: Mapping[str, str], body: str, *, provider: str
) -> ProviderError:
    """The typed error of a non-2xx AWS answer."""
    try:
        data = loads(body) if body.strip() else None
    except ValueError:
        data = None
    message = None
    if isinstance(data, dict):
        found = data.get("message", data.get("Message"))
        message = found if isinstance(found, str) and found else None
    return status_error(
        status,
        headers,
        body,
        provider=provider,
        message=message,
        provider_status=aws_error_type(headers, data),
        request_id=headers.get("x-amzn-requestid"),
    )
