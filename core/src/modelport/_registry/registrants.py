"""Who registers with the plugin registry, and which registrations it refuses.

A :class:`Registrant` is the plugin a registration comes from (its label in ``plugin_errors`` and,
for an entry point, its distribution and the provider ids other entry points claim); the conflict
checks say why an id or alias may not be taken; the environment switches turn entry-point loading
off or block named plugins.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import TYPE_CHECKING

from ..errors import ConfigurationError, ProviderNotInstalledError, UnknownProviderError
from .first_party import FIRST_PARTY, FirstParty, normalized

if TYPE_CHECKING:
    from ..provider import Provider

ENTRY_POINT_GROUP = "modelport"
AUTOLOAD_ENV = "MODELPORT_DISABLE_PLUGIN_AUTOLOAD"
BLOCK_ENV = "MODELPORT_BLOCK_PLUGINS"


@dataclass(frozen=True)
class Tables:
    """The registry's provider tables the conflict checks read (the registry's own dicts)."""

    providers: Mapping[str, type[Provider]]
    owners: Mapping[str, str]
    aliases: Mapping[str, str]


@dataclass(frozen=True)
class Registrant:
    """Who is registering: the plugin's label in :func:`plugin_errors` and, for an entry point, where
    it comes from (its distribution, value, and the provider ids other entry points claim)."""

    label: str
    ep_name: str | None = None
    value: str | None = None
    distribution: str | None = None
    claims: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Survey:
    """The installed entry points at one lookup: the plugin each provider id belongs to (by
    entry-point name, the first one found) and the names more than one distribution declares."""

    claims: Mapping[str, str]
    shared: frozenset[str]

    @classmethod
    def of(cls, eps: list[metadata.EntryPoint]) -> Survey:
        claims: dict[str, str] = {}
        seen: set[str] = set()
        shared: set[str] = set()
        for ep in eps:
            claims.setdefault(ep.name, ep.value)
            (shared if ep.name in seen else seen).add(ep.name)
        return cls(claims, frozenset(shared))


def is_first_party(owner: FirstParty, registrant: Registrant | None, module: str) -> bool:
    """Whether what ``registrant`` registers (defined in ``module``) comes from ``owner``'s package."""
    if registrant is not None and registrant.distribution is not None:
        return normalized(registrant.distribution) == normalized(owner.distribution)
    return module.partition(".")[0] == owner.distribution.replace("-", "_")


def first_party_first(item: tuple[Registrant, object]) -> tuple[bool, str]:
    """Sort key: first-party plugins (by distribution, else by module) first, then by label."""
    registrant, plugin = item
    module = str(getattr(plugin, "__name__", None) or type(plugin).__module__)
    first_party = any(is_first_party(owner, registrant, module) for owner in FIRST_PARTY.values())
    return (not first_party, registrant.label)


def plugin_label(plugin: object, name: str | None) -> str:
    return name or str(getattr(plugin, "__name__", None) or repr(plugin))


def blocked() -> set[str]:
    return {n.strip() for n in os.environ.get(BLOCK_ENV, "").split(",") if n.strip()}


def autoload_disabled() -> bool:
    return os.environ.get(AUTOLOAD_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


def provider_conflict(
    tables: Tables, provider_id: str, registrant: Registrant | None, module: str
) -> str | None:
    """Why ``registrant`` may not register ``provider_id`` (``None`` when it may)."""
    owner = FIRST_PARTY.get(provider_id)
    if owner is not None and not is_first_party(owner, registrant, module):
        return f"provider id {provider_id!r} is reserved for {owner.distribution}; not registered"
    if registrant is not None and registrant.ep_name not in (None, provider_id):
        claimed = registrant.claims.get(provider_id)
        if claimed is not None and claimed != registrant.value:
            return (
                f"provider id {provider_id!r} belongs to the entry point {provider_id!r} "
                f"({claimed}); not registered"
            )
    existing = tables.providers.get(provider_id)
    if existing is not None:
        return (
            f"provider id {provider_id!r} is already registered by "
            f"{tables.owners.get(provider_id, existing.__module__)!r}; not registered"
        )
    target = tables.aliases.get(provider_id)
    if target is not None and target != provider_id:
        return f"provider id {provider_id!r} is already an alias of {target!r}; not registered"
    return None


def alias_conflict(tables: Tables, alias: object, provider_id: str) -> str | None:
    """Why ``alias`` may not point at ``provider_id`` (``None`` when it may)."""
    if not isinstance(alias, str) or not alias:
        return f"alias {alias!r} of provider {provider_id!r} is not a non-empty string; not registered"
    target = tables.aliases.get(alias)
    if target is not None and target != provider_id:
        return f"alias {alias!r} already points at provider {target!r}; not registered"
    if alias != provider_id and (alias in tables.providers or alias in FIRST_PARTY):
        return f"alias {alias!r} of provider {provider_id!r} is another provider's id; not registered"
    return None


def format_error(error: BaseException) -> str:
    import traceback

    if isinstance(error, SystemExit):
        return f"SystemExit: the plugin called sys.exit({error.code!r})"
    lines = traceback.format_exception_only(type(error), error)
    return "".join(lines).strip()


def describe(error: BaseException) -> str:
    return format_error(error) if isinstance(error, SystemExit) else str(error)


def tool_conflict(tool_id: str, namespace: str, registrant: Registrant, module: str) -> str | None:
    """Why ``registrant`` may not register the tool ``tool_id`` (defined in ``module``)."""
    owner = FIRST_PARTY.get(namespace)
    if owner is not None and not is_first_party(owner, registrant, module):
        return (
            f"provider tool {tool_id!r} is in the namespace {namespace!r} reserved for "
            f"{owner.distribution}; not registered"
        )
    return None


def not_found(
    provider_id: str, canonical: str, error: str | None, candidates: list[str], *, blocked: bool
) -> ConfigurationError:
    """The error for a provider id no plugin registered: blocked, failed, not installed or unknown."""
    if blocked:
        return ConfigurationError(f"the plugin for provider {canonical!r} is blocked by {BLOCK_ENV}")
    if error is not None:
        return ConfigurationError(
            f"the plugin for provider {canonical!r} failed to load: {error.splitlines()[-1]}"
        )
    first_party = FIRST_PARTY.get(canonical)
    if first_party is not None:
        return ProviderNotInstalledError(canonical, first_party.display_name, first_party.distribution)
    import difflib  # only unknown ids pay for it

    suggestions = difflib.get_close_matches(provider_id, candidates, n=3, cutoff=0.6)
    return UnknownProviderError(provider_id, suggestions)


class Once:
    """Runs each keyed job at most once: a caller of a job another thread is running waits for it to
    finish; the thread running it (a plugin that loads another while loading) does not wait."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._started: set[str] = set()
        self._running: dict[str, tuple[int, threading.Event]] = {}

    def run(self, key: str, job: Callable[[], None]) -> None:
        me = threading.get_ident()
        with self._lock:
            if key in self._started:
                pending = self._running.get(key)
                if pending is not None and pending[0] != me:
                    wait = pending[1]
                else:
                    return
            else:
                self._started.add(key)
                done = threading.Event()
                self._running[key] = (me, done)
                wait = None
        if wait is not None:
            wait.wait()
            return
        try:
            job()
        finally:
            with self._lock:
                self._running.pop(key, None)
            done.set()
