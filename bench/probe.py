"""Measurements that need a fresh interpreter (P1 import time, P5 resident memory).

``python -m bench.probe import <side> <base_url>`` and ``python -m bench.probe stream <side> <base_url>
<frames>`` print one JSON object. Only the standard library is imported before the measured section.
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


def main(argv: list[str]) -> None:
    """Command line entry."""
    what, side, base_url = argv[0], argv[1], argv[2]
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
