"""Presets: well-known OpenAI-compatible servers, each a base URL, a key variable and its quirks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from modelport.http import check_header_value
from modelport.provider import Capabilities
from modelport.wire_map import WireMap

from ._quirks import Quirks, ReasoningFamily
from ._wire_map import XAI_WIRE_MAP
from .provider import CHAT_COMPLETIONS_BOUNDS, ChatCompletionsProvider

__all__ = [
    "PRESETS",
    "DeepSeekProvider",
    "GroqProvider",
    "MistralProvider",
    "OllamaProvider",
    "OpenRouterProvider",
    "TogetherProvider",
    "XaiProvider",
]


#: What a server without an embeddings endpoint can do.
_CHAT_ONLY = Capabilities(function_tools=True, reasoning=True, structured_output=True)


class GroqProvider(ChatCompletionsProvider):
    """Groq; reasoning arrives as ``reasoning``, usage also under ``x_groq.usage``."""

    id: ClassVar[str] = "groq"
    display_name: ClassVar[str] = "Groq"
    telemetry_name: ClassVar[str | None] = "groq"
    secret_patterns: ClassVar[Mapping[str, str]] = {"Groq API key": r"(?<![0-9A-Za-z])gsk_[0-9A-Za-z]{20,}"}
    default_base_url: ClassVar[str | None] = "https://api.groq.com/openai/v1"
    api_key_env: ClassVar[tuple[str, ...]] = ("GROQ_API_KEY",)
    #: Groq's API reference gives OpenAI's ranges (temperature 0 to 2, penalties -2 to 2).
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = CHAT_COMPLETIONS_BOUNDS
    capabilities: ClassVar[Capabilities] = _CHAT_ONLY
    quirks: ClassVar[Quirks] = Quirks(embed_batch=0)


#: DeepSeek V4 (``deepseek-v4-pro``, ``deepseek-v4-flash``): thinking switched by
#: ``thinking: {"type": "enabled"|"disabled"}`` (on by default) and its effort ``high`` or ``max``
#: (the server runs ``low`` and ``medium`` as ``high``). ``deepseek-chat`` and ``deepseek-reasoner``
#: take no reasoning settings: the model decides. https://api-docs.deepseek.com/guides/thinking_mode
DEEPSEEK_V4 = ReasoningFamily(("deepseek-v4",), efforts=(("low", "high"), ("medium", "high")), thinking=True)


class DeepSeekProvider(ChatCompletionsProvider):
    """DeepSeek; reasoning as ``reasoning_content``, cache hits as ``prompt_cache_hit_tokens``.

    V4 models take ``reasoning.enabled`` and ``reasoning.effort`` (``max`` included); the older
    ``deepseek-chat`` / ``deepseek-reasoner`` reason by model, and the setting is not sent.
    """

    id: ClassVar[str] = "deepseek"
    display_name: ClassVar[str] = "DeepSeek"
    telemetry_name: ClassVar[str | None] = "deepseek"
    default_base_url: ClassVar[str | None] = "https://api.deepseek.com"
    api_key_env: ClassVar[tuple[str, ...]] = ("DEEPSEEK_API_KEY",)
    #: DeepSeek's API reference: temperature 0 to 2, penalties -2 to 2 (OpenAI's ranges).
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = CHAT_COMPLETIONS_BOUNDS
    capabilities: ClassVar[Capabilities] = _CHAT_ONLY
    quirks: ClassVar[Quirks] = Quirks(effort=None, reasoning_families=(DEEPSEEK_V4,), embed_batch=0)


class OpenRouterProvider(ChatCompletionsProvider):
    """OpenRouter; ``reasoning`` is an object, errors may arrive inside a stream's chunks.

    ``app_url=`` / ``app_name=`` are sent as ``HTTP-Referer`` / ``X-Title`` (app attribution).
    """

    id: ClassVar[str] = "openrouter"
    display_name: ClassVar[str] = "OpenRouter"
    secret_patterns: ClassVar[Mapping[str, str]] = {
        "OpenRouter API key": r"(?<![0-9A-Za-z])sk-or-[0-9A-Za-z_\-]{20,}"
    }
    default_base_url: ClassVar[str | None] = "https://openrouter.ai/api/v1"
    api_key_env: ClassVar[tuple[str, ...]] = ("OPENROUTER_API_KEY",)
    #: OpenRouter's parameter reference: temperature 0 to 2, penalties -2 to 2 (``top_k`` any
    #: positive integer, which the request model already requires).
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = CHAT_COMPLETIONS_BOUNDS
    config_options: ClassVar[frozenset[str] | None] = frozenset({"app_url", "app_name", "name"})
    capabilities: ClassVar[Capabilities] = _CHAT_ONLY
    #: OpenRouter normalizes efforts across its models, ``xhigh`` included.
    quirks: ClassVar[Quirks] = Quirks(
        effort="reasoning", efforts=(("max", "xhigh"),), top_k=True, embed_batch=0
    )

    def headers(self) -> Mapping[str, str]:
        options = self.config.options
        pairs = (("http-referer", "app_url"), ("x-title", "app_name"))
        return {h: check_header_value(str(options[o]), o) for h, o in pairs if options.get(o)}


class XaiProvider(ChatCompletionsProvider):
    """xAI; ``completion_tokens`` leaves the reasoning tokens out."""

    id: ClassVar[str] = "xai"
    display_name: ClassVar[str] = "xAI"
    telemetry_name: ClassVar[str | None] = "x_ai"
    secret_patterns: ClassVar[Mapping[str, str]] = {"xAI API key": r"(?<![0-9A-Za-z])xai-[0-9A-Za-z]{20,}"}
    default_base_url: ClassVar[str | None] = "https://api.x.ai/v1"
    api_key_env: ClassVar[tuple[str, ...]] = ("XAI_API_KEY",)
    #: xAI's API reference: temperature 0 to 2 (the one range it documents as such).
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = {"temperature": (0, 2)}
    capabilities: ClassVar[Capabilities] = _CHAT_ONLY
    quirks: ClassVar[Quirks] = Quirks(completion_excludes_reasoning=True, embed_batch=0)
    #: Its reasoning count moves ``output_tokens`` too (``completion_tokens`` leaves it out).
    wire_map: ClassVar[WireMap | None] = XAI_WIRE_MAP


class TogetherProvider(ChatCompletionsProvider):
    """Together AI; accepts ``top_k``, reports cache hits as a top-level ``cached_tokens``."""

    id: ClassVar[str] = "together"
    display_name: ClassVar[str] = "Together AI"
    default_base_url: ClassVar[str | None] = "https://api.together.xyz/v1"
    api_key_env: ClassVar[tuple[str, ...]] = ("TOGETHER_API_KEY",)
    quirks: ClassVar[Quirks] = Quirks(top_k=True)


class MistralProvider(ChatCompletionsProvider):
    """Mistral; ``random_seed``, no ``user``, usage sent without ``stream_options``."""

    id: ClassVar[str] = "mistral"
    display_name: ClassVar[str] = "Mistral"
    telemetry_name: ClassVar[str | None] = "mistral_ai"
    default_base_url: ClassVar[str | None] = "https://api.mistral.ai/v1"
    api_key_env: ClassVar[tuple[str, ...]] = ("MISTRAL_API_KEY",)
    #: Mistral's API reference: penalties -2 to 2; it gives temperature no range (a recommendation
    #: of 0 to 0.7, the default by model), so none is checked.
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = {
        "presence_penalty": (-2, 2),
        "frequency_penalty": (-2, 2),
    }
    quirks: ClassVar[Quirks] = Quirks(
        effort=None,
        stream_usage=False,
        seed_field="random_seed",
        user=False,
        embed_batch=512,
        embed_dtype=True,
    )
    #: Mistral's ``output_dtype`` (``float``, ``int8``, ``uint8``, ``binary``, ``ubinary``) and
    #: ``encoding_format`` (``float``, ``base64``).
    embedding_types: ClassVar[frozenset[str]] = frozenset(
        {"float", "int8", "uint8", "binary", "ubinary", "base64"}
    )


class OllamaProvider(ChatCompletionsProvider):
    """Ollama on this machine (``http://localhost:11434/v1``, or ``OLLAMA_BASE_URL``); no key."""

    id: ClassVar[str] = "ollama"
    display_name: ClassVar[str] = "Ollama"
    default_base_url: ClassVar[str | None] = "http://localhost:11434/v1"
    base_url_env: ClassVar[str | None] = "OLLAMA_BASE_URL"
    api_key_env: ClassVar[tuple[str, ...]] = ("OLLAMA_API_KEY",)
    api_key_required: ClassVar[bool] = False
    quirks: ClassVar[Quirks] = Quirks(effort=None)


#: Every preset, in the order they are documented.
PRESETS: tuple[type[ChatCompletionsProvider], ...] = (
    GroqProvider,
    DeepSeekProvider,
    OpenRouterProvider,
    XaiProvider,
    TogetherProvider,
    MistralProvider,
    OllamaProvider,
)
