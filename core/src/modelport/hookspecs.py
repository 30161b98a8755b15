"""The hooks a modelport plugin can implement: this module is the table of contents of a plugin.

A plugin is any object or module with functions marked ``@hookimpl``; it is found through the
entry-point group ``modelport`` (entry-point name = provider id) or registered with
:func:`modelport.register_plugin`. Both hooks are *historic*: a plugin loaded late is still called
with the same ``register`` callback, so lazy loading never re-runs hooks of plugins already seen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pluggy

if TYPE_CHECKING:
    from .provider import Provider
    from .provider_tools import ProviderToolSpec

__all__ = ["hookimpl", "hookspec", "ProviderRegistrar", "ToolRegistrar"]

hookspec = pluggy.HookspecMarker("modelport")
hookimpl = pluggy.HookimplMarker("modelport")


class ProviderRegistrar(Protocol):
    """The ``register`` callback passed to :func:`modelport_register_providers`."""

    def __call__(self, provider: type[Provider], *, aliases: tuple[str, ...] = ()) -> None: ...


class ToolRegistrar(Protocol):
    """The ``register`` callback passed to :func:`modelport_register_provider_tools`."""

    def __call__(self, spec: ProviderToolSpec) -> None: ...


@hookspec(historic=True)
def modelport_register_providers(register: ProviderRegistrar) -> None:
    """Register provider classes: ``register(MyProvider, aliases=("my",))``."""


@hookspec(historic=True)
def modelport_register_provider_tools(register: ToolRegistrar) -> None:
    """Register provider-executed tool specs: ``register(ProviderToolSpec(...))``."""
