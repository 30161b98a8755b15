"""Where and how a model's requests go: the :class:`Endpoint`, built once per model from the kit's hooks.

The I/O functions (:mod:`._sync`, :mod:`._async`) take an endpoint and a request and never call back
into the provider: everything they need to send, bound, judge and scrub is here, as data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from .._retry import RetryPolicy
from ..errors import ConfigurationError, ProviderError
from ._types import Limits

if TYPE_CHECKING:
    from .._clients import HttpClients

__all__ = ["Endpoint", "ErrorMapping", "joined"]

#: A provider's mapping of a non-2xx answer (status, scrubbed headers, scrubbed body) to a typed
#: error: :meth:`~modelport.http.HttpProvider.error_from_response`.
ErrorMapping = Callable[[int, Mapping[str, str], str], ProviderError]


@dataclass(frozen=True, eq=False)
class Endpoint:
    """A model's endpoint: built once (on the model's first request) by
    :meth:`~modelport.http.HttpProvider.endpoint`, then only read.

    ``headers`` go on every request (``content-type`` and the provider's own), ``credential`` is a
    fixed credential header (``(name, value)``) put last, ``auth`` an :class:`httpx.Auth` flow run
    for each request instead (a token fetched or refreshed). ``secrets`` are scrubbed from every
    message (with whatever the sent request carried in ``credential_headers``).
    """

    name: str
    base_url: str | None
    headers: Mapping[str, str]
    credential: tuple[str, str] | None
    auth: httpx.Auth | None
    limits: Limits
    #: Total seconds of one call when no call-wide deadline is running (``None``: none).
    deadline: float | None
    follow_redirects: bool
    error_from_response: ErrorMapping
    secrets: tuple[str, ...]
    #: Request headers whose values are credentials (the generic ones and the provider's own): the
    #: values the sent request carried in them are scrubbed too.
    credential_headers: frozenset[str]
    #: How a call (or a request that may be sent twice) is retried.
    retry: RetryPolicy
    clients: HttpClients
    #: Why there is no ``base_url`` (said when a relative URL needs one).
    base_url_problem: str | None = None

    def url(self, url: str) -> str:
        """The absolute URL of a request's ``url`` (a path is joined to the base URL)."""
        if "://" in url:
            return url
        base = self.base_url
        if base is None:
            raise ConfigurationError(self.base_url_problem or f"{self.name}: no base URL")
        return joined(base, url)

    def __repr__(self) -> str:
        return f"<Endpoint {self.name!r} {self.base_url or '-'}>"


def joined(base_url: str, path: str) -> str:
    """``path`` (relative) under ``base_url`` (which has no trailing slash)."""
    return base_url + ("" if path.startswith("/") else "/") + path
