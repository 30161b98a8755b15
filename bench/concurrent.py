"""P4: concurrent async calls, modelport against raw httpx (P4), raw aiohttp (P4a); raw aiohttp itself
(P4r) and google-genai's default async client (P4g) as references."""

from __future__ import annotations

import statistics

from .clients import concurrent_times, genai_transport
from .figures import Figure, figure


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
    p4 = figure(
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
    p4a = figure(
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
    p4r = figure(
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

    return figure(
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
