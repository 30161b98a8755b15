"""The case model and the discovery of every registered provider's cases.

A case is a directory with three files::

    <case>/case.yaml       # canonical request: method, model, request keywords, features, source
    <case>/cassette.yaml   # the recorded HTTP exchange (see :mod:`modelport_conformance.cassette`)
    <case>/expected.json   # the canonical output: {"result"|"events"|"embedding"|"error": ...}

``case.yaml`` keys: ``method`` (``generate``, ``stream`` or ``embed``), ``model`` (the model name,
without the provider prefix), ``request`` (keywords of :class:`modelport.Request`, or for ``embed``
``values`` plus ``output_dimensionality``/``task_type``), optional ``description``, ``requirements``
(spec ids such as ``G3``), ``features`` (capabilities the case needs; a feature the suite declares
unsupported turns the case into a skip), ``config`` (extra ``get_model`` keywords) and ``source``
(attribution of the recording it was built from).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .cassette import Cassette, load_cassette

#: libyaml's safe loader when available (cassettes are large), else the pure-Python one.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

__all__ = ["METHODS", "Case", "Suite", "discover_suites", "load_cases", "suite_from_registration"]

METHODS = ("generate", "stream", "embed")
CASE_FILE = "case.yaml"
CASSETTE_FILE = "cassette.yaml"
EXPECTED_FILE = "expected.json"


@dataclass
class Case:
    """One conformance case, loaded from its directory."""

    name: str
    method: str
    model: str
    request: dict[str, Any]
    cassette: Cassette
    expected: dict[str, Any] | None
    location: Any
    description: str = ""
    requirements: list[str] = field(default_factory=list)
    features: list[str] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    source: dict[str, Any] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, directory: Any) -> Case:
        """Read a case directory (a :class:`~pathlib.Path` or an ``importlib.resources`` traversable)."""
        name = directory.name
        files = {
            child.name: child.read_text(encoding="utf-8") for child in directory.iterdir() if child.is_file()
        }
        if CASE_FILE not in files:
            raise ValueError(f"case {name!r}: {CASE_FILE} is missing")
        spec = yaml.load(files[CASE_FILE], Loader=_LOADER) or {}
        method = spec.get("method")
        if method not in METHODS:
            raise ValueError(f"case {name!r}: method must be one of {', '.join(METHODS)}, got {method!r}")
        if not isinstance(spec.get("model"), str):
            raise ValueError(f"case {name!r}: 'model' (a model name) is required")
        cassette = load_cassette(files[CASSETTE_FILE]) if CASSETTE_FILE in files else Cassette()
        expected = json.loads(files[EXPECTED_FILE]) if EXPECTED_FILE in files else None
        return cls(
            name=str(spec.get("name", name)),
            method=method,
            model=spec["model"],
            request=dict(spec.get("request") or {}),
            cassette=cassette,
            expected=expected,
            location=directory,
            description=str(spec.get("description", "")),
            requirements=[str(r) for r in spec.get("requirements") or []],
            features=[str(f) for f in spec.get("features") or []],
            config=dict(spec.get("config") or {}),
            source=dict(spec.get("source") or {}),
            files=files,
        )

    @property
    def is_stream(self) -> bool:
        """Whether the case streams."""
        return self.method == "stream"


def load_cases(directory: Any) -> list[Case]:
    """Every case under ``directory`` (one sub-directory each), sorted by name."""
    if directory is None:
        return []
    root = Path(directory) if isinstance(directory, str) else directory
    if not root.is_dir():
        return []
    children = sorted(
        (c for c in root.iterdir() if c.is_dir() and not c.name.startswith(("_", "."))), key=lambda c: c.name
    )
    return [Case.load(child) for child in children]


@dataclass
class Suite:
    """A provider's cases plus what the plugin declared about them."""

    provider_id: str
    cases: list[Case]
    unsupported: dict[str, str] = field(default_factory=dict)
    merge_frames: Callable[[list[Any]], Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    credential_env: tuple[str, ...] = ()
    location: Any = None
    load_error: str | None = None


def suite_from_registration(registration: Any) -> Suite:
    """Build a :class:`Suite` from a registry record (``modelport._registry.ConformanceSuite``)."""
    error: str | None = None
    try:
        cases = load_cases(registration.cases)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        cases, error = [], f"{type(exc).__name__}: {exc}"
    return Suite(
        provider_id=registration.provider_id,
        cases=cases,
        unsupported=dict(registration.unsupported),
        merge_frames=registration.merge_frames,
        options=dict(registration.options),
        credential_env=tuple(registration.credential_env),
        location=registration.cases,
        load_error=error,
    )


def discover_suites(
    provider_ids: Iterable[str] | None = None,
) -> tuple[dict[str, Suite | None], dict[str, str]]:
    """Every registered provider (through the real registry) with its merged suite, or ``None``.

    Returns ``(suites by provider id, plugin load errors)``. Several registrations for one provider
    are merged into one suite (their cases concatenated).
    """
    from modelport._registry import registry
    from modelport.errors import ConfigurationError

    reg = registry()
    providers = reg.providers()
    try:
        registrations = reg.conformance_suites()
    except ConfigurationError:  # a plugin's suite hook raised; the registry recorded it in errors()
        registrations = {}
    # Suites registered for an id no plugin provides are kept, so the run can report them.
    wanted = sorted({*providers, *registrations}) if provider_ids is None else list(provider_ids)
    found: dict[str, Suite | None] = {}
    for provider_id in wanted:
        suites = [suite_from_registration(r) for r in registrations.get(provider_id, [])]
        found[provider_id] = _merge(suites) if suites else None
    return found, reg.errors()


def _merge(suites: list[Suite]) -> Suite:
    first = suites[0]
    for other in suites[1:]:
        first.cases.extend(other.cases)
        first.unsupported.update(other.unsupported)
        first.options.update(other.options)
        first.merge_frames = first.merge_frames or other.merge_frames
        first.load_error = first.load_error or other.load_error
    first.cases.sort(key=lambda c: c.name)
    return first


def unsupported_reason(case: Case, unsupported: Mapping[str, str]) -> str | None:
    """Why a case is skipped: the first of its features the suite declared unsupported."""
    for feature in [case.method, *case.features]:
        if feature in unsupported:
            return f"{feature}: {unsupported[feature]}"
    return None
