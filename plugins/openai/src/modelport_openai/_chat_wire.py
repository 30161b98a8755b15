"""The Chat Completions wire, typed: the ``chat.completion`` body and its stream's
``chat.completion.chunk`` frames, as the API reference and the vendored recordings
(tests/corpus/openai: OpenAI, Azure, DeepSeek, Groq, OpenRouter, Mistral, ...) have them.

A chunk has no event type to dispatch on: what it carries is in its first choice's ``delta``
(text, reasoning under either name, a refusal, tool-call pieces) and, on the last chunk or the
finish chunk, ``usage`` (Groq's under ``x_groq``). Keys other servers leave out are
``NotRequired``; values are untrusted: these types say what :class:`._stream.ChatStream` expects,
and the core's decoder guard turns anything else it meets into a typed error. Only the type
checker reads this module.
"""

from __future__ import annotations

import sys
from typing import Any, Literal, TypedDict

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:
    from typing_extensions import NotRequired

__all__ = ["Chunk", "ChunkChoice", "Completion", "ToolCallDelta"]


class FunctionDelta(TypedDict, total=False):
    name: str | None
    #: Text in the API; some servers send the arguments as a JSON object.
    arguments: str | dict[str, Any] | None


class ToolCallDelta(TypedDict):
    """A piece of a tool call: its id and name come first (and are repeated by some servers)."""

    index: NotRequired[int]
    id: NotRequired[str | None]
    type: NotRequired[Literal["function"]]
    function: NotRequired[FunctionDelta]


class Delta(TypedDict, total=False):
    role: Literal["assistant"] | None
    content: str | None
    refusal: str | None
    reasoning_content: str | None  # DeepSeek, and servers following it
    reasoning: str | None  # OpenRouter, Groq
    reasoning_details: list[dict[str, Any]]  # OpenRouter (not read: the text is in reasoning)
    channel: str  # Groq
    index: int  # Mistral, in some deltas
    tool_calls: list[ToolCallDelta] | None


class ChunkChoice(TypedDict):
    index: int
    delta: Delta
    finish_reason: str | None
    logprobs: NotRequired[dict[str, Any] | None]
    native_finish_reason: NotRequired[str | None]  # OpenRouter: the upstream model's own
    content_filter_results: NotRequired[dict[str, Any]]  # Azure


class Chunk(TypedDict):
    id: str  # empty on Azure's first chunk
    object: NotRequired[Literal["chat.completion.chunk"]]
    created: NotRequired[int]
    model: str
    choices: list[ChunkChoice]  # [] on the usage chunk
    usage: NotRequired[dict[str, Any] | None]
    system_fingerprint: NotRequired[str | None]
    service_tier: NotRequired[str | None]
    x_groq: NotRequired[dict[str, Any]]
    provider: NotRequired[str]  # OpenRouter: the upstream provider
    prompt_filter_results: NotRequired[list[dict[str, Any]]]  # Azure
    time_info: NotRequired[dict[str, Any]]  # Cerebras
    obfuscation: NotRequired[str]  # OpenAI: padding that hides the chunk's size
    #: An in-stream error (OpenRouter, Groq); the core's SSE parser raises it before the decoder.
    error: NotRequired[dict[str, Any]]


class _Message(TypedDict):
    role: Literal["assistant"]
    content: str | None
    refusal: NotRequired[str | None]
    reasoning_content: NotRequired[str | None]
    tool_calls: NotRequired[list[dict[str, Any]]]
    function_call: NotRequired[dict[str, Any]]  # the legacy form, from older servers


class _Choice(TypedDict):
    index: int
    message: _Message
    finish_reason: str | None
    logprobs: NotRequired[dict[str, Any] | None]


class Completion(TypedDict):
    """The body of a non-streamed call."""

    id: str
    object: Literal["chat.completion"]
    model: str
    choices: list[_Choice]
    usage: NotRequired[dict[str, Any] | None]
    system_fingerprint: NotRequired[str | None]
    service_tier: NotRequired[str | None]
