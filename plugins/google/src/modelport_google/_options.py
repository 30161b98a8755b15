"""``provider_options["google"]``: the typed, strict Google options (C2, G6, G7, G9)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from modelport.errors import InvalidRequestError, validation_message

__all__ = ["INT32_MAX", "GoogleOptions", "parse_options"]

#: The largest value of an int32, the wire type of Gemini's integer settings (``thinkingBudget``,
#: ``topK``, ``seed``, ``maxOutputTokens``...): a larger one is Google's 400.
INT32_MAX = 2**31 - 1


class GoogleOptions(BaseModel):
    """Google-specific request options. Each is merged into the body under its wire name (G9).

    Field names are snake_case; the camelCase wire names are accepted too.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    cached_content: str | None = Field(default=None, alias="cachedContent")
    """``cachedContents/...`` to read the prompt prefix from (G6)."""
    safety_settings: list[dict[str, Any]] | None = Field(default=None, alias="safetySettings")
    """``[{"category": ..., "threshold": ...}]`` (G7)."""
    generation_config: dict[str, Any] | None = Field(default=None, alias="generationConfig")
    """Replaces ``generationConfig`` wholesale; the structured-output keys (G8), the thinking settings
    (``reasoning``, ``thinking_level``, ``thinking_budget``, merged into its ``thinkingConfig``) and the
    log-probability options are re-applied."""
    tool_config: dict[str, Any] | None = Field(default=None, alias="toolConfig")
    """Replaces ``toolConfig``."""
    labels: dict[str, str] | None = None
    """Replaces the ``labels`` built from ``user_id`` / ``request_labels``."""
    system_instruction: dict[str, Any] | None = Field(default=None, alias="systemInstruction")
    """Replaces ``systemInstruction``."""
    service_tier: str | None = Field(default=None, alias="serviceTier")
    """The Gemini API service tier (e.g. ``"flex"``)."""
    thinking_level: Literal["MINIMAL", "LOW", "MEDIUM", "HIGH"] | None = Field(
        default=None, alias="thinkingLevel"
    )
    """``generationConfig.thinkingConfig.thinkingLevel`` (Gemini 3 family only; not with a budget)."""
    thinking_budget: int | None = Field(
        default=None, alias="thinkingBudget", ge=-1, le=INT32_MAX, strict=True
    )
    """``generationConfig.thinkingConfig.thinkingBudget`` (-1: dynamic; not with a level)."""
    response_logprobs: bool | None = Field(default=None, alias="responseLogprobs", strict=True)
    """``generationConfig.responseLogprobs``: the chosen tokens' log probabilities reach
    ``Result.logprobs`` (and the ``finish`` event)."""
    logprobs: int | None = Field(default=None, ge=0, le=20, strict=True)
    """``generationConfig.logprobs``: how many top alternatives per token (needs ``response_logprobs``)."""
    extra_body: dict[str, Any] | None = None
    """Raw top-level body fields merged last, for API fields this version does not know yet.

    This is the one deliberate escape from strict validation: its keys are sent as given.
    """

    def wire(self) -> dict[str, Any]:
        """The options that were given, keyed by their wire names, in field order; ``extra_body`` last."""
        if not self.model_fields_set:  # no options (most requests): nothing to serialize
            return {}
        body = self.model_dump(
            by_alias=True,
            exclude_unset=True,
            exclude={
                "extra_body",
                "thinking_level",
                "thinking_budget",
                "response_logprobs",
                "logprobs",
            },
        )
        body.update(self.extra_body or {})
        return body


def parse_options(provider_options: dict[str, dict[str, Any]] | None, *keys: str) -> GoogleOptions:
    """Merge the options under ``keys`` (later wins) and validate them strictly."""
    if not provider_options or not any(provider_options.get(key) for key in keys):
        return _NO_OPTIONS  # frozen, so one instance serves every request without options
    merged: dict[str, Any] = {}
    for key in keys:
        merged.update(provider_options.get(key) or {})
    try:
        return GoogleOptions.model_validate(merged)
    except ValidationError as error:
        problems = validation_message(error, root="options")
        raise InvalidRequestError(f"invalid provider_options for Google: {problems}") from None


_NO_OPTIONS = GoogleOptions()
