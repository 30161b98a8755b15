"""Canonical messages → Responses API input items (pure; a part that cannot be sent is an error).

System text becomes a ``system`` input message (``developer`` for reasoning models); user text,
images and PDFs become ``input_text`` / ``input_image`` / ``input_file`` content; each tool result is
a ``function_call_output`` item. An assistant turn is sent back item by item, in the order it was
produced: its reasoning items (summary and ``encrypted_content``, under their ``rs_`` ids), its
messages and its ``function_call`` items, and its built-in tool calls (web search, file search ...).

Which ids go back depends on ``store``. Stored (``store: true``, or a stateful conversation), every
item keeps its id and a built-in tool's call goes back as an ``item_reference`` to the stored item.
Not stored (the default), OpenAI has nothing under a ``msg_`` or ``fc_`` id and refuses it ("Item
with id 'msg_…' not found. Items are not persisted when `store` is set to false", the error
reported against every SDK that replayed them: langchain-ai/langchain#38372,
jrkropp/open-webui-developer-toolkit#715): messages and function calls go back without their ids
(``call_id`` alone pairs a call with its output), a reasoning item keeps its id beside the
``encrypted_content`` that carries its state, and a built-in tool's call, which only a stored item
could stand for, is left out (its findings are in the answer's text, which goes back), as is
another provider's (Anthropic's web search in a history moved to OpenAI). An
``mcp_approval_request`` goes back whole when not stored: the ``mcp_approval_response`` that
answers it (the tool result of its id: approved unless an error, whose text is the reason) refers
to it.

A reasoning item is only valid when the item that followed it comes with it: the API answers
"Item of type 'reasoning' was provided without its required following item" otherwise. So a
reasoning item is sent only when the first other item of the turn after it is sent too, and only
with the opaque state it needs (``encrypted_content`` when nothing is stored at OpenAI; its id
alone when ``store`` is on); one that cannot be sent validly is left out, never sent broken.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import FilePart, Message, ReasoningPart, TextPart, ToolCallPart, ToolResultPart
from modelport.wire import dumps

from ._messages import _data_url

__all__ = ["RESPONSES", "input_items", "item_id"]

#: The ``provider_metadata`` namespace of what the Responses API returned (item ids, refusals).
RESPONSES = "openai-responses"


def item_id(part: Any) -> str | None:
    """The id of the output item ``part`` came from (``rs_…``, ``msg_…``, ``fc_…``), if known."""
    found = (part.provider_metadata or {}).get(RESPONSES, {}).get("item_id")
    return found if isinstance(found, str) and found else None


#: Without a stored conversation to continue, the Responses API refuses a ``function_call_output``
#: whose ``call_id`` no ``function_call`` before it carries (HTTP 400 "No tool call found for function
#: call output with call_id ..."), as Gemini, Anthropic and Chat Completions refuse results that do
#: not follow their calls: refused before any request.
MISPLACED_RESULT = (
    "{where}: a tool result must follow the assistant message whose tool calls it answers: no "
    "earlier message calls {call_id!r} (and no previous_response_id or conversation continues one)"
)


def input_items(
    messages: list[Message], *, developer: bool, stored: bool, stateful: bool = False
) -> list[dict[str, Any]]:
    """Every message as input items, in order (``stored``: the items are kept at OpenAI;
    ``stateful``: they continue a conversation OpenAI keeps, whose calls the results may answer)."""
    out: list[dict[str, Any]] = []
    asked = {  # the calls OpenAI asked approval for: their results are the answers
        p.id for m in messages for p in m.content if isinstance(p, ToolCallPart) and p.approval == "requested"
    }
    for index, message in enumerate(messages):
        where = f"messages[{index}]"
        results = [p for p in message.content if isinstance(p, ToolResultPart) and not p.provider_executed]
        rest = [p for p in message.content if not isinstance(p, ToolResultPart)]
        if results and not stateful:
            called = {item.get("call_id") for item in out if item.get("type") == "function_call"}
            called |= asked
            for result in results:
                if result.call_id not in called:
                    raise InvalidRequestError(MISPLACED_RESULT.format(where=where, call_id=result.call_id))
        out += [_approval(p) if p.call_id in asked else _tool_result(p) for p in results]
        if message.role == "system":
            for part in rest:
                if not isinstance(part, TextPart):
                    raise InvalidRequestError(f"{where}: a system message can only hold text")
            out.append({"role": "developer" if developer else "system", "content": message.text})
        elif message.role == "assistant":
            out += _assistant(rest, where, stored=stored)
        elif rest and message.role == "user":
            out.append({"role": "user", "content": _user_content(rest, where)})
        elif rest:
            raise InvalidRequestError(f"{where}: a tool message can only hold tool results")
    return out


def _approval(part: ToolResultPart) -> dict[str, Any]:
    """The answer to an ``mcp_approval_request``: approved unless the result is an error, whose
    text is the reason."""
    answer: dict[str, Any] = {"type": "mcp_approval_response", "approval_request_id": part.call_id}
    answer["approve"] = not part.is_error
    if part.is_error and isinstance(part.output, str) and part.output:
        answer["reason"] = part.output
    return answer


def _tool_result(part: ToolResultPart) -> dict[str, Any]:
    output = part.output
    text = output if isinstance(output, str) else dumps(output).decode()
    return {"type": "function_call_output", "call_id": part.call_id, "output": text}


#: Stands, among a turn's items, for a built-in tool's call that cannot be sent (nothing stored).
_LEFT_OUT: dict[str, Any] = {"type": "left-out"}


def _assistant(parts: list[Any], where: str, *, stored: bool) -> list[dict[str, Any]]:
    """The turn's items; consecutive parts of one output item (same id) form that item again."""
    items: list[dict[str, Any]] = []
    owners: list[str | None] = []  # the output item each of ``items`` was made from (unsent ids too)

    def add(item: dict[str, Any], ident: str | None) -> None:
        items.append(item)
        owners.append(ident)

    for part in parts:
        ident = item_id(part)
        last = items[-1] if items else None
        same = last is not None and ident is not None and owners[-1] == ident
        if isinstance(part, ReasoningPart):
            if same and last is not None and last["type"] == "reasoning":
                if part.text:
                    last["summary"].append({"type": "summary_text", "text": part.text})
                last["encrypted_content"] = part.signature or last.get("encrypted_content")
                continue
            reasoning: dict[str, Any] = {"type": "reasoning", "summary": []}
            if ident:
                reasoning["id"] = ident
            if part.text:
                reasoning["summary"].append({"type": "summary_text", "text": part.text})
            reasoning["encrypted_content"] = part.signature
            add(reasoning, ident)
        elif isinstance(part, TextPart):
            content: dict[str, Any]
            if (part.provider_metadata or {}).get("modelport", {}).get("refusal"):
                content = {"type": "refusal", "refusal": part.text}
            else:
                content = {"type": "output_text", "text": part.text, "annotations": []}
            # Not stored, the message goes back without its id: its parts still form one message.
            if same and last is not None and last["type"] == "message":
                last["content"].append(content)
                continue
            message: dict[str, Any] = {"type": "message", "role": "assistant", "content": [content]}
            if ident and stored:
                message["id"] = ident
            add(message, ident)
        elif isinstance(part, ToolCallPart) and part.approval == "requested" and ident and not stored:
            # Its answer refers to it: not stored, the request goes back whole.
            request = {"type": "mcp_approval_request", "id": ident, "name": part.name}
            label = (part.provider_metadata or {}).get(RESPONSES, {}).get("server_label")
            request |= {"server_label": label} if isinstance(label, str) else {}
            add({**request, "arguments": dumps(part.args).decode()}, ident)
        elif isinstance(part, ToolCallPart) and part.provider_executed:
            # Only a stored item of this API can stand for it (another provider's call has no id here).
            add({"type": "item_reference", "id": ident} if stored and ident else _LEFT_OUT, ident)
        elif isinstance(part, ToolCallPart):
            call: dict[str, Any] = {
                "type": "function_call",
                "call_id": part.id,
                "name": part.name,
                "arguments": dumps(part.args).decode(),
            }
            if ident and stored:
                call["id"] = ident
            add(call, ident)
        elif isinstance(part, FilePart) and ident:
            continue  # a generated image: part of its image_generation_call item
        else:
            raise InvalidRequestError(f"{where}: an assistant message cannot hold a {part.type} part")
    return _valid_reasoning(items, stored=stored)


def _valid_reasoning(items: list[dict[str, Any]], *, stored: bool) -> list[dict[str, Any]]:
    """The items without any reasoning item the API would refuse: one whose following item is not
    sent, one without ``encrypted_content`` when nothing is stored, one with neither state nor id;
    and without the built-in calls left out."""
    kept: list[dict[str, Any]] = []
    for position, item in enumerate(items):
        if item is _LEFT_OUT:
            continue
        if item["type"] == "reasoning":
            follower = next((other for other in items[position + 1 :] if other["type"] != "reasoning"), None)
            state = item.get("encrypted_content") or (stored and item.get("id"))
            if follower is None or follower is _LEFT_OUT or not state:
                continue
            if not item.get("encrypted_content"):
                item = {k: v for k, v in item.items() if k != "encrypted_content"}
        kept.append(item)
    return kept


def _user_content(parts: list[Any], where: str) -> str | list[dict[str, Any]]:
    if len(parts) == 1 and isinstance(parts[0], TextPart):
        return str(parts[0].text)
    out: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, TextPart):
            out.append({"type": "input_text", "text": part.text})
        elif isinstance(part, FilePart):
            out.append(_file(part, where))
        elif not isinstance(part, ReasoningPart):
            raise InvalidRequestError(f"{where}: a user message cannot hold a {part.type} part")
    return out


def _file(part: FilePart, where: str) -> dict[str, Any]:
    media = part.media_type.lower()
    if media.startswith("image/"):
        if part.uri is not None and part.uri.startswith("file-"):
            return {"type": "input_image", "file_id": part.uri}
        url = part.uri if part.uri is not None else _data_url(part)
        return {"type": "input_image", "image_url": url}
    if media == "application/pdf":
        if part.data is not None:
            return {"type": "input_file", "filename": "document.pdf", "file_data": _data_url(part)}
        if part.uri is not None and part.uri.startswith("file-"):
            return {"type": "input_file", "file_id": part.uri}
        if part.uri is not None:
            return {"type": "input_file", "file_url": part.uri}
    raise InvalidRequestError(f"{where}: media type {part.media_type!r} cannot be sent (images and PDFs can)")
