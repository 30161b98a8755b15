"""modelport-anthropic: the Anthropic Messages API (Claude) for modelport.

Providers ``anthropic``, ``anthropic-vertex`` (Claude on Vertex AI) and ``anthropic-bedrock``
(Claude on Amazon Bedrock). Use them through ``modelport.get_model("anthropic/claude-sonnet-4-5")``,
``get_model("anthropic-vertex/claude-sonnet-4-5@20250929", project=..., location=...)`` or
``get_model("anthropic-bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0", region=...)``; the
names here are for typing and configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelport.lazy import lazy_attributes

from .provider import ANTHROPIC_API_VERSIONS, ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, AnthropicProvider

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
    "VERTEX_ANTHROPIC_VERSION": ".vertex",
    "VertexAnthropicProvider": ".vertex",
    "BEDROCK_ANTHROPIC_VERSION": ".bedrock",
    "BedrockAnthropicProvider": ".bedrock",
}

if TYPE_CHECKING:
    from ._options import AnthropicOptions
    from ._request import MAX_TOKENS
    from ._stream import merge_frames
    from ._structured import NATIVE_OUTPUT
    from ._thinking import ADAPTIVE, ADAPTIVE_ONLY, EFFORT_BUDGETS, EFFORT_ONLY
    from .bedrock import BEDROCK_ANTHROPIC_VERSION, BedrockAnthropicProvider
    from .vertex import VERTEX_ANTHROPIC_VERSION, VertexAnthropicProvider


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "ADAPTIVE",
    "ADAPTIVE_ONLY",
    "ANTHROPIC_API_VERSIONS",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_VERSION",
    "BEDROCK_ANTHROPIC_VERSION",
    "EFFORT_BUDGETS",
    "EFFORT_ONLY",
    "MAX_TOKENS",
    "NATIVE_OUTPUT",
    "VERTEX_ANTHROPIC_VERSION",
    "AnthropicOptions",
    "AnthropicProvider",
    "BedrockAnthropicProvider",
    "VertexAnthropicProvider",
    "merge_frames",
]
