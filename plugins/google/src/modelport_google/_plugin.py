"""The ``modelport-google`` plugin: registers the ``google`` and ``google-vertex`` providers and the
Google provider tools. Found through the ``modelport`` entry-point group."""

from __future__ import annotations

from typing import Any

from modelport.hookspecs import ProviderRegistrar, ToolRegistrar, hookimpl


@hookimpl
def modelport_register_providers(register: ProviderRegistrar) -> None:
    """Register the Gemini API and Vertex AI providers."""
    from .provider import GoogleProvider, VertexProvider

    register(GoogleProvider, aliases=("gemini",))
    register(VertexProvider, aliases=("vertex", "vertexai"))


@hookimpl
def modelport_register_provider_tools(register: ToolRegistrar) -> None:
    """Register ``google.google_search`` and ``google.code_execution``."""
    from .tools import PROVIDER_TOOL_SPECS

    for spec in PROVIDER_TOOL_SPECS:
        register(spec)


@hookimpl
def modelport_conformance_suites(register: Any) -> None:  # SuiteRegistrar: conformance sits above
    """Register the recorded Gemini API and Vertex AI cases shipped in ``cassettes/`` (K6)."""
    from importlib.resources import files

    from ._stream import merge_frames

    cassettes = files("modelport_google") / "cassettes"
    keys = ("GOOGLE_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY")
    register(
        "google",
        cassettes / "google",
        merge_frames=merge_frames,
        credential_env=keys,
        mutation_exclude=(*_NOT_MAPPING, "_vertex_batches.py"),
    )
    register(
        "google-vertex",
        cassettes / "google-vertex",
        merge_frames=merge_frames,
        expected_failures=VERTEX_EXPECTED_FAILURES,
        mutation_exclude=_NOT_MAPPING,
    )


#: Derived fault cases that fail on what the protocol cannot tell (modelport_conformance.expected_failures).
VERTEX_EXPECTED_FAILURES = {
    "vertex-stream-utf8-cjk/unterminated": (
        "a Gemini stream has no terminal event, and this Vertex recording sets finishReason STOP on "
        "every chunk: with any one chunk removed the others still say the answer finished"
    ),
}


#: Modules ``modelport conformance --mutate`` leaves alone: registration, the model list, the
#: Files and caches management calls (with their upload and paging), none a conformance method, and
#: the grounding helpers applied to a decoded result (envelope, evidence, merging, typed access).
_NOT_MAPPING = (
    "__init__.py",
    "grounding/__init__.py",
    "grounding/envelope.py",
    "grounding/_evidence.py",
    "grounding/_merge.py",
    "grounding/_access.py",
    "_plugin.py",
    "_models.py",
    "_paging.py",
    "_resumable.py",
    "files.py",
    "caches.py",
)
