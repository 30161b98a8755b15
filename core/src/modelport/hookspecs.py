"""The core's hooks a modelport plugin can implement: the table of contents of a plugin.

A plugin is any object or module with functions marked ``@hookimpl``; it is found through the
entry-point group ``modelport`` (entry-point name = provider id) or registered with
:func:`modelport.register_plugin`. The providers hook is *historic*: a plugin loaded late is still
called with the same ``register`` callback. The tools hook is collected on demand (the first time
tools are validated or listed), once per plugin, so resolving a model never pays for importing tool
code. No hook of a plugin is ever run twice.

The core's hooks are named ``modelport_register_*``. Packages that extend the plugin contract
specify their own hooks, named after themselves, on the same plugin manager: modelport-conformance's
``modelport_conformance_suites`` (:mod:`modelport_conformance.hookspecs`) is implemented with the same
``@hookimpl`` marker, in the same plugin module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import pluggy

if TYPE_CHECKING:
    from .provider import Provider
    from .tools.spec import ProviderToolSpec

__all__ = ["hookimpl", "hookspec", "ProviderRegistrar", "ToolRegistrar"]

#: Marks a function of this module as a hook specification of the ``modelport`` project.
hookspec = pluggy.HookspecMarker("modelport")
#: Marks a plugin's function as the implementation of a hook (``@hookimpl``).
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


@hookspec
def modelport_register_provider_tools(register: ToolRegistrar) -> None:
    """Register provider-executed tool specs: ``register(ProviderToolSpec(...))``."""


def __getattr__(name: str) -> Any:
    """``SuiteRegistrar`` moved to modelport-conformance (deprecated here for one minor version)."""
    if name == "SuiteRegistrar":
        from .lazy import moved_to_conformance

        return moved_to_conformance(__name__, name, "modelport_conformance")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
