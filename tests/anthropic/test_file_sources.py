"""A file part's ``uri`` on the ``anthropic`` provider (issue 34, Low): an id of Anthropic's Files API
is sent as a ``file`` source (``{"type": "file", "file_id": …}``, the shape of the API reference's
``BetaFileDocumentSourceParam`` / ``BetaFileImageSourceParam``), not as a ``url`` source, which the
API would try to fetch. A URL is still a ``url`` source.

The id is a real one: ``file_011CcaGqp49CHWC9QwfT9KUR``, uploaded in pydantic-ai's recording
``test_anthropic_code_execution_files_cache_prefix_stable[messages-sonnet-5]`` (tests/corpus/anthropic).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from modelport.types import FilePart, Message, TextPart

from .fakes import message, model

FILE_ID = "file_011CcaGqp49CHWC9QwfT9KUR"


def sent_block(part: FilePart, *, count: bool = False) -> Any:
    answer = {"input_tokens": 9} if count else message()
    m, answers = model([httpx.Response(200, json=answer)], beta="files-api-2025-04-14")
    user = Message(role="user", content=[part, TextPart(text="What is in it?")])
    if count:
        m.count_tokens(messages=[user])
    else:
        m.generate(messages=[user])
    assert answers.requests[0].headers["anthropic-beta"] == "files-api-2025-04-14"
    return answers.body()["messages"][0]["content"][0]


@pytest.mark.parametrize(
    ("media_type", "kind"), [("application/pdf", "document"), ("image/png", "image"), ("image/jpeg", "image")]
)
@pytest.mark.parametrize("count", [False, True])
def test_a_files_api_id_is_a_file_source(media_type: str, kind: str, count: bool) -> None:
    block = sent_block(FilePart(media_type=media_type, uri=FILE_ID), count=count)
    assert block == {"type": kind, "source": {"type": "file", "file_id": FILE_ID}}


@pytest.mark.parametrize(
    "uri",
    [
        "https://example.com/file_011CcaGqp49CHWC9QwfT9KUR",
        "file_011CcaGqp49CHWC9QwfT9KUR/../x",
        "file:///tmp/a.pdf",
        "file_",
    ],
)
def test_anything_else_stays_a_url_source(uri: str) -> None:
    block = sent_block(FilePart(media_type="application/pdf", uri=uri))
    assert block == {"type": "document", "source": {"type": "url", "url": uri}}


def test_a_document_by_id_keeps_its_title_and_citations() -> None:
    part = FilePart(
        media_type="application/pdf",
        uri=FILE_ID,
        provider_metadata={"anthropic": {"title": "Report", "citations": {"enabled": True}}},
    )
    assert sent_block(part) == {
        "type": "document",
        "source": {"type": "file", "file_id": FILE_ID},
        "title": "Report",
        "citations": {"enabled": True},
    }
