"""A request's ``documents`` → Converse ``document`` blocks with citations on (pure; a document
Converse cannot take is an ``InvalidRequestError`` naming it, before any I/O).

The blocks close the first user turn, in the order given (the way Bedrock's own examples put a
document after the question). A text document is ``source.text`` (format ``txt``); a file document
is its bytes or its ``s3://`` URI, in the formats :data:`._content.DOCUMENT_FORMATS` lists.
``title`` is the block's ``name`` (Bedrock's name rules apply), else ``Document N``; ``context``
is the block's own; ``id`` has no place on the wire and is not sent.

A citation names its document by ``documentIndex``, which counts the request's document blocks in
order, file parts of the messages included: :func:`with_documents` returns, for each document
block, the index in ``documents=`` it came from (``None`` for a file part), for the decoder.
"""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import Document, FilePart, TextDocument

from ._content import check_name, file_block

__all__ = ["with_documents"]

_CITED = {"enabled": True}


def with_documents(
    messages: list[dict[str, Any]], documents: list[Document] | None
) -> tuple[list[dict[str, Any]], tuple[int | None, ...]]:
    """``messages`` with ``documents`` closing the first user turn, and each document block's
    index in ``documents`` (in the order the blocks are sent)."""
    first = next((i for i, m in enumerate(messages) if m["role"] == "user"), None)
    if not documents or first is None:
        return messages, tuple(None for m in messages for b in m["content"] if "document" in b)
    before = sum("document" in b for m in messages for b in m["content"])  # names stay distinct
    blocks = [_block(document, f"documents[{i}]", before + i) for i, document in enumerate(documents)]
    turn = {**messages[first], "content": [*messages[first]["content"], *blocks]}
    sent = [*messages[:first], turn, *messages[first + 1 :]]
    origins: list[int | None] = []
    for message in sent:
        for block in message["content"]:
            if "document" in block:
                origins.append(next((i for i, b in enumerate(blocks) if b is block), None))
    return sent, tuple(origins)


def _block(document: Document, where: str, count: int) -> dict[str, Any]:
    name = document.title if document.title is not None else f"Document {count + 1}"
    if isinstance(document, TextDocument):
        block: dict[str, Any] = {
            "format": "txt",
            "name": check_name(name, where),
            "source": {"text": document.text},
        }
    else:
        metadata = {"bedrock": {"name": name}}
        part = FilePart(
            media_type=document.media_type, data=document.data, uri=document.uri, provider_metadata=metadata
        )
        block = file_block(part, where, count).get("document") or {}
        if not block:
            raise InvalidRequestError(
                f"{where}.media_type: {document.media_type!r} is not a document Converse takes"
            )
    if document.context is not None:
        block["context"] = document.context
    block["citations"] = _CITED
    return {"document": block}
