"""Google conformance cases for the bounds of the thinking settings: ``reasoning`` values and
explicit thinking options that the Gemini API rejects or that no wire field can say, each refused
before any I/O with a typed InvalidRequestError (an empty cassette), and ``enabled: false`` on a
Gemini 2.5 model, which is ``thinkingBudget: 0`` (MOCK: ``generate-thinking-budget-zero``'s answer).
"""

from __future__ import annotations

import copy
from typing import Any

from gemini_corpus import wire
from google_cases_calls import THINKING_DOCS, budget_zero_case
from google_cases_refused import _refused


def _refusal(name: str, description: str, model: str, request: dict[str, Any], why: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": model,
        "requirements": ["G4"],
        "features": ["reasoning"],
        "request": {"prompt": "Hello", **request},
        "response": None,
        "source": _refused(why, THINKING_DOCS),
    }


def _thinking_off_case() -> dict[str, Any]:
    """``generate-thinking-budget-zero`` asked as ``reasoning: {enabled: false}``: the same budget 0,
    without includeThoughts (there are no thoughts to include)."""
    case = copy.deepcopy(budget_zero_case())
    request = {**case["request"], "reasoning": {"enabled": False}}
    body = wire({k: v for k, v in request.items() if k != "reasoning"})
    body["generationConfig"] = {"thinkingConfig": {"thinkingBudget": 0}}
    case.update(
        name="generate-thinking-disabled-gemini25",
        description="reasoning.enabled false on Gemini 2.5 Flash → thinkingBudget 0 (no includeThoughts); "
        "the answer has no thoughts.",
        request=request,
        wire=body,
    )
    case["source"] = {**case["source"], "note": case["source"]["note"] + "; asked as reasoning.enabled false"}
    return case


def thinking_bound_cases() -> list[dict[str, Any]]:
    return [
        _refusal(
            "refused-reasoning-budget-over-int32",
            "reasoning.budget_tokens 2**31 is over the int32 field thinkingBudget: a typed "
            "InvalidRequestError, nothing sent.",
            "gemini-2.5-flash",
            {"reasoning": {"budget_tokens": 2147483648}},
            "thinkingBudget is an int32",
        ),
        _refusal(
            "refused-reasoning-disabled-with-effort",
            "reasoning.enabled false together with an effort: a typed InvalidRequestError, nothing sent.",
            "gemini-2.5-flash",
            {"reasoning": {"enabled": False, "effort": "low"}},
            "thinking cannot be off and at an effort at once",
        ),
        _refusal(
            "refused-reasoning-disabled-gemini3",
            "reasoning.enabled false on gemini-3-pro-preview (Gemini 3 Pro cannot turn thinking off): "
            "a typed InvalidRequestError, nothing sent.",
            "gemini-3-pro-preview",
            {"reasoning": {"enabled": False}},
            "Gemini 3 models cannot turn thinking off",
        ),
        _refusal(
            "refused-thinking-level-and-budget-options",
            "provider_options thinking_level and thinking_budget together: a typed InvalidRequestError, "
            "nothing sent.",
            "gemini-3-pro-preview",
            {"provider_options": {"google": {"thinking_level": "LOW", "thinking_budget": 1024}}},
            "thinkingLevel and thinkingBudget cannot be set together",
        ),
        _refusal(
            "refused-thinking-level-option-gemini25",
            "provider_options thinking_level on gemini-2.5-flash (which takes a thinkingBudget): a typed "
            "InvalidRequestError, nothing sent.",
            "gemini-2.5-flash",
            {"provider_options": {"google": {"thinking_level": "LOW"}}},
            "thinkingLevel is for Gemini 3 models; Gemini 2.5 takes thinkingBudget",
        ),
        _thinking_off_case(),
    ]


__all__ = ["thinking_bound_cases"]
