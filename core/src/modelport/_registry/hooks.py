"""Which hooks a plugin may implement: the core's own and those other packages add to the manager.

A hook belongs to a *family*, the first two words of its name. The core's hooks are the family
``modelport_register_`` (:mod:`modelport.hookspecs`); a package that extends the plugin contract names
its hooks after itself (modelport-conformance: ``modelport_conformance_suites``) and adds their
specifications when it first needs them (:func:`modelport.plugins.add_hookspecs`). Until then an
implementation of such a hook is held unverified, so a plugin that contributes conformance suites loads
whether or not modelport-conformance is installed. An implementation of an unknown hook of a known
family (a misspelling) or outside every ``modelport_`` family is refused.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import ModuleType

import pluggy

from ..errors import ConfigurationError

__all__ = ["CORE_FAMILY", "add_specs", "family", "refuse_unknown_hooks", "unknown_hooks"]

CORE_FAMILY = "modelport_register_"


def family(hook_name: str) -> str:
    """The family of a hook: ``modelport_conformance_suites`` → ``modelport_conformance_``."""
    return "_".join(hook_name.split("_")[:2]) + "_"


def unknown_hooks(pm: pluggy.PluginManager, plugin: object, families: set[str]) -> list[str]:
    """The hooks ``plugin`` implements that no specification covers, in a known family or in none."""
    unknown = []
    for caller in pm.get_hookcallers(plugin) or []:
        if not caller.has_spec() and (
            not caller.name.startswith("modelport_") or family(caller.name) in families
        ):
            unknown.append(caller.name)
    return sorted(unknown)


def hook_specs(pm: pluggy.PluginManager, module: ModuleType | type) -> dict[str, set[str]]:
    """The hook specifications of ``module``: hook name → the argument names it offers."""
    return {
        name: set(inspect.signature(getattr(module, name)).parameters)
        for name in dir(module)
        if pm.parse_hookspec_opts(module, name) is not None
    }


def held_mismatches(pm: pluggy.PluginManager, specs: dict[str, set[str]]) -> list[tuple[object, str]]:
    """Held implementations of the hooks ``specs`` describe that ask for arguments the spec does not
    offer: ``(plugin, problem)`` pairs (pluggy would refuse them when the specs are added)."""
    found: list[tuple[object, str]] = []
    for name, offered in specs.items():
        caller = getattr(pm.hook, name, None)
        if caller is None or caller.has_spec():
            continue
        for impl in caller.get_hookimpls():
            extra = sorted(set(impl.argnames) - offered)
            if extra:
                found.append((impl.plugin, f"hook {name!r} offers no argument {', '.join(map(repr, extra))}"))
    return found


def refuse_unknown_hooks(pm: pluggy.PluginManager, plugin: object, families: set[str]) -> None:
    """Raise :class:`pluggy.PluginValidationError` when ``plugin`` implements an unknown hook of a
    known family or of none (a misspelling): it is not registered."""
    unknown = unknown_hooks(pm, plugin, families)
    if unknown:
        raise pluggy.PluginValidationError(plugin, f"unknown hook {unknown[0]!r} in plugin {plugin!r}")


def add_specs(
    pm: pluggy.PluginManager, module: ModuleType | type, refuse: Callable[[object, str], None]
) -> set[str]:
    """Add the specifications in ``module`` to ``pm``; the held implementations that ask for
    arguments a spec does not offer are first handed to ``refuse(plugin, problem)``, which must
    unregister the plugin. Returns the families of the hooks added. A hook another module already
    specifies is a :class:`ConfigurationError` (nothing is added)."""
    specs = hook_specs(pm, module)
    for name in specs:
        caller = getattr(pm.hook, name, None)
        if caller is not None and caller.spec is not None:
            raise ConfigurationError(f"the hook {name!r} is already specified by {caller.spec.namespace!r}")
    for plugin, problem in held_mismatches(pm, specs):
        refuse(plugin, problem)
    pm.add_hookspecs(module)
    return {family(name) for name in specs}
