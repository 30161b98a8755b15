"""Outputs never dropped silently (issue 13): ``candidateCount`` > 1 is refused before the request,
log probabilities reach ``Result.logprobs`` and the ``finish`` event, generated images become file
parts and ``file`` stream events, and ``avgLogprobs`` stays in the provider metadata.

No recording in tests/corpus/gemini carries ``logprobsResult`` or an image part; those responses
follow the REST reference's shapes. ``avgLogprobs`` comes from the Firebase recording."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from modelport.errors import InvalidRequestError
from modelport.events import FileEvent, FinishEvent, accumulate
from modelport.types import FilePart, TextPart, TokenLogprob, TopLogprob
from modelport_google._stream import merge_frames

from . import corpus as c
from .mock import SSE, model, response

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()


@pytest.mark.parametrize(
    "options",
    [
        {"generation_config": {"candidateCount": 2}},
        {"extra_body": {"generationConfig": {"candidateCount": 3}}},
        {"generation_config": {"candidateCount": 0}},
    ],
)
def test_several_candidates_are_refused_before_any_request(options: dict[str, Any]) -> None:
    m, recorder = model([])
    for call in (m.generate, lambda **k: m.stream(**k).result(), m.count_tokens):
        with pytest.raises(InvalidRequestError, match="candidateCount"):
            call(prompt="hi", provider_options={"google": options})
    assert recorder.requests == []


def test_one_candidate_may_be_asked_for() -> None:
    ok = {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
    m, recorder = model([response(200, ok)])
    m.generate(prompt="hi", provider_options={"google": {"generation_config": {"candidateCount": 1}}})
    assert recorder.body["generationConfig"] == {"candidateCount": 1}


def _logprobs(tokens: list[tuple[str, float]]) -> dict[str, Any]:
    return {
        "chosenCandidates": [{"token": t, "logProbability": p} for t, p in tokens],
        "topCandidates": [
            {
                "candidates": [
                    {"token": t, "logProbability": p},
                    {"token": t.upper() + "!", "logProbability": p - 1},
                ]
            }
            for t, p in tokens
        ],
    }


EXPECTED = [
    TokenLogprob(
        token="Hel",
        logprob=-0.5,
        top=[TopLogprob(token="Hel", logprob=-0.5), TopLogprob(token="HEL!", logprob=-1.5)],
    ),
    TokenLogprob(
        token="lo",
        logprob=0.0,
        top=[TopLogprob(token="lo", logprob=0.0), TopLogprob(token="LO!", logprob=-1.0)],
    ),
]


def test_logprobs_are_requested_and_decoded() -> None:
    data = {
        "candidates": [
            {
                "content": {"parts": [{"text": "Hello"}]},
                "finishReason": "STOP",
                "avgLogprobs": -0.25,
                "logprobsResult": _logprobs([("Hel", -0.5), ("lo", 0.0)]),
            }
        ]
    }
    m, recorder = model([response(200, data)])
    result = m.generate(prompt="hi", provider_options={"google": {"response_logprobs": True, "logprobs": 1}})
    assert recorder.body["generationConfig"] == {"responseLogprobs": True, "logprobs": 1}
    assert result.logprobs == EXPECTED
    assert result.provider_metadata["google"]["avgLogprobs"] == -0.25


def test_logprobs_accumulate_over_a_stream() -> None:
    frames = [
        {
            "candidates": [
                {"content": {"parts": [{"text": "Hel"}]}, "logprobsResult": _logprobs([("Hel", -0.5)])}
            ]
        },
        {
            "candidates": [
                {
                    "content": {"parts": [{"text": "lo"}]},
                    "logprobsResult": _logprobs([("lo", 0.0)]),
                    "finishReason": "STOP",
                }
            ]
        },
    ]
    m, _ = model([response(200, c.sse_body(frames), SSE)] * 2)
    events = list(m.stream(prompt="hi", provider_options={"google": {"response_logprobs": True}}))
    finish = events[-1]
    assert isinstance(finish, FinishEvent) and finish.logprobs == EXPECTED
    streamed = m.stream(prompt="hi").result()
    assert streamed.logprobs == EXPECTED and streamed.text == "Hello"
    merged = merge_frames(frames)
    assert merged["candidates"][0]["logprobsResult"] == _logprobs([("Hel", -0.5), ("lo", 0.0)])


def test_no_logprobs_without_asking() -> None:
    ok = {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
    m, _ = model([response(200, ok)])
    assert m.generate(prompt="hi").logprobs is None


def test_logprobs_count_needs_response_logprobs() -> None:
    m, recorder = model([])
    with pytest.raises(InvalidRequestError, match="response_logprobs"):
        m.generate(prompt="hi", provider_options={"google": {"logprobs": 3}})
    assert recorder.requests == []


def test_recorded_avg_logprobs_is_kept() -> None:
    data = c.load_json(c.FIREBASE, "mock-responses__googleai__unary-failure-finish-reason-safety.json")
    m, _ = model([response(200, data)])
    result = m.generate(prompt="hi")
    assert result.provider_metadata["google"]["avgLogprobs"] == data["candidates"][0]["avgLogprobs"]


IMAGE_FRAMES = [
    {"candidates": [{"content": {"role": "model", "parts": [{"text": "Here is a cat:"}]}}]},
    {
        "candidates": [
            {"content": {"role": "model", "parts": [{"inlineData": {"mimeType": "image/png", "data": PNG}}]}}
        ]
    },
    {"candidates": [{"content": {"role": "model", "parts": [{"text": "Done."}]}, "finishReason": "STOP"}]},
]


def test_image_outputs_are_stream_events_and_result_parts() -> None:
    options = {"google": {"generation_config": {"responseModalities": ["TEXT", "IMAGE"]}}}
    m, recorder = model(
        [response(200, c.sse_body(IMAGE_FRAMES), SSE), response(200, merge_frames(IMAGE_FRAMES))],
        "google/gemini-2.5-flash-image",
    )
    events = list(m.stream(prompt="Draw a cat", provider_options=options))
    files = [e for e in events if isinstance(e, FileEvent)]
    image = FilePart(media_type="image/png", data=base64.b64decode(PNG))
    assert [f.part for f in files] == [image]
    direct = m.generate(prompt="Draw a cat", provider_options=options)
    assert recorder.bodies()[0]["generationConfig"] == {"responseModalities": ["TEXT", "IMAGE"]}
    assert direct.content == [TextPart(text="Here is a cat:"), image, TextPart(text="Done.")]
    assert accumulate(events).content == direct.content
