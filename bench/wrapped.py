"""What ``modelport.wrap`` costs per call, in process (no HTTP: the scripted provider answers).

``python -m bench.wrapped`` interleaves, per round, the same calls on a plain model, on
``wrap(model)`` with no middleware and on ``wrap(model, PassThrough())`` (a generate and a stream
hook that only call on), and prints the median per-call microseconds of each and the median of the
per-round differences to the plain model.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import modelport
from modelport import testing

CALLS = 2_000
ROUNDS = 15


class PassThrough(modelport.Middleware):
    def wrap_generate(self, request: Any, call_next: Any, model: Any) -> Any:
        return call_next(request)

    def wrap_stream(self, request: Any, call_next: Any, model: Any) -> Iterator[Any]:
        yield from call_next(request)


class _Endless(testing.Script):
    """A script that never runs out (each call answers the same)."""

    def _next(self, queue: list[Any], what: str) -> Any:
        return self.answer if what == "results" else self.events

    answer = testing.text_result("hello")
    events = testing.text_events("hel", "lo")


def _per_call(call: Callable[[], object], count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        call()
    return (time.perf_counter() - start) / count * 1e6


def _timings(calls: int, rounds: int) -> dict[str, dict[str, list[float]]]:
    """Per kind (generate, stream), per side, the per-call microseconds of each round."""
    testing.install()
    script = _Endless()
    plain = modelport.get_model("scripted/m", script=script)
    sides = {
        "plain": plain,
        "wrap()": modelport.wrap(plain),
        "wrap(PassThrough)": modelport.wrap(plain, PassThrough()),
    }
    out: dict[str, dict[str, list[float]]] = {}
    for kind in ("generate", "stream"):
        timings: dict[str, list[float]] = {name: [] for name in sides}
        for round_ in range(rounds):
            order = list(sides.items()) if round_ % 2 == 0 else list(reversed(sides.items()))
            for name, model in order:
                if kind == "generate":
                    timings[name].append(_per_call(lambda m=model: m.generate(prompt="hi"), calls))
                else:
                    timings[name].append(_per_call(lambda m=model: m.stream(prompt="hi").result(), calls))
                script.requests.clear()
        out[kind] = timings
    return out


def wrapped_figures(calls: int, rounds: int) -> list[Any]:
    """M0-generate, M0-stream: ``wrap(model)`` with no middleware against the plain model, per call
    (median of the per-round ratios; target: nothing measurable, within 5 %), the pass-through
    middleware's figure beside it."""
    from bench.figures import figure

    figures = []
    for kind, timings in _timings(calls, rounds).items():
        ratios = [w / p for w, p in zip(timings["wrap()"], timings["plain"])]
        through = [w / p for w, p in zip(timings["wrap(PassThrough)"], timings["plain"])]
        figures.append(
            figure(
                f"M0-{kind}",
                f"{kind} through wrap(model) with no middleware vs the plain model (in process)",
                "µs",
                statistics.median(timings["plain"]),
                statistics.median(timings["wrap()"]),
                ratios,
                1.05,
                pass_through_ratio=round(statistics.median(through), 3),
            )
        )
    return figures


def main() -> None:
    for kind, timings in _timings(CALLS, ROUNDS).items():
        for name, values in timings.items():
            diffs = [v - p for v, p in zip(values, timings["plain"])]
            median, delta = statistics.median(values), statistics.median(diffs)
            print(f"{kind:8} {name:18} {median:7.2f} µs/call  Δ plain {delta:+6.2f} µs")


if __name__ == "__main__":
    main()
