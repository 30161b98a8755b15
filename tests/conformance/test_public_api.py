"""The package's public names are curated: a pinned ``__all__``, no private core names used by the
conformance package or the plugins, and the suite record defined once."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import modelport_conformance
from modelport_conformance import ConformanceSuite, SuiteRegistrar
from modelport_conformance.cases import Suite


def test_public_names():
    assert modelport_conformance.__all__ == [
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
    assert all(getattr(modelport_conformance, name) is not None for name in modelport_conformance.__all__)


ROOT = Path(__file__).resolve().parents[2]


def test_conformance_and_plugins_use_only_public_names():
    sources = [ROOT / "conformance" / "src", *(ROOT / "plugins").glob("*/src")]
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for source in sources
        for path in sorted(source.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"modelport\._", line)
    ]
    assert offenders == []


def test_the_suite_record_is_defined_once():
    declared = [f.name for f in dataclasses.fields(ConformanceSuite)][2:]
    assert declared == [
        "unsupported", "merge_frames", "options", "credential_env", "secret_patterns", "expected_failures",
        "volatile", "mutation_exclude",
    ]  # fmt: skip
    # the register callback takes exactly the record's keywords
    keywords = list(inspect.signature(SuiteRegistrar.__call__).parameters)[3:]
    assert keywords == declared
    # conformance's Suite holds the record and only reads it
    suite = Suite("x", [], unsupported={"embed": "no"}, secret_patterns={"K": "k_[0-9]{8}"})
    assert type(suite.registration) is ConformanceSuite and not dataclasses.is_dataclass(Suite)
    assert all(isinstance(inspect.getattr_static(Suite, name), property) for name in declared)
    assert (suite.unsupported, suite.secret_patterns, suite.location) == (
        {"embed": "no"},
        {"K": "k_[0-9]{8}"},
        None,
    )
    changed = suite.replace(options={"project": "p"})
    assert (changed.options, suite.options, changed.unsupported) == ({"project": "p"}, {}, {"embed": "no"})
