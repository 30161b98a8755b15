"""What running a case produced: one :class:`CaseOutcome` with its :class:`CheckOutcome` list, and
the same read check by check (:func:`check_results`), as pytest reports it; a provider's outcomes
(:class:`ProviderReport`) and a whole run's (:class:`Report`, rendered by
:mod:`modelport_conformance.report` and :mod:`modelport_conformance.html_report`).

A case counts once; its checks count :data:`CHECKS` times. ``modelport conformance`` prints both
counts and pytest's count is the check count plus the class-level standard tests (see
``docs/conformance.md``, "Cases and checks"): :func:`check_results` is the one place that says what
each of a case's checks is when the case was skipped, stopped, refused or broke early, and the
pytest base class reads it too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .capabilities import CAPABILITY_CHECK

#: The derived fault cases (:mod:`modelport_conformance.derived`): built from the recordings, no golden.
DERIVED_CHECKS = ("cut", "unterminated", "history")

__all__ = [
    "BOUND_CHECKS",
    "CASE_CHECKS",
    "CHECKS",
    "DERIVED_CHECKS",
    "CaseOutcome",
    "CheckOutcome",
    "ProviderReport",
    "Report",
    "check_counts",
    "check_results",
    "counted",
]

#: Every check, in the order it runs (one parametrized standard test each under pytest).
CHECKS = (
    "credentials",
    "request",
    "expected",
    "invariants",
    "chunked",
    "merged",
    "async",
    *DERIVED_CHECKS,
    "metamorphic",
    "request-edits",
)
#: The names of the check a stopped case reports (:mod:`modelport_conformance.bounds`).
BOUND_CHECKS = ("time-out", "memory")
#: Checks that stand for the whole case (it was stopped at a bound, or refused): when one of these
#: fails, every check of the case fails with its message.
CASE_CHECKS = (*BOUND_CHECKS, CAPABILITY_CHECK)


@dataclass
class CheckOutcome:
    """One check of one case."""

    name: str
    status: str
    message: str = ""


@dataclass
class CaseOutcome:
    """Everything known about one case after running it."""

    provider_id: str
    case: str
    method: str
    status: str
    checks: list[CheckOutcome] = field(default_factory=list)
    requirements: list[str] = field(default_factory=list)
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping."""
        return {
            "case": self.case,
            "method": self.method,
            "status": self.status,
            "requirements": list(self.requirements),
            "message": self.message,
            "checks": [{"name": c.name, "status": c.status, "message": c.message} for c in self.checks],
        }


def check_results(outcome: CaseOutcome) -> list[CheckOutcome]:
    """Each of :data:`CHECKS` for ``outcome``, as the pytest standard tests report them.

    A skipped case skips every check with its reason; a case stopped or refused (a failing
    :data:`CASE_CHECKS` check), or one that raised outside every check (a failure with no checks),
    fails every check with its message; otherwise each check is what it reported, and a check that
    did not run (an earlier one failed) is a skip saying so.
    """
    if outcome.status == "skip":
        return [CheckOutcome(name, "skip", outcome.message) for name in CHECKS]
    whole = [c for c in outcome.checks if c.name in CASE_CHECKS and c.status == "fail"]
    if whole or (outcome.status == "fail" and not outcome.checks):
        message = f"[{whole[0].name}] {whole[0].message}" if whole else outcome.message
        return [CheckOutcome(name, "fail", message) for name in CHECKS]
    found = {c.name: c for c in outcome.checks}
    return [
        found.get(name) or CheckOutcome(name, "skip", f"{name}: not run (an earlier check failed)")
        for name in CHECKS
    ]


def check_counts(outcomes: Iterable[CaseOutcome]) -> dict[str, int]:
    """Checks by status (``pass``, ``fail``, ``skip``) over ``outcomes``, read by :func:`check_results`."""
    counts = {"pass": 0, "fail": 0, "skip": 0}
    for outcome in outcomes:
        for check in check_results(outcome):
            counts[check.status] += 1
    return counts


def counted(counts: dict[str, int], noun: str) -> str:
    """``"2 cases: 1 passed, 1 failed, 0 skipped"``: ``counts`` by status, of ``noun``."""
    total = sum(counts.values())
    return (
        f"{total} {noun}{'' if total == 1 else 's'}: "
        f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped"
    )


@dataclass
class ProviderReport:
    """One provider's outcomes, plus why it has none when it has none."""

    provider_id: str
    cases: list[CaseOutcome] = field(default_factory=list)
    problem: str = ""
    status: str = "pass"
    #: What does not fail the run but should be known: each declared capability no case exercises.
    warnings: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """Cases by status."""
        counts = {"pass": 0, "fail": 0, "skip": 0}
        for outcome in self.cases:
            counts[outcome.status] += 1
        return counts

    def check_counts(self) -> dict[str, int]:
        """Checks by status: each case's nine, as pytest counts them
        (:func:`~modelport_conformance.outcomes.check_results`)."""
        return check_counts(self.cases)


@dataclass
class Report:
    """The whole run."""

    providers: list[ProviderReport]
    plugin_errors: dict[str, str]
    strict: bool
    #: What produced the run: Python, modelport, modelport-conformance and the plugin distributions.
    versions: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether the run passes: no failing provider, and under ``strict`` no plugin that failed to load."""
        if self.strict and self.plugin_errors:
            return False
        return all(p.status != "fail" for p in self.providers)

    def as_dict(self) -> dict[str, Any]:
        """The machine-readable report (``--format json``)."""
        totals = {"pass": 0, "fail": 0, "skip": 0}
        checks = dict(totals)
        for provider in self.providers:
            for key, value in provider.counts().items():
                totals[key] += value
            for key, value in provider.check_counts().items():
                checks[key] += value
        return {
            "version": 1,
            "ok": self.ok,
            "strict": self.strict,
            "summary": totals,
            "check_summary": checks,
            "plugin_errors": dict(self.plugin_errors),
            "versions": dict(self.versions),
            "providers": {
                p.provider_id: {
                    "status": p.status,
                    "problem": p.problem,
                    "summary": p.counts(),
                    "check_summary": p.check_counts(),
                    "warnings": list(p.warnings),
                    "cases": [c.as_dict() for c in p.cases],
                }
                for p in self.providers
            },
        }
