"""A request's ``documents`` → Messages API ``document`` blocks with citations on (pure; a document
the API cannot take is an ``InvalidRequestError`` naming it, before any I/O).

The blocks open the first user turn (after its tool results, which the API wants first), in the
order given, so a citation's ``document_index`` is the document's index in ``documents`` (the API
counts document blocks across the request, and these come first). A text document is a ``text``
source (``text/plain``); a PDF goes inline (``base64``), by URL, or as a Files API id (``file_…``, a
``file`` source, which needs ``beta="files-api-2025-04-14"``); a plain-text file goes inline (as a
``text`` source; UTF-8) or by Files API id. ``title`` and ``context`` are the block's own; ``id``
has no place on the wire and is not sent.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import Document, FileDocument, TextDocument

__all__ = ["with_documents"]

#: An id of the Files API (``file_011CNha8iCJcU1wXNR6q4V8w``): a ``file`` source, not a URL.
_FILE_ID = re.compile(r"file_[0-9A-Za-z]+")
_CITED = {"enabled": True}


def with_documents(messages: list[dict[str, Any]], documents: list[Document] | None) -> list[dict[str, Any]]:
    """``messages`` (the body's, user turns' content as lists or strings) with ``documents`` as
    blocks at the start of the first user turn; ``messages`` itself is not changed."""
    if not documents:
        return messages
    blocks = [_block(document, f"documents[{i}]") for i, document in enumerate(documents)]
    first = next((i for i, m in enumerate(messages) if m["role"] == "user"), None)
    if first is None:  # pragma: no cover - a request always has a user turn before an answer
        raise InvalidRequestError("documents: the request has no user turn to carry them")
    content = messages[first]["content"]
    content = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    lead = next((i for i, b in enumerate(content) if b.get("type") != "tool_result"), len(content))
    turn = {**messages[first], "content": [*content[:lead], *blocks, *content[lead:]]}
    return [*messages[:first], turn, *messages[first + 1 :]]


def _block(document: Document, where: str) -> dict[str, Any]:
    if isinstance(document, TextDocument):
        source: dict[str, Any] = {"type": "text", "media_type": "text/plain", "data": document.text}
    else:
        source = _file_source(document, where)
    block: dict[str, Any] = {"type": "document", "source": source}
    if document.title is not None:
        block["title"] = document.title
    if document.context is not None:
        block["context"] = document.context
    block["citations"] = _CITED
    return block


def _file_source(document: FileDocument, where: str) -> dict[str, Any]:
    media = document.media_type.lower()
    if media not in ("application/pdf", "text/plain"):
        raise InvalidRequestError(
            f"{where}.media_type: {document.media_type!r} cannot be an Anthropic document"
            " (application/pdf and text/plain can)"
        )
    if document.uri is not None and _FILE_ID.fullmatch(document.uri):
        return {"type": "file", "file_id": document.uri}
    if document.uri is not None:
        if media != "application/pdf":
            raise InvalidRequestError(f"{where}.uri: Anthropic fetches PDF documents by URL, not {media}")
        return {"type": "url", "url": document.uri}
    assert document.data is not None
    if media == "application/pdf":
        return {
            "type": "base64",
            "media_type": media,
            "data": base64.b64encode(document.data).decode("ascii"),
        }
    try:
        text = document.data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidRequestError(f"{where}.data: a text/plain document must be UTF-8") from None
    return {"type": "text", "media_type": media, "data": text}
