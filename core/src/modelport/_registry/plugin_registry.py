"""The plugin registry: one pluggy manager, lazy entry-point loading, isolated plugin failures.

Entry points live in the group ``modelport``; an entry point's name is the provider id it provides
(a module providing several ids is listed once per id and loaded once). ``import modelport`` loads
nothing; looking up ``google/...`` loads only the ``google`` entry point. A plugin that fails to
import or register is recorded in :func:`plugin_errors` and the others go on.

Isolation: a plugin that raises (or calls ``sys.exit``) while importing, registering providers or
registering tools is recorded against that plugin alone; the other plugins' providers and tools still
register. Ids are never taken over: a first-party id (``google``) belongs to its first-party
distribution, an id whose entry point exists belongs to that entry point's plugin, any other id to the
plugin that registered it first; aliases and tool ids likewise. A refused registration is recorded
against the plugin that attempted it. Plugins are imported without holding the registry's lock, so a
slow plugin never delays lookups of providers that are already loaded (or being loaded elsewhere).

Environment variables:

- ``MODELPORT_DISABLE_PLUGIN_AUTOLOAD=1``: load no entry points (explicit registration only).
- ``MODELPORT_BLOCK_PLUGINS=a,b``: never load the entry points named ``a`` and ``b``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from importlib import metadata
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

import pluggy

from .. import hookspecs
from ..errors import ConfigurationError, ProviderToolError
from ..provider import Provider
from .first_party import BUILTIN_ALIASES, FIRST_PARTY
from .hooks import CORE_FAMILY, add_specs, refuse_unknown_hooks, unknown_hooks
from .registrants import (
    ENTRY_POINT_GROUP,
    Once,
    Registrant,
    Survey,
    Tables,
    alias_conflict,
    autoload_disabled,
    blocked,
    describe,
    first_party_first,
    format_error,
    not_found,
    plugin_label,
    provider_conflict,
    tool_conflict,
)

if TYPE_CHECKING:
    from ..tools.spec import ProviderToolSpec

_T = TypeVar("_T")


class Registry:
    """Providers and provider tools contributed by plugins. Safe under concurrent first use."""

    def __init__(self) -> None:
        # ``_lock`` guards the tables and is only ever held briefly; ``_pm_lock`` serialises pluggy
        # registration; ``_collect_lock`` serialises the on-demand hooks. Order: ``_collect_lock``,
        # then ``_pm_lock``, then ``_lock``, never the reverse. Plugins are imported under none.
        self._lock = threading.RLock()
        self._pm_lock = threading.RLock()
        self._collect_lock = threading.RLock()
        self._local = threading.local()
        self._pm: pluggy.PluginManager | None = None
        self._providers: dict[str, type[Provider]] = {}
        self._owners: dict[str, str] = {}
        self._aliases: dict[str, str] = dict(BUILTIN_ALIASES)
        self._tables = Tables(self._providers, self._owners, self._aliases)
        self._errors: dict[str, str] = {}
        self._tools: dict[str, ProviderToolSpec] = {}
        self._contributions: dict[str, list[Any]] = {}
        self._families: set[str] = {CORE_FAMILY}
        self._spec_modules: set[object] = set()
        self._once = Once()
        self._registrants: dict[str, Registrant] = {}
        self._all_loaded = False
        self._collected: dict[str, set[object]] = {}

    # The manager -----------------------------------------------------------------------------

    def manager(self) -> pluggy.PluginManager:
        """The pluggy manager, built once: specs added, historic hooks armed."""
        pm = self._pm
        if pm is None:
            with self._pm_lock:
                if self._pm is None:
                    pm = pluggy.PluginManager("modelport")
                    pm.add_hookspecs(hookspecs)
                    pm.hook.modelport_register_providers.call_historic(
                        kwargs={"register": self._register_provider}
                    )
                    self._pm = pm
                pm = self._pm
        return pm

    def _record(self, label: str, problem: str) -> None:
        """Record a problem against the plugin labelled ``label`` (several are joined)."""
        with self._lock:
            known = self._errors.get(label)
            self._errors[label] = problem if not known or problem in known else f"{known}; {problem}"
        noted: list[str] | None = getattr(self._local, "problems", None)
        if noted is not None:  # a registration in progress on this thread: tell its caller too
            noted.append(problem)

    def _register_provider(self, provider: type[Provider], *, aliases: tuple[str, ...] = ()) -> None:
        if not (isinstance(provider, type) and issubclass(provider, Provider)):
            raise ConfigurationError(f"{provider!r} is not a modelport Provider subclass")
        provider_id = getattr(provider, "id", None)
        if not isinstance(provider_id, str) or not provider_id:
            raise ConfigurationError(f"{provider!r} has no provider id (set the class attribute 'id')")
        from ..contracts import adapted  # types and events: not imported until a provider registers

        provider = adapted(provider)  # refused here when its contract version cannot be adapted
        registrant: Registrant | None = getattr(self._local, "registrant", None)
        label = registrant.label if registrant is not None else provider.__module__
        with self._lock:
            if self._providers.get(provider_id) is provider:
                return  # the same class again (a module listed under several entry points)
            problem = provider_conflict(self._tables, provider_id, registrant, provider.__module__)
            if problem is not None:
                self._record(label, problem)
                return
            self._providers[provider_id] = provider
            self._owners[provider_id] = label
            for alias in aliases:
                problem = alias_conflict(self._tables, alias, provider_id)
                if problem is not None:
                    self._record(label, problem)
                else:
                    self._aliases[alias] = provider_id

    def register_tool(self, spec: ProviderToolSpec) -> None:
        """Add a provider-tool spec to the table; a different spec with the same id is an error."""
        with self._lock:
            existing = self._tools.get(spec.id)
            if existing is not None and existing != spec:
                raise ProviderToolError(f"duplicate provider tool id {spec.id!r}", tool_id=spec.id)
            self._tools[spec.id] = spec

    def _tool_registrar(self, registrant: Registrant) -> Callable[[ProviderToolSpec], None]:
        """The ``register`` callback of the tools hook for one plugin: refusals are recorded on it."""

        def register(spec: ProviderToolSpec) -> None:
            from ..tools.spec import ProviderToolSpec

            if not isinstance(spec, ProviderToolSpec):
                raise ConfigurationError(f"{spec!r} is not a modelport ProviderToolSpec")
            problem = tool_conflict(spec.id, spec.namespace, registrant, spec.args_type.__module__)
            if problem is not None:
                self._record(registrant.label, problem)
                return
            try:
                self.register_tool(spec)
            except ProviderToolError as error:
                self._record(registrant.label, f"{error}; not registered")

        return register

    def _registrant(self, pm: pluggy.PluginManager, plugin: object) -> Registrant:
        name = pm.get_name(plugin)
        found = self._registrants.get(name) if name is not None else None
        return found if found is not None else Registrant(label=plugin_label(plugin, name))

    def _register_with_pm(self, plugin: object, name: str, registrant: Registrant) -> list[str]:
        """``pm.register`` under the pluggy lock with ``registrant`` current; the problems it recorded.

        A failure (also ``SystemExit``) unregisters the plugin and is raised.
        """
        pm = self.manager()
        with self._pm_lock:
            if pm.is_registered(plugin):
                return []
            problems: list[str] = []
            self._registrants[name] = registrant
            self._local.registrant, self._local.problems = registrant, problems
            try:
                pm.register(plugin, name=name)
                refuse_unknown_hooks(pm, plugin, self._families)
            except BaseException:
                if pm.is_registered(plugin):
                    pm.unregister(plugin)
                raise
            finally:
                self._local.registrant = self._local.problems = None
            return problems

    def register_plugin(self, plugin: object, name: str | None = None) -> None:
        """Register a plugin object or module directly (the same path entry points take).

        Raises :class:`ConfigurationError` when the plugin fails to register or when some of what it
        registers was refused (an id, alias or tool already taken); both are also recorded.
        """
        label = plugin_label(plugin, name)
        registrant = Registrant(label=label)
        try:
            problems = self._register_with_pm(plugin, name or label, registrant)
        except (Exception, SystemExit) as error:
            self._record(label, format_error(error))
            raise ConfigurationError(f"plugin {label!r} failed to register: {describe(error)}") from error
        if problems:
            raise ConfigurationError(f"plugin {label!r}: {'; '.join(problems)}")

    # Entry points ----------------------------------------------------------------------------

    @staticmethod
    def _entry_points(name: str | None = None) -> list[metadata.EntryPoint]:
        eps = metadata.entry_points(group=ENTRY_POINT_GROUP)
        found = list(eps) if name is None else [ep for ep in eps if ep.name == name]
        return sorted(found, key=lambda ep: ep.name)

    def _load_entry_point(self, ep: metadata.EntryPoint, survey: Survey) -> None:
        """Import and register one entry point, at most once; wait if another thread is at it."""
        if ep.name not in blocked():
            self._once.run(f"{ep.name}={ep.value}", lambda: self._import_and_register(ep, survey))

    def _import_and_register(self, ep: metadata.EntryPoint, survey: Survey) -> None:
        distribution = getattr(getattr(ep, "dist", None), "name", None)
        # Two distributions declaring the same entry-point name are told apart in plugin_errors.
        label = f"{ep.name} ({distribution or ep.value})" if ep.name in survey.shared else ep.name
        registrant = Registrant(
            label=label, ep_name=ep.name, value=ep.value, distribution=distribution, claims=survey.claims
        )
        try:
            plugin = ep.load()  # under no registry lock: a slow import delays nobody else
            self._register_with_pm(plugin, f"{ep.name}:{ep.value}", registrant)
        except (Exception, SystemExit) as error:  # one plugin's failure must not stop the others
            self._record(label, format_error(error))

    def load(self, name: str) -> None:
        """Load the entry points named ``name`` (unless blocked or autoload is off)."""
        self.manager()
        if autoload_disabled():
            return
        eps = self._entry_points()
        survey = Survey.of(eps)
        for ep in eps:
            if ep.name == name:
                self._load_entry_point(ep, survey)

    def load_all(self) -> None:
        """Load every entry point of the group (unless blocked or autoload is off)."""
        self.manager()
        if autoload_disabled():
            return
        with self._lock:
            if self._all_loaded:
                return
        eps = self._entry_points()
        survey = Survey.of(eps)
        for ep in eps:
            self._load_entry_point(ep, survey)
        with self._lock:
            self._all_loaded = True

    def load_tool_namespace(self, namespace: str | None) -> None:
        """Make sure the plugins that provide ``namespace.*`` tools are loaded and collected."""
        if namespace is None:
            self.load_all()
        else:
            self.load(namespace)
        self._collect("modelport_register_provider_tools", self._tool_registrar)

    def _collect(self, hook_name: str, registrar: Callable[[Registrant], Any]) -> None:
        """Call an on-demand hook on every plugin not yet asked, exactly once per plugin.

        Each plugin is called on its own (first-party plugins first): one that raises (or calls
        ``sys.exit``) is recorded against that plugin and the others are still asked. ``registrar``
        makes the ``register`` callback given to one plugin. The hooks run under the collection
        lock only (a concurrent collector waits for them), not under the lock plugin registration
        needs, so a slow hook delays no other plugin's loading.
        """
        pm = self.manager()
        with self._collect_lock:
            with self._pm_lock:
                asked = self._collected.setdefault(hook_name, set())
                fresh = [(self._registrant(pm, p), p) for p in pm.get_plugins() if p not in asked]
                if not fresh:
                    return
                asked.update(p for _, p in fresh)
                caller = getattr(pm.hook, hook_name, None)
                impls = caller.get_hookimpls() if caller is not None else []
                calls = [
                    (registrant, impl)
                    for registrant, plugin in sorted(fresh, key=first_party_first)
                    for impl in impls
                    if impl.plugin is plugin and not (impl.hookwrapper or impl.wrapper)
                ]
            for registrant, impl in calls:
                arguments = {"register": registrar(registrant)}
                try:
                    impl.function(*[arguments[name] for name in impl.argnames])
                except (Exception, SystemExit) as error:
                    self._record(registrant.label, f"{hook_name} failed: {format_error(error)}")

    # Hooks other packages specify -------------------------------------------------------------

    def add_hookspecs(self, module: ModuleType | type) -> None:
        """Add the hook specifications of a package that extends the plugin contract (once).

        Held implementations are verified now: one asking for arguments the spec does not offer is
        recorded and its plugin unregistered; one of an unknown hook of the new family is recorded.
        """
        pm = self.manager()
        with self._pm_lock:
            if module in self._spec_modules:
                return

            def refuse(plugin: object, problem: str) -> None:
                self._record(self._registrant(pm, plugin).label, f"{problem}; plugin unregistered")
                pm.unregister(plugin)

            families = add_specs(pm, module, refuse)
            self._spec_modules.add(module)
            self._families |= families
            for plugin in pm.get_plugins():
                for name in unknown_hooks(pm, plugin, families):
                    self._record(self._registrant(pm, plugin).label, f"unknown hook {name!r}; not called")

    def collect(self, hook_name: str, record: Callable[..., _T]) -> list[_T]:
        """Ask every plugin (loads them all) for what it contributes through the on-demand hook
        ``hook_name``: each call of its ``register`` callback becomes ``record(*args, **kwargs)``.

        Each plugin is asked once for the life of the registry; the records of every call so far are
        returned, first-party plugins' first. A ``record`` that raises is recorded against that
        plugin. One package (the one that specifies the hook) collects it.
        """
        self.load_all()

        def registrar(_registrant: Registrant) -> Callable[..., None]:
            def register(*args: Any, **kwargs: Any) -> None:
                made = record(*args, **kwargs)
                with self._lock:
                    self._contributions.setdefault(hook_name, []).append(made)

            return register

        self._collect(hook_name, registrar)
        with self._lock:
            return list(self._contributions.get(hook_name, ()))

    # Lookup ----------------------------------------------------------------------------------

    def provider_class(self, provider_id: str) -> type[Provider]:
        """The provider class for an id or alias, loading its plugin on first use.

        The registry's lock is never held while a plugin is imported: a lookup of a provider that
        is already registered answers at once, whatever other plugins are doing.
        """
        found = self._lookup(provider_id)
        if found is None:
            self.load(provider_id)
            with self._lock:
                target = self._aliases.get(provider_id)
            if target is not None and target != provider_id:
                self.load(target)
            found = self._lookup(provider_id)
        if found is None:
            self.load_all()
            found = self._lookup(provider_id)
        if found is not None:
            return found
        with self._lock:
            canonical = self._aliases.get(provider_id, provider_id)
            error = self._errors.get(canonical)
            candidates = sorted({*self._providers, *self._aliases, *FIRST_PARTY})
        is_blocked = canonical in blocked() and bool(self._entry_points(canonical))
        raise not_found(provider_id, canonical, error, candidates, blocked=is_blocked)

    def _lookup(self, provider_id: str) -> type[Provider] | None:
        with self._lock:
            found = self._providers.get(provider_id)
            if found is None and provider_id in self._aliases:
                found = self._providers.get(self._aliases[provider_id])
            return found

    def providers(self) -> dict[str, type[Provider]]:
        """Every registered provider (loads all plugins)."""
        self.load_all()
        with self._lock:
            return dict(self._providers)

    def provider_tools(self, namespace: str | None = None) -> dict[str, ProviderToolSpec]:
        """Provider-tool specs by id: every one (loads every plugin), or those of ``namespace``
        (loads the plugin that provides it)."""
        self.load_tool_namespace(namespace)
        with self._lock:
            return {k: s for k, s in self._tools.items() if namespace is None or s.namespace == namespace}

    def provider_tool(self, tool_id: str) -> ProviderToolSpec:
        """The spec registered under ``tool_id`` (loads the plugin of its namespace on a miss)."""
        with self._lock:
            spec = self._tools.get(tool_id)
        namespace = tool_id.split(".", 1)[0] if "." in tool_id else None
        if spec is None and namespace:
            self.load_tool_namespace(namespace)
            with self._lock:
                spec = self._tools.get(tool_id)
        if spec is None:
            raise ProviderToolError(f"unknown provider tool {tool_id!r}", tool_id=tool_id)
        return spec

    def aliases(self) -> dict[str, str]:
        """Alias → provider id."""
        with self._lock:
            return dict(self._aliases)

    def errors(self) -> dict[str, str]:
        """Plugins that failed to load: entry-point name → error text."""
        with self._lock:
            return dict(self._errors)


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
    with _REGISTRY_LOCK:
        _REGISTRY = None


def plugin_errors() -> dict[str, str]:
    """Plugins that failed to load or register, by entry-point name, with the error."""
    return registry().errors()


def register_plugin(plugin: Any, name: str | None = None) -> None:
    """Register a plugin object or module directly, as an entry point would."""
    registry().register_plugin(plugin, name=name)
