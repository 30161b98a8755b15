"""Canonical ``reasoning`` → ``thinking`` and ``output_config.effort``, by model family (pure).

Three families take reasoning three ways (https://platform.claude.com/docs/en/build-with-claude/
adaptive-thinking and .../effort):

- **adaptive** (:data:`ADAPTIVE`: Opus 4.6 on, Sonnet 4.6 on, Mythos, Fable): an effort is
  ``thinking: {"type": "adaptive"}`` with ``output_config: {"effort": ...}`` (``max`` included);
  ``enabled=True`` alone is adaptive thinking at the model's default effort. A budget is still
  ``{"type": "enabled", "budget_tokens": ...}`` where the model takes one (deprecated on 4.6),
  and an ``InvalidRequestError`` on the models that take adaptive thinking only
  (:data:`ADAPTIVE_ONLY`), which cannot turn thinking off either.
- **effort** (:data:`EFFORT_ONLY`: Opus 4.5): an effort is both a budget
  (:data:`EFFORT_BUDGETS`) and ``output_config.effort`` (``low``, ``medium``, ``high``: ``max``
  is sent as ``high``, with a warning).
- **budget** (every other model): ``budget_tokens`` as given, an effort as a budget.

A budget is at least 1024 and below ``max_tokens``; ``enabled=False`` is ``{"type": "disabled"}``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from modelport.errors import InvalidRequestError
from modelport.types import CallWarning, ReasoningConfig

__all__ = ["ADAPTIVE", "ADAPTIVE_ONLY", "EFFORT_BUDGETS", "EFFORT_ONLY", "Thinking", "thinking_for"]

#: Models that take adaptive thinking only: no budget, no ``disabled`` (a 400 from the API).
ADAPTIVE_ONLY: tuple[str, ...] = (
    "claude-opus-4-7",
    "claude-opus-4-8",
    "claude-opus-5-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
    "claude-mythos",
    "claude-fable",
)
#: Models that take ``thinking: {"type": "adaptive"}`` and ``output_config.effort`` up to ``max``.
ADAPTIVE: tuple[str, ...] = (
    *ADAPTIVE_ONLY,
    "claude-opus-4-6",
    "claude-sonnet-4-6",
    "claude-opus-5",
    "claude-sonnet-5",
    "claude-haiku-5",
)
#: Models that take ``output_config.effort`` (``low`` to ``high``) but budget thinking only.
EFFORT_ONLY: tuple[str, ...] = ("claude-opus-4-5",)
#: ``thinking.budget_tokens`` for ``reasoning.effort`` when no budget is given.
EFFORT_BUDGETS = {"low": 2048, "medium": 8192, "high": 16384, "max": 32000}
_MIN_BUDGET = 1024


class Thinking(NamedTuple):
    """What ``reasoning`` becomes: the ``thinking`` field, ``output_config.effort``, warnings."""

    thinking: dict[str, Any] | None = None
    effort: str | None = None
    warnings: tuple[CallWarning, ...] = ()

    @property
    def on(self) -> bool:
        """Whether the model thinks (the API then takes no ``temperature``, no ``top_k``)."""
        return self.thinking is not None and self.thinking.get("type") != "disabled"


def _budget(budget: int, limit: int) -> dict[str, Any]:
    if budget < _MIN_BUDGET:
        raise InvalidRequestError(
            f"reasoning.budget_tokens must be at least {_MIN_BUDGET} on Anthropic, got {budget}"
        )
    if budget >= limit:
        raise InvalidRequestError(
            f"reasoning budget {budget} must be below max_tokens {limit} (set max_output_tokens higher)"
        )
    return {"type": "enabled", "budget_tokens": budget}


def thinking_for(model_name: str, config: ReasoningConfig | None, limit: int) -> Thinking:
    """What ``config`` becomes on ``model_name`` whose ``max_tokens`` is ``limit``; raises
    :class:`~modelport.errors.InvalidRequestError` for what the model cannot take."""
    if config is None:
        return Thinking()
    adaptive_only = model_name.startswith(ADAPTIVE_ONLY)
    if config.enabled is False:
        if config.effort is not None or config.budget_tokens is not None:
            raise InvalidRequestError("reasoning.enabled=False cannot be combined with an effort or a budget")
        if adaptive_only:
            raise InvalidRequestError(
                f"{model_name} cannot turn thinking off (adaptive thinking only): "
                "lower reasoning.effort instead"
            )
        return Thinking({"type": "disabled"})
    effort = config.effort
    if config.budget_tokens is not None:
        if adaptive_only:
            raise InvalidRequestError(
                f"{model_name} takes no thinking budget (adaptive thinking only): "
                "give reasoning.effort instead"
            )
        thinking = _budget(config.budget_tokens, limit)
        if model_name.startswith(ADAPTIVE):
            return Thinking(thinking, effort)
        return _effort_only(model_name, thinking, effort) if effort else Thinking(thinking)
    if model_name.startswith(ADAPTIVE):
        return Thinking({"type": "adaptive"}, effort) if effort or config.enabled else Thinking()
    if effort is None and not config.enabled:
        return Thinking()
    thinking = _budget(EFFORT_BUDGETS[effort or "medium"], limit)
    return _effort_only(model_name, thinking, effort) if effort else Thinking(thinking)


def _effort_only(model_name: str, thinking: dict[str, Any], effort: str) -> Thinking:
    """A budget, with ``output_config.effort`` on the models that take it (``max`` as ``high``)."""
    if not model_name.startswith(EFFORT_ONLY):
        return Thinking(thinking)
    if effort != "max":
        return Thinking(thinking, effort)
    warning = CallWarning(
        type="unsupported-setting",
        setting="reasoning.effort",
        details=f"{model_name} has no effort above high; max is sent as high",
    )
    return Thinking(thinking, "high", (warning,))
