"""Building blocks of provider-tool argument classes (:class:`~modelport.provider_tools.ProviderToolSpec`
``args_type``), shared by the plugins so that the same argument reads the same everywhere.

:class:`ToolArgs` is the strict base every argument class needs (unknown fields refused, no
coercion, immutable); :class:`ApproximateLocation` is the user location the web-search tools of
several providers take (Anthropic's and OpenAI's ``user_location``); :class:`DomainLimits` the
domain lists and use limit of a search or fetch (Anthropic's tools, the neutral tools of
:mod:`modelport.tools`); :data:`DomainName` and :data:`DomainPattern` the domain entries every
provider's domain lists are checked with (OpenAI's ``filters.allowed_domains``, Google's
``excludeDomains``), so that ``""``, ``"a b"`` or ``"\r\nx.com"`` is refused before any request;
:data:`HttpHeaders` the headers a provider sends to a remote MCP server for you (credentials, kept as
:class:`pydantic.SecretStr`), and :func:`header_secrets` the values to scrub of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, SecretStr, model_validator

__all__ = [
    "MAX_TOOL_USES",
    "ApproximateLocation",
    "DomainLimits",
    "DomainName",
    "DomainPattern",
    "HttpHeaders",
    "ToolArgs",
    "header_secrets",
]

#: The largest use limit (``max_uses``) of a search or fetch: a thousand results of even a thousand
#: tokens each would fill the largest context window a model has (a larger limit is a mistake).
MAX_TOOL_USES = 1_000

#: A label of a host name: ASCII letters, digits and inner hyphens, 1 to 63 of them (an
#: internationalized name goes in its ``xn--`` form).
_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")
#: What may follow the host in an entry that takes a path: RFC 3986 path characters and ``*``.
_PATH = re.compile(r"/[A-Za-z0-9\-._~!$&'()+,;=:@%/*]*")


def _host_name(entry: str) -> str:
    name = entry[:-1] if entry.endswith(".") else entry
    if len(name) > 253 or not all(_LABEL.fullmatch(label) for label in name.split(".")):
        raise ValueError(f"{entry!r} is not a domain name (e.g. 'example.com')")
    return entry


def _host_or_path(entry: str) -> str:
    host, slash, path = entry.partition("/")
    try:
        _host_name(host)
    except ValueError:
        raise ValueError(
            f"{entry!r} is not a domain name (e.g. 'example.com' or 'example.com/blog')"
        ) from None
    if slash and (not _PATH.fullmatch(slash + path) or path.count("*") > 1):
        raise ValueError(
            f"{entry!r}: the path after the domain takes URL path characters and at most one '*'"
        )
    return entry


#: A host name, as a domain list entry: ``example.com``, ``docs.example.com`` (no scheme, port, path
#: or whitespace; a trailing dot allowed).
DomainName = Annotated[str, AfterValidator(_host_name)]
#: A host name optionally followed by a path with at most one ``*`` wildcard (``example.com/blog``,
#: ``example.com/*/articles``): the forms Anthropic's web search and fetch document.
DomainPattern = Annotated[str, AfterValidator(_host_or_path)]


_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def _sendable(headers: dict[str, SecretStr]) -> dict[str, SecretStr]:
    if not headers:
        raise ValueError("give at least one header, or none at all")
    for name, value in headers.items():
        if not _HEADER_NAME.fullmatch(name):
            raise ValueError(f"header name {name!r} is not an HTTP token")
        text = value.get_secret_value()
        if not text.strip() or _CONTROL.search(text):
            raise ValueError(f"header {name!r}: the value is empty or holds a control character")
    return headers


#: HTTP headers (name → value) sent on your behalf: names are HTTP tokens, values non-empty without
#: control characters; each value a :class:`pydantic.SecretStr`, so no ``repr`` or dump shows it.
HttpHeaders = Annotated[dict[str, SecretStr], AfterValidator(_sendable)]


def header_secrets(headers: Mapping[str, SecretStr | str]) -> list[str]:
    """The credentials in ``headers``' values, for the HTTP kit to scrub (``HttpRequest.secrets``):
    each value, and the token after its scheme (``Bearer <token>``)."""
    found: list[str] = []
    for value in headers.values():
        text = value.get_secret_value() if isinstance(value, SecretStr) else value
        found.append(text)
        scheme, _, token = text.strip().partition(" ")
        if token.strip() and scheme:
            found.append(token.strip())
    return list(dict.fromkeys(found))


class ToolArgs(BaseModel):
    """Strict, immutable provider-tool arguments: no coercion, unknown fields rejected."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ApproximateLocation(ToolArgs):
    """Where the user is, to localise search results (``type`` is always ``approximate``)."""

    type: Literal["approximate"] = "approximate"
    city: str | None = None
    region: str | None = None
    country: str | None = Field(default=None, min_length=2, max_length=2)
    """Two-letter ISO country code, e.g. ``"US"``."""
    timezone: str | None = None
    """IANA time zone, e.g. ``"America/Los_Angeles"``."""


class DomainLimits(ToolArgs):
    """Which domains a search or fetch may use (one list or the other, not both), and how often."""

    max_uses: int | None = Field(default=None, ge=1, le=MAX_TOOL_USES)
    """At most this many searches or fetches in one call (1 to :data:`MAX_TOOL_USES`)."""
    allowed_domains: list[DomainPattern] | None = Field(default=None, min_length=1)
    """Only these domains (each a :data:`DomainPattern`)."""
    blocked_domains: list[DomainPattern] | None = Field(default=None, min_length=1)
    """Never these domains (each a :data:`DomainPattern`)."""

    @model_validator(mode="after")
    def _one_list(self) -> DomainLimits:
        if self.allowed_domains is not None and self.blocked_domains is not None:
            raise ValueError("give allowed_domains or blocked_domains, not both")
        return self
