"""What sets one Chat Completions server apart from another, as plain data (no I/O, no imports).

Every provider of this plugin speaks the same protocol; a preset is a base URL, a key variable and
one :class:`Quirks`. The request builder, the decoders and the error mapping read only this.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EffortLevels", "Quirks", "ReasoningFamily"]

#: Each canonical ``reasoning.effort`` → the wire value a family sends for it; a level not listed is
#: sent under its own name.
EffortLevels = tuple[tuple[str, str], ...]

#: What most servers take: ``low``, ``medium`` and ``high``; ``max`` is lowered to ``high``.
_UP_TO_HIGH: EffortLevels = (("max", "high"),)


@dataclass(frozen=True)
class ReasoningFamily:
    """How the models whose names start with one of ``prefixes`` take the reasoning settings."""

    #: Model-name prefixes of the family (``()`` in the server-wide default).
    prefixes: tuple[str, ...] = ()
    #: How ``reasoning.effort`` is sent: ``"reasoning_effort"`` (a top-level string),
    #: ``"reasoning"`` (OpenRouter's ``{"reasoning": {"effort"|"max_tokens"|"enabled"}}``) or ``None``
    #: (the model sets its own reasoning: nothing is sent, with a warning).
    effort: str | None = "reasoning_effort"
    #: The wire value of each canonical effort the family names otherwise (see :data:`EffortLevels`);
    #: a value of another rank (``max`` sent as ``high``) comes with a warning.
    efforts: EffortLevels = _UP_TO_HIGH
    #: ``reasoning.enabled`` is sent as ``thinking: {"type": "enabled"|"disabled"}`` (DeepSeek V4).
    thinking: bool = False


@dataclass(frozen=True)
class Quirks:
    """How a server departs from OpenAI's own Chat Completions."""

    #: Model-name prefixes of reasoning models: ``developer`` instead of ``system``,
    #: ``max_completion_tokens`` instead of ``max_tokens``, no temperature or top_p.
    reasoning_prefixes: tuple[str, ...] = ()
    #: How ``reasoning.effort`` is sent: ``"reasoning_effort"`` (a top-level string),
    #: ``"reasoning"`` (OpenRouter's ``{"reasoning": {"effort"|"max_tokens"|"enabled"}}``) or ``None``.
    effort: str | None = "reasoning_effort"
    #: The wire value of each canonical effort named otherwise (see :class:`ReasoningFamily`).
    efforts: EffortLevels = _UP_TO_HIGH
    #: Model families that take reasoning otherwise than ``effort`` / ``efforts`` say (first match wins).
    reasoning_families: tuple[ReasoningFamily, ...] = ()
    #: Whether ``stream_options: {include_usage: true}`` is sent with a stream.
    stream_usage: bool = True
    #: The wire name of the seed (Mistral calls it ``random_seed``).
    seed_field: str = "seed"
    #: Whether ``top_k`` is accepted (an extension some servers have).
    top_k: bool = False
    #: Whether ``user`` (the end user's id) is accepted.
    user: bool = True
    #: Whether ``metadata`` (from ``request_labels``) is accepted.
    metadata: bool = False
    #: ``completion_tokens`` leaves the reasoning tokens out (xAI): output = completion + reasoning.
    completion_excludes_reasoning: bool = False
    #: ``prompt_cache`` is sent as ``prompt_cache_key`` and ``prompt_cache_retention`` (OpenAI's own
    #: API; the provider's ``capabilities.prompt_cache`` says the same).
    prompt_cache: bool = False
    #: Most values one embeddings request may carry; ``0`` when the server has no embeddings.
    embed_batch: int = 2048
    #: Integer and binary embeddings (``embedding_type`` ``int8``, ``uint8``, ``binary``, ``ubinary``)
    #: are asked for as ``output_dtype`` (Mistral); OpenAI's own API has none.
    embed_dtype: bool = False
    #: Reasoning models that still take ``temperature`` and ``top_p`` while they do not reason (no
    #: effort asked: their default effort is ``none``), by name; a dated snapshot of one
    #: (``gpt-5.4-nano-2026-03-17``) is that model. Data the recordings correct: a recorded answer
    #: that echoes a temperature other than the default names its model here (a test checks).
    sampling_models: tuple[str, ...] = ()

    def takes_sampling(self, model_name: str) -> bool:
        """Whether ``model_name`` is one of :attr:`sampling_models` (or a dated snapshot of one)."""
        for name in self.sampling_models:
            if model_name == name:
                return True
            date = model_name[len(name) + 1 :] if model_name.startswith(name + "-") else ""
            if len(date) == 10 and date[4] == date[7] == "-" and date.replace("-", "").isdigit():
                return True
        return False

    def reasoning_family(self, model_name: str) -> ReasoningFamily:
        """The family ``model_name`` belongs to, else the server-wide ``effort`` / ``efforts``."""
        for family in self.reasoning_families:
            if model_name.startswith(family.prefixes):
                return family
        return ReasoningFamily(effort=self.effort, efforts=self.efforts)
