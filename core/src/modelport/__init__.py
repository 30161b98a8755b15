"""modelport: one typed contract for calling LLM providers.

>>> import modelport
>>> model = modelport.get_model("google/gemini-2.5-flash")   # doctest: +SKIP
>>> result = model.generate(prompt="Hello")                   # doctest: +SKIP

Importing this package loads no provider plugin; ``get_model`` loads the one it needs.
"""

from __future__ import annotations

from ._api import aembed, agenerate, astream, embed, generate, get_model, stream
from ._model import AsyncResultStream, Model, ResultStream
from ._registry import plugin_errors, register_plugin
from .citations import CitedText, check_markers, cite
from .errors import (
    ConfigurationError,
    InvalidRequestError,
    MissingCredentialsError,
    ModelportError,
    ProviderAuthError,
    ProviderError,
    ProviderMetadataError,
    ProviderNotInstalledError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
    ProviderResponseError,
    ProviderToolError,
    StreamInterruptedError,
    UnknownModelError,
    UnknownProviderError,
)
from .events import StreamAccumulator, StreamEvent, accumulate
from .hookspecs import hookimpl
from .provider import Capabilities, Provider
from .provider_tools import ProviderToolSpec
from .types import (
    Citation,
    EmbeddingResult,
    FilePart,
    FunctionTool,
    Message,
    ProviderTool,
    ReasoningPart,
    Request,
    Result,
    Source,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    Usage,
    Warning,
)

__version__ = "0.1.0"

__all__ = [
    "AsyncResultStream",
    "Capabilities",
    "Citation",
    "CitedText",
    "ConfigurationError",
    "EmbeddingResult",
    "FilePart",
    "FunctionTool",
    "InvalidRequestError",
    "Message",
    "MissingCredentialsError",
    "Model",
    "ModelportError",
    "Provider",
    "ProviderAuthError",
    "ProviderError",
    "ProviderMetadataError",
    "ProviderNotInstalledError",
    "ProviderOverloadedError",
    "ProviderQuotaError",
    "ProviderRateLimitError",
    "ProviderRequestError",
    "ProviderResponseError",
    "ProviderTool",
    "ProviderToolError",
    "ProviderToolSpec",
    "ReasoningPart",
    "Request",
    "Result",
    "ResultStream",
    "Source",
    "StreamAccumulator",
    "StreamEvent",
    "StreamInterruptedError",
    "TextPart",
    "ToolCallPart",
    "ToolResultPart",
    "UnknownModelError",
    "UnknownProviderError",
    "Usage",
    "Warning",
    "accumulate",
    "aembed",
    "agenerate",
    "astream",
    "check_markers",
    "cite",
    "embed",
    "generate",
    "get_model",
    "hookimpl",
    "plugin_errors",
    "register_plugin",
    "stream",
]
