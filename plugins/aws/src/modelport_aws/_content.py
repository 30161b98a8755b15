"""File parts → Converse ``image`` and ``document`` blocks (pure; what Converse cannot carry is an
``InvalidRequestError`` naming the part, before any I/O).

An image (``image/png``, ``image/jpeg``, ``image/gif``, ``image/webp``) is
``{"image": {"format", "source": {"bytes"}}}``; a document (PDF, CSV, Word, Excel, HTML, plain
text, Markdown) is ``{"document": {"format", "name", "source": {"bytes"}}}``. The bytes go inline
as base64, or an ``s3://`` URI as ``source.s3Location``: Bedrock fetches no other URL. A document's
``name`` is its part's ``provider_metadata["bedrock"]["name"]``, else ``Document 1``,
``Document 2``... in the order of the request, the way Bedrock's own examples name them.
Bedrock's limits are checked here: 3.75 MB an image, 4.5 MB a document.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import FilePart

__all__ = ["DOCUMENT_FORMATS", "IMAGE_FORMATS", "check_name", "file_block"]

#: Image media type → Converse ``image.format``.
IMAGE_FORMATS = {"image/png": "png", "image/jpeg": "jpeg", "image/gif": "gif", "image/webp": "webp"}
#: Document media type → Converse ``document.format``.
DOCUMENT_FORMATS = {
    "application/pdf": "pdf",
    "text/csv": "csv",
    "application/msword": "doc",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.ms-excel": "xls",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "text/html": "html",
    "text/plain": "txt",
    "text/markdown": "md",
}
_MAX_IMAGE = 3_932_160  # 3.75 MB
_MAX_DOCUMENT = 4_718_592  # 4.5 MB
#: What Bedrock takes as a document name: letters, digits, single spaces, hyphens, brackets.
_NAME = re.compile(r"[A-Za-z0-9\-()\[\]]+( [A-Za-z0-9\-()\[\]]+)*")


def file_block(part: FilePart, where: str, documents: int) -> dict[str, Any]:
    """The Converse block of ``part``; ``documents`` is how many documents came before it."""
    media = part.media_type.lower().partition(";")[0].strip()  # parameters say nothing here
    if media in IMAGE_FORMATS:
        return {"image": {"format": IMAGE_FORMATS[media], "source": _source(part, where, _MAX_IMAGE)}}
    if media in DOCUMENT_FORMATS:
        own = (part.provider_metadata or {}).get("bedrock") or {}
        name = check_name(own.get("name", f"Document {documents + 1}"), where)
        source = _source(part, where, _MAX_DOCUMENT)
        return {"document": {"format": DOCUMENT_FORMATS[media], "name": name, "source": source}}
    raise InvalidRequestError(
        f"{where}: Converse takes no {part.media_type!r} file (images: {', '.join(IMAGE_FORMATS)}; "
        f"documents: {', '.join(DOCUMENT_FORMATS)})"
    )


def check_name(name: object, where: str) -> str:
    """``name`` if Bedrock takes it as a document's name, else an ``InvalidRequestError``."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise InvalidRequestError(
            f"{where}: the document name {name!r} is not one Bedrock takes (letters, digits, "
            "single spaces, hyphens, parentheses and square brackets)"
        )
    return name


def _source(part: FilePart, where: str, limit: int) -> dict[str, Any]:
    if part.data is not None:
        if len(part.data) > limit:
            raise InvalidRequestError(
                f"{where}: {len(part.data)} bytes is over Bedrock's limit of {limit} for this kind of file"
            )
        return {"bytes": base64.b64encode(part.data).decode("ascii")}
    if part.uri is not None and part.uri.startswith("s3://"):
        return {"s3Location": {"uri": part.uri}}
    raise InvalidRequestError(
        f"{where}: Bedrock fetches no URL ({part.uri!r}); send the bytes or an s3:// URI"
    )
