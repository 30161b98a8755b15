"""L4: each package's public names are curated and guarded."""

from __future__ import annotations

import importlib

import modelport

EXPECTED_CORE = {
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
    "restore_batch",
    "hookimpl",
    "plugin_errors",
    "register_plugin",
    "stream",
    "tool",
    "wrap",
}


def test_core_all_is_exactly_the_public_api() -> None:
    assert set(modelport.__all__) == EXPECTED_CORE
    assert sorted(modelport.__all__) == modelport.__all__
    for name in modelport.__all__:
        assert getattr(modelport, name) is not None


def test_every_package_has_a_curated_all() -> None:
    for package in ("modelport", "modelport_google", "modelport_conformance"):
        module = importlib.import_module(package)
        assert isinstance(module.__all__, list)
        for name in module.__all__:
            assert hasattr(module, name), f"{package}.{name}"
            assert not name.startswith("_")
