"""Realistic Gemini API response bodies, shaped like recorded traffic (see the shared corpus).

A non-streaming answer is about 1 KB of text (with a non-ASCII "°", as real answers often have) and
full ``groundingMetadata``: chunks, supports with UTF-8 byte offsets, queries, a search entry point;
the plain answer is the same without the grounding metadata.
A stream is N ``data:`` frames of about 50 characters each, the last one carrying the finish reason
and the usage.
"""

from __future__ import annotations

import json
from functools import lru_cache

MODEL_VERSION = "gemini-2.5-flash"
RESPONSE_ID = "qA5DaPG6AZ_KhMIPkLCIoAU"

_SENTENCES = (
    "The current weather in London, United Kingdom is cloudy with light winds from the west.",
    "The temperature is 19°C (66°F), and it feels slightly warmer in the sun than in the shade.",
    "There is a low chance of rain this afternoon, and the humidity is around forty-one percent.",
    "Visibility is good across the city, with clouds expected to thin out towards the evening.",
    "Tomorrow should be drier and brighter, with highs of about twenty-two degrees Celsius.",
    "Pollen levels are moderate, so people with hay fever may want to carry their medication.",
    "The UV index peaks at five around midday, which is moderate for this time of the year.",
    "Sunset is at eight fifteen in the evening, and the night will be mild and mostly clear.",
    "Public transport is running normally, and no weather warnings are in place for the region.",
    "Overall it is a pleasant day to be outside, although a light jacket is a sensible choice.",
    "Forecasts for the weekend point to more sunshine, with only a small chance of showers.",
    "Air quality is good, with low levels of ozone, nitrogen dioxide and fine particulate matter.",
)

_RENDERED = (
    "<style>\n.container { align-items: center; border-radius: 8px; display: flex; }\n"
    ".chip { display: inline-block; border: solid 1px; border-radius: 16px; padding: 5px 16px; }\n"
    '</style>\n<div class="container"><div class="headline">Search suggestions</div>'
    '<div class="carousel"><a class="chip" href="https://www.google.com/search?q=weather+in+London">'
    "weather in London</a></div></div>\n"
)


def answer_text() -> str:
    """The ~1 KB answer of a non-streaming call."""
    return " ".join(_SENTENCES)


def _grounding(text: str) -> dict[str, object]:
    chunks = [
        {
            "web": {
                "uri": f"https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbF9w{i}",
                "title": t,
            }
        }
        for i, t in enumerate(("accuweather.com", "metoffice.gov.uk", "bbc.co.uk"))
    ]
    supports = []
    start = 0
    for i, sentence in enumerate(_SENTENCES):
        begin = text.index(sentence, start)
        start_b = len(text[:begin].encode())
        end_b = start_b + len(sentence.encode())
        segment: dict[str, object] = {"endIndex": end_b, "text": sentence}
        if start_b:
            segment["startIndex"] = start_b
        supports.append(
            {"segment": segment, "groundingChunkIndices": [i % 3], "confidenceScores": [0.7 + i / 100]}
        )
        start = begin + len(sentence)
    return {
        "searchEntryPoint": {"renderedContent": _RENDERED},
        "groundingChunks": chunks,
        "groundingSupports": supports,
        "retrievalMetadata": {},
        "webSearchQueries": ["current weather in London", "London weather forecast"],
    }


def _usage(prompt: int, candidates: int) -> dict[str, object]:
    return {
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": prompt + candidates,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt}],
    }


@lru_cache(maxsize=2)
def generate_body(grounded: bool = True) -> bytes:
    """The body of a ``generateContent`` response, with grounding metadata or without (plain)."""
    text = answer_text()
    candidate: dict[str, object] = {
        "content": {"parts": [{"text": text}], "role": "model"},
        "finishReason": "STOP",
    }
    if grounded:
        candidate["groundingMetadata"] = _grounding(text)
    candidate["index"] = 0
    body = {
        "candidates": [candidate],
        "usageMetadata": _usage(12, 220),
        "modelVersion": MODEL_VERSION,
        "responseId": RESPONSE_ID,
    }
    return json.dumps(body).encode()


def _frame(i: int, last: bool) -> bytes:
    sentence = _SENTENCES[i % len(_SENTENCES)]
    candidate: dict[str, object] = {"content": {"parts": [{"text": sentence[:50] + " "}], "role": "model"}}
    if last:
        candidate["finishReason"] = "STOP"
    candidate["index"] = 0
    body = {
        "candidates": [candidate],
        "usageMetadata": _usage(12, i + 1) if last else {"promptTokenCount": 12, "totalTokenCount": 12},
        "modelVersion": MODEL_VERSION,
        "responseId": RESPONSE_ID,
    }
    return b"data: " + json.dumps(body, separators=(",", ":")).encode() + b"\r\n\r\n"


def http_chunks(events: list[bytes]) -> bytes:
    """``events``, one HTTP/1.1 chunk each, with the terminating chunk."""
    return b"".join(b"%x\r\n%s\r\n" % (len(event), event) for event in events) + b"0\r\n\r\n"


@lru_cache(maxsize=8)
def stream_body_chunked(frames: int) -> bytes:
    """``frames`` SSE frames, one HTTP/1.1 chunk each, with the terminating chunk."""
    return http_chunks([_frame(i, last=i == frames - 1) for i in range(frames)])


def embed_body(count: int | None, dims: int = 768) -> bytes:
    """``embedContent`` (``count`` is None) or ``batchEmbedContents`` with ``count`` embeddings."""
    values = [round(((i * 7919) % 1000) / 1000 - 0.5, 6) for i in range(dims)]
    if count is None:
        return json.dumps({"embedding": {"values": values}}).encode()
    return json.dumps({"embeddings": [{"values": values}] * count}).encode()
