"""Fixtures: the worked example plugins installed through REAL entry points (a dist-info on sys.path)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from modelport._registry import reset_registry

EXAMPLE_ROOT = Path(__file__).parent / "example_plugin"
EXAMPLE_CASES = EXAMPLE_ROOT / "modelport_example" / "cases"


def write_distribution(site: Path, name: str, entry_points: dict[str, str]) -> None:
    """A minimal installed distribution: METADATA plus entry_points.txt in the ``modelport`` group."""
    info = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n", encoding="utf-8")
    lines = ["[modelport]", *(f"{k} = {v}" for k, v in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    reset_registry()
    yield
    reset_registry()


@pytest.fixture
def example_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> Path:
    """The example plugin installed by entry point (only ``example``; the Google plugin blocked)."""
    site = tmp_path / "site"
    write_distribution(site, "modelport-example", {"example": "modelport_example._plugin"})
    monkeypatch.syspath_prepend(str(EXAMPLE_ROOT))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("MODELPORT_BLOCK_PLUGINS", "google,google-vertex")
    return site


@pytest.fixture
def broken_installed(example_installed: Path) -> Path:
    """The example plugin plus the deliberately broken variants."""
    write_distribution(
        example_installed,
        "modelport-example-broken",
        {
            "example-badrequest": "modelport_example_broken._plugin",
            "example-badresponse": "modelport_example_broken._plugin",
        },
    )
    return example_installed
