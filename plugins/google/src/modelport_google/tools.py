"""Google provider tools (filled in by the grounding work)."""

from __future__ import annotations

from modelport.provider_tools import ProviderToolSpec

PROVIDER_TOOL_SPECS: tuple[ProviderToolSpec, ...] = ()
