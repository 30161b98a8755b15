"""The Google providers: ``google`` (Gemini API) and ``google-vertex`` (Vertex AI)."""

from __future__ import annotations

from typing import ClassVar

from modelport.provider import Capabilities, Provider

__all__ = ["GoogleProvider", "VertexProvider"]

_CAPABILITIES = Capabilities(
    generate=True,
    stream=True,
    embed=True,
    function_tools=True,
    provider_tools=True,
    reasoning=True,
    structured_output=True,
)


class GoogleProvider(Provider):
    """Gemini API (generativelanguage.googleapis.com)."""

    id: ClassVar[str] = "google"
    display_name: ClassVar[str] = "Google"
    capabilities: ClassVar[Capabilities] = _CAPABILITIES
    tool_namespace: ClassVar[str | None] = "google"
    backend: ClassVar[str] = "gemini"


class VertexProvider(Provider):
    """Vertex AI ({location}-aiplatform.googleapis.com)."""

    id: ClassVar[str] = "google-vertex"
    display_name: ClassVar[str] = "Google Vertex AI"
    capabilities: ClassVar[Capabilities] = _CAPABILITIES
    tool_namespace: ClassVar[str | None] = "google"
    backend: ClassVar[str] = "vertex"
