"""Building blocks of provider-tool argument classes (:class:`~modelport.provider_tools.ProviderToolSpec`
``args_type``), shared by the plugins so that the same argument reads the same everywhere.

:class:`ToolArgs` is the strict base every argument class needs (unknown fields refused, no
coercion, immutable); :class:`ApproximateLocation` is the user location the web-search tools of
several providers take (Anthropic's and OpenAI's ``user_location``); :class:`DomainLimits` the
domain lists and use limit of a search or fetch (Anthropic's tools, the neutral tools of
:mod:`modelport.tools`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["ApproximateLocation", "DomainLimits", "ToolArgs"]


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

    max_uses: int | None = Field(default=None, ge=1)
    """At most this many searches or fetches in one call."""
    allowed_domains: list[str] | None = Field(default=None, min_length=1)
    """Only these domains."""
    blocked_domains: list[str] | None = Field(default=None, min_length=1)
    """Never these domains."""

    @model_validator(mode="after")
    def _one_list(self) -> DomainLimits:
        if self.allowed_domains is not None and self.blocked_domains is not None:
            raise ValueError("give allowed_domains or blocked_domains, not both")
        return self
