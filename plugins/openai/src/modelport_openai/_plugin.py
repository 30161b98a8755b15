"""The ``modelport-openai`` plugin: registers OpenAI, any OpenAI-compatible server and the presets,
and their recorded conformance cases. Found through the ``modelport`` entry-point group."""

from __future__ import annotations

from typing import Any

from modelport.hookspecs import ProviderRegistrar, ToolRegistrar, hookimpl


@hookimpl
def modelport_register_providers(register: ProviderRegistrar) -> None:
    """Register ``openai``, ``openai-compatible`` and every preset."""
    from .presets import PRESETS
    from .provider import OpenAICompatibleProvider, OpenAIProvider, OpenAIResponsesProvider

    register(OpenAIProvider)
    register(OpenAIResponsesProvider)
    register(OpenAICompatibleProvider)
    from .azure import AzureOpenAIProvider, AzureOpenAIResponsesProvider

    register(AzureOpenAIProvider, aliases=("azure",))
    register(AzureOpenAIResponsesProvider, aliases=("azure-responses",))
    for preset in PRESETS:
        register(preset)


@hookimpl
def modelport_register_provider_tools(register: ToolRegistrar) -> None:
    """Register ``openai.web_search``, ``openai.file_search``, ``openai.code_interpreter`` and
    ``openai.image_generation`` (built-in tools of ``openai-responses``)."""
    from .tools import PROVIDER_TOOL_SPECS

    for spec in PROVIDER_TOOL_SPECS:
        register(spec)


@hookimpl
def modelport_conformance_suites(register: Any) -> None:  # SuiteRegistrar: conformance sits above
    """Register the recorded cases shipped in ``cassettes/<provider id>/``."""
    from importlib.resources import files

    from ._responses_stream import merge_frames as merge_events
    from ._stream import merge_frames
    from .presets import PRESETS
    from .provider import (
        ChatCompletionsProvider,
        OpenAICompatibleProvider,
        OpenAIProvider,
        OpenAIResponsesProvider,
    )

    cassettes = files("modelport_openai") / "cassettes"
    providers: tuple[type[ChatCompletionsProvider], ...] = (
        OpenAIProvider,
        OpenAICompatibleProvider,
        *PRESETS,
    )
    for provider in providers:
        folder = cassettes / provider.id
        if folder.is_dir():
            register(
                provider.id,
                folder,
                merge_frames=merge_frames,
                credential_env=provider.api_key_env,
                mutation_exclude=(*_NOT_MAPPING, *_AZURE, "tools.py", "_responses_*.py", *_RESPONSES_ONLY),
            )
    _register_azure(register, cassettes, merge_events)
    responses = OpenAIResponsesProvider
    register(
        responses.id,
        cassettes / responses.id,
        merge_frames=merge_events,
        credential_env=responses.api_key_env,
        mutation_exclude=(*_NOT_MAPPING, *_AZURE, *_CHAT_ONLY, *_CHAT_TABLES, *_TOOL_HELPERS),
    )


def _register_azure(register: Any, cassettes: Any, merge_events: Any) -> None:
    """The Azure OpenAI cases (``cassettes/azure-openai*``): the OpenAI mappings' exclusions, plus
    the Azure modules each family does not read."""
    from ._azure import API_KEY_ENV
    from ._azure_filters import merge_chat_frames

    for provider_id, merge, exclude in (
        ("azure-openai", merge_chat_frames, (*_NOT_MAPPING, "tools.py", "_responses_*.py", *_RESPONSES_ONLY)),
        ("azure-openai-responses", merge_events, (*_NOT_MAPPING, *_CHAT_ONLY, *_CHAT_TABLES, *_TOOL_HELPERS)),
    ):
        folder = cassettes / provider_id
        if folder.is_dir():
            register(
                provider_id,
                folder,
                merge_frames=merge,
                credential_env=(API_KEY_ENV,),
                mutation_exclude=exclude,
            )


#: Modules ``modelport conformance --mutate`` leaves alone: registration, the model list and the
#: presets (configuration); for ``openai-responses`` also the Chat Completions mappers (its one use
#: of ``_messages.py`` is the data-URL helper; of ``_request.py`` the helpers both bodies share),
#: for Chat Completions the Responses ones and the built-in tools.
_NOT_MAPPING = ("__init__.py", "_plugin.py", "_models.py", "presets.py")
#: Azure OpenAI's provider classes, connection (endpoint, API version, Entra ID), content filters
#: and batches: only the ``azure-openai*`` providers run them, and their own cases score them, so
#: they are left out of the ``openai``, preset and ``openai-responses`` mutants.
_AZURE = ("azure.py", "_azure.py", "_azure_filters.py", "_azure_batches.py")
_CHAT_ONLY = (
    "_decode.py",
    "_stream.py",
    "_embed.py",
    "_messages.py",
    *(
        f"_request.py::{name}"
        for name in ("build_body", "_response_format", "_function", "_tools", "_reasoning")
    ),
)
#: The Chat Completions wire maps and the one Chat-only provider class, left out of the
#: ``openai-responses`` mutants (the Responses provider declares RESPONSES_WIRE_MAP).
_CHAT_TABLES = (
    *(
        f"_wire_map.py::{name}"
        for name in ("FINISH", "_chat_usage", "_chat", "CHAT_WIRE_MAP", "XAI_WIRE_MAP")
    ),
    "provider.py::OpenAICompatibleProvider",
)
#: The Python helpers of ``tools.py`` (``web_search()``, ``mcp()``, ...): they build a
#: ``ProviderTool`` from Python arguments before any mapping, and a case gives its tools as data,
#: so no case can run them; tests/openai/test_responses_built_in_tools.py is their cover.
_TOOL_HELPERS = tuple(
    f"tools.py::{name}"
    for name in ("web_search", "file_search", "code_interpreter", "image_generation", "mcp")
)
#: The Responses wire map, options, neutral tools and provider class, left out of the Chat
#: Completions mutants.
_RESPONSES_ONLY = (
    "_neutral.py",
    "_options.py::ResponsesOptions",
    "_options.py::RESPONSES_RESERVED",
    *(
        f"_wire_map.py::{name}"
        for name in ("_ENDS", "_responses_usage", "_ANNOTATIONS", "_ADDED", "_spans", "RESPONSES_WIRE_MAP")
    ),
    "provider.py::OpenAIResponsesProvider",
)
