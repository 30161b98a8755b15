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
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(
    package: str, names: Mapping[str, str], *, deprecated: Mapping[str, str] | None = None
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the module ``package`` whose ``names`` (name → module, relative
    to ``package``, e.g. ``"._options"``) load on first access, and whose ``deprecated`` names (old
    name → new name) still read, with a :class:`DeprecationWarning` each time.

    An unknown name raises :class:`AttributeError` as for any module; ``dir()`` lists the lazy names
    beside those already loaded.
    """
    renamed = dict(deprecated or {})

    def __getattr__(name: str) -> Any:
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
        from importlib import import_module

        imported = import_module(module, package)
        value = imported if module == f".{name}" else getattr(imported, name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
