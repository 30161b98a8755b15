"""What sets one Chat Completions server apart from another, as plain data (no I/O, no imports).

Every provider of this plugin speaks the same protocol; a preset is a base URL, a key variable and
one :class:`Quirks`. The request builder, the decoders and the error mapping read only this.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Quirks"]


@dataclass(frozen=True)
class Quirks:
    """How a server departs from OpenAI's own Chat Completions."""

    #: Model-name prefixes of reasoning models: ``developer`` instead of ``system``,
    #: ``max_completion_tokens`` instead of ``max_tokens``, no temperature or top_p.
    reasoning_prefixes: tuple[str, ...] = ()
    #: How ``reasoning.effort`` is sent: ``"reasoning_effort"`` (a top-level string),
    #: ``"reasoning"`` (OpenRouter's ``{"reasoning": {"effort"|"max_tokens"|"enabled"}}``) or ``None``.
    effort: str | None = "reasoning_effort"
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
    #: Most values one embeddings request may carry; ``0`` when the server has no embeddings.
    embed_batch: int = 2048
