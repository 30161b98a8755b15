"""The Responses API's wire, typed: the ``response`` body and its stream events (``response.*``),
as the API reference ("Streaming events") and the vendored recordings (tests/corpus/openai-responses)
have them.

The events are a closed union told apart by ``type``; :meth:`._responses_stream.ResponsesStream.feed`
matches on it, its last arm ``assert_never`` for the type checker and, at run time, the path of an
event type newer than this decoder (skipped). The events the decoder reads nothing from (a part or
an annotation added, a built-in tool's progress, a ``.done`` repeating what streamed) are one
member, :class:`Progress`: their content arrives again in ``response.output_item.done``. What
arrives is untrusted: these types say what the decoder expects, and the core's decoder guard turns
anything else it meets into a typed error. Only the type checker reads this module.
"""

from __future__ import annotations

import sys
from typing import Any, Literal, TypedDict, Union

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:
    from typing_extensions import NotRequired

__all__ = ["Event", "OutputItem", "Response", "TextDelta"]


class OutputItem(TypedDict):
    """An output item: ``message``, ``reasoning``, ``function_call`` or a built-in tool's call
    (``web_search_call``, ...); only the keys this decoder reads are named."""

    type: str
    id: str
    status: NotRequired[str]
    content: NotRequired[list[dict[str, Any]]]  # message: output_text / refusal parts
    summary: NotRequired[list[dict[str, Any]]]  # reasoning: summary_text parts
    encrypted_content: NotRequired[str | None]
    call_id: NotRequired[str]  # function_call
    name: NotRequired[str]
    arguments: NotRequired[str]


class _IncompleteDetails(TypedDict):
    reason: str


class Response(TypedDict):
    """The ``response`` object: the body of a non-streamed call, and what the lifecycle events carry."""

    id: str
    object: Literal["response"]
    model: str
    status: Literal["completed", "incomplete", "failed", "cancelled", "queued", "in_progress"]
    output: list[OutputItem]
    usage: NotRequired[dict[str, Any] | None]
    error: NotRequired[dict[str, Any] | None]
    incomplete_details: NotRequired[_IncompleteDetails | None]
    service_tier: NotRequired[str | None]


class Lifecycle(TypedDict):
    type: Literal[
        "response.created",
        "response.in_progress",
        "response.completed",
        "response.incomplete",
        "response.failed",
    ]
    response: Response
    sequence_number: NotRequired[int]


class ItemEvent(TypedDict):
    type: Literal["response.output_item.added", "response.output_item.done"]
    output_index: int
    item: OutputItem
    sequence_number: NotRequired[int]


class TextDelta(TypedDict):
    """Text of an ``output_text`` or ``refusal`` part of a message."""

    type: Literal["response.output_text.delta", "response.refusal.delta"]
    item_id: str
    output_index: int
    content_index: int
    delta: str
    logprobs: NotRequired[list[dict[str, Any]]]
    obfuscation: NotRequired[str]  # padding that hides the event's size
    sequence_number: NotRequired[int]


class SummaryDelta(TypedDict):
    type: Literal["response.reasoning_summary_text.delta"]
    item_id: str
    output_index: int
    summary_index: int
    delta: str
    obfuscation: NotRequired[str]
    sequence_number: NotRequired[int]


class ArgumentsDelta(TypedDict):
    type: Literal["response.function_call_arguments.delta"]
    item_id: str
    output_index: int
    delta: str
    obfuscation: NotRequired[str]
    sequence_number: NotRequired[int]


class Progress(TypedDict):
    """An event whose content the decoder takes from ``response.output_item.done`` instead."""

    type: Literal[
        "response.queued",
        "response.content_part.added",
        "response.content_part.done",
        "response.output_text.done",
        "response.output_text.annotation.added",
        "response.refusal.done",
        "response.reasoning_summary_part.added",
        "response.reasoning_summary_part.done",
        "response.reasoning_summary_text.done",
        "response.function_call_arguments.done",
        "response.code_interpreter_call_code.delta",
        "response.code_interpreter_call_code.done",
        "response.code_interpreter_call.in_progress",
        "response.code_interpreter_call.interpreting",
        "response.code_interpreter_call.completed",
        "response.web_search_call.in_progress",
        "response.web_search_call.searching",
        "response.web_search_call.completed",
        "response.file_search_call.in_progress",
        "response.file_search_call.searching",
        "response.file_search_call.completed",
        "response.image_generation_call.in_progress",
        "response.image_generation_call.generating",
        "response.image_generation_call.partial_image",
        "response.image_generation_call.completed",
        "response.mcp_list_tools.in_progress",
        "response.mcp_list_tools.completed",
        "response.mcp_list_tools.failed",
        "response.mcp_call_arguments.delta",
        "response.mcp_call_arguments.done",
        "response.mcp_call.in_progress",
        "response.mcp_call.completed",
        "response.mcp_call.failed",
    ]
    sequence_number: NotRequired[int]


#: Every event a Responses stream sends to a decoder (``error`` is raised by the core's SSE parser).
Event = Union[Lifecycle, ItemEvent, TextDelta, SummaryDelta, ArgumentsDelta, Progress]
