"""Reasoning settings → Gemini ``generationConfig.thinkingConfig`` (G4).

``reasoning.effort`` becomes ``thinkingLevel`` on the Gemini 3 family and ``thinkingBudget`` on older
models; the explicit ``thinking_level`` / ``thinking_budget`` options are checked against the family
before any request.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import CallWarning, ReasoningConfig, Request

from ._options import INT32_MAX, GoogleOptions

__all__ = [
    "EFFORT_BUDGETS",
    "EFFORT_LEVELS",
    "check_reasoning",
    "check_thinking",
    "effort_warnings",
    "explicit_thinking",
    "is_gemini_3",
    "thinking_config",
]

#: ``reasoning.effort`` → ``thinkingBudget`` (-1 lets the model decide: "dynamic"), Gemini 2.5 and older.
EFFORT_BUDGETS = {"low": 512, "medium": 2048, "high": 8192, "max": -1}
#: ``reasoning.effort`` → ``thinkingLevel`` on the Gemini 3 family (which thinks by levels).
EFFORT_LEVELS = {"low": "LOW", "medium": "MEDIUM", "high": "HIGH", "max": "HIGH"}


def is_gemini_3(model_name: str) -> bool:
    """Whether the model belongs to the Gemini 3 family (``thinkingLevel`` instead of budgets).

    The last path segment is read, so ``models/gemini-3-pro-preview`` and a Vertex resource name
    ending in ``.../models/gemini-3-flash`` both count.
    """
    name = model_name.rsplit("/", 1)[-1].lower()
    return name.startswith("gemini-3")


def check_reasoning(reasoning: ReasoningConfig | None) -> None:
    """G4 validation: ``budget_tokens`` is a non-negative int32; ``enabled=False`` is alone."""
    if reasoning is None:
        return
    budget = reasoning.budget_tokens
    if budget is not None:
        if isinstance(budget, bool) or not isinstance(budget, int):
            raise InvalidRequestError("reasoning.budget_tokens must be an integer")
        if budget == -1:
            raise InvalidRequestError(
                "reasoning.budget_tokens=-1 is reserved: use reasoning.effort='max' for a dynamic budget"
            )
        if not 0 <= budget <= INT32_MAX:  # thinkingBudget is an int32 on the wire
            raise InvalidRequestError(
                f"reasoning.budget_tokens must be between 0 and {INT32_MAX}, got {budget}"
            )
    if reasoning.enabled is False and (reasoning.effort is not None or budget is not None):
        raise InvalidRequestError("reasoning.enabled=False cannot be combined with effort or budget_tokens")


def thinking_config(reasoning: ReasoningConfig | None, model_name: str = "") -> dict[str, Any] | None:
    """``generationConfig.thinkingConfig`` for the request's reasoning settings.

    ``effort`` becomes ``thinkingLevel`` on the Gemini 3 family and ``thinkingBudget`` on older
    models; an explicit ``budget_tokens`` is a ``thinkingBudget`` everywhere (Gemini 3 still takes one).
    """
    if reasoning is None:
        return None
    check_reasoning(reasoning)
    gemini_3 = is_gemini_3(model_name)
    if reasoning.enabled is False:
        if gemini_3:
            raise InvalidRequestError(
                f"{model_name} cannot turn thinking off: use reasoning={{'effort': 'low'}}, or "
                "provider_options={'google': {'thinking_level': 'MINIMAL'}} on models that take it (Flash)"
            )
        return {"thinkingBudget": 0}
    config: dict[str, Any] = {}
    if reasoning.budget_tokens is not None:
        config["thinkingBudget"] = reasoning.budget_tokens
    elif reasoning.effort is not None:
        if gemini_3:
            config["thinkingLevel"] = EFFORT_LEVELS[reasoning.effort]
        else:
            config["thinkingBudget"] = EFFORT_BUDGETS[reasoning.effort]
    config["includeThoughts"] = True
    return config


def explicit_thinking(
    config: dict[str, Any] | None, options: GoogleOptions, model_name: str
) -> dict[str, Any] | None:
    """``thinkingConfig`` with the explicit ``thinking_level`` / ``thinking_budget`` options applied,
    validated against the model family before any request."""
    level, budget = options.thinking_level, options.thinking_budget
    if level is None and budget is None:
        return config
    if level is not None and budget is not None:
        raise InvalidRequestError(
            "provider_options: give thinking_level or thinking_budget, not both (Google rejects both at once)"
        )
    merged = dict(config or {})
    if level is not None:
        if not is_gemini_3(model_name):
            raise InvalidRequestError(
                f"provider_options thinking_level is for the Gemini 3 family; {model_name} takes "
                "thinking_budget (or reasoning={'effort': ...})"
            )
        if "thinkingBudget" in merged:
            raise InvalidRequestError(
                "provider_options thinking_level cannot be combined with reasoning.budget_tokens or "
                "reasoning.enabled=False (a level and a budget at once)"
            )
        merged["thinkingLevel"] = level
    else:
        if "thinkingLevel" in merged:
            raise InvalidRequestError(
                "provider_options thinking_budget cannot be combined with reasoning.effort on a Gemini 3 "
                "model (a level and a budget at once)"
            )
        merged["thinkingBudget"] = budget
    return merged


def check_thinking(generation: dict[str, Any] | None, model_name: str) -> None:
    """A ``thinkingConfig`` (from any source, ``generation_config`` included) has at most one of a
    level and a budget, and a level only on Gemini 3."""
    thinking = (generation or {}).get("thinkingConfig")
    if not isinstance(thinking, dict):
        return
    if "thinkingLevel" in thinking and "thinkingBudget" in thinking:
        raise InvalidRequestError(
            "thinkingConfig has both thinkingLevel and thinkingBudget; Google accepts one of them"
        )
    if "thinkingLevel" in thinking and model_name and not is_gemini_3(model_name):
        raise InvalidRequestError(
            f"thinkingLevel is for the Gemini 3 family; {model_name} takes thinkingBudget"
        )


def effort_warnings(request: Request, model_name: str) -> list[CallWarning]:
    """``effort="max"`` on the Gemini 3 family is its highest level, ``HIGH``: said, not hidden."""
    reasoning = request.reasoning
    if reasoning is None or reasoning.effort != "max" or reasoning.budget_tokens is not None:
        return []
    if not is_gemini_3(model_name):
        return []  # a dynamic budget (-1): the model thinks as much as it needs
    details = f"{model_name} takes no effort 'max': it is lowered to thinkingLevel 'HIGH', its highest"
    return [CallWarning(type="unsupported-setting", setting="reasoning.effort", details=details)]
