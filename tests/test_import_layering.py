"""The layering held by import-linter (contracts in pyproject.toml, run by ``tox -e lint``): the core
imports no plugin and not the conformance suite, plugins no private core module; and the registry,
its hookspecs and the provider tools import each other in one direction only; the core stands in
layers; and nothing in the whole house (core, plugins, conformance) imports in a circle. Imports
under ``if TYPE_CHECKING:`` count everywhere: a module may not name a module above it even for its
types."""

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
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=False, cache_dir=None)


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
    """Drawn from the imports of every module (those under ``TYPE_CHECKING`` too), the five packages
    form no circle: a topological order exists, so no arrow points back up."""
    order = graphlib.TopologicalSorter(
        {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    )
    try:
        order.prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"import circle: {' -> '.join(error.args[1])}")


def test_the_configuration_counts_type_only_imports() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    assert config["exclude_type_checking_imports"] is False
    layers = next(c for c in config["contracts"] if c["name"].startswith("The core in layers"))["layers"]
    assert (layers[0], layers[-1]) == (
        "modelport.cli",
        "modelport._secrets | modelport.lazy | modelport.wire_map | modelport._version",
    )


def test_the_core_layers_hold_from_the_command_line_down_to_the_records(graph: Any) -> None:
    """The wings, type-only imports counted: the model above its features, the features above the kit
    and the registry, the kit above the provider contract, the contract's records at the bottom."""
    layers = [
        "modelport.cli",
        "modelport._api",
        "modelport.telemetry",
        "modelport._model",
        "modelport.batches",
        "modelport.http",
        "modelport.provider",
        "modelport.tools",
        "modelport.types",
        "modelport.errors",
        "modelport._contract",
    ]
    assert graph.find_illegal_dependencies_for_layers(layers=layers) == set()
    assert graph.find_shortest_chain(importer="modelport.errors", imported="modelport.loop") is None
    assert graph.find_shortest_chain(importer="modelport.loop", imported="modelport._model") is None
