"""``provider_options[<provider id>]``: the typed, strict Chat Completions options, and the Responses
API's (:class:`ResponsesOptions`: the same plus the options only the Responses API has).

Each option is merged into the body under its own (wire) name after the canonical mapping;
``extra_body`` is the one explicit escape hatch, merged last and sent as given.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from modelport.errors import InvalidRequestError
from modelport.provider import parse_provider_options

__all__ = ["OpenAIOptions", "RESERVED", "RESPONSES_RESERVED", "ResponsesOptions", "parse_options"]

#: Body fields the mapping owns: not even ``extra_body`` may replace them.
RESERVED = frozenset({"model", "messages", "stream", "stream_options", "n"})
#: The Responses API body fields the mapping owns.
RESPONSES_RESERVED = frozenset({"model", "input", "stream"})


class OpenAIOptions(BaseModel):
    """Chat Completions options that have no canonical request field."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    logprobs: bool | None = Field(default=None, strict=True)
    """Return the log probability of each output token (``Result.logprobs``)."""
    top_logprobs: int | None = Field(default=None, ge=0, le=20, strict=True)
    """How many most likely alternatives to return at each position (needs ``logprobs``)."""
    parallel_tool_calls: bool | None = Field(default=None, strict=True)
    """``False`` asks for at most one tool call per turn."""
    service_tier: str | None = None
    store: bool | None = Field(default=None, strict=True)
    prompt_cache_key: str | None = None
    safety_identifier: str | None = None
    logit_bias: dict[str, int] | None = None
    verbosity: str | None = None
    reasoning_effort: str | None = None
    """Sent as is (e.g. ``"minimal"``), replacing what ``reasoning.effort`` maps to."""
    extra_body: dict[str, Any] | None = None
    """Raw top-level body fields merged last, for fields this version does not know (the escape hatch)."""

    def wire(self) -> dict[str, Any]:
        """The options that were given, by wire name; ``extra_body`` last."""
        body = self.model_dump(exclude_unset=True, exclude={"extra_body"})
        body.update(self.extra_body or {})
        return body


class ResponsesOptions(OpenAIOptions):
    """``openai-responses`` options: the Chat Completions ones and those only the Responses API has.

    ``previous_response_id`` makes the call stateful: OpenAI keeps the conversation, the request
    sends only the new messages (those after the answer ``previous_response_id`` names), and
    ``store`` defaults to ``True`` so that this answer can be continued the same way. The default
    stays stateless (``store: false``, every turn sent, reasoning carried as encrypted content).
    """

    previous_response_id: str | None = Field(default=None, min_length=1, strict=True)
    """The ``Result.response_id`` of a stored answer (``store=True``) to continue from."""
    truncation: Literal["auto", "disabled"] | None = None
    """``"auto"`` drops the oldest items when the input is longer than the context window;
    ``"disabled"`` (OpenAI's default) fails with a 400 error instead."""
    reasoning_summary: Literal["auto", "concise", "detailed"] | None = None
    """Sent as ``reasoning.summary``, replacing the ``"auto"`` the request's ``reasoning`` maps to."""

    include: (
        list[
            Literal[
                "web_search_call.action.sources",
                "file_search_call.results",
                "code_interpreter_call.outputs",
                "message.input_image.image_url",
                "message.output_text.logprobs",
                "reasoning.encrypted_content",
            ]
        ]
        | None
    ) = None
    """More output to return (e.g. ``"web_search_call.action.sources"``: every source a web search
    read, in its tool result); added to the ``reasoning.encrypted_content`` a stateless call asks for."""

    def wire(self) -> dict[str, Any]:
        body = super().wire()
        if self.previous_response_id is not None and "store" not in body:
            body["store"] = True  # a stateful conversation stores each answer it continues from
        return body


def parse_options(
    provider_options: dict[str, dict[str, Any]] | None,
    key: str,
    options_type: type[OpenAIOptions] = OpenAIOptions,
) -> OpenAIOptions:
    """The options under ``provider_options[key]``, validated strictly as ``options_type``."""
    reserved = RESPONSES_RESERVED if options_type is ResponsesOptions else RESERVED
    options = parse_provider_options(options_type, provider_options, key, reserved=reserved)
    if options.top_logprobs is not None and not options.logprobs:
        raise InvalidRequestError(f"provider_options[{key!r}]: top_logprobs needs logprobs=True")
    return options
