"""The suite record a plugin registers, and the registered suites of every installed plugin.

:func:`conformance_suites` adds this package's hook (:mod:`modelport_conformance.hookspecs`) to the
core's plugin manager and collects it: every plugin is asked once, a plugin whose hook fails is
recorded in :func:`modelport.plugins.load_errors` and the others still register.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from modelport import plugins
from modelport.errors import ConfigurationError

from . import hookspecs

__all__ = ["ConformanceSuite", "conformance_suites"]

HOOK = "modelport_conformance_suites"


@dataclass(frozen=True)
class ConformanceSuite:
    """Recorded conformance cases a plugin registered for one provider: the one suite record.

    The fields are the keywords of the ``register`` callback of ``modelport_conformance_suites``
    (see :class:`modelport_conformance.hookspecs.SuiteRegistrar`). ``cases`` is the directory the
    cases live in. Mappings are copied on construction and ``secret_patterns`` are compiled once to
    reject a broken expression at registration, not in the middle of a run.
    """

    provider_id: str
    cases: Any
    unsupported: Mapping[str, str] = field(default_factory=dict)
    merge_frames: Callable[[list[Any]], Any] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    credential_env: tuple[str, ...] = ()
    secret_patterns: Mapping[str, str] = field(default_factory=dict)
    expected_failures: Mapping[str, str] = field(default_factory=dict)
    volatile: tuple[str, ...] = ()
    mutation_exclude: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "volatile", tuple(str(v) for v in self.volatile or ()))
        failures = {str(k): str(v) for k, v in dict(self.expected_failures or {}).items()}
        object.__setattr__(self, "expected_failures", failures)
        unsupported = {str(k): str(v) for k, v in dict(self.unsupported or {}).items()}
        object.__setattr__(self, "unsupported", unsupported)
        object.__setattr__(self, "options", dict(self.options or {}))
        object.__setattr__(self, "credential_env", tuple(self.credential_env))
        object.__setattr__(self, "mutation_exclude", tuple(str(p) for p in self.mutation_exclude))
        patterns = dict(self.secret_patterns or {})
        for kind, pattern in patterns.items():
            try:
                if not isinstance(pattern, str):
                    raise TypeError("give the expression as a string; use inline flags such as (?i)")
                re.compile(pattern)
            except (re.error, TypeError) as error:
                raise ConfigurationError(
                    f"secret pattern {kind!r} of the {self.provider_id!r} suite is not usable: {error}"
                ) from error
        object.__setattr__(self, "secret_patterns", {str(k): v for k, v in patterns.items()})


def conformance_suites() -> dict[str, list[ConformanceSuite]]:
    """Recorded conformance suites that plugins registered, by provider id (loads every plugin)."""
    plugins.add_hookspecs(hookspecs)
    found: dict[str, list[ConformanceSuite]] = {}
    for suite in plugins.collect(HOOK, ConformanceSuite):
        found.setdefault(suite.provider_id, []).append(suite)
    return found
