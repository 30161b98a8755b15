"""Replays a recorded exchange through a real model on ``httpx.MockTransport`` (never the network)."""

from __future__ import annotations

from typing import Any

import httpx

import modelport
from modelport.errors import ProviderError

from .corpus import Interaction

KEY = "sk-test-0123456789abcdef"

#: Where each corpus source's traffic went: the provider id (and a base URL for generic servers).
HOSTS = {
    "api.openai.com": ("openai", None),
    "api.groq.com": ("groq", None),
    "api.deepseek.com": ("deepseek", None),
    "openrouter.ai": ("openrouter", None),
    "localhost:11434": ("ollama", None),
    "api.mistral.ai": ("mistral", None),
    "api.z.ai": ("openai-compatible", "https://api.z.ai/api/paas/v4"),
    "traceloop-stg.openai.azure.com": ("openai-compatible", "https://traceloop-stg.openai.azure.com/openai"),
}


class Replayer:
    """Answers every request with the recorded response, keeping what was sent."""

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(
            self.interaction.status, headers=self.interaction.headers, content=self.interaction.body
        )


def model(provider: str, name: str, interaction: Interaction, base_url: str | None = None) -> Any:
    """A model of ``provider`` whose transport replays ``interaction`` (no retries)."""
    return model_and_replayer(provider, name, interaction, base_url)[0]


def model_and_replayer(
    provider: str, name: str, interaction: Interaction, base_url: str | None = None
) -> tuple[Any, Replayer]:
    """The model and the replayer behind its transport (which keeps the requests sent)."""
    replayer = Replayer(interaction)
    model = modelport.get_model(
        f"{provider}/{name}",
        api_key=KEY,
        base_url=base_url,
        transport=httpx.MockTransport(replayer),
        max_retries=0,
    )
    return model, replayer


def generate(m: Any, **request: Any) -> Any:
    """``generate``; a provider error is returned instead of raised."""
    try:
        return m.generate(**request)
    except ProviderError as error:
        return error


def stream(m: Any, **request: Any) -> tuple[list[Any], Any]:
    """The events and the result (or the error) of a stream."""
    events: list[Any] = []
    try:
        with m.stream(**request) as s:
            for event in s:
                events.append(event)
            return events, s.result()
    except ProviderError as error:
        return events, error
