"""The shape of the house's source: one concept per module, so no module is over 450 lines (a concept
that outgrows that becomes a package of its own, with a face, not a parent and a satellite cut off to
stay under the line); the core's folder shows its layers (at most 20 modules left at its top, the
rest in the layer packages); and every package has a face, an ``__init__.py`` that says what it holds."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "core" / "src" / "modelport"
SOURCES = sorted(
    path
    for base in (
        "core/src",
        "plugins/google/src",
        "plugins/openai/src",
        "plugins/anthropic/src",
        "conformance/src",
    )
    for path in (ROOT / base).rglob("*.py")
    if "provider_template" not in path.parts
)
PACKAGES = sorted({path.parent for path in SOURCES if path.name == "__init__.py"})


def test_the_sources_are_found() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in SOURCES}
    assert {
        "core/src/modelport/_contract/request.py",
        "conformance/src/modelport_conformance/report.py",
    } <= names
    assert len(PACKAGES) >= 18


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_is_over_450_lines(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 450


def test_at_most_20_modules_are_left_at_the_top_of_the_core() -> None:
    top = sorted(path.name for path in CORE.glob("*.py"))
    assert len(top) <= 20, top
    assert {"__init__.py", "types.py", "errors.py", "events.py"} <= set(top)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_package_has_a_face_that_says_what_it_holds(package: Path) -> None:
    face = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    assert ast.get_docstring(face), f"{package.relative_to(ROOT)}/__init__.py has no docstring"
