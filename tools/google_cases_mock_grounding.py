# ruff: noqa: E501  (a data table: long descriptions and response texts read better unwrapped)
"""MOCK Google cases (issue 13): Grounding with Google Maps and Web Grounding for Enterprise.

The corpus (tests/corpus/gemini, see its MANIFEST) has no recording of ``googleMaps`` or
``enterpriseWebSearch`` traffic, so these responses are written here, in the shape of Google's REST
references (``source.docs`` of each case names the pages), with invented but realistic values:
every place and redirect URI below is made up. Support segments give UTF-8 byte offsets computed
from the text they index (:func:`_support`), as Google sends them.
"""

from __future__ import annotations

from typing import Any

from gemini_corpus import documented, mock_json, mock_sse
from google_case_data import NO_RECORDING, _text_tokens

MAPS_DOCS = [
    "https://ai.google.dev/gemini-api/docs/maps-grounding",
    "https://ai.google.dev/api/generate-content#GroundingMetadata",
]
ENTERPRISE_DOCS = [
    "https://cloud.google.com/vertex-ai/generative-ai/docs/grounding/web-grounding-enterprise",
    "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GroundingMetadata",
]

#: The location of the Gemini API's Maps grounding example (Los Angeles).
LOS_ANGELES = {"latitude": 34.050481, "longitude": -118.248526}
SHINJUKU = {"latitude": 35.690921, "longitude": 139.700258}


def _maps_tool(**args: Any) -> dict[str, Any]:
    return {"type": "provider", "id": "google.google_maps", "name": "google_maps", "args": args}


def _support(text: str, segment: str, chunks: list[int], scores: list[float] | None = None) -> dict[str, Any]:
    """A ``groundingSupports`` item for ``segment`` (which occurs once in ``text``): UTF-8 byte
    offsets, ``startIndex`` omitted when 0 as Google does."""
    assert text.count(segment) == 1, segment
    start = len(text[: text.index(segment)].encode("utf-8"))
    span: dict[str, Any] = {"endIndex": start + len(segment.encode("utf-8")), "text": segment}
    if start:
        span = {"startIndex": start, **span}
    support: dict[str, Any] = {"segment": span, "groundingChunkIndices": chunks}
    if scores is not None:
        support["confidenceScores"] = scores
    return support


# --------------------------------------------------------------------------- Grounding with Google Maps

MAPS_TEXT = (
    "Here are three well-reviewed Italian restaurants within a 15-minute walk:\n\n"
    "*   **Caffè Aurora** serves handmade pasta and is about a 6-minute walk away.\n"
    "*   **Trattoria del Ponte** is known for its wood-fired pizza — roughly 10 minutes on foot.\n"
    "*   **Osteria Lupa** offers a seasonal menu and is open until 10 PM."
)
MAPS_CHUNKS = [
    {
        "maps": {
            "uri": "https://maps.google.com/?cid=4839201746513328911",
            "title": "Caffè Aurora",
            "placeId": "places/ChIJq6qqat3GwoARm0sL0Uw3Ztc",
        }
    },
    {
        "maps": {
            "uri": "https://maps.google.com/?cid=12093318874620571342",
            "title": "Trattoria del Ponte",
            "placeId": "places/ChIJ7Yb2hkvGwoARWq1nTqf0x3E",
        }
    },
    {
        "maps": {
            "uri": "https://maps.google.com/?cid=7736120985541093214",
            "title": "Osteria Lupa",
            "placeId": "places/ChIJ0RzS8ibGwoAR3pXh2cY9b1M",
        }
    },
]
MAPS_SUPPORTS = [
    _support(
        MAPS_TEXT, "Here are three well-reviewed Italian restaurants within a 15-minute walk:", [0, 1, 2]
    ),
    _support(MAPS_TEXT, "**Caffè Aurora** serves handmade pasta and is about a 6-minute walk away.", [0]),
    _support(
        MAPS_TEXT,
        "**Trattoria del Ponte** is known for its wood-fired pizza — roughly 10 minutes on foot.",
        [1],
    ),
    _support(MAPS_TEXT, "**Osteria Lupa** offers a seasonal menu and is open until 10 PM.", [2]),
]
MAPS_RESPONSE = {
    "candidates": [
        {
            "content": {"parts": [{"text": MAPS_TEXT}], "role": "model"},
            "finishReason": "STOP",
            "groundingMetadata": {
                "groundingChunks": MAPS_CHUNKS,
                "groundingSupports": MAPS_SUPPORTS,
                "googleMapsWidgetContextToken": "widgetcontent/AcBXPQdmZ3Vxc2VfY29udGV4dF90b2tlbl9mb3JfdGhlX21hcHNfd2lkZ2V0",
            },
            "index": 0,
        }
    ],
    "usageMetadata": {
        "promptTokenCount": 15,
        "candidatesTokenCount": 96,
        "totalTokenCount": 1765,
        "promptTokensDetails": _text_tokens(15),
        "thoughtsTokenCount": 248,
        "toolUsePromptTokenCount": 1406,
        "toolUsePromptTokensDetails": _text_tokens(1406),
    },
    "modelVersion": "gemini-2.5-flash",
    "responseId": "xq0UaLuKJ4Wd1MkP2cTl8Qs",
}

# The stream: CJK place names (3-byte characters) before and inside the supports; text split
# mid-sentence across frames; all grounding, the finish reason and the full usage on the last frame.
MAPS_STREAM_TEXT = [
    "Two well-rated ramen shops are a short walk from Shinjuku Station:\n\n1. **麺屋 青葉 (Menya",
    " Aoba)** is known for its rich tonkotsu broth and is about 4 minutes away.\n2. **らーめん 風花",
    " (Ramen Fuka)** serves a lighter shio ramen and is open until 11 PM.",
]
_STREAMED = "".join(MAPS_STREAM_TEXT)
MAPS_STREAM_CHUNKS = [
    {
        "maps": {
            "uri": "https://maps.google.com/?cid=16354093310725114728",
            "title": "麺屋 青葉 新宿店",
            "placeId": "places/ChIJ5TnXc9KMGGARn8Cq0JvVb2w",
        }
    },
    {
        "maps": {
            "uri": "https://maps.google.com/?cid=2918274630017429961",
            "title": "らーめん 風花 新宿",
            "placeId": "places/ChIJU1d0ZM2MGGARqEwq7gkYk4A",
        }
    },
]
MAPS_STREAM_SUPPORTS = [
    _support(
        _STREAMED,
        "**麺屋 青葉 (Menya Aoba)** is known for its rich tonkotsu broth and is about 4 minutes away.",
        [0],
    ),
    _support(
        _STREAMED, "**らーめん 風花 (Ramen Fuka)** serves a lighter shio ramen and is open until 11 PM.", [1]
    ),
]


def _maps_frames() -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    output = (24, 52, 71)  # candidatesTokenCount so far
    for i, text in enumerate(MAPS_STREAM_TEXT):
        candidate: dict[str, Any] = {"content": {"parts": [{"text": text}], "role": "model"}, "index": 0}
        usage: dict[str, Any] = {
            "promptTokenCount": 12,
            "candidatesTokenCount": output[i],
            "totalTokenCount": 12 + output[i] + 301,
            "promptTokensDetails": _text_tokens(12),
            "thoughtsTokenCount": 301,
        }
        if i == len(MAPS_STREAM_TEXT) - 1:
            candidate["finishReason"] = "STOP"
            candidate["groundingMetadata"] = {
                "groundingChunks": MAPS_STREAM_CHUNKS,
                "groundingSupports": MAPS_STREAM_SUPPORTS,
            }
            usage["toolUsePromptTokenCount"] = 958
            usage["toolUsePromptTokensDetails"] = _text_tokens(958)
            usage["totalTokenCount"] += 958
        frames.append(
            {
                "candidates": [candidate],
                "usageMetadata": usage,
                "modelVersion": "gemini-2.5-flash",
                "responseId": "Zr0UaP6yLOWJ1MkPm7SiyA4",
            }
        )
    return frames


# --------------------------------------------------------------------------- Web Grounding for Enterprise

ENTERPRISE_TEXT = (
    "Euro banknotes and coins entered circulation on 1 January 2002.\n\n"
    "The first twelve countries to use euro cash were Austria, Belgium, Finland, France, Germany, "
    "Greece, Ireland, Italy, Luxembourg, the Netherlands, Portugal and Spain. The currency itself "
    "had been introduced three years earlier, on 1 January 1999, as “book money” for electronic payments."
)
_REDIRECT = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/"
ENTERPRISE_CHUNKS = [
    {
        "web": {
            "uri": _REDIRECT + "AUZIYQGk3t1bN8yqv0sQm2cX7rW5pL9fH4dJ6aE",
            "title": "ecb.europa.eu",
            "domain": "ecb.europa.eu",
        }
    },
    {
        "web": {
            "uri": _REDIRECT + "AUZIYQE9wT2nK5hR8vB3mY6cZ1qL4xP7sD0fG",
            "title": "europa.eu",
            "domain": "europa.eu",
        }
    },
    {
        "web": {
            "uri": _REDIRECT + "AUZIYQH2pV7jL0cX9eN4bT6yQ3mW8rS5kF1aZ",
            "title": "bundesbank.de",
            "domain": "bundesbank.de",
        }
    },
]
ENTERPRISE_SUPPORTS = [
    _support(
        ENTERPRISE_TEXT,
        "Euro banknotes and coins entered circulation on 1 January 2002.",
        [0, 1],
        [0.97, 0.95],
    ),
    _support(
        ENTERPRISE_TEXT,
        "The first twelve countries to use euro cash were Austria, Belgium, Finland, France, Germany, Greece, Ireland, Italy, Luxembourg, the Netherlands, Portugal and Spain.",
        [1],
        [0.93],
    ),
    _support(
        ENTERPRISE_TEXT,
        "The currency itself had been introduced three years earlier, on 1 January 1999, as “book money” for electronic payments.",
        [0, 2],
        [0.91, 0.88],
    ),
]
ENTERPRISE_RESPONSE = {
    "candidates": [
        {
            "content": {"role": "model", "parts": [{"text": ENTERPRISE_TEXT}]},
            "finishReason": "STOP",
            "groundingMetadata": {
                "webSearchQueries": [
                    "euro cash introduction date",
                    "first countries to use euro banknotes and coins",
                ],
                "groundingChunks": ENTERPRISE_CHUNKS,
                "groundingSupports": ENTERPRISE_SUPPORTS,
            },
            "avgLogprobs": -0.2471830506134033,
        }
    ],
    "usageMetadata": {
        "promptTokenCount": 19,
        "candidatesTokenCount": 88,
        "totalTokenCount": 282,
        "trafficType": "ON_DEMAND",
        "promptTokensDetails": _text_tokens(19),
        "candidatesTokensDetails": _text_tokens(88),
        "thoughtsTokenCount": 175,
    },
    "modelVersion": "gemini-2.5-flash",
    "createTime": "2025-06-02T09:14:27.481936Z",
    "responseId": "k2o9aKCVHcSrgLUPsYyB2Qk",
}


def _maps_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "grounding-maps-generate",
            "description": "google.google_maps → googleMaps {enableWidget}, the location (latLng, languageCode) → toolConfig.retrievalConfig; maps grounding chunks become sources, 'è' and '—' before supports (UTF-8 byte offsets); googleMapsWidgetContextToken and placeId passed through.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["S4", "S5", "S8"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "What are the best Italian restaurants within a 15-minute walk from here?",
                "tools": [_maps_tool(enableWidget=True, latLng=LOS_ANGELES, languageCode="en-US")],
            },
            "response": mock_json(MAPS_RESPONSE),
            "source": documented(NO_RECORDING.format(what="googleMaps traffic"), MAPS_DOCS),
        },
        {
            "name": "grounding-maps-stream",
            "description": "Streamed Maps grounding with a location (toolConfig.retrievalConfig.latLng): CJK place names split across frames, chunks and supports on the last frame; offsets index the concatenated text in bytes.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["S4", "S7", "S8"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "Find a good ramen shop near Shinjuku Station.",
                "tools": [_maps_tool(latLng=SHINJUKU)],
            },
            "response": mock_sse(_maps_frames()),
            "source": documented(NO_RECORDING.format(what="googleMaps traffic"), MAPS_DOCS),
        },
    ]


def _enterprise_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "vertex-enterprise-web-search",
            "description": "google.enterprise_web_search → enterpriseWebSearch {excludeDomains} (Vertex AI only); web chunks with domain → sources, two-chunk supports, curly quotes (3-byte) inside a support.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G2", "S4", "S8"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "When was the euro introduced as cash, and which countries were first to use it?",
                "tools": [
                    {
                        "type": "provider",
                        "id": "google.enterprise_web_search",
                        "name": "enterprise_web_search",
                        "args": {"excludeDomains": ["wikipedia.org"]},
                    }
                ],
            },
            "response": mock_json(ENTERPRISE_RESPONSE),
            "source": documented(NO_RECORDING.format(what="enterpriseWebSearch traffic"), ENTERPRISE_DOCS),
        },
    ]


MAPS_CASES = _maps_cases()
ENTERPRISE_CASES = _enterprise_cases()
