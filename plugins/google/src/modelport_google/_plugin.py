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
        volatile=HISTORY_VOLATILE,
        mutation_exclude=(*_NOT_MAPPING, *_TOOL_HELPERS, *_VERTEX_ONLY),
    )
    register(
        "google-vertex",
        cassettes / "google-vertex",
        merge_frames=merge_frames,
        expected_failures=VERTEX_EXPECTED_FAILURES,
        mutation_exclude=(*_NOT_MAPPING, *_TOOL_HELPERS, *_GEMINI_ONLY),
    )


#: What a case's caller changed in a history on purpose, which no decoded answer carries (the
#: ``history`` derived check leaves it out, modelport_conformance.derived_history).
HISTORY_VOLATILE = (
    # the caller edited the first text of the recorded code-execution turn: the edited text is sent
    r"^generate-edited-code-execution-history:\$\.contents\[1\]\.parts\[",
    # the caller edited the arguments of the recorded call: it is sent edited and unsigned
    r"^generate-edited-call-with-id-history:\$\.contents\[1\]\.parts\[1\]",
    # the caller edited, split or added the thoughts of the recorded turn: they are sent unsigned
    r"^generate-history-thought-(edited|split):\$\.contents\[1\]\.parts\[",
    r"^stream-history-thought-added-to-signed-call:\$\.contents\[1\]\.parts\[",
    # the recorded turn marked as another Gemini model's: its signature is Google's stand-in
    r"^generate-history-from-other-gemini-model:\$\.contents\[1\]\.parts\[0\]",
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
#: The Python helpers of ``tools.py`` (``google_search()``, ``google_maps()``, ...): they build a
#: ``ProviderTool`` from Python arguments before any mapping, and a case gives its tools as data,
#: so no case can run them; their unit tests (tests/google/test_tools.py, test_more_tools.py) are
#: their cover. The argument models and ``tool_to_wire``, which map, stay.
_TOOL_HELPERS = tuple(
    f"tools.py::{name}"
    for name in (
        "google_search",
        "code_execution",
        "url_context",
        "_checked",
        "file_search",
        "google_maps",
        "enterprise_web_search",
        "resolve_builtin_tools",
    )
)
#: What only Vertex AI runs, left out of the ``google`` (Gemini API) mutants: its provider class,
#: backend (host, project and location; OAuth is the kit's modelport.http.google_cloud) and batch
#: jobs, and the streamed function-call arguments (``streamFunctionCallArguments`` is a Vertex AI
#: setting). ``google-vertex``'s cases replay them.
_VERTEX_ONLY = (
    "_vertex_batches.py",
    "_partial_args.py",
    "provider.py::VertexProvider",
    # request labels are checked and user ids normalised for Vertex AI only (_request.py: backend ==
    # "vertex"); its countTokens keys, its :predict embeddings and its enterprise web search
    "_labels.py",
    "_count.py::_VERTEX_KEYS",
    "_embed.py::one_instance_per_request",
    "_embed.py::_vertex_call",
    "tools.py::EnterpriseWebSearchArgs",
    *(
        f"_backends.py::{name}"
        for name in ("_HINT", "_resource_location", "publisher_model", "VertexBackend")
    ),
)
#: What only the Gemini API runs, left out of the ``google-vertex`` mutants: its provider class
#: and backend (API key, base URL).
_GEMINI_ONLY = (
    "provider.py::GoogleProvider",
    *(
        f"_backends.py::{name}"
        for name in ("GEMINI_BASE_URL", "API_KEY_ENV_VARS", "BASE_URL_ENV_VAR", "GeminiBackend")
    ),
)
