"""The ``generateContent`` wire, typed: the response body, which is also every frame of
``streamGenerateContent?alt=sse``, and its parts, as the Gemini API and Vertex AI references and the
vendored recordings (tests/corpus/gemini) have them.

Real responses omit keys freely (``content`` may be ``{}``, ``parts`` absent, counts absent), so
nearly every key is ``NotRequired``. A part is a one-of told apart by which key it carries, not by
a ``type``: :meth:`._parts.PartMapper.map` matches on those keys, its last arm the explicit path
of a part of a kind newer than this mapper (kept for replay only). What arrives is untrusted:
these types say what the decoders expect, and the decoder guard (:func:`._decode.guarded`, the
core's) turns anything else they meet into a typed error. Only the type checker reads this module.
"""

from __future__ import annotations

import sys
from typing import Any, TypedDict

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:
    from typing_extensions import NotRequired

__all__ = ["Candidate", "Content", "FunctionCall", "GenerateContentResponse", "Part"]


class PartialArg(TypedDict, total=False):
    """One piece of a streamed call's arguments (``streamFunctionCallArguments``, Vertex AI)."""

    jsonPath: str
    stringValue: str
    numberValue: float
    boolValue: bool
    nullValue: None
    willContinue: bool


class FunctionCall(TypedDict, total=False):
    id: str  # Gemini 3; 2.5 sends none
    name: str
    args: dict[str, Any] | None
    partialArgs: list[PartialArg]
    willContinue: bool


class FunctionResponse(TypedDict, total=False):
    id: str
    name: str
    response: Any


class ExecutableCode(TypedDict, total=False):
    id: str
    language: str
    code: str


class CodeExecutionResult(TypedDict, total=False):
    id: str
    outcome: str  # OUTCOME_OK, OUTCOME_FAILED, OUTCOME_DEADLINE_EXCEEDED
    output: str


class ServerToolCall(TypedDict, total=False):
    """``toolCall`` / ``toolResponse``: a built-in tool the server ran (its ``toolType``)."""

    id: str
    toolType: str
    args: dict[str, Any] | None
    response: Any


class Blob(TypedDict):
    mimeType: NotRequired[str]
    data: str  # base64


class FileData(TypedDict):
    mimeType: NotRequired[str]
    fileUri: str


class Part(TypedDict, total=False):
    """One part: text (``thought: true`` for a thought summary) or exactly one of the others; any
    of them may carry a ``thoughtSignature``."""

    text: str
    thought: bool
    thoughtSignature: str
    functionCall: FunctionCall
    functionResponse: FunctionResponse
    executableCode: ExecutableCode
    codeExecutionResult: CodeExecutionResult
    toolCall: ServerToolCall
    toolResponse: ServerToolCall
    inlineData: Blob
    fileData: FileData
    videoMetadata: dict[str, Any]


class Content(TypedDict, total=False):
    role: str
    parts: list[Part]


class Candidate(TypedDict, total=False):
    index: int
    content: Content
    finishReason: str
    finishMessage: str
    safetyRatings: list[dict[str, Any]]
    citationMetadata: dict[str, Any]
    groundingMetadata: dict[str, Any]
    urlContextMetadata: dict[str, Any]
    logprobsResult: dict[str, Any]
    avgLogprobs: float


class GenerateContentResponse(TypedDict):
    """A ``generateContent`` body, and each frame of a stream (a chunk of the same shape)."""

    candidates: NotRequired[list[Candidate]]
    promptFeedback: NotRequired[dict[str, Any]]  # blockReason when the prompt was blocked
    usageMetadata: NotRequired[dict[str, Any]]
    modelVersion: NotRequired[str]
    responseId: NotRequired[str]
    createTime: NotRequired[str]  # Vertex AI
