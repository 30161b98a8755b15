"""Names of a package that are imported on first access, so importing the package stays cheap.

A package face lists which module holds each name and installs the pair of module functions
:pep:`562` looks for::

    from modelport.lazy import lazy_attributes

    _LAZY = {"AcmeOptions": "._options", "files": ".files"}
    __getattr__, __dir__ = lazy_attributes(__name__, _LAZY)

A name mapped to the submodule of the same name (``"files": ".files"``) is that submodule; any
other name is read from its module. The value is stored on the package at first access, so later
reads cost nothing. For type checkers, import the same names under ``if TYPE_CHECKING:``.

A renamed name stays readable for a while under its old name: ``deprecated`` maps each old name to
the new one, and every read of the old name warns (:class:`DeprecationWarning`) and returns the new
name's value. Old names are not listed by ``dir()``; leave them out of ``__all__`` too.

A module that moved stays importable under its old path for a while: :func:`moved_modules` maps each
old dotted path to the new one, and importing an old path warns (:class:`DeprecationWarning`, naming
the new path) and gives a module that reads every name from the new one. No file is left behind.

A name that moved from the core to modelport-conformance (the package that owns conformance suites)
is read through its old place with :func:`moved_to_conformance`: the core imports nothing of
modelport-conformance, the old name is looked up in its new home only when read.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

__all__ = ["lazy_attributes", "moved_modules", "moved_to_conformance"]


def lazy_attributes(
    package: str,
    names: Mapping[str, str],
    *,
    deprecated: Mapping[str, str] | None = None,
    moved: Mapping[str, str] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the module ``package`` whose ``names`` (name → module, relative
    to ``package``, e.g. ``"._options"``) load on first access, and whose ``deprecated`` names (old
    name → new name) and ``moved`` names (name → the module it moved to) still read, with a
    :class:`DeprecationWarning` each time.

    An unknown name raises :class:`AttributeError` as for any module; ``dir()`` lists the lazy names
    beside those already loaded.
    """
    renamed = dict(deprecated or {})
    homes = dict(moved or {})

    def __getattr__(name: str) -> Any:
        if name in homes:
            warnings.warn(
                f"{package}.{name} moved to {homes[name]}.{name}: import it from there, the old name goes"
                " in the next minor version",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(import_module(homes[name]), name)
        if name in renamed:
            new = renamed[name]
            warnings.warn(
                f"{package}.{name} is deprecated and will be removed in the next minor version: "
                f"use {package}.{new}",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(sys.modules[package], new)
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        imported = import_module(module, package)
        value = imported if module == f".{name}" else getattr(imported, name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__


class _MovedModules(MetaPathFinder, Loader):
    """Finds the old path of a moved module (after every real module was looked for) and loads it
    as a stand-in whose names are the new module's, with a deprecation warning."""

    def __init__(self, moved: Mapping[str, str]) -> None:
        self.moved = dict(moved)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        return ModuleSpec(fullname, self) if fullname in self.moved else None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        new = self.moved[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}: import it from there, the old path goes in the next minor version",
            DeprecationWarning,
            stacklevel=2,
        )
        target = import_module(new)
        stand_in = ModuleType(spec.name, target.__doc__)
        stand_in.__all__ = list(getattr(target, "__all__", ()))  # type: ignore[attr-defined]
        stand_in.__getattr__ = lambda name: getattr(target, name)  # type: ignore[method-assign]
        stand_in.__dir__ = lambda: dir(target)  # type: ignore[method-assign]
        return stand_in

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: every name is read from the new module."""


def moved_modules(moved: Mapping[str, str]) -> None:
    """Keep each old module path of ``moved`` (old dotted path → new one) importable, with a
    :class:`DeprecationWarning` naming the new path when it is imported."""
    for finder in sys.meta_path:
        if isinstance(finder, _MovedModules):
            finder.moved.update(moved)
            return
    sys.meta_path.append(_MovedModules(moved))


def moved_to_conformance(module: str, name: str, home: str) -> Any:
    """``home.name``, read through its old place ``module.name``, with a deprecation warning."""
    warnings.warn(
        f"{module}.{name} moved to {home}.{name} (modelport-conformance); import it from there, "
        "the old name goes in modelport 0.2",
        DeprecationWarning,
        stacklevel=3,
    )
    try:
        return getattr(import_module(home), name)
    except ImportError:
        raise AttributeError(
            f"{module}.{name} moved to {home}.{name}: pip install modelport-conformance"
        ) from None
