"""One raw Gemini part ⇄ one canonical part: the single mapping shared by generate, stream and replay.

Tool-call ids are deterministic from the raw position of the part in the assistant turn (Gemini 3 sends
an ``id``, which wins; 2.5 does not), so a streamed turn, a non-streamed turn and a replayed turn agree.
Code-execution results are tied to their call by ``id`` when present, else to the latest call.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Mapping
from typing import Any

from modelport.types import (
    FilePart,
    Part,
    ProviderMetadata,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)

__all__ = [
    "CODE_EXECUTION",
    "FAILED_OUTCOMES",
    "PartMapper",
    "answered_calls",
    "call_id",
    "signature_metadata",
    "is_text_chunk",
    "text_of",
]

#: Name of the provider-executed code tool in canonical parts.
CODE_EXECUTION = "code_execution"
#: Code-execution outcomes that make the tool result an error.
FAILED_OUTCOMES = frozenset({"OUTCOME_FAILED", "OUTCOME_DEADLINE_EXCEEDED"})
_TEXT_KEYS = frozenset({"text", "thought", "thoughtSignature"})


def signature_metadata(raw: Mapping[str, Any]) -> ProviderMetadata | None:
    """``{"google": {"thoughtSignature": ...}}`` for a signed part, else ``None``."""
    signature = raw.get("thoughtSignature")
    return {"google": {"thoughtSignature": signature}} if isinstance(signature, str) else None


def is_text_chunk(raw: Mapping[str, Any]) -> bool:
    """Whether the part is plain (or thought) text and nothing else."""
    return isinstance(raw.get("text"), str) and raw.keys() <= _TEXT_KEYS


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _call_args(call: dict[str, Any], field: str) -> dict[str, Any]:
    """A call's ``args``: an object, ``{}`` when absent or null; anything else is malformed."""
    args = call.get("args")
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise TypeError(f"{field}.args must be an object, got {type(args).__name__}")
    return args


def call_id(raw: Mapping[str, Any], position: int) -> str:
    """The canonical id of the call in ``raw`` at ``position`` of its turn's raw parts."""
    for key, prefix in (("functionCall", "call"), ("executableCode", "code"), ("toolCall", "tool")):
        if key in raw:
            wire_id = _dict(raw[key]).get("id")
            return wire_id if isinstance(wire_id, str) and wire_id else f"{prefix}-{position}"
    raise ValueError("not a call part")


def _decode_data(value: Any) -> bytes:
    try:
        return base64.b64decode(str(value), validate=False)
    except (binascii.Error, ValueError) as error:
        raise ValueError("inlineData is not base64") from error


class _Ledger:
    """Pairs a ``functionResponse`` inside a model turn with the ``functionCall`` it answers: by
    ``id`` when the response has one, else the earliest unanswered call of the same name."""

    __slots__ = ("open",)

    def __init__(self) -> None:
        self.open: list[tuple[int, str | None, str]] = []  # (position, wire id, name) of calls

    def call(self, position: int, raw: Mapping[str, Any]) -> None:
        call = _dict(raw.get("functionCall"))
        wire_id = call.get("id")
        self.open.append(
            (position, wire_id if isinstance(wire_id, str) else None, str(call.get("name") or ""))
        )

    def respond(self, raw: Mapping[str, Any]) -> int | None:
        """The position of the call ``raw`` answers (now answered), or ``None``."""
        response = _dict(raw.get("functionResponse"))
        wire_id, name = response.get("id"), str(response.get("name") or "")
        for i, (position, call_id, call_name) in enumerate(self.open):
            if (call_id == wire_id) if isinstance(wire_id, str) and wire_id else (call_name == name):
                del self.open[i]
                return position
        return None


def answered_calls(parts: Iterable[Mapping[str, Any]]) -> frozenset[int]:
    """Positions of the ``functionCall`` parts answered by a ``functionResponse`` in the same model
    turn: calls the server ran itself (server-side MCP tools), not calls for the application."""
    ledger = _Ledger()
    answered: set[int] = set()
    for position, raw in enumerate(parts):
        if not isinstance(raw, dict):
            continue
        if "functionCall" in raw:
            ledger.call(position, raw)
        elif "functionResponse" in raw:
            found = ledger.respond(raw)
            if found is not None:
                answered.add(found)
    return frozenset(answered)


class PartMapper:
    """Maps the raw parts of one assistant turn, in order, to canonical parts.

    ``answered`` holds the positions of function calls the server answered within the turn
    (:func:`answered_calls`); they become provider-executed calls.
    """

    __slots__ = ("_call_ids", "_last_code_id", "_ledger", "_tool_names", "answered", "position")

    def __init__(self, answered: frozenset[int] = frozenset()) -> None:
        self.position = 0
        self.answered = answered
        self._last_code_id: str | None = None
        self._tool_names: dict[str, str] = {}
        self._ledger = _Ledger()
        self._call_ids: dict[int, str] = {}  # position of a function call → its canonical id

    def map(self, raw: Mapping[str, Any]) -> Part | None:
        """The canonical part for the next raw part (``None`` for parts kept only for replay)."""
        position = self.position
        self.position += 1
        if not isinstance(raw, dict):
            raise TypeError("a part must be an object")
        meta = signature_metadata(raw)
        match raw:
            case {"functionCall": found}:
                call = _dict(found)
                ident = call_id(raw, position)
                self._ledger.call(position, raw)
                self._call_ids[position] = ident
                return ToolCallPart(
                    id=ident,
                    name=str(call.get("name") or ""),
                    args=_call_args(call, "functionCall"),
                    provider_executed=position in self.answered,
                    provider_metadata=meta,
                )
            case {"functionResponse": found}:
                # Inside a model turn, a response is the server's own (server-side MCP tools).
                response = _dict(found)
                answered = self._ledger.respond(raw)
                wire_id = response.get("id")
                if answered is not None:
                    ident = self._call_ids[answered]
                else:
                    ident = wire_id if isinstance(wire_id, str) and wire_id else f"response-{position}"
                return ToolResultPart(
                    call_id=ident,
                    name=str(response.get("name") or ""),
                    output=response.get("response"),
                    provider_executed=True,
                    provider_metadata=meta,
                )
            case {"executableCode": found}:
                code = _dict(found)
                ident = call_id(raw, position)
                self._last_code_id = ident
                args = {k: code[k] for k in ("language", "code") if k in code}
                return ToolCallPart(
                    id=ident, name=CODE_EXECUTION, args=args, provider_executed=True, provider_metadata=meta
                )
            case {"codeExecutionResult": found}:
                result = _dict(found)
                wire_id = result.get("id")
                if isinstance(wire_id, str) and wire_id:
                    ident = wire_id
                else:
                    ident = self._last_code_id or f"code-{position}"
                outcome = result.get("outcome")
                output = {k: result[k] for k in ("outcome", "output") if k in result}
                return ToolResultPart(
                    call_id=ident,
                    name=CODE_EXECUTION,
                    output=output,
                    is_error=outcome in FAILED_OUTCOMES,
                    provider_executed=True,
                    provider_metadata=meta,
                )
            case {"toolCall": found}:
                call = _dict(found)
                ident = call_id(raw, position)
                name = str(call.get("toolType") or "server_tool").lower()
                self._tool_names[ident] = name
                return ToolCallPart(
                    id=ident,
                    name=name,
                    args=_call_args(call, "toolCall"),
                    provider_executed=True,
                    provider_metadata=meta,
                )
            case {"toolResponse": found}:
                response = _dict(found)
                wire_id = response.get("id")
                ident = wire_id if isinstance(wire_id, str) and wire_id else f"tool-{position}"
                tool_type = response.get("toolType")
                return ToolResultPart(
                    call_id=ident,
                    name=str(tool_type).lower() if tool_type else self._tool_names.get(ident, "server_tool"),
                    output=response.get("response"),
                    provider_executed=True,
                    provider_metadata=meta,
                )
            case {"text": str() as text}:
                if raw.get("thought") is True:
                    signature = raw.get("thoughtSignature")
                    signed = signature if isinstance(signature, str) else None
                    return ReasoningPart(text=text, signature=signed)
                if not text and meta is None:
                    return None  # an empty unsigned chunk carries nothing
                return TextPart(text=text, provider_metadata=meta)
            case {"inlineData": found}:
                data = _dict(found)
                return FilePart(
                    media_type=str(data.get("mimeType") or "application/octet-stream"),
                    data=_decode_data(data.get("data", "")),
                    provider_metadata=meta,
                )
            case {"fileData": found}:
                data = _dict(found)
                return FilePart(
                    media_type=str(data.get("mimeType") or "application/octet-stream"),
                    uri=str(data.get("fileUri") or ""),
                    provider_metadata=meta,
                )
            case _:
                # A part of a kind newer than this mapper (or none of the kinds above): kept for
                # replay only, in the raw parts of the turn.
                return None


def text_of(parts: Iterable[Mapping[str, Any]]) -> list[str]:
    """The non-thought text of each raw part, ``""`` for other parts (what grounding offsets index).

    One entry per raw part, so a support's ``partIndex`` names the same part Google meant, and the
    entries joined are exactly the result's text.
    """
    return [
        p["text"] if isinstance(p.get("text"), str) and p.get("thought") is not True else "" for p in parts
    ]
