"""Chat Completions usage → :class:`Usage` with the contract's meanings, server by server.

``input_tokens`` is every input token billed (``prompt_tokens`` holds cache reads and writes),
``output_tokens`` every output token billed (reasoning included: xAI's ``completion_tokens`` leaves
it out, so it is added), cache reads and writes and reasoning are parts of those, and
``total_tokens`` = input + output. Bodies are recordings from tests/corpus/openai unless marked MOCK.
"""

from __future__ import annotations

from modelport_openai._decode import usage
from modelport_openai.presets import DeepSeekProvider, TogetherProvider

from modelport.types import Usage

from . import corpus, replay

P = "pydantic__pydantic-ai/tests__models__cassettes__"
V = "vercel__ai/packages__"
CACHE = P + "test_openai_prompt_cache__test_openai_chat_prompt_cache_e2e.yaml"


def _generate(provider: str, interaction: corpus.Interaction) -> Usage:
    result = replay.generate(replay.model(provider, "m", interaction), prompt="Hi")
    return result.usage


def test_openai_cache_writes_and_reads_are_parts_of_the_input() -> None:
    write, read = corpus.cassette(CACHE)
    assert _generate("openai", write) == Usage(
        input_tokens=4020,
        output_tokens=4,
        reasoning_tokens=0,
        total_tokens=4024,
        cache_read_input_tokens=0,  # reported as 0: stays 0
        cache_write_input_tokens=4012,
    )
    assert _generate("openai", read) == Usage(
        input_tokens=4020,
        output_tokens=4,
        reasoning_tokens=0,
        total_tokens=4024,
        cache_read_input_tokens=4012,
        cache_write_input_tokens=0,
    )


def test_together_top_level_cached_tokens() -> None:
    # MOCK: the corpus has no Together recording; Together documents usage as OpenAI's
    # prompt_tokens/completion_tokens/total_tokens plus a top-level cached_tokens (no details object).
    raw = {"prompt_tokens": 1200, "completion_tokens": 30, "total_tokens": 1230, "cached_tokens": 1024}
    assert usage(raw, TogetherProvider.quirks) == Usage(
        input_tokens=1200, output_tokens=30, total_tokens=1230, cache_read_input_tokens=1024
    )


def test_deepseek_cache_hits_and_misses_make_the_prompt() -> None:
    [interaction] = corpus.interactions(
        V + "deepseek__src__chat____fixtures____deepseek-tool-call.chunks.txt"
    )
    [last] = [c for c in corpus.sse_payloads(interaction.body) if c.get("usage")]
    raw = last["usage"]
    assert (raw["prompt_cache_hit_tokens"], raw["prompt_cache_miss_tokens"]) == (320, 19)
    expected = Usage(
        input_tokens=339,
        output_tokens=83,
        reasoning_tokens=39,
        total_tokens=422,
        cache_read_input_tokens=320,
    )
    assert usage(raw, DeepSeekProvider.quirks) == expected
    # Without the details object and prompt_tokens (derived from the recording above): the same.
    bare = {k: v for k, v in raw.items() if k not in ("prompt_tokens", "prompt_tokens_details")}
    assert usage(bare, DeepSeekProvider.quirks) == expected
