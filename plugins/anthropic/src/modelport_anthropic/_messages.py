"""Canonical messages → the Messages API's ``system`` and ``messages`` (pure; a part that cannot be
sent is an ``InvalidRequestError`` before any I/O).

System messages become the top-level ``system`` (a string, or text blocks when there are several);
tool results go in a ``user`` message as ``tool_result`` blocks (first, as the API requires), an
output of text and file parts as the blocks' ``text`` / ``image`` / ``document`` content;
images and PDFs go as ``image`` / ``document`` blocks (inline base64, by URL, or a Files API id
``file_…`` as a ``file`` source, which needs ``beta="files-api-2025-04-14"``). An assistant turn's
reasoning goes back exactly as it came (:mod:`._blocks` names the forms): ``thinking`` with its
signature, ``redacted_thinking`` with its data, in their place among the text and tool calls; a
reasoning part with neither (another provider's, kept by ``reasoning_replay``) is not sent, as the
API refuses thinking without a signature. A user turn's part whose ``provider_metadata["anthropic"]``
has a ``cache_control`` puts that prompt-cache breakpoint on its block (by hand; the canonical
``prompt_cache`` places its own, :mod:`._caching`).
"""

from __future__ import annotations

import base64
import re
from typing import Any

from modelport.errors import InvalidRequestError
from modelport.http import tool_output_parts
from modelport.types import FilePart, Message, Part, ReasoningPart, TextPart, ToolCallPart, ToolResultPart
from modelport.wire import dumps

from ._blocks import NAMESPACE

__all__ = ["wire_messages"]

_IMAGES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
#: What a PDF part's ``provider_metadata["anthropic"]`` may add to its ``document`` block.
_DOCUMENT_FIELDS = ("title", "context", "citations")
#: An id of the Files API (``file_011CNha8iCJcU1wXNR6q4V8w``): sent as a ``file`` source, not a URL.
_FILE_ID = re.compile(r"file_[0-9A-Za-z]+")


def wire_messages(messages: list[Message]) -> tuple[str | list[dict[str, Any]] | None, list[dict[str, Any]]]:
    """``(system, messages)`` for the body."""
    system: list[str] = []
    out: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        where = f"messages[{index}]"
        if message.role == "system":
            for part in message.content:
                if not isinstance(part, TextPart):
                    raise InvalidRequestError(
                        f"{where}: a system message can only hold text, not a {part.type} part"
                    )
            system.append(message.text)
        elif message.role == "assistant":
            out.append(
                {"role": "assistant", "content": [b for p in message.content for b in _assistant(p, where)]}
            )
        else:
            content = _user(message, where)
            results = isinstance(content, list) and any(b["type"] == "tool_result" for b in content)
            if results and not _answers(out):
                raise InvalidRequestError(MISPLACED_RESULTS.format(where=where))
            out.append({"role": "user", "content": content})
    if not system:
        return None, out
    if len(system) == 1:
        return system[0], out
    return [{"type": "text", "text": text} for text in system], out


def _own(part: Part) -> dict[str, Any]:
    return dict((part.provider_metadata or {}).get(NAMESPACE) or {})


def _assistant(part: Part, where: str) -> list[dict[str, Any]]:
    own = _own(part)
    if isinstance(part, TextPart):
        return [{"type": "text", "text": part.text}] if part.text else []
    if isinstance(part, ReasoningPart):
        if own.get("redacted_data") is not None:
            return [{"type": "redacted_thinking", "data": own["redacted_data"]}]
        if part.signature:
            return [{"type": "thinking", "thinking": part.text, "signature": part.signature}]
        return []
    if isinstance(part, ToolCallPart):
        kind = own.get("block_type", "server_tool_use") if part.provider_executed else "tool_use"
        block = {"type": kind, "id": part.id, "name": part.name, "input": part.args}
        if "server_name" in own:
            block["server_name"] = own["server_name"]
        return [block]
    if isinstance(part, ToolResultPart) and part.provider_executed:
        kind = own.get("block_type") or f"{part.name}_tool_result"
        return [{"type": kind, "tool_use_id": part.call_id, "content": part.output}]
    raise InvalidRequestError(f"{where}: an assistant message cannot hold a {part.type} part")


#: Anthropic refuses a ``tool_result`` block that does not answer a ``tool_use`` block of the
#: assistant message right before it (HTTP 400), as Gemini and Chat Completions do: refused here.
MISPLACED_RESULTS = (
    "{where}: a tool result must follow the assistant message whose tool calls it answers "
    "(or another tool result answering them)"
)


def _answers(out: list[dict[str, Any]]) -> bool:
    """Whether tool results may come next: the last message is an assistant's with client tool
    calls, or results answering them."""
    for wire in reversed(out):
        blocks = wire["content"] if isinstance(wire["content"], list) else []
        if wire["role"] == "assistant":
            return any(b.get("type") == "tool_use" for b in blocks)
        if not any(b.get("type") == "tool_result" for b in blocks):
            return False
    return False


def _user(message: Message, where: str) -> str | list[dict[str, Any]]:
    parts = message.content
    if message.role == "user" and len(parts) == 1 and isinstance(parts[0], TextPart) and not _own(parts[0]):
        return parts[0].text
    results = [
        _cached(_tool_result(p, f"{where}.content.{i}"), p)
        for i, p in enumerate(parts)
        if isinstance(p, ToolResultPart)
    ]
    rest: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, ToolResultPart):
            continue
        if message.role == "tool":
            raise InvalidRequestError(f"{where}: a tool message can only hold tool results")
        if isinstance(part, TextPart):
            rest.append(_cached({"type": "text", "text": part.text}, part))
        elif isinstance(part, FilePart):
            rest.append(_cached(_file(part, where), part))
        elif not isinstance(part, ReasoningPart):
            raise InvalidRequestError(f"{where}: a user message cannot hold a {part.type} part")
    return results + rest


def _cached(block: dict[str, Any], part: Part) -> dict[str, Any]:
    """``block`` with the ``cache_control`` its part asks for by hand, if any."""
    control = _own(part).get("cache_control")
    if control is not None:
        block["cache_control"] = control
    return block


def _tool_result(part: ToolResultPart, where: str) -> dict[str, Any]:
    """A string output as it is; a list of text and file parts as ``text``, ``image`` and
    ``document`` blocks (:func:`_file`, as in a user turn); any other output as its JSON text."""
    output = part.output
    parts = None if isinstance(output, str) else tool_output_parts(output, where)
    if parts is not None:
        content: Any = [
            {"type": "text", "text": p.text} if isinstance(p, TextPart) else _file(p, f"{where}.output.{i}")
            for i, p in enumerate(parts)
        ]
    else:
        content = output if isinstance(output, str) else dumps(output).decode()
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": part.call_id, "content": content}
    if part.is_error:
        block["is_error"] = True
    return block


def _file(part: FilePart, where: str) -> dict[str, Any]:
    media = part.media_type.lower()
    if media in _IMAGES or (part.uri is not None and media.startswith("image/")):
        kind = "image"
    elif media == "application/pdf":
        kind = "document"
    else:
        raise InvalidRequestError(
            f"{where}: media type {part.media_type!r} cannot be sent (images and PDFs can)"
        )
    if part.uri is not None and _FILE_ID.fullmatch(part.uri):
        block: dict[str, Any] = {"type": kind, "source": {"type": "file", "file_id": part.uri}}
    elif part.uri is not None:
        block = {"type": kind, "source": {"type": "url", "url": part.uri}}
    else:
        assert part.data is not None
        data = base64.b64encode(part.data).decode("ascii")
        block = {"type": kind, "source": {"type": "base64", "media_type": media, "data": data}}
    own = _own(part)  # a document's title, context and citations switch, as the API names them
    block.update({key: own[key] for key in _DOCUMENT_FIELDS if key in own and kind == "document"})
    return block
