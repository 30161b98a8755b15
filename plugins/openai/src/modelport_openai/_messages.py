"""Canonical messages → Chat Completions messages (pure; a part that cannot be sent is an error).

System text becomes a ``system`` message (``developer`` for reasoning models); each tool result is a
``tool`` message of its own; images go as ``image_url`` (a URL or a ``data:`` URL), WAV/MP3 audio as
``input_audio`` and PDFs as ``file`` parts. Reasoning parts are not sent back (the API has no field
for them); tool calls keep their ids, so a round trip matches each result to its call.
"""

from __future__ import annotations

import base64
from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import FilePart, Message, ReasoningPart, TextPart, ToolCallPart, ToolResultPart
from modelport.wire import dumps

__all__ = ["wire_messages"]

_AUDIO = {"audio/wav": "wav", "audio/x-wav": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3"}


def wire_messages(messages: list[Message], *, developer: bool) -> list[dict[str, Any]]:
    """Every message, in order."""
    out: list[dict[str, Any]] = []
    answering = False  # whether a tool result may come now: right after an assistant's calls
    for index, message in enumerate(messages):
        for wire in _message(message, index, developer=developer):
            if wire["role"] == "tool" and not answering:
                raise InvalidRequestError(MISPLACED_RESULTS.format(where=f"messages[{index}]"))
            answering = "tool_calls" in wire or (wire["role"] == "tool" and answering)
            out.append(wire)
    return out


#: Chat Completions refuses a ``tool`` message that does not answer the ``tool_calls`` of the
#: assistant message right before it (HTTP 400 "messages with role 'tool' must be a response to a
#: preceeding message with 'tool_calls'"), as Gemini and Anthropic do: refused before any request.
MISPLACED_RESULTS = (
    "{where}: a tool result must follow the assistant message whose tool calls it answers "
    "(or another tool result answering them)"
)


def _message(message: Message, index: int, *, developer: bool) -> list[dict[str, Any]]:
    where = f"messages[{index}]"
    results = [p for p in message.content if isinstance(p, ToolResultPart)]
    rest = [p for p in message.content if not isinstance(p, ToolResultPart)]
    out = [_tool_result(p) for p in results]
    if message.role == "system":
        _only_text(rest, where, "a system message")
        out.append({"role": "developer" if developer else "system", "content": message.text})
    elif message.role == "assistant":
        out.append(_assistant(rest, where))
    elif rest and message.role == "user":
        out.append({"role": "user", "content": _user_content(rest, where)})
    elif rest:
        raise InvalidRequestError(f"{where}: a tool message can only hold tool results")
    return out


def _only_text(parts: list[Any], where: str, what: str) -> None:
    for part in parts:
        if not isinstance(part, TextPart):
            raise InvalidRequestError(f"{where}: {what} can only hold text, not a {part.type} part")


def _assistant(parts: list[Any], where: str) -> dict[str, Any]:
    texts = [p.text for p in parts if isinstance(p, TextPart)]
    calls = [p for p in parts if isinstance(p, ToolCallPart)]
    for part in parts:
        if isinstance(part, FilePart):
            raise InvalidRequestError(f"{where}: an assistant message cannot hold a file part")
    out: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
    if calls:
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": dumps(call.args).decode()},
            }
            for call in calls
        ]
    return out


def _tool_result(part: ToolResultPart) -> dict[str, Any]:
    output = part.output
    content = output if isinstance(output, str) else dumps(output).decode()
    return {"role": "tool", "tool_call_id": part.call_id, "content": content}


def _user_content(parts: list[Any], where: str) -> str | list[dict[str, Any]]:
    if all(isinstance(p, TextPart) for p in parts) and len(parts) == 1:
        return str(parts[0].text)
    out: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, TextPart):
            out.append({"type": "text", "text": part.text})
        elif isinstance(part, FilePart):
            out.append(_file(part, where))
        elif isinstance(part, ReasoningPart):
            continue
        else:
            raise InvalidRequestError(f"{where}: a user message cannot hold a {part.type} part")
    return out


def _data_url(part: FilePart) -> str:
    assert part.data is not None
    return f"data:{part.media_type};base64,{base64.b64encode(part.data).decode('ascii')}"


def _file(part: FilePart, where: str) -> dict[str, Any]:
    media = part.media_type.lower()
    if media.startswith("image/"):
        url = part.uri if part.uri is not None else _data_url(part)
        return {"type": "image_url", "image_url": {"url": url}}
    if media in _AUDIO:
        if part.data is None:
            raise InvalidRequestError(f"{where}: audio must be given inline (data), not by URI")
        data = base64.b64encode(part.data).decode("ascii")
        return {"type": "input_audio", "input_audio": {"data": data, "format": _AUDIO[media]}}
    if media == "application/pdf":
        if part.data is not None:
            return {"type": "file", "file": {"filename": "document.pdf", "file_data": _data_url(part)}}
        if part.uri is not None and part.uri.startswith("file-"):
            return {"type": "file", "file": {"file_id": part.uri}}
        raise InvalidRequestError(
            f"{where}: a PDF is given inline (data) or as an uploaded file id ('file-…')"
        )
    raise InvalidRequestError(
        f"{where}: media type {part.media_type!r} cannot be sent (images, WAV/MP3 audio and PDFs can)"
    )
