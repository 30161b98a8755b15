"""Google conformance case for an answer that holds files: a model turn with a text part, an
``inlineData`` image (as image generation answers) and a ``fileData`` reference. MOCK: the corpus
has no recorded answer with file parts; the image is the 1x1 PNG of
``generate-inline-image-and-file-uri``.
"""

from __future__ import annotations

from typing import Any

from gemini_corpus import documented, mock_json
from google_case_data import NO_RECORDING
from google_cases_refused import PIXEL_PNG

IMAGE_DOCS = [
    "https://ai.google.dev/gemini-api/docs/image-generation",
    "https://ai.google.dev/api/caching#Part",
]
FILE_URI = "https://generativelanguage.googleapis.com/v1beta/files/mock-answer-file-1"


def _answer(parts: list[dict[str, Any]], response_id: str) -> tuple[int, str, str]:
    return mock_json(
        {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {"promptTokenCount": 6, "candidatesTokenCount": 1296, "totalTokenCount": 1302},
            "modelVersion": "gemini-2.5-flash-image",
            "responseId": response_id,
        }
    )


def answer_file_cases() -> list[dict[str, Any]]:
    parts = [
        {"text": "Here is a one-pixel image."},
        {"inlineData": {"mimeType": "image/png", "data": PIXEL_PNG}},
        {"fileData": {"mimeType": "video/mp4", "fileUri": FILE_URI}},
    ]
    return [
        {
            "name": "generate-answer-inline-image-and-file",
            "description": "An answer whose parts are a text, an inlineData PNG and a fileData reference: "
            "a text part, a file part with the decoded bytes and media type, and a file part by URI.",
            "method": "generate",
            "model": "gemini-2.5-flash-image",
            "requirements": ["G13"],
            "request": {"prompt": "Draw a one-pixel image."},
            "response": _answer(parts, "mock-answer-files-1"),
            "source": documented(
                NO_RECORDING.format(what="an answer with inlineData and fileData parts"), IMAGE_DOCS
            ),
        },
        {
            "name": "generate-answer-inline-data-not-base64",
            "description": "An answer whose inlineData data is not base64 (5 characters, no padding): a "
            "typed ProviderResponseError, not bytes made up.",
            "method": "generate",
            "model": "gemini-2.5-flash-image",
            "requirements": ["G13"],
            "request": {"prompt": "Draw a one-pixel image."},
            "response": _answer(
                [{"inlineData": {"mimeType": "image/png", "data": "iVBOR"}}], "mock-answer-files-2"
            ),
            "source": documented(
                NO_RECORDING.format(what="an answer with inlineData parts")
                + "; its data cut to 5 characters",
                IMAGE_DOCS,
            ),
        },
    ]


__all__ = ["answer_file_cases"]
