"""The layering held by import-linter (contracts in pyproject.toml, run by ``tox -e lint``): the core
imports no plugin and not the conformance suite, plugins no private core module; and the registry,
its hookspecs and the provider tools import each other in one direction only; the core stands in
floors; and nothing in the whole house (core, plugins, conformance) imports in a circle."""

from __future__ import annotations

import graphlib
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

grimp = pytest.importorskip("grimp", reason="import-linter (and its grimp) is installed on Python 3.11+")

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "modelport",
    "modelport_google",
    "modelport_openai",
    "modelport_anthropic",
    "modelport_conformance",
)


def test_the_import_contracts_are_kept() -> None:
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint_imports is None:
        pytest.skip("import-linter 2.17 is not installed (Python 3.11+; pip install -r requirements-dev.txt)")
    run = subprocess.run([lint_imports, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    kept = [line.removesuffix(" KEPT") for line in run.stdout.splitlines() if line.endswith(" KEPT")]
    assert (run.returncode, run.stdout.splitlines()[-1]) == (0, "Contracts: 5 kept, 0 broken."), run.stdout
    assert "The core imports no plugin and not the conformance suite" in kept


@pytest.fixture(scope="module")
def graph() -> Any:
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)


def test_nothing_of_the_core_imports_the_conformance_suite(graph: Any) -> None:
    for plugin in ("modelport_conformance", "modelport_google", "modelport_openai", "modelport_anthropic"):
        assert graph.find_illegal_dependencies_for_layers(layers=[plugin, "modelport"]) == set()
    assert graph.find_modules_that_directly_import("modelport_conformance.cli") == set()


def test_the_registry_sits_below_the_tool_lookups(graph: Any) -> None:
    """The provider-tools table is the registry's: the spec and its validation import no registry."""
    registry = "modelport._registry.plugin_registry"
    for lower in (
        "modelport.tools.spec",
        "modelport.hookspecs",
        "modelport._registry.hooks",
        "modelport._registry.registrants",
    ):
        assert graph.find_shortest_chain(importer=lower, imported=registry) is None, lower
    assert graph.find_shortest_chain(importer=registry, imported="modelport._registry.tool_table") is None


def test_no_module_of_the_whole_house_imports_in_a_circle(graph: Any) -> None:
    """Drawn from the imports of every module (``TYPE_CHECKING`` blocks aside), the five packages form
    no circle: a topological order exists, so no arrow points back up."""
    order = graphlib.TopologicalSorter(
        {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    )
    try:
        order.prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"import circle: {' -> '.join(error.args[1])}")


def test_the_core_floors_hold_from_the_command_line_down_to_the_errors(graph: Any) -> None:
    floors = [
        "modelport.cli",
        "modelport._api",
        "modelport.telemetry",
        "modelport._model",
        "modelport.http",
    ]
    assert graph.find_illegal_dependencies_for_layers(layers=floors) == set()
