"""The plugin registry: one pluggy manager, lazy entry-point loading, isolated plugin failures.

Entry points live in the group ``modelport``; an entry point's name is the provider id it provides
(a module providing several ids is listed once per id and loaded once). ``import modelport`` loads
nothing; looking up ``google/...`` loads only the ``google`` entry point. A plugin that fails to
import or register is recorded in :func:`plugin_errors` and the others go on.

Environment variables:

- ``MODELPORT_DISABLE_PLUGIN_AUTOLOAD=1``: load no entry points (explicit registration only).
- ``MODELPORT_BLOCK_PLUGINS=a,b``: never load the entry points named ``a`` and ``b``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import TYPE_CHECKING, Any

import pluggy

from . import hookspecs
from .errors import ConfigurationError, ProviderNotInstalledError, UnknownProviderError
from .provider import Provider

if TYPE_CHECKING:
    from .provider_tools import ProviderToolSpec

ENTRY_POINT_GROUP = "modelport"
AUTOLOAD_ENV = "MODELPORT_DISABLE_PLUGIN_AUTOLOAD"
BLOCK_ENV = "MODELPORT_BLOCK_PLUGINS"


@dataclass(frozen=True)
class FirstParty:
    """A provider we publish ourselves, so a missing install gets an exact instruction."""

    display_name: str
    distribution: str
    family: str


FIRST_PARTY: dict[str, FirstParty] = {
    "google": FirstParty("Google", "modelport-google", "google"),
    "google-vertex": FirstParty("Google Vertex AI", "modelport-google", "google-vertex"),
}

#: Aliases of first-party providers, known before any plugin loads.
BUILTIN_ALIASES: dict[str, str] = {
    "gemini": "google",
    "google-gemini": "google",
    "vertex": "google-vertex",
    "vertexai": "google-vertex",
}


@dataclass(frozen=True)
class ConformanceSuite:
    """Recorded conformance cases a plugin registered for one provider (see the hookspec)."""

    provider_id: str
    cases: Any
    unsupported: Mapping[str, str] = field(default_factory=dict)
    merge_frames: Callable[[list[Any]], Any] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    credential_env: tuple[str, ...] = ()


def _blocked() -> set[str]:
    return {n.strip() for n in os.environ.get(BLOCK_ENV, "").split(",") if n.strip()}


def _autoload_disabled() -> bool:
    return os.environ.get(AUTOLOAD_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


class Registry:
    """Providers and provider tools contributed by plugins. Safe under concurrent first use."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._pm: pluggy.PluginManager | None = None
        self._providers: dict[str, type[Provider]] = {}
        self._aliases: dict[str, str] = dict(BUILTIN_ALIASES)
        self._errors: dict[str, str] = {}
        self._suites: dict[str, list[ConformanceSuite]] = {}
        self._loaded_names: set[str] = set()
        self._all_loaded = False
        self._collected: dict[str, set[object]] = {}

    # The manager -----------------------------------------------------------------------------

    def manager(self) -> pluggy.PluginManager:
        """The pluggy manager, built once: specs added, historic hooks armed."""
        with self._lock:
            if self._pm is None:
                pm = pluggy.PluginManager("modelport")
                pm.add_hookspecs(hookspecs)
                pm.hook.modelport_register_providers.call_historic(
                    kwargs={"register": self._register_provider}
                )
                self._pm = pm
            return self._pm

    def _register_provider(self, provider: type[Provider], *, aliases: tuple[str, ...] = ()) -> None:
        if not (isinstance(provider, type) and issubclass(provider, Provider)):
            raise ConfigurationError(f"{provider!r} is not a modelport Provider subclass")
        existing = self._providers.get(provider.id)
        if existing is not None and existing is not provider:
            raise ConfigurationError(
                f"provider id {provider.id!r} is registered twice "
                f"({existing.__module__} and {provider.__module__})"
            )
        self._providers[provider.id] = provider
        for alias in aliases:
            self._aliases[alias] = provider.id

    def _register_suite(
        self,
        provider_id: str,
        cases: Any,
        *,
        unsupported: Mapping[str, str] | None = None,
        merge_frames: Callable[[list[Any]], Any] | None = None,
        options: Mapping[str, Any] | None = None,
        credential_env: tuple[str, ...] = (),
    ) -> None:
        suite = ConformanceSuite(
            provider_id=provider_id,
            cases=cases,
            unsupported=dict(unsupported or {}),
            merge_frames=merge_frames,
            options=dict(options or {}),
            credential_env=tuple(credential_env),
        )
        with self._lock:
            self._suites.setdefault(provider_id, []).append(suite)

    @staticmethod
    def _register_tool(spec: ProviderToolSpec) -> None:
        from .provider_tools import register_provider_tool

        register_provider_tool(spec)

    def register_plugin(self, plugin: object, name: str | None = None) -> None:
        """Register a plugin object or module directly (the same path entry points take)."""
        pm = self.manager()
        with self._lock:
            if pm.is_registered(plugin):
                return
            try:
                pm.register(plugin, name=name)
                pm.check_pending()
            except Exception as error:
                if pm.is_registered(plugin):
                    pm.unregister(plugin)
                label: str = name or str(getattr(plugin, "__name__", repr(plugin)))
                self._errors[label] = _format_error(error)
                raise ConfigurationError(f"plugin {label!r} failed to register: {error}") from error

    def unregister_provider(self, provider_id: str) -> None:
        """Forget a provider (tests and plugin development)."""
        with self._lock:
            self._providers.pop(provider_id, None)
            for alias, target in list(self._aliases.items()):
                if target == provider_id and alias not in BUILTIN_ALIASES:
                    del self._aliases[alias]

    # Entry points ----------------------------------------------------------------------------

    @staticmethod
    def _entry_points(name: str | None = None) -> list[metadata.EntryPoint]:
        eps = metadata.entry_points(group=ENTRY_POINT_GROUP)
        found = list(eps) if name is None else [ep for ep in eps if ep.name == name]
        return sorted(found, key=lambda ep: ep.name)

    def _load_entry_point(self, ep: metadata.EntryPoint) -> None:
        if ep.name in self._loaded_names or ep.name in _blocked():
            return
        self._loaded_names.add(ep.name)
        pm = self.manager()
        try:
            plugin = ep.load()
            if not pm.is_registered(plugin):
                pm.register(plugin, name=f"{ep.name}:{ep.value}")
                pm.check_pending()
        except Exception as error:  # an import-time failure of one plugin must not stop the others
            self._errors[ep.name] = _format_error(error)

    def load(self, name: str) -> None:
        """Load the entry points named ``name`` (unless blocked or autoload is off)."""
        if _autoload_disabled():
            self.manager()
            return
        with self._lock:
            for ep in self._entry_points(name):
                self._load_entry_point(ep)

    def load_all(self) -> None:
        """Load every entry point of the group (unless blocked or autoload is off)."""
        self.manager()
        if _autoload_disabled():
            return
        with self._lock:
            if self._all_loaded:
                return
            for ep in self._entry_points():
                self._load_entry_point(ep)
            self._all_loaded = True

    def load_tool_namespace(self, namespace: str | None) -> None:
        """Make sure the plugins that provide ``namespace.*`` tools are loaded and collected."""
        if namespace is None:
            self.load_all()
        else:
            self.load(namespace)
        self._collect("modelport_register_provider_tools", self._register_tool)

    def _collect(self, hook_name: str, register: Any) -> None:
        """Call an on-demand hook on every plugin not yet asked, exactly once per plugin."""
        pm = self.manager()
        with self._lock:
            asked = self._collected.setdefault(hook_name, set())
            fresh = [p for p in pm.get_plugins() if p not in asked]
            if not fresh:
                return
            caller = pm.subset_hook_caller(hook_name, remove_plugins=list(asked))
            asked.update(fresh)
            try:
                caller(register=register)
            except Exception as error:
                self._errors[hook_name] = _format_error(error)
                raise ConfigurationError(f"a plugin failed in {hook_name}: {error}") from error

    # Lookup ----------------------------------------------------------------------------------

    def provider_class(self, provider_id: str) -> type[Provider]:
        """The provider class for an id or alias, loading its plugin on first use."""
        with self._lock:
            found = self._lookup(provider_id)
            if found is None:
                self.load(provider_id)
                target = self._aliases.get(provider_id)
                if target is not None and target != provider_id:
                    self.load(target)
                found = self._lookup(provider_id)
            if found is None:
                self.load_all()
                found = self._lookup(provider_id)
            if found is not None:
                return found
            canonical = self._aliases.get(provider_id, provider_id)
            if canonical in _blocked() and self._entry_points(canonical):
                raise ConfigurationError(f"the plugin for provider {canonical!r} is blocked by {BLOCK_ENV}")
            if canonical in self._errors:
                raise ConfigurationError(
                    f"the plugin for provider {canonical!r} failed to load: "
                    f"{self._errors[canonical].splitlines()[-1]}"
                )
            first_party = FIRST_PARTY.get(canonical)
            if first_party is not None:
                raise ProviderNotInstalledError(canonical, first_party.display_name, first_party.distribution)
            import difflib  # only unknown ids pay for it

            candidates = sorted({*self._providers, *self._aliases, *FIRST_PARTY})
            suggestions = difflib.get_close_matches(provider_id, candidates, n=3, cutoff=0.6)
            raise UnknownProviderError(provider_id, suggestions)

    def _lookup(self, provider_id: str) -> type[Provider] | None:
        found = self._providers.get(provider_id)
        if found is None and provider_id in self._aliases:
            found = self._providers.get(self._aliases[provider_id])
        return found

    def providers(self) -> dict[str, type[Provider]]:
        """Every registered provider (loads all plugins)."""
        self.load_all()
        with self._lock:
            return dict(self._providers)

    def conformance_suites(self) -> dict[str, list[ConformanceSuite]]:
        """Conformance cases registered by plugins, by provider id (loads all plugins)."""
        self.load_all()
        self._collect("modelport_conformance_suites", self._register_suite)
        with self._lock:
            return {k: list(v) for k, v in self._suites.items()}

    def aliases(self) -> dict[str, str]:
        """Alias → provider id."""
        with self._lock:
            return dict(self._aliases)

    def errors(self) -> dict[str, str]:
        """Plugins that failed to load: entry-point name → error text."""
        with self._lock:
            return dict(self._errors)


def _format_error(error: BaseException) -> str:
    import traceback

    lines = traceback.format_exception_only(type(error), error)
    return "".join(lines).strip()


_REGISTRY: Registry | None = None
_REGISTRY_LOCK = threading.Lock()


def registry() -> Registry:
    """The process-wide registry."""
    global _REGISTRY
    if _REGISTRY is None:
        with _REGISTRY_LOCK:
            if _REGISTRY is None:
                _REGISTRY = Registry()
    return _REGISTRY


def reset_registry() -> None:
    """Forget every loaded plugin and provider tool (for tests)."""
    global _REGISTRY
    from .provider_tools import _clear

    with _REGISTRY_LOCK:
        _REGISTRY = None
        _clear()


def plugin_errors() -> dict[str, str]:
    """Plugins that failed to load or register, by entry-point name, with the error."""
    return registry().errors()


def register_plugin(plugin: Any, name: str | None = None) -> None:
    """Register a plugin object or module directly, as an entry point would."""
    registry().register_plugin(plugin, name=name)
