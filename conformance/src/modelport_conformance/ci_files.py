"""The files a CI system reads from a run, written beside the report by ``modelport conformance``:

- ``--junit FILE``: JUnit XML (:func:`junit_xml`). One ``<testsuite>`` per provider, one
  ``<testcase>`` per check of each case (``classname`` ``provider.case``, ``name`` the check), read
  as pytest reads them (:func:`~modelport_conformance.outcomes.check_results`), so the counts are the
  CLI's check counts; a failing check has a ``<failure>`` with its first line as ``message`` and the
  whole text as its body, a skipped one a ``<skipped>`` with the reason. A provider with no cases
  is one ``cases`` test case (failed under ``--strict``, else skipped); a plugin that failed to load
  is one test case of the ``plugins`` suite (failed under ``--strict``, else skipped). Capability
  warnings are ``warning`` properties of the provider's suite.
- ``--summary FILE``: a small JSON (:func:`summary`): per provider and in total, cases and checks
  passed, failed and skipped, and ``badge``, a shields.io endpoint object.
- ``--badge FILE``: that endpoint object alone (:func:`badge`): shields.io's endpoint badge refuses
  any key it does not know, so this is the file to publish for
  ``https://img.shields.io/endpoint?url=<where it is published>``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from .outcomes import check_results
from .report import ProviderReport, Report

__all__ = ["BADGE_LABEL", "badge", "junit_xml", "summary"]

#: The left side of the badge.
BADGE_LABEL = "modelport conformance"
#: Characters XML 1.0 cannot hold (a hostile plugin's message may carry them).
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(value: str) -> str:
    return _NOT_XML.sub("\ufffd", value)


def _first_line(message: str) -> str:
    return message.splitlines()[0] if message else ""


def _testcase(parent: ET.Element, classname: str, name: str, status: str, message: str) -> None:
    case = ET.SubElement(parent, "testcase", classname=_xml_text(classname), name=_xml_text(name), time="0")
    if status == "fail":
        failure = ET.SubElement(case, "failure", message=_xml_text(_first_line(message)))
        failure.text = _xml_text(message)
    elif status == "skip":
        ET.SubElement(case, "skipped", message=_xml_text(message))


def _suite(root: ET.Element, name: str, rows: list[tuple[str, str, str, str]], warnings: list[str]) -> None:
    counts = {status: sum(1 for row in rows if row[2] == status) for status in ("fail", "skip")}
    suite = ET.SubElement(
        root,
        "testsuite",
        name=_xml_text(name),
        tests=str(len(rows)),
        failures=str(counts["fail"]),
        errors="0",
        skipped=str(counts["skip"]),
        time="0",
    )
    if warnings:
        properties = ET.SubElement(suite, "properties")
        for warning in warnings:
            ET.SubElement(properties, "property", name="warning", value=_xml_text(warning))
    for classname, name, status, message in rows:
        _testcase(suite, classname, name, status, message)


def _provider_rows(provider: ProviderReport) -> list[tuple[str, str, str, str]]:
    rows = [
        (f"{provider.provider_id}.{outcome.case}", check.name, check.status, check.message)
        for outcome in provider.cases
        for check in check_results(outcome)
    ]
    if provider.problem:
        rows.append((provider.provider_id, "cases", provider.status, provider.problem))
    return rows


def junit_xml(report: Report) -> str:
    """The run as JUnit XML (see the module)."""
    root = ET.Element("testsuites", name=BADGE_LABEL)
    for provider in report.providers:
        _suite(root, provider.provider_id, _provider_rows(provider), provider.warnings)
    if report.plugin_errors:
        status = "fail" if report.strict else "skip"
        rows = [
            ("plugins", name, status, f"the plugin failed to load: {error}")
            for name, error in sorted(report.plugin_errors.items())
        ]
        _suite(root, "plugins", rows, [])
    suites = root.findall("testsuite")
    for key in ("tests", "failures", "errors", "skipped"):
        root.set(key, str(sum(int(suite.get(key, "0")) for suite in suites)))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _counts(counts: dict[str, int]) -> dict[str, int]:
    return {
        "total": sum(counts.values()),
        "passed": counts["pass"],
        "failed": counts["fail"],
        "skipped": counts["skip"],
    }


def badge(report: Report) -> dict[str, Any]:
    """A shields.io endpoint object for the run: ``"17/17 cases passed"`` (green), ``"2 of 17 cases
    failed"`` (red), skips named (``"15/17 cases passed, 2 skipped"``, yellow), ``"no cases"``."""
    cases = _counts(_sum(p.counts() for p in report.providers))
    if not report.ok:
        failed = cases["failed"]
        message = f"{failed} of {cases['total']} cases failed" if failed else "failed"
        color = "red"
    elif not cases["total"]:
        message, color = "no cases", "lightgrey"
    else:
        message = f"{cases['passed']}/{cases['total']} cases passed"
        color = "brightgreen"
        if cases["skipped"]:
            message += f", {cases['skipped']} skipped"
            color = "yellow"
    return {"schemaVersion": 1, "label": BADGE_LABEL, "message": message, "color": color}


def _sum(counts: Any) -> dict[str, int]:
    total = {"pass": 0, "fail": 0, "skip": 0}
    for each in counts:
        for key, value in each.items():
            total[key] += value
    return total


def summary(report: Report) -> dict[str, Any]:
    """The run in a few numbers (see the module)."""
    return {
        "version": 1,
        "ok": report.ok,
        "cases": _counts(_sum(p.counts() for p in report.providers)),
        "checks": _counts(_sum(p.check_counts() for p in report.providers)),
        "providers": [
            {
                "provider": p.provider_id,
                "status": p.status,
                "cases": _counts(p.counts()),
                "checks": _counts(p.check_counts()),
                "warnings": list(p.warnings),
            }
            for p in report.providers
        ],
        "badge": badge(report),
    }
