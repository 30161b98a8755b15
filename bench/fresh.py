"""The figures measured in fresh interpreters (:mod:`bench.probe`), the sides alternating: P1 (import
time), P5i and P5s (resident memory after import and over a long stream) and P2o (P2 with the
OpenTelemetry API imported and tracing off, against the extra absent).
"""

from __future__ import annotations

import statistics
from typing import Any

from .figures import Figure, figure, probe

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


# --------------------------------------------------------------------------- P1 + P5 (import)


def import_figures(base_url: str, repeats: int) -> list[Figure]:
    """P1 import time and P5 resident memory after import, from the same fresh interpreters."""
    samples: dict[str, list[dict[str, Any]]] = {"baseline": [], "modelport": []}
    for side in samples:  # unmeasured: writes the bytecode caches a later probe reads
        probe("import", side, base_url)
    for i in range(repeats):
        order = ("baseline", "modelport") if i % 2 == 0 else ("modelport", "baseline")
        for side in order:
            samples[side].append(probe("import", side, base_url))
    base_t = statistics.median(s["seconds"] for s in samples["baseline"]) * 1e3
    mp_t = statistics.median(s["seconds"] for s in samples["modelport"]) * 1e3
    base_m = statistics.median(s["rss_mib"] for s in samples["baseline"])
    mp_m = statistics.median(s["rss_mib"] for s in samples["modelport"])
    extra = sorted(set(samples["modelport"][-1]["modules"]) - set(samples["baseline"][-1]["modules"]))
    rare = sorted({m for m in extra if m.split(".")[0] in RARE_PACKAGES or m in RARE_MODULES})
    p1 = figure(
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
    p5 = figure(
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
        (side, n): probe("stream", side, base_url, str(n))
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
    fig = figure(
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
            runs[mode].append(probe("otel", mode, base_url, str(calls), str(rounds)))
    traced = {mode: {run["traced"] for run in mode_runs} for mode, mode_runs in runs.items()}
    if traced != {"absent": {False}, "off": {False}, "on": {True}}:
        raise RuntimeError(f"telemetry in the wrong state: {traced}")
    ratios = {mode: [r for run in mode_runs for r in run["ratios"]] for mode, mode_runs in runs.items()}
    ratio = {mode: statistics.median(values) for mode, values in ratios.items()}
    us = {mode: statistics.median(run["modelport_us"] for run in runs[mode]) for mode in modes}
    no_io = {mode: min(run["no_io_us"] for run in runs[mode]) for mode in modes}
    return figure(
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


# --------------------------------------------------------------------------- A1 (first answer)

FIRST_ANSWER_PROTOCOLS = ("google", "openai", "anthropic", "openai-responses")


def first_answer_figures(root_url: str, repeats: int) -> list[Figure]:
    """A1 on each protocol: fresh interpreters, the sides alternating (:mod:`bench.first_answer`);
    the ratio of medians, with the ratio of minimums, the ratio of median client CPU, the pydantic
    classes built and the modules imported beyond raw httpx's, and the peak RSS after a sync and an
    async call."""
    figures = []
    for protocol in FIRST_ANSWER_PROTOCOLS:
        runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "modelport": []}
        for side in runs:  # unmeasured: writes the bytecode caches a later probe reads
            probe("first", side, root_url, protocol)
        for i in range(repeats):
            for side in ("baseline", "modelport") if i % 2 == 0 else ("modelport", "baseline"):
                runs[side].append(probe("first", side, root_url, protocol))

        def median(side: str, key: str) -> float:
            return statistics.median(run[key] for run in runs[side])

        base_min = min(run["seconds"] for run in runs["baseline"])
        mp_min = min(run["seconds"] for run in runs["modelport"])
        figures.append(
            figure(
                f"A1-{protocol}",
                f"first answer of a fresh process ({protocol}): import, get_model, one generate",
                "ms",
                median("baseline", "seconds") * 1e3,
                median("modelport", "seconds") * 1e3,
                [],
                1.4,
                repeats=repeats,
                min_ratio=mp_min / base_min,
                cpu_ratio=median("modelport", "cpu_seconds") / median("baseline", "cpu_seconds"),
                pydantic_classes=runs["modelport"][-1]["pydantic_classes"],
                extra_modules=runs["modelport"][-1]["modules"] - runs["baseline"][-1]["modules"],
                baseline_min_ms=base_min * 1e3,
                modelport_min_ms=mp_min * 1e3,
                baseline_peak_sync_mib=median("baseline", "peak_sync_mib"),
                modelport_peak_sync_mib=median("modelport", "peak_sync_mib"),
                baseline_peak_async_mib=median("baseline", "peak_async_mib"),
                modelport_peak_async_mib=median("modelport", "peak_async_mib"),
            )
        )
    return figures
