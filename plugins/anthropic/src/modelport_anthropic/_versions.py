"""The Anthropic API's versions (``api_version=`` on the ``anthropic`` provider), checked before any I/O.

``2023-06-01`` (the default, the version every recording was made against) sends the key as
``x-api-key`` and takes the sampling settings. ``2026-10-21`` (the official SDK's current line)
takes the key as ``Authorization: Bearer`` and its request types no longer accept ``temperature``,
``top_p`` or ``top_k``: a request that sets one is refused rather than sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from modelport.errors import ConfigurationError, InvalidRequestError

if TYPE_CHECKING:
    from modelport.types import Request

__all__ = ["API_VERSIONS", "BEARER_VERSIONS", "DEFAULT_API_VERSION", "api_version", "refuse_sampling"]

#: The default ``anthropic-version`` (every recorded case was made against it).
DEFAULT_API_VERSION = "2023-06-01"
#: Every version ``api_version=`` accepts, oldest first.
API_VERSIONS = ("2023-06-01", "2026-10-21")
#: The versions that take the key as ``Authorization: Bearer`` instead of ``x-api-key``.
BEARER_VERSIONS = frozenset({"2026-10-21"})
#: The sampling settings each version no longer accepts.
_NO_SAMPLING: Mapping[str, tuple[str, ...]] = {"2026-10-21": ("temperature", "top_p", "top_k")}


def api_version(options: Mapping[str, Any]) -> str:
    """``options["api_version"]`` checked to be a known version (unset: the default)."""
    value = options.get("api_version")
    if value is None:
        return DEFAULT_API_VERSION
    if not isinstance(value, str) or value not in API_VERSIONS:
        raise ConfigurationError(
            f"api_version= takes one of {', '.join(API_VERSIONS)} (the Anthropic API's known versions), "
            f"got {value!r}"
        )
    return value


def refuse_sampling(version: str, request: Request, body: Mapping[str, Any]) -> None:
    """An ``InvalidRequestError`` for a sampling setting ``version`` does not accept, set on the
    request or put in the body (``extra_body``)."""
    for setting in _NO_SAMPLING.get(version, ()):
        if getattr(request, setting, None) is not None or setting in body:
            raise InvalidRequestError(
                f"{setting} is not accepted by the Anthropic API version {version} (api_version=): "
                f"unset it, or use api_version={DEFAULT_API_VERSION!r}"
            )
