"""Running every registered provider's suite and reporting it as a matrix (table, JSON, Markdown, or
one self-contained HTML page: :mod:`modelport_conformance.html_report`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable
from typing import Any

from modelport import plugins

from .bounds import DEFAULT_CASE_MEMORY, DEFAULT_CASE_TIMEOUT, bounded_case
from .capabilities import uncovered
from .cases import Suite, discover_suites
from .credentials import redact
from .outcomes import CaseOutcome, ProviderReport, Report, counted
from .replay import describe_exception
from .table import fit_table, terminal_width, wrap_lines

__all__ = ["FORMATS", "ProviderReport", "Report", "render", "run_conformance", "versions", "writable"]

#: The report formats :func:`render` writes (``modelport conformance --format``).
FORMATS = ("table", "json", "markdown", "html")
_MARK = {"pass": "PASS", "fail": "FAIL", "skip": "skip", "warn": "WARN"}


def run_conformance(
    provider_ids: Iterable[str] | None = None,
    *,
    strict: bool = False,
    regenerate: bool = False,
    progress: Callable[[CaseOutcome], None] | None = None,
    suites: dict[str, Suite | None] | None = None,
    models: Collection[str] = (),
    start: Callable[[int], None] | None = None,
    case_timeout: float | None = DEFAULT_CASE_TIMEOUT,
    case_memory: int | None = DEFAULT_CASE_MEMORY,
) -> Report:
    """Discover (or take) the suites, run every case, and build the report.

    A provider without cases is a failure when ``strict``, else a skip with a reason; a provider
    whose cases fail to load always fails. ``models`` runs only the cases of those models (the rest
    are skipped, see :mod:`modelport_conformance.selection`). ``start`` is called once with the number
    of cases about to run (for a progress bar), ``progress`` after each. Whatever a plugin raises,
    every case gets a row and the report is built; a case that runs longer than ``case_timeout``
    seconds or grows the process by more than ``case_memory`` bytes is stopped and gets a failing
    ``time-out`` (``memory``) row (:mod:`modelport_conformance.bounds`; ``None``: unbounded).
    """
    errors: dict[str, str] = {}
    known: set[str] | None = None
    if suites is None:
        suites, errors = discover_suites(provider_ids)
        known = set(plugins.providers())
    if start is not None:
        runnable = [s for i, s in suites.items() if s is not None and (known is None or i in known)]
        start(sum(len(s.cases) for s in runnable if not s.load_error))
    reports: list[ProviderReport] = []
    for provider_id, suite in suites.items():
        report = ProviderReport(provider_id)
        reports.append(report)
        if known is not None and provider_id not in known:
            report.status, report.problem = "fail", "not a registered provider"
            continue
        if suite is not None and suite.load_error:
            report.status, report.problem = "fail", f"its cases failed to load: {suite.load_error}"
            continue
        if suite is None or not suite.cases:
            report.problem = "registered provider has no conformance cases"
            report.status = "fail" if strict else "skip"
            continue
        report.warnings = [
            f"declares {name}, and no case exercises it" for name in uncovered(provider_id, suite.cases)
        ]
        for case in suite.cases:
            outcome = _run_one(suite, case, regenerate, models, (case_timeout, case_memory))
            report.cases.append(outcome)
            if progress is not None:
                progress(outcome)
        report.status = "fail" if report.counts()["fail"] else "pass"
    return Report(reports, errors, strict, versions(reports))


def versions(reports: Iterable[ProviderReport] = ()) -> dict[str, str]:
    """Python, modelport and modelport-conformance, then each distribution whose ``modelport`` entry
    points provide a provider of ``reports`` (with those providers): what produced a report."""
    import platform
    from importlib import metadata

    def version(distribution: str) -> str:
        try:
            return metadata.version(distribution)
        except metadata.PackageNotFoundError:
            return "not installed"

    found = {
        "Python": f"{platform.python_version()} ({platform.python_implementation()}, {platform.system()})",
        "modelport": version("modelport"),
        "modelport-conformance": version("modelport-conformance"),
    }
    wanted = {report.provider_id for report in reports}
    provided: dict[tuple[str, str], set[str]] = {}
    for ep in metadata.entry_points(group="modelport"):
        dist = getattr(ep, "dist", None)
        if ep.name in wanted and dist is not None:
            name = str(dist.metadata["Name"] or dist.name)
            provided.setdefault((name, str(dist.version)), set()).add(ep.name)
    for (name, dist_version), ids in sorted(provided.items()):
        found.setdefault(name, f"{dist_version} (providers: {', '.join(sorted(ids))})")
    return found


def _run_one(
    suite: Suite,
    case: Any,
    regenerate: bool,
    models: Collection[str],
    limits: tuple[float | None, int | None],
) -> CaseOutcome:
    try:
        return bounded_case(
            suite, case, regenerate=regenerate, models=models, timeout=limits[0], memory=limits[1]
        )
    except Exception as error:  # run_case guards every check; this is the net under the net
        message = redact(f"[run] raised {describe_exception(error)}", suite.secret_patterns)
        return CaseOutcome(suite.provider_id, case.name, case.method, "fail", message=message)


#: A surrogate code point: no UTF-8 writer takes one (a decoder's message may hold a lone one).
_SURROGATE = re.compile("[\ud800-\udfff]")


def writable(text: str) -> str:
    """``text`` with each surrogate code point written as its ``\\uXXXX`` escape, so that any
    UTF-8 writer takes it (in a JSON string the escape reads back as the same code point)."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def render(report: Report, fmt: str = "table", *, width: int | None = None) -> str:
    """The report as a terminal table, JSON, Markdown or a self-contained HTML page, in text any
    UTF-8 writer takes (:func:`writable`).

    The table fits ``width`` columns (default: the terminal's, 80 without one): a detail too long
    for its column wraps onto more lines, and so do the failures below the table; nothing is cut.
    """
    return writable(_rendered(report, fmt, width))


def _rendered(report: Report, fmt: str, width: int | None) -> str:
    if fmt == "json":
        return json.dumps(report.as_dict(), indent=2, ensure_ascii=False)
    if fmt == "html":
        from .html_report import render_html

        return render_html(report)
    rows = [
        (p.provider_id, c.case, c.method, _MARK[c.status], ",".join(c.requirements), _first_line(c.message))
        for p in report.providers
        for c in p.cases
    ]
    rows += [(p.provider_id, "-", "-", _MARK[p.status], "", p.problem) for p in report.providers if p.problem]
    rows += [(p.provider_id, "-", "-", _MARK["warn"], "", w) for p in report.providers for w in p.warnings]
    header = ("provider", "case", "method", "result", "requirements", "detail")
    summary = [line for p in report.providers for line in _summary_lines(p)]
    verdict = "conformance: OK" if report.ok else "conformance: FAILED"
    failures = [
        f"{p.provider_id} / {c.case}:\n" + "\n".join("    " + line for line in c.message.splitlines())
        for p in report.providers
        for c in p.cases
        if c.status == "fail"
    ]
    details = ["", "Failures:", *failures] if failures else []
    if report.plugin_errors:
        details += ["", "Plugin load errors:"]
        details += [
            f"{name}: {redact(error.splitlines()[-1])}"
            for name, error in sorted(report.plugin_errors.items())
        ]
    if fmt == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
        fenced = ["", "```", *details[1:], "```"] if details else []
        return "\n".join([*lines, "", *(f"- {s}" for s in summary), *fenced, "", f"**{verdict}**"])
    width = width or terminal_width()
    lines = fit_table(header, rows, width)
    details = [wrapped for line in details for wrapped in wrap_lines(line, width, indent="  ")]
    summary = [wrapped for line in summary for wrapped in wrap_lines(line, width, indent="  ")]
    return "\n".join([*lines, *details, "", *summary, verdict])


def _first_line(message: str) -> str:
    return message.splitlines()[0] if message else ""


def _summary_lines(provider: ProviderReport) -> list[str]:
    """``acme: 8 cases: 8 passed, 0 failed, 0 skipped`` and the same of its checks."""
    name = provider.provider_id
    return [
        f"{name}: {counted(provider.counts(), 'case')}",
        f"{name}: {counted(provider.check_counts(), 'check')}",
    ]
