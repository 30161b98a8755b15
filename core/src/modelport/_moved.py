"""Names that moved from the core to modelport-conformance (the package that owns conformance suites),
still reachable from their old place with a :class:`DeprecationWarning` for one minor version: they go
in modelport 0.2. The core imports nothing of modelport-conformance; an old name is looked up in its
new home only when read."""

from __future__ import annotations

import warnings
from importlib import import_module
from typing import Any

__all__ = ["moved_to_conformance"]


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
