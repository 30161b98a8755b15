"""Building blocks of provider-tool argument classes (:class:`~modelport.provider_tools.ProviderToolSpec`
``args_type``), shared by the plugins so that the same argument reads the same everywhere.

:class:`ToolArgs` is the strict base every argument class needs (unknown fields refused, no
coercion, immutable); :class:`ApproximateLocation` is the user location the web-search tools of
several providers take (Anthropic's and OpenAI's ``user_location``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ApproximateLocation", "ToolArgs"]


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
