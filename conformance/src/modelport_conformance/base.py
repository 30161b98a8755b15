"""The base class a plugin author subclasses to run the standard conformance tests in pytest::

    from modelport_conformance import ProviderConformanceTests

    class TestMyProvider(ProviderConformanceTests):
        provider_id = "my"
        models = ("my-model-1",)      # only these models' cases run; the others are skipped
        cases_dir = Path(__file__).parent / "cassettes"      # or leave None: the registered suite
        unsupported = {"embed": "the API has no embeddings"}

Each standard test runs once per case (the ``conformance_case`` parameter is supplied by the pytest
plugin) and reports one check of :func:`~modelport_conformance.run_case`, the function
``modelport conformance`` runs too, read by :func:`modelport_conformance.outcomes.check_results`
(so pytest's count is the CLI's check count plus the four class-level tests). A check that does not
apply, a feature declared unsupported, or a model not in ``models`` is a skip with the reason
(decided by :func:`modelport_conformance.selection.skip_reason`, the same as ``--model`` on the
command line), never a silent pass; a case needing a capability the provider does not declare
fails every test of it (:mod:`modelport_conformance.capabilities`). A bug in plugin code fails the
one test of the check it broke. Overriding or deleting a standard test fails
``test_standard_tests_intact`` unless the subclass lists it in ``overrides`` with a reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from .bounds import bounded_case
from .cases import Case, Suite, discover_suites, load_cases
from .goldens import accept_case, ci_refusal
from .outcomes import CaseOutcome, check_results

__all__ = ["STANDARD_TESTS", "ProviderConformanceTests"]

#: The standard tests; each must stay as the base class defines it unless declared in ``overrides``.
STANDARD_TESTS = (
    "test_provider_is_registered",
    "test_has_cases",
    "test_models_covered",
    "test_no_credentials",
    "test_request_mapping",
    "test_expected_output",
    "test_invariants",
    "test_chunked_stream_decoding",
    "test_stream_equals_merged_decode",
    "test_async_parity",
    "test_derived_cut",
    "test_derived_unterminated",
    "test_derived_history",
    "test_metamorphic_edits",
    "test_request_edits",
)


class ProviderConformanceTests:
    """Standard conformance tests for one provider. Subclass it in a ``Test*`` class.

    ``provider_id`` names the provider; ``models``, when not empty, runs only the cases of those
    models (the others are skipped with ``model 'x' is not in models``; each listed model needs a
    case); ``cases_dir`` replaces the registered cases; ``unsupported``, ``merge_frames`` and
    ``options`` add to what the plugin registered; ``overrides`` names standard tests replaced on
    purpose, with the reason.
    """

    provider_id: ClassVar[str] = ""
    models: ClassVar[tuple[str, ...]] = ()
    cases_dir: ClassVar[Any] = None
    unsupported: ClassVar[Mapping[str, str]] = {}
    merge_frames: ClassVar[Callable[[list[Any]], Any] | None] = None
    options: ClassVar[Mapping[str, Any]] = {}
    overrides: ClassVar[Mapping[str, str]] = {}

    _outcomes: ClassVar[dict[tuple[str, str], CaseOutcome]]
    _suite: ClassVar[Suite | None]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "test_standard_tests_intact" in cls.__dict__:
            raise TypeError(f"{cls.__name__} must not override test_standard_tests_intact")
        cls._outcomes = {}
        cls._suite = None

    # The suite -----------------------------------------------------------------------------

    @classmethod
    def conformance_suite(cls) -> Suite:
        """The suite under test: ``cases_dir`` when set, else what the plugin registered (cached)."""
        if cls.__dict__.get("_suite") is None:
            cls._suite = cls._load_suite()
        assert cls._suite is not None
        return cls._suite

    @classmethod
    def _load_suite(cls) -> Suite:
        found, _ = discover_suites([cls.provider_id])
        suite = found.get(cls.provider_id) or Suite(cls.provider_id)
        if cls.cases_dir is not None:
            root = Path(cls.cases_dir) if isinstance(cls.cases_dir, str) else cls.cases_dir
            suite = suite.replace(location=root)
            suite.cases = load_cases(root)
        return suite.replace(
            unsupported={**suite.unsupported, **cls.unsupported},
            options={**suite.options, **cls.options},
            merge_frames=cls.merge_frames or suite.merge_frames,
        )

    @classmethod
    def conformance_cases(cls) -> list[Case]:
        """The cases the standard tests are parametrized with."""
        return cls.conformance_suite().cases

    def _outcome(self, case: Case, record_mode: str = "none") -> CaseOutcome:
        key = (case.name, record_mode)
        if record_mode == "regenerate" and (refused := ci_refusal()) is not None:
            pytest.fail(refused, pytrace=False)
        if key not in self._outcomes:
            if record_mode == "accept" and accept_case(case.location):  # the reviewed proposal
                case = Case.load(case.location)
            if record_mode == "recorded":  # the cassette was just re-recorded: read it again
                case = Case.load(case.location)
            suite = self.conformance_suite()
            regenerate = record_mode == "regenerate"
            self._outcomes[key] = bounded_case(suite, case, regenerate=regenerate, models=self.models)
        return self._outcomes[key]

    def _check(self, case: Case, name: str, record_mode: str) -> None:
        outcome = self._outcome(case, record_mode)
        for check in check_results(outcome):  # the reading the CLI counts checks by
            if check.name == name:
                if check.status == "fail":
                    pytest.fail(f"{self.provider_id}/{case.name} [{name}]\n{check.message}", pytrace=False)
                if check.status == "skip":
                    pytest.skip(check.message)
                return

    # Standard tests --------------------------------------------------------------------------

    def test_provider_is_registered(self) -> None:
        """The provider is found through the real registry (its entry point)."""
        from modelport import plugins

        providers = plugins.providers()
        assert self.provider_id in providers, (
            f"{self.provider_id!r} is not registered; known: {sorted(providers)}"
        )

    def test_has_cases(self) -> None:
        """The provider ships at least one case."""
        assert self.conformance_cases(), f"provider {self.provider_id!r} has no conformance cases"

    def test_models_covered(self) -> None:
        """Every model listed in ``models`` has at least one case."""
        covered = {case.model for case in self.conformance_cases()}
        missing = [m for m in self.models if m not in covered]
        assert not missing, f"models without cases: {', '.join(missing)}"

    def test_no_credentials(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """No file of the case holds anything that looks like a credential."""
        self._check(conformance_case, "credentials", modelport_record_mode)

    def test_request_mapping(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """Every request matches its recorded interaction; each interaction is played once."""
        self._check(conformance_case, "request", modelport_record_mode)

    def test_expected_output(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """The canonical output equals ``expected.json``."""
        self._check(conformance_case, "expected", modelport_record_mode)

    def test_invariants(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """Usage non-negative, JSON round-trip, provider-executed parts marked, streams well-formed."""
        self._check(conformance_case, "invariants", modelport_record_mode)

    def test_chunked_stream_decoding(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """A stream decodes identically when its body arrives in 1- and 7-byte chunks."""
        self._check(conformance_case, "chunked", modelport_record_mode)

    def test_stream_equals_merged_decode(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """The accumulated stream equals the whole answer: its frames merged and decoded whole
        (``merge_frames``), else the answer in ``expected.json``."""
        self._check(conformance_case, "merged", modelport_record_mode)

    def test_async_parity(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """The async API gives the same requests and output as the sync API."""
        self._check(conformance_case, "async", modelport_record_mode)

    def test_derived_cut(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """A stream cut short raises StreamInterruptedError with the prefix's decode as ``partial``;
        a unary body cut short raises a typed error (derived from the recording, no golden)."""
        self._check(conformance_case, "cut", modelport_record_mode)

    def test_derived_unterminated(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """A stream without its terminal frame is never a complete result."""
        self._check(conformance_case, "unterminated", modelport_record_mode)

    def test_derived_history(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """The answer an earlier recording decodes to, sent back as this case's history, gives the
        request the real client sent."""
        self._check(conformance_case, "history", modelport_record_mode)

    def test_metamorphic_edits(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """The answer edited where the wire map says a value lives moves the decoded result there."""
        self._check(conformance_case, "metamorphic", modelport_record_mode)

    def test_request_edits(self, conformance_case: Case, modelport_record_mode: str) -> None:
        """The system or prompt text edited changes the body sent where the wire map says."""
        self._check(conformance_case, "request-edits", modelport_record_mode)

    def test_standard_tests_intact(self) -> None:
        """No standard test was deleted or overridden without a declared reason."""
        problems = []
        for name in STANDARD_TESTS:
            if name in self.overrides:
                continue
            if getattr(type(self), name, None) is not ProviderConformanceTests.__dict__[name]:
                problems.append(name)
        assert not problems, (
            "standard conformance tests deleted or overridden without a reason in `overrides`: "
            + ", ".join(problems)
        )
