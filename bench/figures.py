"""The figures' common shape: each measured against its baseline in the same run, interleaved.

Every figure is a :class:`Figure` whose ``ratio`` is modelport / baseline (lower is better). The
figures themselves are measured by subject: :mod:`bench.fresh` (P1, P5 and P2o, in fresh
interpreters), :mod:`bench.sequential` (P2, P2t, P2u, P3 and their OpenAI and Anthropic
counterparts) and :mod:`bench.concurrent` (P4, P4a, P4r, P4g).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

_ROOT = str(Path(__file__).resolve().parent.parent)


@dataclass
class Figure:
    """One line of the table."""

    id: str
    title: str
    unit: str
    baseline: float
    modelport: float
    ratio: float
    target: float | None
    met: bool | None
    samples: list[float] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


def figure(
    id_: str,
    title: str,
    unit: str,
    base: float,
    mp: float,
    ratios: list[float],
    target: float | None,
    **extra: Any,
) -> Figure:
    ratio = statistics.median(ratios) if ratios else mp / base
    met = None if target is None else ratio <= target
    return Figure(id_, title, unit, base, mp, ratio, target, met, ratios, extra)


def probe(*args: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_ROOT, os.environ.get("PYTHONPATH")]))}
    # Imports are measured with bytecode caches, as an installed package has them (pip compiles on
    # install): with PYTHONDONTWRITEBYTECODE set, a source checkout would be compiled in every probe.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run(
        [sys.executable, "-m", "bench.probe", *args], capture_output=True, text=True, env=env, timeout=300
    )
    if out.returncode != 0:
        raise RuntimeError(f"probe {args[:2]} failed: {out.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result
