"""What ``generate`` and ``chat`` send: attachments, a schema, and the turns of a logged conversation.

Everything here is read and checked before any network I/O: a file that cannot be attached or a
schema that cannot be loaded is a usage error naming it. Files are read through :mod:`._files`
(regular files only, bounded in size; JSON with bounded nesting).
"""

from __future__ import annotations

import importlib
import mimetypes
import os
import sys
from pathlib import Path
from typing import Any

import click

from ._files import FileRefused, decoded, user_bytes, user_json
from ._logstore import Call
from .terminal import safe

__all__ = ["attachment", "history", "load_schema", "parsed_json", "resent_options", "user_message"]

#: Leading bytes of the binary types a model reads, when the file name says nothing.
_MAGIC = (
    (b"%PDF-", "application/pdf"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)
_ATTACH = "'-a' / '--attach'"
_TEXT_TYPES = ("application/json", "application/xml", "application/x-yaml", "application/yaml")


def _media_type(path: Path, data: bytes) -> str | None:
    for magic, media_type in _MAGIC:
        if data.startswith(magic):
            return media_type
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return mimetypes.guess_type(path.name)[0]


def attachment(value: str) -> dict[str, Any]:
    """The content part of ``-a VALUE``: an ``http(s)://`` URL as a file reference; an image or a PDF
    as a file part; a UTF-8 text file inlined as text under its name."""
    if value.startswith(("http://", "https://")):
        guessed = mimetypes.guess_type(value.split("?", 1)[0])[0] or "application/octet-stream"
        return {"type": "file", "media_type": guessed, "uri": value}
    path = Path(value).expanduser()
    data = user_bytes(value, param_hint=_ATTACH)
    media_type = _media_type(path, data)
    if media_type and (
        media_type.startswith(("image/", "audio/", "video/")) or media_type == "application/pdf"
    ):
        return {"type": "file", "media_type": media_type, "data": data}
    if media_type is None or media_type.startswith("text/") or media_type in _TEXT_TYPES:
        try:
            text = decoded(data)
        except FileRefused:
            pass
        else:
            return {"type": "text", "text": f"{path.name}:\n{text}"}
    raise click.BadParameter(
        f"{value}: not an image, a PDF or a UTF-8 text file ({media_type or 'unknown type'})",
        param_hint=_ATTACH,
    )


def user_message(prompt: str, attachments: list[dict[str, Any]]) -> dict[str, Any]:
    """The user turn: the attachments, then the prompt."""
    if not attachments:
        return {"role": "user", "content": prompt}
    return {"role": "user", "content": [*attachments, {"type": "text", "text": prompt}]}


def history(calls: list[Call]) -> list[dict[str, Any]]:
    """The turns of a logged conversation, oldest first: each call's prompt and the answer it got
    (a call that failed before any answer arrived is left out; attachments are not sent again)."""
    turns: list[dict[str, Any]] = []
    for call in calls:
        if call.error and not call.response:
            continue
        turns.append({"role": "user", "content": call.prompt})
        turns.append({"role": "assistant", "content": call.response})
    return turns


#: Logged options a continued call does not send again (the others are its request's own).
_NOT_RESENT = frozenset(
    {"schema", "prompt", "messages", "system", "template", "fragments", "functions", "mcp"}
)


def resent_options(call: Call) -> dict[str, Any]:
    """What of a logged call's options a call continuing its conversation sends again: every
    request option (``-o``, ``--max-output-tokens``) and the ``--tool`` names (``tools``); not
    ``--schema`` (a file that names one answer's shape, given again when wanted)."""
    return {k: v for k, v in call.options.items() if k not in _NOT_RESENT}


def load_schema(spec: str) -> Any:
    """``--schema``: a JSON schema file (→ a ``json_schema`` response format), ``module:Type`` (the
    type itself, e.g. a pydantic model; the module is imported from the current directory too), or
    a field list such as ``'name, age int'`` (:mod:`._concise_schema`)."""
    if os.path.lexists(Path(spec).expanduser()):  # a FIFO or a device too: refused, never read
        schema = user_json(spec, param_hint="'--schema'")
        if not isinstance(schema, dict):
            raise click.BadParameter(f"{safe(spec)}: a JSON schema is an object", param_hint="'--schema'")
        return {"type": "json_schema", "schema": schema}
    from ._concise_schema import concise_schema, looks_concise

    if looks_concise(spec):
        try:
            return {"type": "json_schema", "schema": concise_schema(spec)}
        except ValueError as error:
            raise click.BadParameter(
                safe(f"{error}; --schema takes a JSON schema file, module:Type or fields ('name, age int')"),
                param_hint="'--schema'",
            ) from None
    module_name, _, attribute = spec.partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
        for name in attribute.split("."):
            target = getattr(target, name)
    except (ImportError, AttributeError) as error:
        raise click.BadParameter(f"{spec}: {error}", param_hint="'--schema'") from None
    return target


def parsed_json(result: Any) -> Any:
    """The answer of a ``--schema`` call as JSON data: the validated value when a type was given,
    else the answer's text parsed (a ``ValueError`` when it is not JSON, or nested too deeply)."""
    if result.parsed is not None:
        from pydantic_core import to_jsonable_python

        return to_jsonable_python(result.parsed)
    from modelport.wire import loads

    return loads(result.text)
