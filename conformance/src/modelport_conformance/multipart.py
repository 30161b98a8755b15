"""Comparing ``multipart/form-data`` bodies (a batch's JSON Lines upload) by meaning.

A client picks a fresh random boundary for every upload, so two bodies of the same form never have
the same bytes. :func:`form_fields` reads a body with the boundary its ``content-type`` names (the
standard library's MIME parser) into ``{field name: value}`` (field order is free in a form), where
a value is the field's text, or for a file ``{"content_type", "lines"|"text"}`` (its file name is
the client's own label, not compared): JSON Lines parsed line by line, so the player compares them
structurally (:func:`~modelport_conformance.jsondiff.diff_json`) like any JSON body.
"""

from __future__ import annotations

import json
from email import policy
from email.message import Message
from email.parser import BytesParser
from typing import Any

__all__ = ["form_fields", "is_multipart_form"]

_MULTIPART_FORM = "multipart/form-data"


def is_multipart_form(content_type: str | None) -> bool:
    """Whether ``content_type`` is ``multipart/form-data`` with a boundary."""
    if not content_type:
        return False
    media, _, params = content_type.partition(";")
    return media.strip().lower() == _MULTIPART_FORM and "boundary=" in params


def _lines(text: str) -> list[Any] | None:
    """Each non-empty line parsed as JSON, or ``None`` when one is not JSON (then text compares)."""
    parsed: list[Any] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            parsed.append(json.loads(line))
        except ValueError:
            return None
    return parsed or None


def _value(part: Message) -> Any:
    payload = part.get_payload(decode=True)
    text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else str(payload or "")
    filename = part.get_param("filename", header="content-disposition")
    if filename is None:
        return text
    lines = _lines(text)
    # The file name is the client's own label (the API keeps it as metadata): not compared.
    value: dict[str, Any] = {"content_type": part.get_content_type()}
    value.update({"lines": lines} if lines is not None else {"text": text})
    return value


def form_fields(content_type: str, body: bytes) -> dict[str, Any]:
    """The fields of a ``multipart/form-data`` body, by name (see the module docstring); a body that
    does not parse as one is ``{"<unparsed>": text}`` so it still differs visibly."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
    if not message.is_multipart():
        return {"<unparsed>": body.decode("utf-8", "replace")}
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        fields[str(name)] = _value(part)
    return fields
