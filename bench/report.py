"""The printed table."""

from __future__ import annotations

from typing import Any


def _num(value: float) -> str:
    return f"{value:,.1f}" if value >= 10 else f"{value:.2f}"


def table(report: dict[str, Any]) -> str:
    """A plain-text table of the report's figures: ratio = modelport / its baseline (raw httpx, raw
    aiohttp for P4a), lower is better."""
    rows = [("id", "figure", "baseline", "modelport", "unit", "ratio", "target", "ok")]
    for fig in report["figures"].values():
        target = fig["target"]
        extra = fig["extra"]
        if fig["id"] in ("P5i", "P5s"):
            target_s = f"+{extra['target_extra_mib']:.0f} MiB"
        else:
            target_s = "-" if target is None else f"<= {target:.2f}x"
        ok = {True: "yes", False: "NO", None: "-"}[fig["met"]]
        rows.append(
            (
                fig["id"],
                fig["title"],
                _num(fig["baseline"]),
                _num(fig["modelport"]),
                fig["unit"],
                f"{fig['ratio']:.2f}x"
                + (f" (fastest {extra['min_ratio']:.2f}x)" if "min_ratio" in extra else ""),
                target_s,
                ok,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(c.ljust(w) if i < 2 or i == 4 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
        for row in rows
    ]
    lines.insert(1, "-" * len(lines[0]))
    notes = [
        f"mode {report['mode']}, python {report['python']}, {report['seconds']} s; "
        "ratio = modelport / raw httpx in the same run (P4a: / raw aiohttp; lower is better)"
    ]
    p1 = report["figures"].get("P1")
    if p1 and p1["extra"]["rare_modules"]:
        notes.append(f"P1: rarely used modules loaded by get_model: {', '.join(p1['extra']['rare_modules'])}")
    figs = report["figures"]
    cpu = [
        f"{k} {figs[k]['extra']['cpu_ratio']:.2f}x"
        for k in ("P2", "P2u", "P3", "P2-openai", "P3-openai", "P2-anthropic", "P3-anthropic", "P4", "P4a")
        if k in figs and "cpu_ratio" in figs[k]["extra"]
    ]
    if cpu:
        notes.append("CPU time of the client process, same ratio (P4a: / raw aiohttp): " + ", ".join(cpu))
    for k in ("P2", "P2-openai", "P2-anthropic"):
        if k in figs:
            tail = figs[k]["extra"]["tail"]
            notes.append(
                f"{k} per call, all rounds, p50 / p99 / max µs: raw httpx "
                + " / ".join(f"{tail['baseline'][q]:,.0f}" for q in ("p50_us", "p99_us", "max_us"))
                + ", modelport "
                + " / ".join(f"{tail['modelport'][q]:,.0f}" for q in ("p50_us", "p99_us", "max_us"))
            )
    for k in ("P3", "P3-openai", "P3-anthropic", "P3-openai-responses"):
        if k in figs and "min_ratio" in figs[k]["extra"]:
            fig, e = figs[k], figs[k]["extra"]
            notes.append(
                f"{k} µs/frame, fastest / median of {e['streams']} streams: raw httpx "
                f"{e['baseline_min']:.1f} / {fig['baseline']:.1f}, modelport {e['modelport_min']:.1f} / "
                f"{fig['modelport']:.1f}; ratio {e['min_ratio']:.2f}x by the fastest streams, "
                f"{fig['ratio']:.2f}x the median per-stream ratio"
            )
    for k in (f"A1-{p}" for p in ("google", "openai", "anthropic", "openai-responses")):
        if k in figs and "cpu_ratio" in figs[k]["extra"]:
            e = figs[k]["extra"]
            notes.append(
                f"{k}: client CPU {e['cpu_ratio']:.2f}x raw httpx; {e['pydantic_classes']} pydantic classes "
                f"built, {e['extra_modules']} modules beyond raw httpx's; peak RSS sync / async "
                f"{e['baseline_peak_sync_mib']:.1f} / {e['baseline_peak_async_mib']:.1f} MiB raw, "
                f"{e['modelport_peak_sync_mib']:.1f} / {e['modelport_peak_async_mib']:.1f} MiB modelport"
            )
    p2u = figs.get("P2u")
    if p2u:
        e = p2u["extra"]
        notes.append(
            f"P2u: the grounding metadata costs modelport {e['grounded_cost_us']:.0f} µs a call over the "
            f"plain answer (raw httpx {e['baseline_grounded_cost_us']:.0f} µs)"
        )
    p5s = report["figures"].get("P5s")
    if p5s:
        e = p5s["extra"]
        notes.append(
            f"P5s: modelport keeps {e['extra_mib']:.1f} MiB more than raw httpx after the long stream, "
            f"{e['extra_bytes_per_frame']:.0f} bytes a frame beyond the text"
        )
    p2o = report["figures"].get("P2o")
    if p2o:
        e = p2o["extra"]
        notes.append(
            f"P2o: vs raw httpx, otel extra absent {e['absent_ratio']:.3f}x, API imported with tracing off "
            f"{e['off_ratio']:.3f}x, tracing on {e['on_ratio']:.3f}x ({e['on_vs_absent']:.3f}x absent); "
            "one generate without I/O: "
            + ", ".join(f"{mode} {us:.1f} µs" for mode, us in e["no_io_us"].items())
        )
    p4a = report["figures"].get("P4a")
    if p4a:
        e = p4a["extra"]
        notes.append(
            f"P4a: ratio = modelport on its default aiohttp transport / raw aiohttp; "
            f"/ raw httpx = {e['vs_raw_httpx']:.2f}x ({e['raw_httpx_ms']:.1f} ms)"
        )
    p4g = figs.get("P4g")
    if p4g:
        e = p4g["extra"]
        versus = [f"modelport on httpx {e['modelport_httpx_vs_genai']:.2f}x"]
        if e.get("modelport_aiohttp_vs_genai") is not None:
            versus.append(f"on the aiohttp transport {e['modelport_aiohttp_vs_genai']:.2f}x")
        notes.append(
            f"P4g: google-genai's default async client uses {e['transport']}; / google-genai: "
            + ", ".join(versus)
        )
    return "\n".join([*lines, "", *notes])
