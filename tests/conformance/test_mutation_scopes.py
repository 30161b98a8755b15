"""Which modules ``--mutate`` edits for each first-party provider: only code that provider's own
cases can run. A module of another family (Azure OpenAI's, Vertex AI's) left in a provider's list
makes every mutant in it a survivor no case reaches, and so lowers that provider's score with
nothing its cases could do: a new module must be placed in or out of each list on purpose."""

from __future__ import annotations

import pytest

from modelport_conformance.mutants import find_mutants
from modelport_conformance.mutation import find_target

_CHAT = [
    "_batches.py", "_chat_wire.py", "_decode.py", "_embed.py", "_errors.py", "_messages.py",
    "_options.py", "_quirks.py", "_request.py", "_stream.py", "_wire_map.py", "provider.py",
]  # fmt: skip
_RESPONSES = [
    "_batches.py", "_chat_wire.py", "_errors.py", "_neutral.py", "_options.py", "_quirks.py",
    "_request.py", "_responses_input.py", "_responses_items.py", "_responses_request.py",
    "_responses_stream.py", "_responses_wire.py", "_wire_map.py", "provider.py", "tools.py",
]  # fmt: skip
_AZURE = ["_azure.py", "_azure_batches.py", "_azure_filters.py", "azure.py"]
_GOOGLE = [
    "_backends.py", "_batches.py", "_count.py", "_decode.py", "_embed.py", "_errors.py",
    "_frames.py", "_neutral.py", "_options.py", "_parts.py", "_replay.py", "_request.py",
    "_stream.py", "_thinking.py", "_timestamps.py", "_wire.py", "_wire_map.py",
    "grounding/_accumulate.py", "grounding/_citations.py", "grounding/_offsets.py",
    "grounding/_validate.py", "provider.py", "tools.py",
]  # fmt: skip
_VERTEX_ONLY = ["_labels.py", "_partial_args.py", "_vertex_batches.py"]


@pytest.mark.parametrize(
    ("provider", "package", "modules"),
    [
        ("openai", "modelport_openai", _CHAT),
        ("openai-responses", "modelport_openai", _RESPONSES),
        ("azure-openai", "modelport_openai", sorted(_CHAT + _AZURE)),
        ("azure-openai-responses", "modelport_openai", sorted(_RESPONSES + _AZURE)),
        ("google", "modelport_google", _GOOGLE),
        ("google-vertex", "modelport_google", sorted(_GOOGLE + _VERTEX_ONLY)),
    ],
)
def test_each_provider_mutates_only_the_modules_its_cases_run(
    provider: str, package: str, modules: list[str]
) -> None:
    target = find_target(provider)
    assert [target.label(f) for f in target.files] == [f"{package}/{m}" for m in modules]


@pytest.mark.parametrize(
    ("provider", "helpers", "mapping"),
    [
        (
            "google",
            {"google_search", "google_maps", "url_context", "_checked"},
            {"tool_to_wire", "GoogleSearchArgs"},
        ),
        (
            "google-vertex",
            {"enterprise_web_search", "file_search"},
            {"tool_to_wire", "EnterpriseWebSearchArgs"},
        ),
        ("openai-responses", {"web_search", "mcp", "image_generation"}, {"tool_to_wire", "McpArgs"}),
    ],
)
def test_the_tool_helpers_are_left_out_and_the_tool_mapping_kept(
    provider: str, helpers: set[str], mapping: set[str]
) -> None:
    """A case gives its tools as data: the Python helpers building a ``ProviderTool`` never run."""
    target = find_target(provider)
    tools = next(f for f in target.files if f.name == "tools.py")
    scopes = {m.scope for m in find_mutants(tools.read_text(encoding="utf-8")) if target.keeps(tools, m)}
    assert not scopes & helpers
    assert mapping <= scopes
