"""Run the benchmark: start the mock server, measure P1-P5, print a table, write JSON.

``python -m bench`` (or ``python bench/run.py``); ``--quick`` uses small counts and only proves that
everything works (for CI); nothing here asserts timings.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # ``python bench/run.py``
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import concurrent, decoding, fresh, sequential, wrapped
from bench.figures import Figure
from bench.report import table
from bench.server import MockServer

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results" / "latest.json"


@dataclass(frozen=True)
class Plan:
    """How much to measure."""

    import_repeats: int
    calls: int
    rounds: int
    frames: int
    streams: int
    concurrent: int
    async_rounds: int
    memory_frames_small: int
    memory_frames_large: int
    max_seconds: float
    otel_rounds: int = 3
    otel_repeats: int = 3

    def max_requests(self) -> int:
        """Requests the plan sends, with a margin; the server stops after that many."""
        sync = 2 * (2 * self.calls * self.rounds + self.streams + 30)  # P2 and P2u, P3
        openai = 3 * 2 * (self.calls * self.rounds + self.streams + 20)  # OpenAI (both APIs), Anthropic
        otel = 3 * self.otel_repeats * 2 * (self.calls * self.otel_rounds + 10)
        async_ = 5 * (self.async_rounds + 1) * self.concurrent  # up to five sides, with google-genai
        memory = 4 * 2
        first = 4 * 2 * 2 * (self.import_repeats // 2 + 2)  # A1: a sync and an async call a probe
        return int((sync + openai + otel + async_ + memory + first) * 1.2) + 100


#: Which ``--only`` choices select each group (a group runs when any of its choices was given).
ALIASES = {
    "P1": {"P1", "P5"},
    "P2": {"P2", "P2t", "P2u", "P3"},
    "openai": {"openai", "P2-openai", "P3-openai"},
    "anthropic": {"anthropic", "P2-anthropic", "P3-anthropic"},
    "openai-responses": {"openai-responses", "P2-openai-responses", "P3-openai-responses"},
    "P2o": {"P2", "P2o"},
    "P4": {"P4", "P4g"},
    "P5": {"P5"},
    "M0": {"M0", "M0-generate", "M0-stream", "wrap"},
    "A1": {"A1", *(f"A1-{p}" for p in fresh.FIRST_ANSWER_PROTOCOLS)},
    "wire": {"wire", "W", "W-frame", "W-grounded", "W-embed"},
}

FULL = Plan(21, 500, 5, 10_000, 15, 200, 25, 2_000, 20_000, 900.0)
QUICK = Plan(3, 30, 2, 200, 3, 20, 3, 200, 2_000, 120.0, otel_rounds=2, otel_repeats=1)


def run(plan: Plan, only: set[str] | None = None) -> dict[str, Any]:
    """Measure everything in ``plan`` and return the report."""
    started = time.time()
    figs: list[Figure] = []
    errors: dict[str, str] = {}
    groups: list[tuple[str, Callable[[MockServer], list[Figure]]]] = [
        ("P1", lambda srv: fresh.import_figures(srv.base_url, plan.import_repeats)),
        (
            "P2",
            lambda srv: sequential.sync_figures(
                srv.base_url, plan.calls, plan.frames, plan.rounds, plan.streams
            ),
        ),
        (
            "openai",
            lambda srv: sequential.openai_figures(
                srv.openai_base_url, plan.calls, plan.frames, plan.rounds, plan.streams
            ),
        ),
        (
            "anthropic",
            lambda srv: sequential.anthropic_figures(
                srv.root_url, plan.calls, plan.frames, plan.rounds, plan.streams
            ),
        ),
        (
            "openai-responses",
            lambda srv: sequential.openai_responses_figures(
                srv.openai_base_url, plan.calls, plan.frames, plan.rounds, plan.streams
            ),
        ),
        (
            "P2o",
            lambda srv: (
                [fresh.otel_figure(srv.base_url, plan.calls, plan.otel_rounds, plan.otel_repeats)]
                if fresh.otel_available()
                else []
            ),
        ),
        ("M0", lambda srv: wrapped.wrapped_figures(max(plan.calls * 2, 100), max(plan.rounds * 2, 4))),
        ("A1", lambda srv: fresh.first_answer_figures(srv.root_url, max(plan.import_repeats // 2, 2))),
        ("wire", lambda srv: decoding.decoding_figures(max(plan.rounds * 3, 5), plan.calls)),
        ("P4", lambda srv: concurrent.async_figures(srv.base_url, plan.concurrent, plan.async_rounds)),
        (
            "P5",
            lambda srv: [
                fresh.stream_memory_figure(srv.base_url, plan.memory_frames_small, plan.memory_frames_large)
            ],
        ),
    ]
    with MockServer(plan.max_requests(), plan.max_seconds) as server:
        for name, measure in groups:
            if only and not ALIASES[name] & only:
                continue
            try:
                figs += measure(server)
            except Exception as error:  # one broken side must not hide the other figures
                errors[name] = f"{type(error).__name__}: {error}"
    return {
        "schema": 1,
        "mode": "quick" if plan == QUICK else "full",
        "started": datetime.datetime.fromtimestamp(started, datetime.timezone.utc).isoformat(),
        "seconds": round(time.time() - started, 1),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "plan": asdict(plan),
        "figures": {f.id: f.as_dict() for f in figs},
        "errors": errors,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command line entry."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: proves it works, fast")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON report path")
    parser.add_argument(
        "--only",
        action="append",
        choices=sorted(set().union(*ALIASES.values())),
        help="measure only these figures (repeatable)",
    )
    args = parser.parse_args(argv)
    report = run(QUICK if args.quick else FULL, set(args.only or ()))
    print(table(report))
    for name, error in report["errors"].items():
        print(f"{name}: FAILED: {error}", file=sys.stderr)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwrote {args.output}")
    if report["errors"]:
        raise SystemExit(1)
    return report


if __name__ == "__main__":
    main()
