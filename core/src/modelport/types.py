"""The provider contract's data: content parts, messages, requests, results, usage and warnings.

Everything is a frozen pydantic v2 class, so a value can be shared, hashed by identity, and
round-tripped through JSON (``model_dump_json`` then ``model_validate_json`` gives an equal object).
Tags (``type``) are wire format and are never renamed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = [
    "CallWarning",
    "Citation",
    "Derived",
    "Document",
    "EMBEDDING_TYPES",
    "EmbeddingResult",
    "EmbeddingType",
    "FileDocument",
    "FilePart",
    "FinishReason",
    "FunctionTool",
    "MAX_SAFE_INTEGER",
    "MAX_VALUE_DEPTH",
    "Message",
    "Origin",
    "Part",
    "ProviderMetadata",
    "PromptCache",
    "ProviderTool",
    "REFUSAL_METADATA",
    "ReasoningConfig",
    "ReasoningPart",
    "ReasoningReplay",
    "Request",
    "RequestKeywords",
    "ResponseFormat",
    "Result",
    "Source",
    "SourceKind",
    "SpecificToolChoice",
    "TextDocument",
    "TextPart",
    "TokenLogprob",
    "Tool",
    "ToolCallPart",
    "ToolChoice",
    "ToolResultPart",
    "ToolSubsetChoice",
    "TopLogprob",
    "Usage",
    "base64_floats",
]

# Re-exported from the modules that define them, by concept: parts, messages and tools in
# ``_contract.content``, what a generation produced in ``_contract.results``, embeddings in
# ``_contract.embeddings`` (loaded on first access, below), a request in ``_contract.request``.
from ._contract.content import (
    MAX_SAFE_INTEGER,
    MAX_VALUE_DEPTH,
    Document,
    FileDocument,
    FilePart,
    FunctionTool,
    Message,
    Origin,
    Part,
    ProviderMetadata,
    ProviderTool,
    ReasoningPart,
    SpecificToolChoice,
    TextDocument,
    TextPart,
    Tool,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    ToolSubsetChoice,
)
from ._contract.request import (
    PromptCache,
    ReasoningConfig,
    ReasoningReplay,
    Request,
    RequestKeywords,
    ResponseFormat,
)
from ._contract.results import (
    REFUSAL_METADATA,
    CallWarning,
    Citation,
    Derived,
    FinishReason,
    Result,
    Source,
    SourceKind,
    TokenLogprob,
    TopLogprob,
    Usage,
)
from .lazy import lazy_attributes

if TYPE_CHECKING:
    from ._contract.embeddings import EMBEDDING_TYPES, EmbeddingResult, EmbeddingType, base64_floats

# The embedding names load on first access: a generate call builds no embedding class.
_LAZY = dict.fromkeys(
    ("EMBEDDING_TYPES", "EmbeddingResult", "EmbeddingType", "base64_floats"), "modelport._contract.embeddings"
)
# Old names still readable, with a DeprecationWarning, for one minor version (old → new).
__getattr__, __dir__ = lazy_attributes(__name__, _LAZY, deprecated={"Warning": "CallWarning"})
