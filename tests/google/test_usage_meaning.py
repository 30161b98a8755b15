"""Gemini's ``usageMetadata`` → :class:`Usage` with the contract's meanings (docs/usage.md).

``input_tokens`` is every input token billed: ``promptTokenCount`` (cached content included) plus
``toolUsePromptTokenCount``; ``output_tokens`` every output token billed: ``candidatesTokenCount``
plus ``thoughtsTokenCount``; Gemini's ``totalTokenCount`` is the sum of all four, so it equals
input + output. Each response is a real recording from tests/corpus/gemini (see its MANIFEST).
"""

from __future__ import annotations

from modelport.types import Usage
from modelport_google._decode import decode_response, usage_from
from modelport_google._stream import merge_frames

from . import corpus as c
from .test_stream_corpus import recorded, run_stream


def test_tool_use_prompt_is_input_and_thoughts_are_output() -> None:
    data = c.load_json(c.FIREBASE, "mock-responses__googleai__unary-success-code-execution.json")
    assert data["usageMetadata"] == {
        "promptTokenCount": 21,
        "candidatesTokenCount": 96,
        "totalTokenCount": 363,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 21}],
        "toolUsePromptTokenCount": 160,
        "toolUsePromptTokensDetails": [{"modality": "TEXT", "tokenCount": 160}],
        "thoughtsTokenCount": 86,
    }
    assert decode_response(data).usage == Usage(
        input_tokens=21 + 160,
        output_tokens=96 + 86,
        reasoning_tokens=86,
        total_tokens=363,
        tool_use_prompt_tokens=160,
        server_tool_calls=1,  # its one executableCode part: one code run
    )


def test_cached_content_is_part_of_the_input() -> None:
    data = c.load_json(c.FIREBASE, "mock-responses__vertexai__unary-success-implicit-caching.json")
    usage = decode_response(data).usage
    assert (usage.input_tokens, usage.cache_read_input_tokens, usage.cache_write_input_tokens) == (
        12013,
        11243,
        None,  # Gemini reports no cache writes: not reported, never 0
    )
    assert (usage.output_tokens, usage.reasoning_tokens, usage.total_tokens) == (15 + 73, 73, 12101)


def test_streamed_usage_equals_the_whole_decode_with_a_tool_use_prompt() -> None:
    body, frames = recorded("mock-responses__googleai__streaming-success-url-context.txt")
    _events, streamed = run_stream(body)
    whole = decode_response(merge_frames(frames)).usage
    assert streamed.usage == whole
    assert whole == Usage(
        input_tokens=438 + 619,
        output_tokens=81 + 39,
        reasoning_tokens=39,
        total_tokens=1177,
        tool_use_prompt_tokens=619,
        server_tool_calls=1,  # one URL fetched (urlContextMetadata.urlMetadata)
    )


def test_unreported_counts_stay_none_and_a_lone_part_is_the_whole() -> None:
    assert usage_from({}) == Usage()
    # A thinking frame before any answer (streaming-success-thinking-reply-thought-summary.txt):
    # no candidatesTokenCount yet, so the output billed so far is the 318 thought tokens.
    frame = {"promptTokenCount": 10, "totalTokenCount": 328, "thoughtsTokenCount": 318}
    assert usage_from(frame) == Usage(
        input_tokens=10, output_tokens=318, reasoning_tokens=318, total_tokens=328
    )
