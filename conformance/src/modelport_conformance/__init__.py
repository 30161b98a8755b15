"""modelport-conformance: recorded-cassette conformance suite for modelport provider plugins.

A plugin registers its cases with this package's ``modelport_conformance_suites`` hook
(:mod:`modelport_conformance.hookspecs`, implemented with ``@modelport.hookimpl``; each call of its
``register`` callback becomes a :class:`ConformanceSuite`, listed by :func:`conformance_suites`);
``modelport conformance`` (or the pytest base class :class:`ProviderConformanceTests`) replays them
offline and checks request mapping, response mapping and the golden-independent invariants.
"""

from __future__ import annotations

from .base import ProviderConformanceTests
from .cases import Case, Suite, discover_suites, load_cases
from .cassette import Cassette, Interaction, dump_cassette, load_cassette
from .credentials import scan_text
from .hookspecs import SuiteRegistrar
from .jsondiff import Difference, diff_json
from .player import CassettePlayer
from .recording import RecordingError, UnsafeRecordingError, modelport_vcr, record_case
from .report import Report, render, run_conformance
from .runner import CaseOutcome, CheckOutcome, run_case
from .selection import skip_reason
from .suites import ConformanceSuite, conformance_suites

__all__ = [
    "Case",
    "CaseOutcome",
    "Cassette",
    "CassettePlayer",
    "CheckOutcome",
    "ConformanceSuite",
    "Difference",
    "Interaction",
    "ProviderConformanceTests",
    "RecordingError",
    "Report",
    "Suite",
    "SuiteRegistrar",
    "UnsafeRecordingError",
    "conformance_suites",
    "diff_json",
    "discover_suites",
    "dump_cassette",
    "load_cases",
    "load_cassette",
    "modelport_vcr",
    "record_case",
    "render",
    "run_case",
    "run_conformance",
    "scan_text",
    "skip_reason",
]
