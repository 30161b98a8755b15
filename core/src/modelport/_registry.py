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

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import TYPE_CHECKING, Any, TypeVar

import pluggy

from . import hookspecs
from ._first_party import BUILTIN_ALIASES, FIRST_PARTY, FirstParty, normalized
from ._hooks import CORE_FAMILY, family, held_mismatches, hook_specs, unknown_hooks
from .errors import ConfigurationError, ProviderNotInstalledError, ProviderToolError, UnknownProviderError
from .provider import Provider

if TYPE_CHECKING:
    from .provider_tools import ProviderToolSpec

ENTRY_POINT_GROUP = "modelport"
AUTOLOAD_ENV = "MODELPORT_DISABLE_PLUGIN_AUTOLOAD"
BLOCK_ENV = "MODELPORT_BLOCK_PLUGINS"

_T = TypeVar("_T")


@dataclass(frozen=True)
class _Registrant:
    """Who is registering: the plugin's label in :func:`plugin_errors` and, for an entry point, where
    it comes from (its distribution, value, and the provider ids other entry points claim)."""

    label: str
    ep_name: str | None = None
    value: str | None = None
    distribution: str | None = None
    claims: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Survey:
    """The installed entry points at one lookup: the plugin each provider id belongs to (by
    entry-point name, the first one found) and the names more than one distribution declares."""

    claims: Mapping[str, str]
    shared: frozenset[str]

    @classmethod
    def of(cls, eps: list[metadata.EntryPoint]) -> _Survey:
        claims: dict[str, str] = {}
        seen: set[str] = set()
        shared: set[str] = set()
        for ep in eps:
            claims.setdefault(ep.name, ep.value)
            (shared if ep.name in seen else seen).add(ep.name)
        return cls(claims, frozenset(shared))


def _is_first_party(owner: FirstParty, registrant: _Registrant | None, module: str) -> bool:
    """Whether what ``registrant`` registers (defined in ``module``) comes from ``owner``'s package."""
    if registrant is not None and registrant.distribution is not None:
        return normalized(registrant.distribution) == normalized(owner.distribution)
    return module.partition(".")[0] == owner.distribution.replace("-", "_")


def _first_party_first(item: tuple[_Registrant, object]) -> tuple[bool, str]:
    """Sort key: first-party plugins (by distribution, else by module) first, then by label."""
    registrant, plugin = item
    module = str(getattr(plugin, "__name__", None) or type(plugin).__module__)
    first_party = any(_is_first_party(owner, registrant, module) for owner in FIRST_PARTY.values())
    return (not first_party, registrant.label)


def _plugin_label(plugin: object, name: str | None) -> str:
    return name or str(getattr(plugin, "__name__", None) or repr(plugin))


def _blocked() -> set[str]:
    return {n.strip() for n in os.environ.get(BLOCK_ENV, "").split(",") if n.strip()}


def _autoload_disabled() -> bool:
    return os.environ.get(AUTOLOAD_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


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
        self._errors: dict[str, str] = {}
        self._tools: dict[str, ProviderToolSpec] = {}
        self._contributions: dict[str, list[Any]] = {}
        self._families: set[str] = {CORE_FAMILY}
        self._spec_modules: set[object] = set()
        self._loaded_names: set[str] = set()
        self._loading: dict[str, tuple[int, threading.Event]] = {}
        self._registrants: dict[str, _Registrant] = {}
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

    def _provider_conflict(self, provider_id: str, registrant: _Registrant | None, module: str) -> str | None:
        """Why ``registrant`` may not register ``provider_id`` (``None`` when it may)."""
        owner = FIRST_PARTY.get(provider_id)
        if owner is not None and not _is_first_party(owner, registrant, module):
            return f"provider id {provider_id!r} is reserved for {owner.distribution}; not registered"
        if registrant is not None and registrant.ep_name not in (None, provider_id):
            claimed = registrant.claims.get(provider_id)
            if claimed is not None and claimed != registrant.value:
                return (
                    f"provider id {provider_id!r} belongs to the entry point {provider_id!r} "
                    f"({claimed}); not registered"
                )
        existing = self._providers.get(provider_id)
        if existing is not None:
            return (
                f"provider id {provider_id!r} is already registered by "
                f"{self._owners.get(provider_id, existing.__module__)!r}; not registered"
            )
        target = self._aliases.get(provider_id)
        if target is not None and target != provider_id:
            return f"provider id {provider_id!r} is already an alias of {target!r}; not registered"
        return None

    def _alias_conflict(self, alias: object, provider_id: str) -> str | None:
        if not isinstance(alias, str) or not alias:
            return f"alias {alias!r} of provider {provider_id!r} is not a non-empty string; not registered"
        target = self._aliases.get(alias)
        if target is not None and target != provider_id:
            return f"alias {alias!r} already points at provider {target!r}; not registered"
        if alias != provider_id and (alias in self._providers or alias in FIRST_PARTY):
            return f"alias {alias!r} of provider {provider_id!r} is another provider's id; not registered"
        return None

    def _register_provider(self, provider: type[Provider], *, aliases: tuple[str, ...] = ()) -> None:
        if not (isinstance(provider, type) and issubclass(provider, Provider)):
            raise ConfigurationError(f"{provider!r} is not a modelport Provider subclass")
        provider_id = getattr(provider, "id", None)
        if not isinstance(provider_id, str) or not provider_id:
            raise ConfigurationError(f"{provider!r} has no provider id (set the class attribute 'id')")
        _check_contract(provider)
        registrant: _Registrant | None = getattr(self._local, "registrant", None)
        label = registrant.label if registrant is not None else provider.__module__
        with self._lock:
            if self._providers.get(provider_id) is provider:
                return  # the same class again (a module listed under several entry points)
            problem = self._provider_conflict(provider_id, registrant, provider.__module__)
            if problem is not None:
                self._record(label, problem)
                return
            self._providers[provider_id] = provider
            self._owners[provider_id] = label
            for alias in aliases:
                problem = self._alias_conflict(alias, provider_id)
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

    def _tool_registrar(self, registrant: _Registrant) -> Callable[[ProviderToolSpec], None]:
        """The ``register`` callback of the tools hook for one plugin: refusals are recorded on it."""

        def register(spec: ProviderToolSpec) -> None:
            from .provider_tools import ProviderToolSpec

            if not isinstance(spec, ProviderToolSpec):
                raise ConfigurationError(f"{spec!r} is not a modelport ProviderToolSpec")
            owner = FIRST_PARTY.get(spec.namespace)
            if owner is not None and not _is_first_party(owner, registrant, spec.args_type.__module__):
                self._record(
                    registrant.label,
                    f"provider tool {spec.id!r} is in the namespace {spec.namespace!r} reserved for "
                    f"{owner.distribution}; not registered",
                )
                return
            try:
                self.register_tool(spec)
            except ProviderToolError as error:
                self._record(registrant.label, f"{error}; not registered")

        return register

    def _registrant(self, pm: pluggy.PluginManager, plugin: object) -> _Registrant:
        name = pm.get_name(plugin)
        found = self._registrants.get(name) if name is not None else None
        return found if found is not None else _Registrant(label=_plugin_label(plugin, name))

    def _register_with_pm(self, plugin: object, name: str, registrant: _Registrant) -> list[str]:
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
                unknown = unknown_hooks(pm, plugin, self._families)
                if unknown:
                    raise pluggy.PluginValidationError(
                        plugin, f"unknown hook {unknown[0]!r} in plugin {plugin!r}"
                    )
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
        label = _plugin_label(plugin, name)
        registrant = _Registrant(label=label)
        try:
            problems = self._register_with_pm(plugin, name or label, registrant)
        except (Exception, SystemExit) as error:
            self._record(label, _format_error(error))
            raise ConfigurationError(f"plugin {label!r} failed to register: {_describe(error)}") from error
        if problems:
            raise ConfigurationError(f"plugin {label!r}: {'; '.join(problems)}")

    def unregister_provider(self, provider_id: str) -> None:
        """Forget a provider (tests and plugin development)."""
        with self._lock:
            self._providers.pop(provider_id, None)
            self._owners.pop(provider_id, None)
            for alias, target in list(self._aliases.items()):
                if target == provider_id and alias not in BUILTIN_ALIASES:
                    del self._aliases[alias]

    # Entry points ----------------------------------------------------------------------------

    @staticmethod
    def _entry_points(name: str | None = None) -> list[metadata.EntryPoint]:
        eps = metadata.entry_points(group=ENTRY_POINT_GROUP)
        found = list(eps) if name is None else [ep for ep in eps if ep.name == name]
        return sorted(found, key=lambda ep: ep.name)

    def _load_entry_point(self, ep: metadata.EntryPoint, survey: _Survey) -> None:
        """Import and register one entry point, at most once; wait if another thread is at it."""
        key = f"{ep.name}={ep.value}"
        me = threading.get_ident()
        with self._lock:
            if ep.name in _blocked():
                return
            if key in self._loaded_names:
                pending = self._loading.get(key)
                if pending is None or pending[0] == me:
                    return
                wait: threading.Event | None = pending[1]
            else:
                self._loaded_names.add(key)
                done = threading.Event()
                self._loading[key] = (me, done)
                wait = None
        if wait is not None:
            wait.wait()
            return
        try:
            self._import_and_register(ep, survey)
        finally:
            with self._lock:
                self._loading.pop(key, None)
            done.set()

    def _import_and_register(self, ep: metadata.EntryPoint, survey: _Survey) -> None:
        distribution = getattr(getattr(ep, "dist", None), "name", None)
        # Two distributions declaring the same entry-point name are told apart in plugin_errors.
        label = f"{ep.name} ({distribution or ep.value})" if ep.name in survey.shared else ep.name
        registrant = _Registrant(
            label=label, ep_name=ep.name, value=ep.value, distribution=distribution, claims=survey.claims
        )
        try:
            plugin = ep.load()  # under no registry lock: a slow import delays nobody else
            self._register_with_pm(plugin, f"{ep.name}:{ep.value}", registrant)
        except (Exception, SystemExit) as error:  # one plugin's failure must not stop the others
            self._record(label, _format_error(error))

    def load(self, name: str) -> None:
        """Load the entry points named ``name`` (unless blocked or autoload is off)."""
        self.manager()
        if _autoload_disabled():
            return
        eps = self._entry_points()
        survey = _Survey.of(eps)
        for ep in eps:
            if ep.name == name:
                self._load_entry_point(ep, survey)

    def load_all(self) -> None:
        """Load every entry point of the group (unless blocked or autoload is off)."""
        self.manager()
        if _autoload_disabled():
            return
        with self._lock:
            if self._all_loaded:
                return
        eps = self._entry_points()
        survey = _Survey.of(eps)
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

    def _collect(self, hook_name: str, registrar: Callable[[_Registrant], Any]) -> None:
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
                    for registrant, plugin in sorted(fresh, key=_first_party_first)
                    for impl in impls
                    if impl.plugin is plugin and not (impl.hookwrapper or impl.wrapper)
                ]
            for registrant, impl in calls:
                arguments = {"register": registrar(registrant)}
                try:
                    impl.function(*[arguments[name] for name in impl.argnames])
                except (Exception, SystemExit) as error:
                    self._record(registrant.label, f"{hook_name} failed: {_format_error(error)}")

    # Hooks other packages specify -------------------------------------------------------------

    def add_hookspecs(self, module: object) -> None:
        """Add the hook specifications of a package that extends the plugin contract (once).

        Held implementations are verified now: one asking for arguments the spec does not offer is
        recorded and its plugin unregistered; one of an unknown hook of the new family is recorded.
        """
        pm = self.manager()
        with self._pm_lock:
            if module in self._spec_modules:
                return
            specs = hook_specs(pm, module)
            for plugin, problem in held_mismatches(pm, specs):
                self._record(self._registrant(pm, plugin).label, f"{problem}; plugin unregistered")
                pm.unregister(plugin)
            pm.add_hookspecs(module)
            self._spec_modules.add(module)
            families = {family(name) for name in specs}
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

        def registrar(_registrant: _Registrant) -> Callable[..., None]:
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
        if canonical in _blocked() and self._entry_points(canonical):
            raise ConfigurationError(f"the plugin for provider {canonical!r} is blocked by {BLOCK_ENV}")
        if error is not None:
            raise ConfigurationError(
                f"the plugin for provider {canonical!r} failed to load: {error.splitlines()[-1]}"
            )
        first_party = FIRST_PARTY.get(canonical)
        if first_party is not None:
            raise ProviderNotInstalledError(canonical, first_party.display_name, first_party.distribution)
        import difflib  # only unknown ids pay for it

        suggestions = difflib.get_close_matches(provider_id, candidates, n=3, cutoff=0.6)
        raise UnknownProviderError(provider_id, suggestions)

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


def _check_contract(provider: type[Provider]) -> None:
    """A provider written against another major version of the contract is refused."""
    from .provider import CONTRACT_VERSION

    wanted = str(getattr(provider, "contract_version", CONTRACT_VERSION))
    if wanted.split(".")[0] != CONTRACT_VERSION.split(".")[0]:
        raise ConfigurationError(
            f"provider {provider.id!r} was written for provider contract {wanted}; this modelport "
            f"implements {CONTRACT_VERSION} (upgrade the plugin or modelport)"
        )


def _format_error(error: BaseException) -> str:
    import traceback

    if isinstance(error, SystemExit):
        return f"SystemExit: the plugin called sys.exit({error.code!r})"
    lines = traceback.format_exception_only(type(error), error)
    return "".join(lines).strip()


def _describe(error: BaseException) -> str:
    return _format_error(error) if isinstance(error, SystemExit) else str(error)


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
