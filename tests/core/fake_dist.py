"""Make real entry points at test time: a ``*.dist-info`` folder on ``sys.path``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest


def install_fake_distribution(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    modules: dict[str, str],
    entry_points: dict[str, str],
    group: str = "modelport",
) -> None:
    """Write modules and a dist-info declaring ``entry_points`` in ``group``; put them on sys.path."""
    root = tmp_path / f"site-{name}"
    root.mkdir()
    for module, source in modules.items():
        (root / f"{module}.py").write_text(source, encoding="utf-8")
    dist = root / f"{name}-0.0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.0\n", encoding="utf-8")
    lines = [f"[{group}]"] + [f"{ep} = {target}" for ep, target in entry_points.items()]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(root))
    for module in modules:
        monkeypatch.delitem(sys.modules, module, raising=False)
