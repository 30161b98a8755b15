"""The public face of the plugin registry: what is installed, and how model ids resolve.

Everything a tool around modelport needs (the conformance suite, a CLI, a dashboard) is here, so no
one imports the registry's private module::

    from modelport import plugins

    plugins.providers()            # {"google": GoogleProvider, ...} (loads every plugin)
    plugins.provider_class("gemini")  # aliases resolve; raises UnknownProviderError with suggestions
    plugins.split_model_id("google/gemini-2.5-flash")  # ("google", "gemini-2.5-flash")
    plugins.conformance_suites()   # {"google": [ConformanceSuite(...)], ...}
    plugins.load_errors()          # plugins that failed to load, with the error
"""

from __future__ import annotations

from ._api import split_model_id
from ._registry import ConformanceSuite, register_plugin, registry
from .provider import Provider

__all__ = [
    "ConformanceSuite",
    "aliases",
    "conformance_suites",
    "load_errors",
    "provider_class",
    "providers",
    "register_plugin",
    "split_model_id",
]


def providers() -> dict[str, type[Provider]]:
    """Every registered provider class by id (loads every installed plugin)."""
    return registry().providers()


def provider_class(provider_id: str) -> type[Provider]:
    """The provider class for an id or alias, loading only the plugin that provides it."""
    return registry().provider_class(provider_id)


def aliases() -> dict[str, str]:
    """Alias → provider id (first-party aliases and those plugins registered)."""
    return registry().aliases()


def conformance_suites() -> dict[str, list[ConformanceSuite]]:
    """Recorded conformance suites that plugins registered, by provider id (loads every plugin)."""
    return registry().conformance_suites()


def load_errors() -> dict[str, str]:
    """Plugins that failed to load or register: entry-point name → error text."""
    return registry().errors()
