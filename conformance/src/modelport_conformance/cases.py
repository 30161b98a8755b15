"""The case model and the discovery of every registered provider's cases.

A case is a directory with three files::

    <case>/case.yaml       # canonical request: method, model, request keywords, features, source
    <case>/cassette.yaml   # the recorded HTTP exchange (see :mod:`modelport_conformance.cassette`)
    <case>/expected.json   # the canonical output: {"result"|"events"|"embedding"|"batch"|"error": ...}

``case.yaml`` keys: ``method`` (``generate``, ``stream``, ``embed``, ``count_tokens`` or ``batch``),
``model`` (the model name, without the provider prefix), ``request`` (keywords of
:class:`modelport.Request`, or for ``embed`` those of ``Model.embed``: ``values`` plus
``output_dimensionality``, ``task_type``, ``embedding_type`` and ``provider_options``,
or for ``batch`` its ``kind``, ``requests`` and ``steps``: see
:mod:`modelport_conformance.batch_replay`), optional ``description``, ``requirements`` (spec ids
such as ``G3``), ``features`` (what the case needs: a feature the suite declares unsupported turns
the case into a skip with the reason, see :mod:`modelport_conformance.selection`; one the
provider's ``Capabilities`` declare ``False`` refuses it, see
:mod:`modelport_conformance.capabilities`), ``config`` (``get_model`` keywords, merged over the
runner's settings and the suite's ``options``: the case wins; see
:func:`modelport_conformance.replay.model_options`) and ``source`` (attribution of the recording it
was built from).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from modelport import plugins
from modelport.errors import ConfigurationError

from .cassette import Cassette, load_cassette
from .safe_yaml import load_yaml
from .suites import ConformanceSuite, conformance_suites

__all__ = [
    "MAX_CASE_FILE_BYTES",
    "METHODS",
    "Case",
    "Suite",
    "discover_suites",
    "load_cases",
    "read_case_file",
]

#: The values a case's ``method`` may take: the provider call it replays.
METHODS = ("generate", "stream", "embed", "count_tokens", "batch")
CASE_FILE = "case.yaml"
CASSETTE_FILE = "cassette.yaml"
EXPECTED_FILE = "expected.json"
#: Largest file of a case (a cassette, an expected file) that is read. The largest shipped cassette
#: is under 200 KB; a file past this is refused before it is read whole.
MAX_CASE_FILE_BYTES = 16 * 1024**2


def read_case_file(file: Any, limit: int = MAX_CASE_FILE_BYTES) -> str:
    """The text of ``file`` (a :class:`~pathlib.Path` or an ``importlib.resources`` traversable),
    read at most ``limit`` bytes far: a larger file is a ``ValueError`` naming it and the bound."""
    with file.open("rb") as stream:
        data: bytes = stream.read(limit + 1)
    if len(data) > limit:
        raise ValueError(
            f"{file.name} is larger than {limit // 1024**2} MiB, the bound of a case file; it was not read"
        )
    return data.decode("utf-8")


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
        try:
            files = {child.name: read_case_file(child) for child in directory.iterdir() if child.is_file()}
        except ValueError as error:
            raise ValueError(f"case {name!r}: {error}") from None
        if CASE_FILE not in files:
            raise ValueError(f"case {name!r}: {CASE_FILE} is missing")
        spec = load_yaml(files[CASE_FILE], f"case {name!r}: {CASE_FILE}") or {}
        if not isinstance(spec, dict):
            raise ValueError(f"case {name!r}: {CASE_FILE} must be a mapping, not a {type(spec).__name__}")
        for key in ("request", "config", "source"):
            if not isinstance(spec.get(key) or {}, dict):
                raise ValueError(f"case {name!r}: '{key}' in {CASE_FILE} must be a mapping")
        method = spec.get("method")
        if method not in METHODS:
            raise ValueError(f"case {name!r}: method must be one of {', '.join(METHODS)}, got {method!r}")
        if not isinstance(spec.get("model"), str):
            raise ValueError(f"case {name!r}: 'model' (a model name) is required")
        cassette = (
            load_cassette(files[CASSETTE_FILE], f"case {name!r}: {CASSETTE_FILE}")
            if CASSETTE_FILE in files
            else Cassette()
        )
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


_KEEP: Any = object()


class Suite:
    """A registered suite with its cases loaded.

    What a plugin declares about its cases is the one suite record,
    :class:`modelport_conformance.ConformanceSuite` (:attr:`registration`); this adds what loading found.
    ``Suite("example", cases, unsupported={...})`` builds the record from the same keywords the
    ``register`` callback of the ``modelport_conformance_suites`` hook takes.
    """

    def __init__(
        self,
        provider_id: str,
        cases: list[Case] | None = None,
        *,
        location: Any = None,
        load_error: str | None = None,
        **declared: Any,
    ) -> None:
        self.registration = ConformanceSuite(provider_id, location, **declared)
        self.cases: list[Case] = list(cases or [])
        self.load_error = load_error

    @classmethod
    def from_registration(cls, registration: ConformanceSuite) -> Suite:
        """Load the cases of a registry record; a case that fails to load becomes :attr:`load_error`."""
        error: str | None = None
        try:
            cases = load_cases(registration.cases)
        except (OSError, ValueError, yaml.YAMLError) as exc:
            cases, error = [], f"{type(exc).__name__}: {exc}"
        suite = cls(registration.provider_id, cases, load_error=error)
        suite.registration = registration
        return suite

    def replace(self, *, location: Any = _KEEP, **declared: Any) -> Suite:
        """The same cases with some declarations (``unsupported=…``, ``options=…``, ``location=…``)
        changed; the record itself is never modified."""
        if location is not _KEEP:
            declared["cases"] = location
        suite = Suite(self.provider_id, self.cases, load_error=self.load_error)
        suite.registration = dataclasses.replace(self.registration, **declared)
        return suite

    @property
    def provider_id(self) -> str:
        """The provider the cases are for."""
        return self.registration.provider_id

    @property
    def location(self) -> Any:
        """The directory the cases were registered from (``None`` for a list given directly)."""
        return self.registration.cases

    @property
    def unsupported(self) -> Mapping[str, str]:
        """Feature → why it is not supported (those cases are skipped with the reason)."""
        return self.registration.unsupported

    @property
    def merge_frames(self) -> Callable[[list[Any]], Any] | None:
        """Stream frames → the non-streaming body, for the ``merged`` check (``None``: the check
        compares the stream with ``expected.json``)."""
        return self.registration.merge_frames

    @property
    def options(self) -> Mapping[str, Any]:
        """Extra ``get_model`` keywords for replay and recording (a case's ``config`` wins)."""
        return self.registration.options

    @property
    def credential_env(self) -> tuple[str, ...]:
        """The environment variables record mode reads the key from."""
        return self.registration.credential_env

    @property
    def expected_failures(self) -> Mapping[str, str]:
        """``"case/check"`` → the defect that makes that check fail (see
        :mod:`modelport_conformance.expected_failures`)."""
        return self.registration.expected_failures

    @property
    def volatile(self) -> tuple[str, ...]:
        """Expressions of the request paths the ``history`` check leaves out (see
        :mod:`modelport_conformance.derived_history`)."""
        return self.registration.volatile

    @property
    def secret_patterns(self) -> Mapping[str, str]:
        """Kind → expression of this provider's credentials, added to every scan."""
        return self.registration.secret_patterns

    @property
    def mutation_exclude(self) -> tuple[str, ...]:
        """What ``modelport conformance --mutate`` leaves alone (see
        :mod:`modelport_conformance.mutation`)."""
        return self.registration.mutation_exclude


def discover_suites(
    provider_ids: Iterable[str] | None = None,
) -> tuple[dict[str, Suite | None], dict[str, str]]:
    """Every registered provider (through the real registry) with its merged suite, or ``None``.

    Returns ``(suites by provider id, plugin load errors)``. Several registrations for one provider
    are merged into one suite (their cases concatenated).
    """
    providers = plugins.providers()
    try:
        registrations = conformance_suites()
    except ConfigurationError:  # a plugin's suite hook raised; the registry recorded it in errors()
        registrations = {}
    # Suites registered for an id no plugin provides are kept, so the run can report them.
    wanted = sorted({*providers, *registrations}) if provider_ids is None else list(provider_ids)
    found: dict[str, Suite | None] = {}
    for provider_id in wanted:
        suites = [Suite.from_registration(r) for r in registrations.get(provider_id, [])]
        found[provider_id] = _merge(suites) if suites else None
    return found, plugins.load_errors()


def _merge(suites: list[Suite]) -> Suite:
    first = suites[0]
    if len(suites) == 1:
        return first
    records = [s.registration for s in suites]
    merged = first.replace(
        unsupported={k: v for r in records for k, v in r.unsupported.items()},
        options={k: v for r in records for k, v in r.options.items()},
        merge_frames=next((r.merge_frames for r in records if r.merge_frames is not None), None),
        credential_env=tuple(dict.fromkeys(name for r in records for name in r.credential_env)),
        secret_patterns={k: v for r in records for k, v in r.secret_patterns.items()},
        expected_failures={k: v for r in records for k, v in r.expected_failures.items()},
        volatile=tuple(dict.fromkeys(v for r in records for v in r.volatile)),
        mutation_exclude=tuple(dict.fromkeys(p for r in records for p in r.mutation_exclude)),
    )
    merged.cases = sorted((c for s in suites for c in s.cases), key=lambda c: c.name)
    merged.load_error = next((s.load_error for s in suites if s.load_error), None)
    return merged
