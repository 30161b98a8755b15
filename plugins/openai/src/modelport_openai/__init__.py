"""modelport-openai: OpenAI Chat Completions, the Responses API and OpenAI-compatible servers.

Providers ``openai``, ``openai-responses`` (the Responses API), ``openai-compatible`` (any server:
``base_url=`` required) and the presets ``groq``, ``deepseek``, ``openrouter``, ``xai``,
``together``, ``mistral`` and ``ollama``. Use them through
``modelport.get_model("openai/gpt-4o-mini")``; the names here are for typing and configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelport.lazy import lazy_attributes

from ._quirks import Quirks
from .provider import (
    OPENAI_BASE_URL,
    ChatCompletionsProvider,
    OpenAICompatibleProvider,
    OpenAIProvider,
    OpenAIResponsesProvider,
)

# Names backed by pydantic or the mapping modules load on first access (get_model stays cheap).
_LAZY = {
    "OpenAIOptions": "._options",
    "ResponsesOptions": "._options",
    "PRESETS": ".presets",
    "merge_frames": "._stream",
}

if TYPE_CHECKING:
    from ._options import OpenAIOptions, ResponsesOptions
    from ._stream import merge_frames
    from .presets import PRESETS


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "OPENAI_BASE_URL",
    "PRESETS",
    "ChatCompletionsProvider",
    "OpenAICompatibleProvider",
    "OpenAIOptions",
    "OpenAIProvider",
    "OpenAIResponsesProvider",
    "Quirks",
    "ResponsesOptions",
    "merge_frames",
]
