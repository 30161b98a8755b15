"""The providers this project publishes itself, known before any plugin loads: a missing install
gets an exact instruction, and their ids and aliases are reserved for their own distributions."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["BUILTIN_ALIASES", "FIRST_PARTY", "FirstParty", "normalized"]


@dataclass(frozen=True)
class FirstParty:
    """A provider we publish ourselves, so a missing install gets an exact instruction."""

    display_name: str
    distribution: str
    family: str


FIRST_PARTY: dict[str, FirstParty] = {
    "google": FirstParty("Google", "modelport-google", "google"),
    "google-vertex": FirstParty("Google Vertex AI", "modelport-google", "google-vertex"),
    **{
        provider: FirstParty(name, "modelport-openai", "openai")
        for provider, name in (
            ("openai", "OpenAI"),
            ("openai-compatible", "OpenAI-compatible server"),
            ("openai-responses", "OpenAI Responses API"),
            ("groq", "Groq"),
            ("deepseek", "DeepSeek"),
            ("openrouter", "OpenRouter"),
            ("xai", "xAI"),
            ("together", "Together AI"),
            ("mistral", "Mistral"),
            ("ollama", "Ollama"),
            ("azure-openai", "Azure OpenAI"),
            ("azure-openai-responses", "Azure OpenAI Responses API"),
        )
    },
    "anthropic": FirstParty("Anthropic", "modelport-anthropic", "anthropic"),
}

#: Aliases of first-party providers, known before any plugin loads.
BUILTIN_ALIASES: dict[str, str] = {
    "gemini": "google",
    "google-gemini": "google",
    "vertex": "google-vertex",
    "vertexai": "google-vertex",
}


def normalized(distribution: str) -> str:
    """A distribution name in its normalised form (PEP 503)."""
    return re.sub(r"[-_.]+", "-", distribution).lower()
