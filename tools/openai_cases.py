"""The table of OpenAI and OpenAI-compatible conformance cases: which recording, which canonical request.

Requests reproduce the recorded call's intent; ``note`` says where the request is reconstructed
(body-only recordings have no request at all) or adapted (the recording tool sent SDK extras such as
``n: 1``). Each entry names its provider; ``config`` holds ``get_model`` keywords for the replay.
"""

from __future__ import annotations

from typing import Any

from openai_cases_mistral import mistral_cases
from openai_cases_openai import openai_cases
from openai_cases_presets import (
    compatible_cases,
    deepseek_cases,
    groq_cases,
    ollama_cases,
    openrouter_cases,
    together_cases,
    xai_cases,
)

#: Provider id → its cases.
CASES: dict[str, list[dict[str, Any]]] = {
    "openai": openai_cases(),
    "groq": groq_cases(),
    "deepseek": deepseek_cases(),
    "openrouter": openrouter_cases(),
    "xai": xai_cases(),
    "together": together_cases(),
    "mistral": mistral_cases(),
    "ollama": ollama_cases(),
    "openai-compatible": compatible_cases(),
}

#: What the request oracle needs to know of each provider (the documented quirks, not the adapter's).
QUIRKS: dict[str, dict[str, Any]] = {
    "openai": {"id": "openai", "reasoning_prefixes": ("o1", "o3", "o4", "gpt-5"), "metadata": True},
    "groq": {"id": "groq"},
    "deepseek": {"id": "deepseek", "effort": None},
    "openrouter": {"id": "openrouter", "effort": "reasoning"},
    "xai": {"id": "xai"},
    "together": {"id": "together", "top_k": True},
    "mistral": {"id": "mistral", "effort": None, "stream_usage": False, "seed_field": "random_seed"},
    "ollama": {"id": "ollama", "effort": None},
    "openai-compatible": {"id": "openai-compatible"},
}

#: Each provider's default base URL (where its cassettes' requests go unless a case says otherwise).
BASE_URLS = {
    "openai": "https://api.openai.com/v1",
    "groq": "https://api.groq.com/openai/v1",
    "deepseek": "https://api.deepseek.com",
    "openrouter": "https://openrouter.ai/api/v1",
    "xai": "https://api.x.ai/v1",
    "together": "https://api.together.xyz/v1",
    "mistral": "https://api.mistral.ai/v1",
    "ollama": "http://localhost:11434/v1",
}
