"""The first-party plugin runs the same standard tests a third-party author would (K3)."""

from __future__ import annotations

from modelport_conformance import ProviderConformanceTests


class TestGoogleConformance(ProviderConformanceTests):
    provider_id = "google"
    models = (
        "gemini-1.5-flash",
        "gemini-2.0-flash",
        "gemini-2.5-flash",
        "gemini-2.5-pro",
        "gemini-3-flash-preview",
        "gemini-3-pro-preview",
        "gemini-3.1-pro-preview",
        "gemini-3.7-flash",
        "gemini-embedding-001",
        "gemini-embedding-2-preview",
        "nonexistent-model",
    )


class TestGoogleVertexConformance(ProviderConformanceTests):
    provider_id = "google-vertex"
    models = ("gemini-1.5-flash", "gemini-2.0-flash")
