# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The ``anthropic`` conformance cases of request ``documents`` (contract 2.3): body-only recordings
of answers citing documents, each paired with the request its citations show was sent.

Both recordings (prism-php/prism, MIT) have no request, so each request is reconstructed: the PDF
by an invented URL (its title is the one the citations quote back); the text document from the
citations themselves (``char_location`` 0-20 and 20-36 quote ``"The grass is green. "`` and ``"The
sky is blue."``, so the document is exactly those 36 characters), with the question invented.
"""

from __future__ import annotations

import base64
from typing import Any

from anthropic_case_kit import RECONSTRUCTED, R, body_only, user_turn
from anthropic_corpus import raw_json, sse

__all__ = ["document_cases"]

PDF_TITLE = "All aboout the grass and the sky"  # sic: as the recorded citations quote it
#: The text document the recorded citations quote, as the base64 of its UTF-8 bytes.
GRASS_AND_SKY_B64 = base64.b64encode(b"The grass is green. The sky is blue.").decode("ascii")


def document_cases() -> list[dict[str, Any]]:
    """A PDF document by URL (``page_location``), a text document streamed (``char_location``)."""
    return [
        {
            **body_only(
                "generate-documents-pdf-citations",
                R + "generate-text-with-pdf-citations-1.json",
                "documents= with one PDF by URL and its title: a document block with citations on opens the user turn; page_location citations become a source of kind 'document' with id '0' (its index in documents) and spans quoting the PDF's words.",
                raw_json(R + "generate-text-with-pdf-citations-1.json"),
                "generate",
                "claude-3-5-sonnet-20241022",
                {
                    "messages": user_turn("What color is the grass and sky?"),
                    "documents": [
                        {
                            "type": "file",
                            "media_type": "application/pdf",
                            "uri": "https://example.com/grass-and-sky.pdf",
                            "title": PDF_TITLE,
                        }
                    ],
                    "max_output_tokens": 1024,
                },
            ),
            "note": RECONSTRUCTED + "; the recording has no request, so the PDF is sent by an invented URL",
        },
        {
            **body_only(
                "stream-documents-text-citations",
                R + "stream-with-citations-1.sse",
                "documents= with one text document, streamed: citations_delta char_location citations become one source of kind 'document' (id '0', no title) and two spans whose cited_text is the document's words.",
                sse(R + "stream-with-citations-1.sse"),
                "stream",
                "claude-3-7-sonnet-20250219",
                {
                    "messages": user_turn("What color are the grass and the sky?"),
                    "documents": [{"type": "text", "text": "The grass is green. The sky is blue."}],
                    "max_output_tokens": 1024,
                },
            ),
            "note": RECONSTRUCTED
            + "; the document is the text its char_location citations quote (0-20, 20-36), the question is invented",
        },
        {
            **body_only(
                "stream-documents-text-file-citations",
                R + "stream-with-citations-1.sse",
                "documents= with one text/plain file document (its bytes, UTF-8), streamed: sent as a text source like a text document, so the same citations come back.",
                sse(R + "stream-with-citations-1.sse"),
                "stream",
                "claude-3-7-sonnet-20250219",
                {
                    "messages": user_turn("What color are the grass and the sky?"),
                    "documents": [{"type": "file", "media_type": "text/plain", "data": GRASS_AND_SKY_B64}],
                    "max_output_tokens": 1024,
                },
            ),
            "note": RECONSTRUCTED
            + "; the document is the text its char_location citations quote (0-20, 20-36), given as the UTF-8 bytes of a text/plain file; the question is invented",
        },
    ]
