"""modelport: one typed contract for calling LLM providers.

Importing this package loads no provider plugin; ``get_model`` loads the one it needs.

Examples:
    >>> import modelport
    >>> model = modelport.get_model("google/gemini-2.5-flash")   # doctest: +SKIP
    >>> result = model.generate(prompt="Hello")                   # doctest: +SKIP
"""

from __future__ import annotations

import logging as _logging
from typing import TYPE_CHECKING

from ._api import aembed, agenerate, astream, embed, generate, get_model, restore_batch, stream
from ._model import Model
from ._registry import plugin_errors, register_plugin
from ._version import __version__ as __version__
from .errors import (
    ConfigurationError,
    DeadlineExceededError,
    InvalidRequestError,
    MissingCredentialsError,
    ModelportError,
    OutputRefusedError,
    ProviderAuthError,
    ProviderConnectionError,
    ProviderError,
    ProviderMetadataError,
    ProviderNotInstalledError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
    ProviderResponseError,
    ProviderTimeoutError,
    ProviderToolError,
    StreamInterruptedError,
    UnknownModelError,
    UnknownProviderError,
)
from .hookspecs import hookimpl
from .lazy import lazy_attributes, moved_modules
from .provider import Capabilities, Provider

# Public modules that moved into the layer packages, importable from their old paths with a
# DeprecationWarning naming the new one until the next minor version (old → new).
MOVED_MODULES = {
    "modelport.functions": "modelport.tools.functions",
    "modelport.tool_args": "modelport.tools.args",
    "modelport.sse": "modelport.http.sse",
    "modelport.urls": "modelport.http.urls",
    "modelport.approval": "modelport.loop.approval",
    "modelport.schemas": "modelport.outputs.schemas",
}
moved_modules(MOVED_MODULES)

# A library logs and never prints: without an application's logging configuration, nothing from the
# "modelport" logger reaches stderr (Python's last-resort handler would print warnings).
_logging.getLogger("modelport").addHandler(_logging.NullHandler())

# The pydantic-based names load on first access, so ``import modelport`` stays cheap.
_LAZY = {
    "OutputValidationError": ".outputs",
    "RunResult": ".loop",
    "Approval": ".loop.approval",
    "Refusal": ".loop.approval",
    "tool": ".tools.functions",
    "AsyncResultStream": "._model.streams",
    "ResultStream": "._model.streams",
    "CitedText": ".citations",
    "check_markers": ".citations",
    "cite": ".citations",
    "StreamAccumulator": ".events",
    "StreamEvent": ".events",
    "accumulate": ".events",
    "ProviderToolSpec": ".provider_tools",
    "Citation": ".types",
    "EmbeddingResult": ".types",
    "FilePart": ".types",
    "FunctionTool": ".types",
    "Message": ".types",
    "ProviderTool": ".types",
    "ReasoningPart": ".types",
    "Request": ".types",
    "Result": ".types",
    "Source": ".types",
    "TextPart": ".types",
    "ToolCallPart": ".types",
    "ToolResultPart": ".types",
    "Usage": ".types",
    "CallWarning": ".types",
    "FallbackModel": ".wrappers",
    "Middleware": ".wrappers",
    "WrappedModel": ".wrappers",
    "wrap": ".wrappers",
}
# Old names still readable, with a DeprecationWarning, for one minor version (old → new).
_RENAMED = {"Warning": "CallWarning"}
# The public modules the guides call through the package (``modelport.http.Limits(...)``), each
# imported when first read: ``import modelport`` imports none of them.
_SUBMODULES = (
    "approval batches citations cli contracts events functions http loop mcp outputs plugins"
    " provider_tools reasoning schemas secrets sse telemetry testing tool_args tools types wire"
    " wire_map wrappers"
)

if TYPE_CHECKING:
    # Aliased: re-exported as the package's attributes (the lazy loader provides them at run time).
    # Not ``cli``: the command line sits above the package face and calls the API through it.
    from . import citations as citations
    from . import contracts as contracts
    from . import events as events
    from . import http as http
    from . import loop as loop
    from . import outputs as outputs
    from . import plugins as plugins
    from . import provider_tools as provider_tools
    from . import reasoning as reasoning
    from . import secrets as secrets
    from . import telemetry as telemetry
    from . import testing as testing
    from . import tools as tools
    from . import types as types
    from . import wire as wire
    from . import wire_map as wire_map
    from . import wrappers as wrappers
    from ._model.streams import AsyncResultStream, ResultStream
    from .citations import CitedText, check_markers, cite
    from .events import StreamAccumulator, StreamEvent, accumulate
    from .http import sse as sse
    from .loop import RunResult
    from .loop import approval as approval
    from .loop.approval import Approval, Refusal
    from .outputs import OutputValidationError
    from .outputs import schemas as schemas
    from .tools import args as tool_args  # noqa: F401  (moved: importing it warns)
    from .tools import functions as functions
    from .tools.functions import tool
    from .tools.spec import ProviderToolSpec
    from .types import (
        CallWarning,
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
    )
    from .wrappers import FallbackModel, Middleware, WrappedModel, wrap


__getattr__, __dir__ = lazy_attributes(
    __name__,
    {**_LAZY, **{name: f".{name}" for name in _SUBMODULES.split()}},
    deprecated=_RENAMED,
)


__all__ = [
    "Approval",
    "AsyncResultStream",
    "CallWarning",
    "Capabilities",
    "Citation",
    "CitedText",
    "ConfigurationError",
    "DeadlineExceededError",
    "EmbeddingResult",
    "FallbackModel",
    "FilePart",
    "FunctionTool",
    "InvalidRequestError",
    "Message",
    "Middleware",
    "MissingCredentialsError",
    "Model",
    "ModelportError",
    "OutputRefusedError",
    "OutputValidationError",
    "Provider",
    "ProviderAuthError",
    "ProviderConnectionError",
    "ProviderError",
    "ProviderMetadataError",
    "ProviderNotInstalledError",
    "ProviderOverloadedError",
    "ProviderQuotaError",
    "ProviderRateLimitError",
    "ProviderRequestError",
    "ProviderResponseError",
    "ProviderTimeoutError",
    "ProviderTool",
    "ProviderToolError",
    "ProviderToolSpec",
    "ReasoningPart",
    "Refusal",
    "Request",
    "Result",
    "ResultStream",
    "RunResult",
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
    "WrappedModel",
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
    "restore_batch",
    "stream",
    "tool",
    "wrap",
]
