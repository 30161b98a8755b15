"""The benchmark's quick mode runs end to end and writes a well-formed report (no timing assertions)."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = {"P1", "P2", "P3", "P4", "P5i", "P5s"}
AIOHTTP_FIGURES = {"P4a", "P4r"}  # only with the optional httpx-aiohttp installed
OTEL_FIGURES = {"P2o"}  # only with opentelemetry-api and -sdk installed (requirements-dev.txt)
FIGURE_KEYS = {"id", "title", "unit", "baseline", "modelport", "ratio", "target", "met", "samples", "extra"}


def _positive(value: object) -> bool:
    return isinstance(value, float) and math.isfinite(value) and value > 0


def test_quick_benchmark_report(tmp_path: Path) -> None:
    output = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--output", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "ratio" in proc.stdout

    report = json.loads(output.read_text())
    assert report["schema"] == 1
    assert report["mode"] == "quick"
    assert report["errors"] == {}
    assert set(report["figures"]) - AIOHTTP_FIGURES - OTEL_FIGURES == FIGURES
    if importlib.util.find_spec("httpx_aiohttp") is not None:
        assert AIOHTTP_FIGURES <= set(report["figures"])
    if importlib.util.find_spec("opentelemetry") is not None:
        assert OTEL_FIGURES <= set(report["figures"])
        assert _positive(report["figures"]["P2o"]["extra"]["on_vs_absent"])
    for name, fig in report["figures"].items():
        assert set(fig) == FIGURE_KEYS, name
        assert fig["id"] == name
        for key in ("baseline", "modelport", "ratio"):
            assert _positive(fig[key]), (name, key, fig[key])
        assert all(_positive(r) for r in fig["samples"]), name
        assert fig["met"] in (True, False, None)
    # Both sides produced the same text.
    assert report["figures"]["P2"]["extra"]["generate_text_equal"] is True
    assert report["figures"]["P2"]["extra"]["stream_text_equal"] is True
    assert isinstance(report["figures"]["P1"]["extra"]["rare_modules"], list)
