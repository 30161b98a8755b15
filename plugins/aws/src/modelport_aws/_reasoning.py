"""Reasoning on Converse (pure): the request's ``reasoning`` as Claude's ``thinking`` in
``additionalModelRequestFields``, and a history's reasoning parts as ``reasoningContent`` blocks.

- ``reasoning`` is sent to Anthropic Claude models only (a model id with ``anthropic.claude``, an
  inference profile's included): ``{"thinking": {"type": "enabled", "budget_tokens": N}}``, ``N``
  the budget given or the effort's (:data:`EFFORT_BUDGETS`), at least 1024 and below
  ``max_output_tokens`` when that is set. ``enabled=False`` sends nothing (thinking is off unless
  asked for). Other models take reasoning in their own fields: ``InvalidRequestError``, pass them
  in ``provider_options={"bedrock": {"additionalModelRequestFields": ...}}``.
- With thinking on, Claude takes no ``temperature`` (it is not sent, with a warning, as on the
  Anthropic API) and no forced tool (``tool_choice`` ``any``, ``required`` or a named tool: an
  ``InvalidRequestError``).
- A reasoning part with a signature is ``{"reasoningContent": {"reasoningText": {"text",
  "signature"}}}``; one whose ``provider_metadata["bedrock"]["redacted_content"]`` holds the
  redacted reasoning is ``{"reasoningContent": {"redactedContent": ...}}``, the base64 text as it
  came. An unsigned reasoning part is not sent: Claude refuses thinking without its signature.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import CallWarning, ReasoningConfig, ReasoningPart, Request

__all__ = ["EFFORT_BUDGETS", "reasoning_block", "thinking_fields", "with_thinking"]

#: ``thinking.budget_tokens`` for ``reasoning.effort`` when no budget is given.
EFFORT_BUDGETS = {"low": 2048, "medium": 8192, "high": 16384, "max": 32000}
_MIN_BUDGET = 1024


def thinking_fields(model_name: str, config: ReasoningConfig | None, limit: int | None) -> dict[str, Any]:
    """The ``additionalModelRequestFields`` that ``config`` becomes on ``model_name``."""
    if config is None or (config.enabled is False and config.effort is None and config.budget_tokens is None):
        return {}
    if config.enabled is False:
        raise InvalidRequestError("reasoning.enabled=False cannot be combined with an effort or a budget")
    if "anthropic.claude" not in model_name:
        raise InvalidRequestError(
            f"bedrock: reasoning is mapped for Anthropic Claude models only, not {model_name!r}; pass the "
            "model's own fields in provider_options={'bedrock': {'additionalModelRequestFields': ...}}"
        )
    budget = config.budget_tokens
    if budget is None:
        budget = EFFORT_BUDGETS[config.effort or "medium"]
    if budget < _MIN_BUDGET:
        raise InvalidRequestError(
            f"reasoning.budget_tokens must be at least {_MIN_BUDGET} on Claude, got {budget}"
        )
    if limit is not None and budget >= limit:
        raise InvalidRequestError(
            f"reasoning budget {budget} must be below max_output_tokens {limit} (set it higher)"
        )
    return {"thinking": {"type": "enabled", "budget_tokens": budget}}


def with_thinking(inference: dict[str, Any], request: Request) -> list[CallWarning]:
    """Take out of ``inference`` what Claude refuses while thinking; the warnings for it."""
    if request.tool_choice not in (None, "auto", "none"):
        raise InvalidRequestError("bedrock: Claude cannot think with a forced tool_choice (use 'auto')")
    if inference.pop("temperature", None) is None:
        return []
    details = "temperature cannot be set with thinking; it is not sent"
    return [CallWarning(type="unsupported-setting", setting="temperature", details=details)]


def reasoning_block(part: ReasoningPart) -> dict[str, Any] | None:
    """The ``reasoningContent`` block that replays ``part``, or ``None`` when it cannot be sent."""
    own = (part.provider_metadata or {}).get("bedrock") or {}
    redacted = own.get("redacted_content")
    if isinstance(redacted, str) and redacted:
        return {"reasoningContent": {"redactedContent": redacted}}
    if not part.signature:
        return None
    return {"reasoningContent": {"reasoningText": {"text": part.text, "signature": part.signature}}}
