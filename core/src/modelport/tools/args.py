"""Building blocks of provider-tool argument classes (:class:`~modelport.provider_tools.ProviderToolSpec`
``args_type``), shared by the plugins so that the same argument reads the same everywhere.

:class:`ToolArgs` is the strict base every argument class needs (unknown fields refused, no
coercion, immutable); :class:`ApproximateLocation` is the user location the web-search tools of
several providers take (Anthropic's and OpenAI's ``user_location``); :class:`DomainLimits` the
domain lists and use limit of a search or fetch (Anthropic's tools, the neutral tools of
:mod:`modelport.tools`); :data:`DomainName` and :data:`DomainPattern` the domain entries every
provider's domain lists are checked with (OpenAI's ``filters.allowed_domains``, Google's
``excludeDomains``), so that ``""``, ``"a b"`` or ``"\r\nx.com"`` is refused before any request.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

__all__ = ["MAX_TOOL_USES", "ApproximateLocation", "DomainLimits", "DomainName", "DomainPattern", "ToolArgs"]

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
