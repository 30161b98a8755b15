"""One long stream, modelport beside raw httpx, per frame: ``python -m bench.sidebyside``.

The naive measurement of issue 24, made repeatable: a ``--frames``-frame stream (2,000 by default)
read ``--runs`` times by each side, the sides alternating (who goes first flips each run), against
the benchmark's mock server. Three sides per protocol (Gemini, OpenAI, Anthropic):

- ``naive``: raw httpx reading ``iter_lines`` and calling ``json.loads`` on every ``data:`` line,
  nothing else (the side-by-side of the issue);
- ``raw``: the benchmark's own baseline (:mod:`bench.clients`), which also takes each frame's text
  out and joins it, as modelport does;
- ``modelport``: ``model.stream(...).result().text``.

Two deliveries: ``burst`` (the whole answer in one write, as P3 measures: the client reads 64 KiB
at a time, ~250 events a read) and ``paced`` (one event a write, ``--pace`` µs apart: the client
reads one event at a time, as from a provider generating tokens). Wall time is what a burst
measures; a paced stream's wall time is the server's pacing, so its figure is the client's CPU
time. Printed per side: µs a frame, the fastest run and the median; and modelport's ratio to each
raw side, by the fastest runs and by the median of the per-run ratios.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from typing import Any

import httpx

from .clients import (
    ANTHROPIC_MODEL_ID,
    MODEL,
    OPENAI_MODEL_ID,
    Modelport,
    RawAnthropic,
    RawHttpx,
    RawOpenAI,
    Side,
    stream_prompt,
)
from .server import MockServer

PROTOCOLS = ("google", "openai", "anthropic")
DELIVERIES = ("burst", "paced")


class Naive:
    """Raw httpx with ``iter_lines`` and ``json.loads`` per ``data:`` line; the frames are dropped."""

    def __init__(self, url: str, headers: dict[str, str], body: Any) -> None:
        self.client = httpx.Client(timeout=120.0)
        self.url, self.headers, self.body = url, headers, body

    def generate(self, prompt: str) -> str:
        raise NotImplementedError

    def stream(self, prompt: str) -> str:
        frames = 0
        with self.client.stream("POST", self.url, content=self.body(prompt), headers=self.headers) as r:
            for line in r.iter_lines():
                if line.startswith("data:") and line[5:].strip() != "[DONE]":
                    json.loads(line[5:])
                    frames += 1
        return str(frames)

    def close(self) -> None:
        self.client.close()


def sides(protocol: str, server: MockServer) -> dict[str, Side]:
    """The three sides of ``protocol`` against ``server``."""
    if protocol == "google":
        raw: Any = RawHttpx(server.base_url)
        url = f"{server.base_url}/models/{MODEL}:streamGenerateContent?alt=sse"
        naive = Naive(url, {"x-goog-api-key": "bench-key", "content-type": "application/json"}, _google)
        return {"naive": naive, "raw": raw, "modelport": Modelport(server.base_url)}
    if protocol == "openai":
        raw = RawOpenAI(server.openai_base_url)
        naive = Naive(raw.url, dict(raw.client.headers) | _OPENAI, lambda p: RawOpenAI._body(p, True))
        return {"naive": naive, "raw": raw, "modelport": Modelport(server.openai_base_url, OPENAI_MODEL_ID)}
    raw = RawAnthropic(server.root_url)
    naive = Naive(raw.url, _ANTHROPIC, lambda p: RawAnthropic._body(p, True))
    return {"naive": naive, "raw": raw, "modelport": Modelport(server.root_url, ANTHROPIC_MODEL_ID)}


_OPENAI = {"authorization": "Bearer bench-key", "content-type": "application/json"}
_ANTHROPIC = {"x-api-key": "bench-key", "anthropic-version": "2023-06-01", "content-type": "application/json"}


def _google(prompt: str) -> bytes:
    return json.dumps({"contents": [{"role": "user", "parts": [{"text": prompt}]}]}).encode()


def measure(named: dict[str, Side], prompt: str, runs: int) -> dict[str, dict[str, list[float]]]:
    """Wall and CPU seconds of ``runs`` streams per side, the sides' order rotating each run."""
    names = list(named)
    out: dict[str, dict[str, list[float]]] = {n: {"wall": [], "cpu": []} for n in names}
    for side in named.values():  # warm-up: connection, lazy imports, caches
        side.stream(prompt)
    for r in range(runs):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            gc.collect()
            start, cpu = time.perf_counter(), time.process_time()
            if not named[name].stream(prompt):
                raise RuntimeError(f"{name}: empty stream")
            out[name]["wall"].append(time.perf_counter() - start)
            out[name]["cpu"].append(time.process_time() - cpu)
    return out


def summary(times: dict[str, dict[str, list[float]]], frames: int, clock: str) -> dict[str, Any]:
    """Per side µs a frame (fastest, median) and modelport's ratios to each raw side."""
    us = 1e6 / frames
    per_side = {
        name: {"min_us": min(t[clock]) * us, "median_us": statistics.median(t[clock]) * us}
        for name, t in times.items()
    }
    mp = times["modelport"][clock]
    ratios = {
        name: {
            "by_min": min(mp) / min(times[name][clock]),
            "median": statistics.median(m / b for m, b in zip(mp, times[name][clock])),
        }
        for name in times
        if name != "modelport"
    }
    return {"clock": clock, "sides": per_side, "ratios": ratios}


def run(
    frames: int, runs: int, pace_us: int, protocols: tuple[str, ...], deliveries: tuple[str, ...] = DELIVERIES
) -> dict[str, Any]:
    """``deliveries`` (burst, paced) for each of ``protocols``; the report as a dict."""
    per = 2 * len(protocols) * (3 * (runs + 1))
    report: dict[str, Any] = {"frames": frames, "runs": runs, "pace_us": pace_us, "results": {}}
    with MockServer(per + 50, 1800.0) as server:
        for protocol in protocols:
            named = sides(protocol, server)
            results = report["results"][protocol] = {}
            try:
                if "burst" in deliveries:
                    results["burst"] = summary(measure(named, stream_prompt(frames), runs), frames, "wall")
                if "paced" in deliveries:
                    paced = measure(named, stream_prompt(frames, pace_us), runs)
                    results["paced"] = summary(paced, frames, "cpu")
            finally:
                for side in named.values():
                    side.close()
    return report


def text(report: dict[str, Any]) -> str:
    """The report as lines of text."""
    lines = [
        f"{report['frames']:,}-frame stream, {report['runs']} runs a side, alternating; "
        f"paced: one event a write, {report['pace_us']} µs apart",
        "µs/frame: fastest run / median; ratio: modelport / side, by the fastest runs / median of per-run",
    ]
    for protocol, deliveries in report["results"].items():
        for delivery, result in deliveries.items():
            cells = [
                f"{name} {s['min_us']:.1f} / {s['median_us']:.1f}" for name, s in result["sides"].items()
            ]
            ratios = [
                f"/{name} {r['by_min']:.2f}x / {r['median']:.2f}x" for name, r in result["ratios"].items()
            ]
            lines.append(
                f"{protocol:9s} {delivery:5s} ({result['clock']:4s}): "
                + ", ".join(cells)
                + "; "
                + ", ".join(ratios)
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command line entry."""
    parser = argparse.ArgumentParser(prog="python -m bench.sidebyside", description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pace", type=int, default=50, help="µs between events of a paced stream")
    parser.add_argument("--protocol", action="append", choices=PROTOCOLS)
    parser.add_argument("--delivery", action="append", choices=DELIVERIES)
    args = parser.parse_args(argv)
    report = run(
        args.frames,
        args.runs,
        args.pace,
        tuple(args.protocol or PROTOCOLS),
        tuple(args.delivery or DELIVERIES),
    )
    print(text(report))
    return report


if __name__ == "__main__":
    main()
