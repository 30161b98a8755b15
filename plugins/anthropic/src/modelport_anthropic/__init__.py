"""modelport-anthropic: the Anthropic Messages API (Claude) for modelport.

Provider ``anthropic``. Use it through ``modelport.get_model("anthropic/claude-sonnet-4-5")``; the
names here are for typing and configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelport.lazy import lazy_attributes

from .provider import ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, AnthropicProvider

# Names backed by pydantic or the mapping modules load on first access (get_model stays cheap).
_LAZY = {
    "AnthropicOptions": "._options",
    "MAX_TOKENS": "._request",
    "ADAPTIVE": "._thinking",
    "ADAPTIVE_ONLY": "._thinking",
    "EFFORT_BUDGETS": "._thinking",
    "EFFORT_ONLY": "._thinking",
    "NATIVE_OUTPUT": "._structured",
    "merge_frames": "._stream",
}

if TYPE_CHECKING:
    from ._options import AnthropicOptions
    from ._request import MAX_TOKENS
    from ._stream import merge_frames
    from ._structured import NATIVE_OUTPUT
    from ._thinking import ADAPTIVE, ADAPTIVE_ONLY, EFFORT_BUDGETS, EFFORT_ONLY


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "ADAPTIVE",
    "ADAPTIVE_ONLY",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_VERSION",
    "EFFORT_BUDGETS",
    "EFFORT_ONLY",
    "MAX_TOKENS",
    "NATIVE_OUTPUT",
    "AnthropicOptions",
    "AnthropicProvider",
    "merge_frames",
]
