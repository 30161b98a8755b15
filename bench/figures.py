"""The figures P1-P5: each measured against the baseline in the same run, interleaved.

Every figure is a :class:`Figure` whose ``ratio`` is modelport / baseline (lower is better). P2-P4
take the median of per-round ratios (both sides run alternately inside a round, so both see the same
noise); P1 and P5 run each sample in a fresh interpreter, alternating sides, and compare medians.
P2t is the tail of P2 (per-round p99 ratios), P2u P2 with a plain (ungrounded) answer, P2-openai and
P3-openai are P2 and P3 through the OpenAI provider (P2-anthropic and P3-anthropic through the
Anthropic one), P4g is google-genai's default async client (a
reference, when it is installed).
"""

from __future__ import annotations

import gc
import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
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
    concurrent_times,
    genai_transport,
    stream_prompt,
)
from .clients import PROMPT as _PROMPT

#: Modules a plain ``get_model`` should not need; reported when modelport loads them (and httpx does not).
RARE_PACKAGES = {
    "yaml",
    "vcr",
    "click",
    "hypothesis",
    "aiohttp",
    "google",
    "modelport_conformance",
    "pytest",
    "opentelemetry",
}
RARE_MODULES = {
    "modelport.testing",
    "modelport.telemetry",
    "modelport.citations",
    "modelport.events",
    "modelport_google.grounding",
    "modelport_google.tools",
    "modelport_google.vertex",
    "httpx_sse",
}

_ROOT = str(Path(__file__).resolve().parent.parent)


@dataclass
class Figure:
    """One line of the table."""

    id: str
    title: str
    unit: str
    baseline: float
    modelport: float
    ratio: float
    target: float | None
    met: bool | None
    samples: list[float] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


def _figure(
    id_: str,
    title: str,
    unit: str,
    base: float,
    mp: float,
    ratios: list[float],
    target: float | None,
    **extra: Any,
) -> Figure:
    ratio = statistics.median(ratios) if ratios else mp / base
    met = None if target is None else ratio <= target
    return Figure(id_, title, unit, base, mp, ratio, target, met, ratios, extra)


def _probe(*args: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_ROOT, os.environ.get("PYTHONPATH")]))}
    # Imports are measured with bytecode caches, as an installed package has them (pip compiles on
    # install): with PYTHONDONTWRITEBYTECODE set, a source checkout would be compiled in every probe.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run(
        [sys.executable, "-m", "bench.probe", *args], capture_output=True, text=True, env=env, timeout=300
    )
    if out.returncode != 0:
        raise RuntimeError(f"probe {args[:2]} failed: {out.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


# --------------------------------------------------------------------------- P1 + P5 (import)


def import_figures(base_url: str, repeats: int) -> list[Figure]:
    """P1 import time and P5 resident memory after import, from the same fresh interpreters."""
    samples: dict[str, list[dict[str, Any]]] = {"baseline": [], "modelport": []}
    for side in samples:  # unmeasured: writes the bytecode caches a later probe reads
        _probe("import", side, base_url)
    for i in range(repeats):
        order = ("baseline", "modelport") if i % 2 == 0 else ("modelport", "baseline")
        for side in order:
            samples[side].append(_probe("import", side, base_url))
    base_t = statistics.median(s["seconds"] for s in samples["baseline"]) * 1e3
    mp_t = statistics.median(s["seconds"] for s in samples["modelport"]) * 1e3
    base_m = statistics.median(s["rss_mib"] for s in samples["baseline"])
    mp_m = statistics.median(s["rss_mib"] for s in samples["modelport"])
    extra = sorted(set(samples["modelport"][-1]["modules"]) - set(samples["baseline"][-1]["modules"]))
    rare = sorted({m for m in extra if m.split(".")[0] in RARE_PACKAGES or m in RARE_MODULES})
    p1 = _figure(
        "P1",
        "import modelport + get_model vs import httpx, pydantic",
        "ms",
        base_t,
        mp_t,
        [],
        1.3,
        repeats=repeats,
        extra_modules=len(extra),
        extra_packages=sorted({m.split(".")[0] for m in extra}),
        rare_modules=rare,
    )
    base_d = statistics.median(s["rss_delta_mib"] for s in samples["baseline"])
    mp_d = statistics.median(s["rss_delta_mib"] for s in samples["modelport"])
    p5 = _figure(
        "P5i",
        "resident memory after import",
        "MiB",
        base_m,
        mp_m,
        [],
        None,
        extra_mib=mp_m - base_m,
        base_delta_mib=base_d,
        mp_delta_mib=mp_d,
        target_extra_mib=10.0,
    )
    p5.met = mp_m - base_m <= 10.0
    return [p1, p5]


def stream_memory_figure(base_url: str, small: int, large: int) -> Figure:
    """P5 memory across a long stream: RSS growth while streaming ``large`` frames (and ``small``).

    Both sides keep the whole text (about 51 characters a frame), so neither is flat in absolute
    terms; modelport is flat when its growth beyond the baseline's stays small and does not scale.
    """
    runs = {
        (side, n): _probe("stream", side, base_url, str(n))
        for n in (small, large)
        for side in ("baseline", "modelport")
    }
    page = 4096 / 2**20
    growth = {(side, n): max(run["growth_mib"], page) for (side, n), run in runs.items()}
    extra_large = growth["modelport", large] - growth["baseline", large]
    per_frame = (
        (
            (growth["modelport", large] - growth["modelport", small])
            - (growth["baseline", large] - growth["baseline", small])
        )
        * 2**20
        / (large - small)
    )
    fig = _figure(
        "P5s",
        f"RSS growth over a {large:,}-frame stream (both keep the text)",
        "MiB",
        growth["baseline", large],
        growth["modelport", large],
        [],
        None,
        extra_mib=extra_large,
        extra_bytes_per_frame=per_frame,
        small_frames=small,
        baseline_small_mib=growth["baseline", small],
        modelport_small_mib=growth["modelport", small],
        peak_rss_mib=runs["modelport", large]["peak_rss_mib"],
        target_extra_mib=10.0,
    )
    fig.met = extra_large <= 10.0
    return fig


# --------------------------------------------------------------------------- P2 / P3 (sync)


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
    return _figure(
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
    return _figure(
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
    per_frame = 1e6 / frames
    return _figure(
        id_,
        title,
        "µs/frame",
        statistics.median(rounds.base) * per_frame,
        statistics.median(rounds.mp) * per_frame,
        rounds.ratios,
        target,
        streams=len(rounds.ratios),
        cpu_ratio=statistics.median(rounds.cpu_ratios),
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


# --------------------------------------------------------------------------- P2o (telemetry)


def otel_available() -> bool:
    """Whether the P2o sides can run (``opentelemetry-api`` and ``-sdk``, as requirements-dev.txt has)."""
    import importlib.util

    try:
        return all(
            importlib.util.find_spec(name) is not None for name in ("opentelemetry", "opentelemetry.sdk")
        )
    except (ImportError, ValueError):
        return False


def otel_figure(base_url: str, calls: int, rounds: int, repeats: int) -> Figure:
    """P2o: what OpenTelemetry costs P2 when tracing is off.

    Each mode runs P2's interleaved calls against raw httpx in fresh interpreters (whether the API is
    imported is process-wide), ``repeats`` of each, the modes alternating: ``absent`` (imports of
    ``opentelemetry`` fail, as without the extra), ``off`` (the API imported, no provider configured)
    and ``on`` (SDK tracer and meter providers, no exporter). The figure is off / absent, each side
    normalised by raw httpx in its own interpreter (the samples divide each ``off`` round by the median
    ``absent`` ratio). The extra keeps every mode's ratio to raw httpx, ``on_vs_absent``, and the time
    of one ``generate`` without I/O (an in-process provider, best of several ``timeit`` runs) per mode.
    """
    modes = ("absent", "off", "on")
    runs: dict[str, list[dict[str, Any]]] = {mode: [] for mode in modes}
    for i in range(repeats):
        for mode in modes[i % 3 :] + modes[: i % 3]:
            runs[mode].append(_probe("otel", mode, base_url, str(calls), str(rounds)))
    traced = {mode: {run["traced"] for run in mode_runs} for mode, mode_runs in runs.items()}
    if traced != {"absent": {False}, "off": {False}, "on": {True}}:
        raise RuntimeError(f"telemetry in the wrong state: {traced}")
    ratios = {mode: [r for run in mode_runs for r in run["ratios"]] for mode, mode_runs in runs.items()}
    ratio = {mode: statistics.median(values) for mode, values in ratios.items()}
    us = {mode: statistics.median(run["modelport_us"] for run in runs[mode]) for mode in modes}
    no_io = {mode: min(run["no_io_us"] for run in runs[mode]) for mode in modes}
    return _figure(
        "P2o",
        "P2 with the otel API imported, tracing off, vs extra absent",
        "µs/call",
        us["absent"],
        us["off"],
        [r / ratio["absent"] for r in ratios["off"]],
        1.05,  # fresh interpreters differ by a few percent; ``no_io_us`` is the precise cost
        calls=calls,
        rounds=rounds,
        repeats=repeats,
        absent_ratio=ratio["absent"],
        off_ratio=ratio["off"],
        on_ratio=ratio["on"],
        on_vs_absent=ratio["on"] / ratio["absent"],
        on_us=us["on"],
        no_io_us=no_io,
    )


# --------------------------------------------------------------------------- P4 (async)


def async_figures(base_url: str, calls: int, rounds: int) -> list[Figure]:
    """P4: ``calls`` concurrent calls; modelport on httpx's transport (``async_transport="httpx"``)
    vs raw httpx, P4a modelport's default transport (aiohttp, when ``modelport[aiohttp]`` is
    installed) vs raw aiohttp, and google-genai's default async client as a reference (P4g) when it
    is installed."""
    measured = concurrent_times(base_url, calls, rounds)
    times = {kind: [wall for wall, _ in batches] for kind, batches in measured.items()}
    cpu = {kind: [spent for _, spent in batches] for kind, batches in measured.items()}
    raw = times["raw-httpx"]
    ms = {k: statistics.median(v) * 1e3 for k, v in times.items()}

    def ratios(kind: str) -> list[float]:
        return [t / b for t, b in zip(times[kind], raw)]

    def cpu_ratio(kind: str, baseline: str) -> float:
        return statistics.median(c / b for c, b in zip(cpu[kind], cpu[baseline]) if b > 0)

    title = f"{calls} concurrent async calls"
    p4 = _figure(
        "P4",
        f"{title}, httpx",
        "ms",
        ms["raw-httpx"],
        ms["modelport-httpx"],
        ratios("modelport-httpx"),
        1.0,
        rounds=rounds,
        cpu_ratio=cpu_ratio("modelport-httpx", "raw-httpx"),
    )
    genai = [_genai_figure(base_url, title, times)] if "google-genai" in times else []
    if "raw-aiohttp" not in times:
        return [p4, *genai]
    # P4a: modelport's default async transport (aiohttp, with modelport[aiohttp]) against raw
    # aiohttp, per-round ratios; its ratio to raw httpx is kept in the extras.
    p4a = _figure(
        "P4a",
        f"{title}, aiohttp transport (default; vs raw aiohttp)",
        "ms",
        ms["raw-aiohttp"],
        ms["modelport-aiohttp"],
        [t / b for t, b in zip(times["modelport-aiohttp"], times["raw-aiohttp"])],
        1.5,
        rounds=rounds,
        cpu_ratio=cpu_ratio("modelport-aiohttp", "raw-aiohttp"),
        baseline_kind="raw-aiohttp",
        raw_httpx_ms=ms["raw-httpx"],
        vs_raw_httpx=statistics.median(ratios("modelport-aiohttp")),
        vs_raw_aiohttp=statistics.median(
            t / b for t, b in zip(times["modelport-aiohttp"], times["raw-aiohttp"])
        ),
    )
    p4r = _figure(
        "P4r",
        f"{title}, raw aiohttp (reference, not modelport)",
        "ms",
        ms["raw-httpx"],
        ms["raw-aiohttp"],
        ratios("raw-aiohttp"),
        None,
    )
    return [p4, p4a, p4r, *genai]


def _genai_figure(base_url: str, title: str, times: dict[str, list[float]]) -> Figure:
    """P4g: google-genai's default async client, a reference (not modelport), against raw httpx."""
    raw, genai = times["raw-httpx"], times["google-genai"]

    def vs_genai(kind: str) -> float | None:
        if kind not in times:
            return None
        return statistics.median(t / g for t, g in zip(times[kind], genai))

    return _figure(
        "P4g",
        f"{title}, google-genai default async (reference, not modelport)",
        "ms",
        statistics.median(raw) * 1e3,
        statistics.median(genai) * 1e3,
        [g / b for g, b in zip(genai, raw)],
        None,
        transport=genai_transport(base_url),
        modelport_httpx_vs_genai=vs_genai("modelport-httpx"),
        modelport_aiohttp_vs_genai=vs_genai("modelport-aiohttp"),
    )
