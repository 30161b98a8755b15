"""Measurements that need a fresh interpreter (P1 import time, P5 resident memory, P2o telemetry).

``python -m bench.probe import <side> <base_url>``, ``python -m bench.probe stream <side> <base_url>
<frames>`` and ``python -m bench.probe otel <absent|off|on> <base_url> <calls> <rounds>`` and ``python -m
bench.probe first <side> <root_url> <protocol>`` (:mod:`bench.first_answer`) print one JSON
object. Only the standard library is imported before the measured section.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time

_MIB = 1024 * 1024


def rss_bytes() -> int:
    """Current resident set size (Linux ``/proc``; peak RSS elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return peak_rss_bytes()


def peak_rss_bytes() -> int:
    """Peak resident set size of this process image (``VmHWM``; ``ru_maxrss`` elsewhere).

    ``ru_maxrss`` is not used on Linux: it keeps the high-water mark of the parent from before
    ``exec``, so a child of a big process reports the parent's size.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def reset_peak_rss() -> None:
    """Reset the peak to the current size, where Linux allows it (``/proc/self/clear_refs``)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def _import(side: str, base_url: str) -> dict[str, object]:
    before_modules = set(sys.modules)
    rss0 = rss_bytes()
    start = time.perf_counter()
    if side == "baseline":
        import httpx  # noqa: F401
        import pydantic  # noqa: F401
    else:
        import modelport

        modelport.get_model("google/gemini-2.5-flash", api_key="bench-key", base_url=base_url)
    elapsed = time.perf_counter() - start
    rss1 = rss_bytes()
    return {
        "seconds": elapsed,
        "rss_mib": rss1 / _MIB,
        "rss_delta_mib": (rss1 - rss0) / _MIB,
        "modules": sorted(set(sys.modules) - before_modules),
    }


def _stream(side: str, base_url: str, frames: int) -> dict[str, object]:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from bench.clients import Modelport, RawHttpx, stream_prompt

    client = RawHttpx(base_url) if side == "baseline" else Modelport(base_url)
    client.stream(stream_prompt(2))  # warm: connection, lazy imports
    rss0 = rss_bytes()
    reset_peak_rss()
    text = client.stream(stream_prompt(frames))
    peak = peak_rss_bytes()
    client.close()
    return {
        "rss_before_mib": rss0 / _MIB,
        "peak_rss_mib": peak / _MIB,
        "growth_mib": (peak - rss0) / _MIB,
        "text_chars": len(text),
    }


class _NoOpenTelemetry:
    """An import hook that makes ``opentelemetry`` missing, as if the extra were not installed."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name.partition(".")[0] == "opentelemetry":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def _no_io_generate_us() -> float:
    """Microseconds of one ``Model.generate`` on an in-process provider that answers at once (best of 5)."""
    import timeit

    from modelport._api import _model_class
    from modelport.provider import Prepared, Provider, ProviderConfig
    from modelport.types import Result, TextPart

    answer = Result(content=[TextPart(text="hi")], finish_reason="stop")

    class Instant(Provider):
        id = "instant"

        def send(self, model_name: str, prepared: Prepared) -> Result:
            return answer

    model = _model_class()(Instant(ProviderConfig("instant")), "m")  # traced as get_model would
    model.generate(prompt="hi")
    number = 5_000
    return min(timeit.repeat(lambda: model.generate(prompt="hi"), number=number, repeat=5)) / number * 1e6


def _otel(mode: str, base_url: str, calls: int, rounds: int) -> dict[str, object]:
    """P2's sequential generate calls (interleaved with raw httpx) with OpenTelemetry ``absent`` (as if
    the ``otel`` extra were not installed), imported but ``off`` (no provider configured: what most
    applications that have the API installed see), or ``on`` (an SDK tracer and meter provider, spans
    recorded and dropped: no exporter)."""
    if mode == "absent":
        sys.meta_path.insert(0, _NoOpenTelemetry())
    else:
        import opentelemetry.metrics
        import opentelemetry.trace

        if mode == "on":
            from opentelemetry.sdk.metrics import MeterProvider
            from opentelemetry.sdk.trace import TracerProvider

            opentelemetry.trace.set_tracer_provider(TracerProvider())
            opentelemetry.metrics.set_meter_provider(MeterProvider())
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import statistics

    from bench.clients import PROMPT, Modelport, RawHttpx
    from bench.sequential import _interleaved
    from modelport import telemetry

    base, mp = RawHttpx(base_url), Modelport(base_url)
    try:
        for side in (base, mp):
            for _ in range(5):
                side.generate(PROMPT)
        out = _interleaved(base, mp, lambda s: s.generate(PROMPT), calls, rounds)
    finally:
        base.close()
        mp.close()
    return {
        "mode": mode,
        "traced": telemetry.enabled(),
        "no_io_us": _no_io_generate_us(),
        "ratios": out.ratios,
        "cpu_ratio": statistics.median(out.cpu_ratios),
        "baseline_us": statistics.median(out.base) * 1e6,
        "modelport_us": statistics.median(out.mp) * 1e6,
    }


def main(argv: list[str]) -> None:
    """Command line entry."""
    what, side, base_url = argv[0], argv[1], argv[2]
    if what == "otel":
        print(json.dumps(_otel(side, base_url, int(argv[3]), int(argv[4]))))
        return
    if what == "first":
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from bench.first_answer import first_answer

        print(json.dumps(first_answer(side, base_url, argv[3], peak_rss_bytes, reset_peak_rss)))
        return
    if side not in ("baseline", "modelport"):
        raise SystemExit(f"unknown side {side!r}")
    if what == "import":
        out = _import(side, base_url)
    elif what == "stream":
        out = _stream(side, base_url, int(argv[3]))
    else:
        raise SystemExit(f"unknown probe {what!r}")
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
