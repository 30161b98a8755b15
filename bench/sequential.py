"""P2 and P3, sequential calls and one long stream, modelport against raw httpx, interleaved.

P2-P3 take the median of per-round ratios (both sides run alternately inside a round, so both see
the same noise). P2t is the tail of P2 (per-round p99 ratios), P2u P2 with a plain (ungrounded)
answer, P2-openai and P3-openai are P2 and P3 through the OpenAI provider (P2-anthropic and
P3-anthropic through the Anthropic one).
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .clients import (
    ANTHROPIC_MODEL_ID,
    OPENAI_MODEL_ID,
    OPENAI_RESPONSES_MODEL_ID,
    PLAIN_PROMPT,
    Modelport,
    RawAnthropic,
    RawHttpx,
    RawOpenAI,
    RawOpenAIResponses,
    Side,
    stream_prompt,
)
from .clients import PROMPT as _PROMPT
from .figures import Figure, figure


def _per_call(fn: Callable[[], str]) -> tuple[float, float]:
    """Wall and CPU seconds of one call (CPU time of this process: the server runs in another)."""
    start, cpu = time.perf_counter(), time.process_time()
    if not fn():
        raise RuntimeError("empty text")
    return time.perf_counter() - start, time.process_time() - cpu


def percentile(seconds: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of ``seconds``."""
    ordered = sorted(seconds)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def tail_us(seconds: list[float]) -> dict[str, float]:
    """p50, p99 and max of per-call wall times, in µs."""
    return {
        "p50_us": percentile(seconds, 0.5) * 1e6,
        "p99_us": percentile(seconds, 0.99) * 1e6,
        "max_us": max(seconds) * 1e6,
    }


@dataclass
class _Rounds:
    base: list[float] = field(default_factory=list)  # per-round median wall seconds
    mp: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)  # wall, modelport / baseline
    cpu_ratios: list[float] = field(default_factory=list)
    base_p99: list[float] = field(default_factory=list)  # per-round p99 wall seconds
    mp_p99: list[float] = field(default_factory=list)
    p99_ratios: list[float] = field(default_factory=list)
    base_calls: list[float] = field(default_factory=list)  # every call's wall seconds, all rounds
    mp_calls: list[float] = field(default_factory=list)


def _round(base: Side, mp: Side, op: Callable[[Side], str], calls: int, r: int, out: _Rounds) -> None:
    """One round: ``calls`` alternating calls on both sides (who goes first flips each call)."""
    gc.collect()
    bt: list[tuple[float, float]] = []
    mt: list[tuple[float, float]] = []
    for i in range(calls):
        if (i + r) % 2 == 0:
            bt.append(_per_call(lambda: op(base)))
            mt.append(_per_call(lambda: op(mp)))
        else:
            mt.append(_per_call(lambda: op(mp)))
            bt.append(_per_call(lambda: op(base)))
    bw, mw = [t[0] for t in bt], [t[0] for t in mt]
    b, m = statistics.median(bw), statistics.median(mw)
    bc, mc = statistics.median(t[1] for t in bt), statistics.median(t[1] for t in mt)
    out.base.append(b)
    out.mp.append(m)
    out.ratios.append(m / b)
    out.cpu_ratios.append(mc / bc if bc > 0 else m / b)
    b99, m99 = percentile(bw, 0.99), percentile(mw, 0.99)
    out.base_p99.append(b99)
    out.mp_p99.append(m99)
    out.p99_ratios.append(m99 / b99)
    out.base_calls += bw
    out.mp_calls += mw


def _interleaved(base: Side, mp: Side, op: Callable[[Side], str], calls: int, rounds: int) -> _Rounds:
    """Per round: ``calls`` alternating calls on both sides; per-round medians and their ratios."""
    return _interleaved_ops(base, mp, {"": op}, calls, rounds)[""]


def _interleaved_ops(
    base: Side, mp: Side, ops: dict[str, Callable[[Side], str]], calls: int, rounds: int
) -> dict[str, _Rounds]:
    """:func:`_interleaved` for several operations, one round of each in turn (the order rotates)."""
    out = {name: _Rounds() for name in ops}
    names = list(ops)
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            _round(base, mp, ops[name], calls, r, out[name])
    return out


def _calls_figure(id_: str, title: str, rounds: _Rounds, target: float, **extra: Any) -> Figure:
    """A P2-style figure: median per-call time, median of per-round ratios, the tail beside it."""
    return figure(
        id_,
        title,
        "µs/call",
        statistics.median(rounds.base) * 1e6,
        statistics.median(rounds.mp) * 1e6,
        rounds.ratios,
        target,
        rounds=len(rounds.ratios),
        cpu_ratio=statistics.median(rounds.cpu_ratios),
        tail={"baseline": tail_us(rounds.base_calls), "modelport": tail_us(rounds.mp_calls)},
        **extra,
    )


def _tail_figure(id_: str, title: str, rounds: _Rounds, target: float) -> Figure:
    """The p99 of each round's calls, per side; the ratio is the median of the per-round p99 ratios."""
    base, mp = tail_us(rounds.base_calls), tail_us(rounds.mp_calls)
    return figure(
        id_,
        title,
        "µs/call",
        statistics.median(rounds.base_p99) * 1e6,
        statistics.median(rounds.mp_p99) * 1e6,
        rounds.p99_ratios,
        target,
        rounds=len(rounds.ratios),
        calls_per_round=len(rounds.base_calls) // max(len(rounds.ratios), 1),
        pooled_p99_ratio=mp["p99_us"] / base["p99_us"],
        max_ratio=mp["max_us"] / base["max_us"],
        tail={"baseline": base, "modelport": mp},
    )


def _stream_figure(id_: str, title: str, rounds: _Rounds, frames: int, target: float, **extra: Any) -> Figure:
    """A P3-style figure: the median of the per-stream ratios (each stream beside the other side's
    next one), and, as ``min_ratio``, the ratio of the two sides' fastest streams."""
    per_frame = 1e6 / frames
    return figure(
        id_,
        title,
        "µs/frame",
        statistics.median(rounds.base) * per_frame,
        statistics.median(rounds.mp) * per_frame,
        rounds.ratios,
        target,
        streams=len(rounds.ratios),
        cpu_ratio=statistics.median(rounds.cpu_ratios),
        min_ratio=min(rounds.mp) / min(rounds.base),
        baseline_min=min(rounds.base) * per_frame,
        modelport_min=min(rounds.mp) * per_frame,
        **extra,
    )


def _warm(sides: tuple[Side, ...], prompts: tuple[str, ...]) -> None:
    """Warm-up: connections, lazy imports, caches."""
    for side in sides:
        for _ in range(5):
            for prompt in prompts:
                side.generate(prompt)
        side.stream(stream_prompt(10))


def sync_figures(base_url: str, calls: int, frames: int, rounds: int, stream_rounds: int) -> list[Figure]:
    """P2 (median of ``calls`` sequential calls), P2t (their p99), P2u (P2 with a plain answer) and P3
    (one ``frames``-frame stream), against the Gemini API mock.

    P2's and P2u's rounds alternate, so the grounded cost (P2 - P2u, per side) comes from one stretch
    of time.
    """
    base, mp = RawHttpx(base_url), Modelport(base_url)
    try:
        prompt = stream_prompt(frames)
        _warm((base, mp), (_PROMPT, PLAIN_PROMPT))
        checks = {
            "generate_text_equal": base.generate(_PROMPT) == mp.generate(_PROMPT),
            "plain_text_equal": base.generate(PLAIN_PROMPT) == mp.generate(PLAIN_PROMPT),
            "stream_text_equal": base.stream(prompt) == mp.stream(prompt),
        }
        seq = _interleaved_ops(
            base,
            mp,
            {"grounded": lambda s: s.generate(_PROMPT), "plain": lambda s: s.generate(PLAIN_PROMPT)},
            calls,
            rounds,
        )
        grounded, plain = seq["grounded"], seq["plain"]
        p2 = _calls_figure(
            "P2", f"median of {calls} sequential generate calls (grounded 1 KB)", grounded, 1.10, **checks
        )
        p2t = _tail_figure("P2t", f"p99 of P2's {calls} calls a round", grounded, 2.0)
        p2u = _calls_figure(
            "P2u",
            f"median of {calls} sequential generate calls (plain 1 KB)",
            plain,
            1.10,
            grounded_cost_us=statistics.median(g - p for g, p in zip(grounded.mp, plain.mp)) * 1e6,
            baseline_grounded_cost_us=statistics.median(g - p for g, p in zip(grounded.base, plain.base))
            * 1e6,
        )
        streams = _interleaved(base, mp, lambda s: s.stream(prompt), 1, stream_rounds)
        p3 = _stream_figure("P3", f"{frames:,}-frame SSE stream", streams, frames, 1.2)
        return [p2, p2t, p2u, p3]
    finally:
        base.close()
        mp.close()


def openai_figures(base_url: str, calls: int, frames: int, rounds: int, stream_rounds: int) -> list[Figure]:
    """P2 and P3 through the OpenAI provider (``openai/...``) against the Chat Completions mock."""
    sides = (RawOpenAI(base_url), Modelport(base_url, OPENAI_MODEL_ID))
    return _provider_figures("openai", sides, calls, frames, rounds, stream_rounds)


def anthropic_figures(
    root_url: str, calls: int, frames: int, rounds: int, stream_rounds: int
) -> list[Figure]:
    """P2 and P3 through the Anthropic provider (``anthropic/...``) against the Messages API mock."""
    sides = (RawAnthropic(root_url), Modelport(root_url, ANTHROPIC_MODEL_ID))
    return _provider_figures("anthropic", sides, calls, frames, rounds, stream_rounds)


def openai_responses_figures(
    base_url: str, calls: int, frames: int, rounds: int, stream_rounds: int
) -> list[Figure]:
    """P2 and P3 through ``openai-responses/...`` against the Responses API mock."""
    sides = (RawOpenAIResponses(base_url), Modelport(base_url, OPENAI_RESPONSES_MODEL_ID))
    return _provider_figures("openai-responses", sides, calls, frames, rounds, stream_rounds)


def _provider_figures(
    provider: str, sides: tuple[Any, Modelport], calls: int, frames: int, rounds: int, stream_rounds: int
) -> list[Figure]:
    """P2-<provider> and P3-<provider>: ``sides`` is (the raw httpx baseline, modelport)."""
    base, mp = sides
    try:
        prompt = stream_prompt(frames)
        _warm((base, mp), (_PROMPT,))
        checks = {
            "generate_text_equal": base.generate(_PROMPT) == mp.generate(_PROMPT),
            "stream_text_equal": base.stream(prompt) == mp.stream(prompt),
        }
        seq = _interleaved(base, mp, lambda s: s.generate(_PROMPT), calls, rounds)
        p2 = _calls_figure(
            f"P2-{provider}",
            f"median of {calls} sequential generate calls, {provider}/ (1 KB)",
            seq,
            1.10,
            p99_ratio=statistics.median(seq.p99_ratios),
            **checks,
        )
        streams = _interleaved(base, mp, lambda s: s.stream(prompt), 1, stream_rounds)
        p3 = _stream_figure(
            f"P3-{provider}", f"{frames:,}-frame SSE stream, {provider}/", streams, frames, 1.2
        )
        return [p2, p3]
    finally:
        base.close()
        mp.close()
