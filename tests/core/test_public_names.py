"""Every public name of the house still imports: each module of the core, the plugins and the
conformance suite reads every name of its ``__all__``, and every module that moved into a layer
package is still importable from its old path, with a warning that names the new one."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import warnings

import pytest

import modelport

PACKAGES = (
    "modelport",
    "modelport_google",
    "modelport_openai",
    "modelport_anthropic",
    "modelport_conformance",
)


def _modules() -> list[str]:
    found = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        found.append(name)
        found += [
            m.name for m in pkgutil.walk_packages(package.__path__, f"{name}.") if "__main__" not in m.name
        ]
    return sorted(found)


MODULES = _modules()


def test_the_walk_finds_the_layer_packages() -> None:
    assert {"modelport._contract.request", "modelport.tools.spec", "modelport._registry.tool_table"} <= set(
        MODULES
    )
    assert not set(modelport.MOVED_MODULES) & set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_every_name_in_all_imports(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        module = importlib.import_module(name)
        missing = [n for n in getattr(module, "__all__", ()) if not hasattr(module, n)]
    assert missing == []


@pytest.mark.parametrize(("old", "new"), sorted(modelport.MOVED_MODULES.items()))
def test_a_moved_module_imports_from_its_old_path_with_a_warning(old: str, new: str) -> None:
    """Run in a fresh interpreter: the old path is imported for the first time there."""
    names = importlib.import_module(new).__all__
    code = (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    warnings.simplefilter('always')\n"
        f"    import {old} as old\n"
        f"    from {old} import {names[0]}\n"
        "print([str(w.message) for w in seen if w.category is DeprecationWarning])\n"
        f"import {new} as new\n"
        f"print(all(getattr(old, n) is getattr(new, n) for n in {names!r}), old.__all__ == new.__all__)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    messages, same = run.stdout.splitlines()
    assert eval(messages) == [  # noqa: S307  (the child prints a list of strings)
        f"{old} moved to {new}: import it from there, the old path goes in the next minor version"
    ]
    assert same == "True True"


def test_a_moved_module_read_as_an_attribute_of_the_package_warns() -> None:
    code = (
        "import warnings, modelport\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    warnings.simplefilter('always')\n"
        "    tool = modelport.functions.tool\n"
        "print(tool is modelport.tool, [w.category.__name__ for w in seen])\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "True ['DeprecationWarning']"


def test_an_unknown_old_path_is_still_an_import_error() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("modelport.no_such_module")
