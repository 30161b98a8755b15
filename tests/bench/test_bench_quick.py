"""The benchmark's quick mode runs end to end and writes a well-formed report (no timing assertions).

Every figure must appear with finite, positive numbers: P1, P2 with its tail P2t (p99, target 2x raw
httpx) and the plain answer P2u, P3, the OpenAI provider's P2-openai and P3-openai, the Anthropic provider's
P2-anthropic and P3-anthropic, the Responses API's P2-openai-responses and P3-openai-responses, P4,
P5i and P5s;
P2o, P4a/P4r and google-genai's reference P4g when their optional packages are installed.
"""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIGURES = {
    "M0-generate",
    "M0-stream",
    "A1-google",
    "A1-openai",
    "A1-anthropic",
    "A1-openai-responses",
    "W-frame",
    "W-grounded",
    "W-embed",
    "P1",
    "P2",
    "P2t",
    "P2u",
    "P3",
    "P2-openai",
    "P3-openai",
    "P2-anthropic",
    "P3-anthropic",
    "P2-openai-responses",
    "P3-openai-responses",
    "P4",
    "P5i",
    "P5s",
}
AIOHTTP_FIGURES = {"P4a", "P4r"}  # only with the optional httpx-aiohttp installed
OTEL_FIGURES = {"P2o"}  # only with opentelemetry-api and -sdk installed (requirements-dev.txt)
GENAI_FIGURES = {"P4g"}  # only with google-genai installed (a reference; not a requirement of ours)
TAIL_KEYS = ("p50_us", "p99_us", "max_us")
FIGURE_KEYS = {"id", "title", "unit", "baseline", "modelport", "ratio", "target", "met", "samples", "extra"}


def _positive(value: object) -> bool:
    return isinstance(value, float) and math.isfinite(value) and value > 0


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _check_tail(tail: dict[str, dict[str, float]]) -> None:
    for side in ("baseline", "modelport"):
        values = [tail[side][key] for key in TAIL_KEYS]
        assert all(_positive(v) for v in values), (side, values)
        assert values == sorted(values), (side, values)  # p50 <= p99 <= max


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
    figures = report["figures"]
    assert set(figures) - AIOHTTP_FIGURES - OTEL_FIGURES - GENAI_FIGURES == FIGURES
    if _installed("httpx_aiohttp"):
        assert AIOHTTP_FIGURES <= set(figures)
    if _installed("opentelemetry"):
        assert OTEL_FIGURES <= set(figures)
        assert _positive(figures["P2o"]["extra"]["on_vs_absent"])
    if _installed("google.genai"):
        assert GENAI_FIGURES <= set(figures)
        assert figures["P4g"]["target"] is None  # a reference, not a target of ours
        assert _positive(figures["P4g"]["extra"]["modelport_httpx_vs_genai"])
    else:
        assert not GENAI_FIGURES & set(figures)
    for name, fig in report["figures"].items():
        assert set(fig) == FIGURE_KEYS, name
        assert fig["id"] == name
        for key in ("baseline", "modelport", "ratio"):
            assert _positive(fig[key]), (name, key, fig[key])
        assert all(_positive(r) for r in fig["samples"]), name
        assert fig["met"] in (True, False, None)
    # Both sides produced the same text, for both providers and the plain answer.
    for name, checks in (
        ("P2", ("generate_text_equal", "plain_text_equal", "stream_text_equal")),
        ("P2-openai", ("generate_text_equal", "stream_text_equal")),
        ("P2-anthropic", ("generate_text_equal", "stream_text_equal")),
        ("P2-openai-responses", ("generate_text_equal", "stream_text_equal")),
    ):
        for check in checks:
            assert figures[name]["extra"][check] is True, (name, check)
    assert isinstance(figures["P1"]["extra"]["rare_modules"], list)
    # A1 keeps client CPU beside wall time, and what the first answer built and imported.
    for name in (f"A1-{p}" for p in ("google", "openai", "anthropic", "openai-responses")):
        extra = figures[name]["extra"]
        assert _positive(extra["cpu_ratio"]), name
        assert isinstance(extra["pydantic_classes"], int) and extra["pydantic_classes"] > 0, name
        assert isinstance(extra["extra_modules"], int) and extra["extra_modules"] > 0, name
    # P2's tail: p50, p99 and max for both sides; P2t is the p99 against its 2x target.
    _check_tail(figures["P2"]["extra"]["tail"])
    _check_tail(figures["P2-openai"]["extra"]["tail"])
    _check_tail(figures["P2-anthropic"]["extra"]["tail"])
    assert figures["P2t"]["target"] == 2.0
    assert figures["P2t"]["extra"]["tail"] == figures["P2"]["extra"]["tail"]
    assert _positive(figures["P2t"]["extra"]["max_ratio"])
    # Each stream figure keeps both views: the median per-stream ratio and the fastest streams' one.
    for name in ("P3", "P3-openai", "P3-anthropic", "P3-openai-responses"):
        extra = figures[name]["extra"]
        assert extra["streams"] == len(figures[name]["samples"]) == report["plan"]["streams"], name
        assert extra["min_ratio"] == pytest.approx(extra["modelport_min"] / extra["baseline_min"]), name
        assert extra["baseline_min"] <= figures[name]["baseline"], name
    # P2u: the same answer without grounding metadata, and what the grounding costs on each side.
    for key in ("grounded_cost_us", "baseline_grounded_cost_us"):
        assert math.isfinite(figures["P2u"]["extra"][key]), key
    # The plain answer and the OpenAI provider have the targets of the Google figures they mirror.
    for name, mirrored in (
        ("P2u", "P2"),
        ("P2-openai", "P2"),
        ("P3-openai", "P3"),
        ("P2-anthropic", "P2"),
        ("P3-anthropic", "P3"),
        ("P2-openai-responses", "P2"),
        ("P3-openai-responses", "P3"),
    ):
        assert figures[name]["target"] == figures[mirrored]["target"], name
        assert _positive(figures[name]["extra"]["cpu_ratio"]), name
