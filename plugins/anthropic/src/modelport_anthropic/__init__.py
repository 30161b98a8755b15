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
    "PromptCache": "._options",
    "MAX_TOKENS": "._request",
    "EFFORT_BUDGETS": "._request",
    "merge_frames": "._stream",
}

if TYPE_CHECKING:
    from ._options import AnthropicOptions, PromptCache
    from ._request import EFFORT_BUDGETS, MAX_TOKENS
    from ._stream import merge_frames


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_VERSION",
    "EFFORT_BUDGETS",
    "MAX_TOKENS",
    "AnthropicOptions",
    "AnthropicProvider",
    "PromptCache",
    "merge_frames",
]
