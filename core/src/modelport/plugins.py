"""The public face of the plugin registry: what is installed, and how model ids resolve.

Everything a tool around modelport needs (the conformance suite, a CLI, a dashboard) is here, so no
one imports the registry's private module::

    from modelport import plugins

    plugins.providers()            # {"google": GoogleProvider, ...} (loads every plugin)
    plugins.provider_class("gemini")  # aliases resolve; raises UnknownProviderError with suggestions
    plugins.split_model_id("google/gemini-2.5-flash")  # ("google", "gemini-2.5-flash")
    plugins.load_errors()          # plugins that failed to load, with the error

A package that extends the plugin contract with hooks of its own (modelport-conformance's
``modelport_conformance_suites``) adds their specifications with :func:`add_hookspecs` and asks the
plugins with :func:`collect`. ``ConformanceSuite`` and ``conformance_suites()`` moved to
:mod:`modelport_conformance`; reading them here still works, with a :class:`DeprecationWarning`, until
modelport 0.2.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

from ._api import split_model_id
from ._registry import register_plugin, registry
from .provider import Provider

__all__ = [
    "add_hookspecs",
    "aliases",
    "collect",
    "load_errors",
    "provider_class",
    "providers",
    "register_plugin",
    "split_model_id",
]

_T = TypeVar("_T")


def providers() -> dict[str, type[Provider]]:
    """Every registered provider class by id (loads every installed plugin)."""
    return registry().providers()


def provider_class(provider_id: str) -> type[Provider]:
    """The provider class for an id or alias, loading only the plugin that provides it."""
    return registry().provider_class(provider_id)


def aliases() -> dict[str, str]:
    """Alias → provider id (first-party aliases and those plugins registered)."""
    return registry().aliases()


def load_errors() -> dict[str, str]:
    """Plugins that failed to load or register: entry-point name → error text."""
    return registry().errors()


def add_hookspecs(module: ModuleType | type) -> None:
    """Add the hook specifications in ``module`` (``pluggy.HookspecMarker("modelport")``) to the plugin
    manager, once. Name the hooks after your package (``modelport_<package>_<what>``): plugins'
    implementations of them are held until the specs are added, then verified (a mismatch is recorded
    in :func:`load_errors`)."""
    registry().add_hookspecs(module)


def collect(hook_name: str, record: Callable[..., _T]) -> list[_T]:
    """What every plugin (all are loaded) contributes through the on-demand hook ``hook_name``: each
    call of the ``register`` callback it is given becomes ``record(*args, **kwargs)``.

    Each plugin is asked once; every record so far is returned, first-party plugins' first. A
    ``record`` (or a hook) that raises is recorded against that plugin in :func:`load_errors` and the
    others are still asked. One package collects a hook: the one that specifies it.
    """
    return registry().collect(hook_name, record)


def __getattr__(name: str) -> Any:
    if name in {"ConformanceSuite", "conformance_suites"}:
        from .lazy import moved_to_conformance

        return moved_to_conformance(__name__, name, "modelport_conformance")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
