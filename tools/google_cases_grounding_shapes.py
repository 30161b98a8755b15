"""Google conformance cases of the grounding validation: the recorded Firebase grounded answer with
one value of its ``groundingMetadata`` changed to a shape the adapter must refuse or keep, each
change named in the case's ``source.note``."""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import JSON_TYPE, raw_json
from google_case_data import ADAPTED, RECONSTRUCTED, SEARCH, SEARCH_STREAM, F, P, _response

GROUNDED = "googleai__unary-success-google-search-grounding.json"


def _grounded_with(edit: Any) -> tuple[int, str, str]:
    """The recorded grounded answer with one value of its groundingMetadata changed by ``edit``."""
    status, _, text = raw_json(F + GROUNDED)
    body = json.loads(text)
    edit(body["candidates"][0]["groundingMetadata"])
    wrapped = body["candidates"][0]["groundingMetadata"].get("wrapped")
    if wrapped is not None:
        body["candidates"][0]["groundingMetadata"] = [wrapped]
    return status, JSON_TYPE, json.dumps(body, ensure_ascii=False)


def _title_number(metadata: dict[str, Any]) -> None:
    metadata["groundingChunks"][0]["web"]["title"] = 7


def _score_one(metadata: dict[str, Any]) -> None:
    metadata["groundingSupports"][0]["confidenceScores"][0] = 1  # protobuf JSON prints 1.0 as 1


def _index_negative(metadata: dict[str, Any]) -> None:
    metadata["groundingSupports"][0]["groundingChunkIndices"][0] = -1


def _domain_number(metadata: dict[str, Any]) -> None:
    metadata["groundingChunks"][0]["web"]["domain"] = 7


def _stream_end_past_text() -> tuple[int, str, str]:
    """The recorded grounded stream, its last support ending one byte past the 932-byte text."""
    status, kind, body = _response(SEARCH_STREAM)
    frames = [block for block in body.split("\r\n\r\n") if block.strip()]
    last = json.loads(frames[-1].removeprefix("data: "))
    segment = last["candidates"][0]["groundingMetadata"]["groundingSupports"][-1]["segment"]
    assert segment["endIndex"] == 932
    segment["endIndex"] = 933
    frames[-1] = "data: " + json.dumps(last, ensure_ascii=False)
    return status, kind, "".join(frame + "\r\n\r\n" for frame in frames)


def _end_past_text(metadata: dict[str, Any]) -> None:
    metadata["groundingSupports"][2]["segment"]["endIndex"] = 187  # the text is 186 bytes


def _start_null(metadata: dict[str, Any]) -> None:
    metadata["groundingSupports"][0]["segment"]["startIndex"] = None  # recorded: omitted (0)


def _index_out_of_range(metadata: dict[str, Any]) -> None:
    metadata["groundingSupports"][1]["groundingChunkIndices"] = [1, 5]  # 2 chunks recorded


def _entry_content_number(metadata: dict[str, Any]) -> None:
    metadata["searchEntryPoint"]["renderedContent"] = 7


def _wrapped_in_list(metadata: dict[str, Any]) -> None:
    inner = dict(metadata)
    metadata.clear()
    metadata["wrapped"] = inner  # replaced by the list below (_grounded_with keeps the object)


def _end_missing(metadata: dict[str, Any]) -> None:
    del metadata["groundingSupports"][0]["segment"]["endIndex"]


def _start_after_end(metadata: dict[str, Any]) -> None:
    metadata["groundingSupports"][2]["segment"]["endIndex"] = 100  # it starts at byte 124


def _end_mid_character(metadata: dict[str, Any]) -> None:
    segment = metadata["groundingSupports"][1]["segment"]
    assert segment["endIndex"] == 123  # 67°F: the ° (2 bytes) starts at byte 78
    segment["endIndex"] = 79


def _grounding_case(name: str, description: str, edit: Any, what: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": "gemini-2.0-flash",
        "requirements": ["S5", "S8"],
        "features": ["provider_tools"],
        "request": {"prompt": "What is the current weather in Tokyo?", "tools": [SEARCH]},
        "response": _grounded_with(edit),
        "source": F + GROUNDED,
        "source_args": {"note": RECONSTRUCTED + f"; MOCK edit of the recorded response: {what}"},
    }


def grounding_shape_cases() -> list[dict[str, Any]]:
    return [
        _grounding_case(
            "grounding-segment-end-missing",
            "A groundingSupports segment without its endIndex: no usable offsets, the citation found by "
            "its segment text, with a warning.",
            _end_missing,
            "groundingSupports[0].segment.endIndex removed",
        ),
        _grounding_case(
            "grounding-segment-start-after-end",
            "A groundingSupports segment that starts after it ends (bytes 124..100): the citation found "
            "by its segment text, with a warning.",
            _start_after_end,
            "groundingSupports[2].segment.endIndex set from 185 to 100",
        ),
        _grounding_case(
            "grounding-segment-end-mid-character",
            "A groundingSupports segment ending inside the two bytes of a ° (byte 79): no citation cut "
            "mid-character; found by its segment text, with a warning.",
            _end_mid_character,
            "groundingSupports[1].segment.endIndex set from 123 to 79 (inside the ° of 67°F)",
        ),
        _grounding_case(
            "grounding-chunk-title-not-string",
            "A groundingChunks web title that is a number, not a string: a typed ProviderMetadataError.",
            _title_number,
            "groundingChunks[0].web.title set to the number 7",
        ),
        _grounding_case(
            "grounding-confidence-score-integer",
            "A confidenceScores value of exactly 1 (written as the integer 1, as protobuf JSON prints "
            "1.0): a number all the same, the answer decodes with its citations.",
            _score_one,
            "groundingSupports[0].confidenceScores[0] set to 1",
        ),
        _grounding_case(
            "grounding-chunk-index-negative",
            "A groundingChunkIndices value of -1: a typed ProviderMetadataError, not a citation of the "
            "last chunk.",
            _index_negative,
            "groundingSupports[0].groundingChunkIndices[0] set to -1",
        ),
        _grounding_case(
            "grounding-segment-end-past-text",
            "The last groundingSupports segment ending at byte 187 of a 186-byte text (one byte past "
            "the end): no citation past the text, a warning.",
            _end_past_text,
            "groundingSupports[2].segment.endIndex set from 185 to 187",
        ),
        _grounding_case(
            "grounding-chunk-domain-not-string",
            "A groundingChunks web domain that is a number, not a string: a typed ProviderMetadataError.",
            _domain_number,
            "groundingChunks[0].web.domain set to the number 7",
        ),
        {
            "name": "grounding-stream-segment-end-past-text",
            "description": "The recorded grounded stream, its last support ending at byte 933 of the "
            "932-byte text: re-anchored on the segment text, with the warning on the finish event.",
            "method": "stream",
            "model": "gemini-2.5-pro",
            "requirements": ["S7", "S8"],
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What is the weather in San Francisco today?",
                "tools": [SEARCH],
            },
            "response": _stream_end_past_text(),
            "source": P + SEARCH_STREAM,
            "source_args": {
                "interaction": 0,
                "note": ADAPTED + "; MOCK edit of the recorded response: the last frame's last "
                "groundingSupports segment.endIndex set from 932 to 933",
            },
        },
        _grounding_case(
            "grounding-segment-start-null",
            "The first groundingSupports segment with startIndex null (recorded: omitted, proto3's "
            "0): read as 0, the citation spans bytes 0 to 56 as recorded.",
            _start_null,
            "groundingSupports[0].segment.startIndex set to null",
        ),
        _grounding_case(
            "grounding-chunk-index-out-of-range",
            "A support citing chunks 1 and 5 of a 2-chunk answer: the citation of chunk 1 is kept, "
            "index 5 is dropped with a skipped-citation warning.",
            _index_out_of_range,
            "groundingSupports[1].groundingChunkIndices set from [1] to [1, 5]",
        ),
        _grounding_case(
            "grounding-entry-point-content-not-string",
            "A searchEntryPoint whose renderedContent is a number, not the HTML string: a typed "
            "ProviderMetadataError.",
            _entry_content_number,
            "searchEntryPoint.renderedContent set to the number 7",
        ),
        _grounding_case(
            "grounding-metadata-not-an-object",
            "groundingMetadata that is a list holding the recorded object, not the object: a typed "
            "ProviderMetadataError, nothing of it read.",
            _wrapped_in_list,
            "groundingMetadata replaced by a one-item list holding it",
        ),
    ]
