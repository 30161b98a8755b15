"""Where and how a model's requests go: the :class:`Endpoint`, built once per model from the kit's hooks.

The I/O functions (:mod:`._sync`, :mod:`._async`) take an endpoint and a request and never call back
into the provider: everything they need to send, bound, judge and scrub is here, as data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from .._runtime.retry import RetryPolicy
from ..errors import ConfigurationError, InvalidRequestError, ProviderError, scrub
from ._types import Limits
from .urls import credential_url

if TYPE_CHECKING:
    from ._clients import HttpClients

__all__ = ["Endpoint", "ErrorMapping"]

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
    #: Origins besides the base URL's that requests (and so credentials) may go to: the plugin's
    #: :attr:`~modelport.http.HttpProvider.credential_origins`.
    credential_origins: tuple[str, ...] = ()
    #: How a stream's body is framed: ``"sse"`` (:mod:`modelport.http.sse`) or ``"aws-event-stream"``
    #: (:mod:`modelport.http.event_stream`); the plugin's :attr:`~modelport.http.HttpProvider.stream_framing`.
    framing: str = "sse"

    def url(self, url: str) -> str:
        """The absolute URL of a request's ``url``: a path joined to the base URL, no ``.`` or
        ``..`` segment; an absolute URL only on the base URL's origin or a
        :attr:`credential_origins` one (:func:`modelport.http.urls.credential_url`), else an
        :class:`~modelport.errors.InvalidRequestError` before any I/O. Without a base URL, no
        request is sent (``ConfigurationError``: why there is none)."""
        base = self.base_url
        if base is None:  # no API root: no origin to send credentials to
            raise ConfigurationError(self.base_url_problem or f"{self.name}: no base URL")
        try:
            return credential_url(url, base, allowed=self.credential_origins, name=self.name)
        except InvalidRequestError as error:  # a host a response named may hold an echoed key
            raise InvalidRequestError(scrub(str(error), self.secrets)) from None

    def __repr__(self) -> str:
        return f"<Endpoint {self.name!r} {self.base_url or '-'}>"
