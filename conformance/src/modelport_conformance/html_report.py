"""The conformance report as one self-contained HTML page (``modelport conformance --format html``).

A page a plugin author can publish from CI: failures first (each failing case with the commands
that replay, regenerate and re-record it), the providers-by-cases matrix (failing rows first), each
case's requirements, checks, skip reasons and failure diffs, and the versions that produced it.
Inline CSS only: no script, no network asset (a Content-Security-Policy forbids both), and it works
without JavaScript (details expand with ``<details>``, matrix cells link to them by fragment).

Every string that comes from a plugin, a case or a cassette (provider ids, case names, methods,
requirements, messages, plugin errors, versions) goes through :func:`text`: control characters
become visible ``\\xNN``, bidi controls and zero-width characters ``\\u202e``, and the rest is
:func:`html.escape`-d, so it is shown as text, never interpreted as markup. Element ids and classes
are built from indexes and a fixed set of words only.
"""

from __future__ import annotations

import html
import re
import shlex
from typing import TYPE_CHECKING

from modelport.cli.terminal import visible

from .credentials import redact
from .outcomes import CaseOutcome, counted

if TYPE_CHECKING:
    from .outcomes import Report

__all__ = ["render_html", "repair_hints", "text"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_MARK = {"pass": "PASS", "fail": "FAIL", "skip": "skip"}
#: The only classes a status maps to (anything else is "unknown").
_CLASS = {"pass": "pass", "fail": "fail", "skip": "skip"}

_NONE = '<span class="muted">none</span>'
_CHECKS_HEAD = "<thead><tr><th>check</th><th>result</th><th>detail</th></tr></thead>"
_CSP = "default-src 'none'; style-src 'unsafe-inline'"

_CSS = """
:root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
       padding: 1.5rem 2rem 3rem; max-width: 1400px; color: #1f2328; background: #fff; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
.verdict { display: inline-block; font-weight: 700; padding: .2rem .6rem; border-radius: 4px; color: #fff; }
.verdict.ok { background: var(--pass); } .verdict.failed { background: var(--fail); }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; position: sticky; top: 0; }
#matrix td { text-align: center; white-space: nowrap; }
#matrix th[scope=row] { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 400; }
td.pass, .badge.pass { color: var(--pass); } td.fail, .badge.fail { color: var(--fail); font-weight: 700; }
td.skip, .badge.skip { color: var(--skip); } td.none { color: #8c959f; }
td.pass { background: #dafbe1; } td.fail { background: #ffebe9; } td.skip { background: #fff8c5; }
td a { color: inherit; text-decoration: none; display: block; }
.badge { font-weight: 700; display: inline-block; min-width: 3.2em; }
details { border: 1px solid var(--line); border-radius: 6px; margin: .4rem 0; padding: .3rem .7rem; }
details[open] { padding-bottom: .7rem; }
details:target { outline: 2px solid #0969da; }
summary { cursor: pointer; }
.name, code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.method { color: #656d76; margin-left: .5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .6rem 0; }
dt { font-weight: 600; } dd { margin: 0; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: .5rem;
      overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: .3rem 0; }
pre.diff { background: #fff5f5; border-color: #ffcecb; }
#failures { border: 2px solid var(--fail); border-radius: 6px; padding: .2rem 1rem .6rem; margin-top: 1rem; }
#failures h2 { color: var(--fail); margin-top: .6rem; } #failures li { margin: .5rem 0; }
pre.hint { background: #fff; margin: .3rem 0 0; }
.muted { color: #656d76; }
"""


def text(value: object) -> str:
    """``value`` as HTML text: control characters and characters that reorder or hide text (bidi
    controls, zero-width characters: :func:`modelport.cli.terminal.visible`) made visible, then
    escaped (quotes included)."""
    shown = visible(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(value)))
    return html.escape(shown, quote=True)


def _status(status: str) -> tuple[str, str]:
    """(class, label) of a status; never taken from the data itself."""
    return _CLASS.get(status, "unknown"), text(_MARK.get(status, status))


def _case_id(p: int, c: int) -> str:
    return f"case-{p}-{c}"


def repair_hints(outcome: CaseOutcome) -> list[str]:
    """The commands that replay, regenerate and re-record a failing case, one a line."""
    provider, case = shlex.quote(outcome.provider_id), shlex.quote(outcome.case)
    return [
        f"replay:      modelport conformance --provider {provider}",
        f"regenerate:  modelport conformance --provider {provider} --regenerate   # review, then --accept",
        f"re-record:   pytest --modelport-record-mode=all -k {case}   # with the provider's key set",
    ]


def _failing(report: Report) -> list[tuple[int, int, CaseOutcome]]:
    return [
        (p, c, outcome)
        for p, provider in enumerate(report.providers)
        for c, outcome in enumerate(provider.cases)
        if outcome.status == "fail"
    ]


def _failures(failing: list[tuple[int, int, CaseOutcome]]) -> list[str]:
    """The section at the top of the page: every failing case, its failed checks and its hints."""
    out = ['<section id="failures"><h2>Failures</h2><ul>']
    for p, c, outcome in failing:
        checks = ", ".join(check.name for check in outcome.checks if check.status == "fail")
        out.append(
            f'<li><span class="badge fail">FAIL</span> <a class="name case-ref" href="#{_case_id(p, c)}">'
            f"{text(outcome.provider_id)} / {text(outcome.case)}</a>"
            f'<span class="method">{text(outcome.method)}</span>'
            f"{': ' + text(checks) if checks else ''}"
            f'<pre class="hint">{text(chr(10).join(repair_hints(outcome)))}</pre></li>'
        )
    out.append("</ul></section>")
    return out


def _failing_first(cases: list[CaseOutcome]) -> list[tuple[int, CaseOutcome]]:
    """The cases with their indexes (their ids), failing ones first, each group in run order."""
    indexed = list(enumerate(cases))
    return [item for item in indexed if item[1].status == "fail"] + [
        item for item in indexed if item[1].status != "fail"
    ]


def _matrix(report: Report) -> list[str]:
    failing = {c.case for p in report.providers for c in p.cases if c.status == "fail"}
    names = sorted({c.case for p in report.providers for c in p.cases}, key=lambda n: (n not in failing, n))
    where: dict[tuple[int, str], list[tuple[int, CaseOutcome]]] = {}
    for p, provider in enumerate(report.providers):
        for c, outcome in enumerate(provider.cases):
            where.setdefault((p, outcome.case), []).append((c, outcome))
    out = ['<table id="matrix">', '<thead><tr><th scope="col">case</th>']
    out += [
        f'<th scope="col"><a href="#provider-{p}">{text(pr.provider_id)}</a></th>'
        for p, pr in enumerate(report.providers)
    ]
    out.append("</tr></thead><tbody>")
    for name in names:
        row = [f'<tr><th scope="row">{text(name)}</th>']
        for p, _provider in enumerate(report.providers):
            found = where.get((p, name), [])
            if not found:
                row.append('<td class="none" title="no such case">&#8211;</td>')
                continue
            classes = {_status(o.status)[0] for _, o in found}
            cls = "fail" if "fail" in classes else classes.pop() if len(classes) == 1 else "unknown"
            links = " ".join(f'<a href="#{_case_id(p, c)}">{_status(o.status)[1]}</a>' for c, o in found)
            row.append(f'<td class="{cls}">{links}</td>')
        out.append("".join(row) + "</tr>")
    out.append('</tbody><tfoot><tr><th scope="row">provider</th>')
    for provider in report.providers:
        cls, label = _status(provider.status)
        title = f' title="{text(provider.problem)}"' if provider.problem else ""
        out.append(f'<td class="{cls}"{title}>{label}</td>')
    out.append("</tr></tfoot></table>")
    return out


def _case(p: int, c: int, outcome: CaseOutcome) -> list[str]:
    cls, label = _status(outcome.status)
    opened = " open" if outcome.status == "fail" else ""
    out = [
        f'<details id="{_case_id(p, c)}" class="case {cls}"{opened}>',
        f'<summary><span class="badge {cls}">{label}</span> <span class="name">{text(outcome.case)}</span>'
        f'<span class="method">{text(outcome.method)}</span></summary>',
        "<dl>",
        f"<dt>requirements</dt><dd>{text(', '.join(outcome.requirements)) or _NONE}</dd>",
    ]
    if outcome.status == "skip":
        out.append(f'<dt>skip reason</dt><dd class="skip-reason">{text(outcome.message)}</dd>')
    out.append("</dl>")
    if outcome.status == "fail" and outcome.message:
        out.append(f'<pre class="diff">{text(outcome.message)}</pre>')
    if outcome.status == "fail":
        out.append(f'<pre class="hint">{text(chr(10).join(repair_hints(outcome)))}</pre>')
    if outcome.checks:
        out.append(f'<table class="checks">{_CHECKS_HEAD}<tbody>')
        for check in outcome.checks:
            ccls, clabel = _status(check.status)
            detail = f"<pre>{text(check.message)}</pre>" if check.message else ""
            out.append(
                f'<tr><td class="name">{text(check.name)}</td>'
                f'<td class="{ccls}">{clabel}</td><td>{detail}</td></tr>'
            )
        out.append("</tbody></table>")
    out.append("</details>")
    return out


def render_html(report: Report) -> str:
    """The whole page."""
    totals = {"pass": 0, "fail": 0, "skip": 0}
    for provider in report.providers:
        for key, value in provider.counts().items():
            totals[key] += value
    verdict = ('<span class="verdict ok">conformance: OK</span>' if report.ok
               else '<span class="verdict failed">conformance: FAILED</span>')  # fmt: skip
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>modelport conformance report</title>",
        f"<style>{_CSS}</style></head><body>",
        "<header><h1>modelport conformance</h1>",
        f'<p id="verdict">{verdict} '
        f'<span id="summary">{totals["pass"]} passed, {totals["fail"]} failed, '
        f"{totals['skip']} skipped</span>"
        f"{' (strict)' if report.strict else ''}</p></header>",
        "<main>",
    ]
    failing = _failing(report)
    if failing:
        out += _failures(failing)
    out.append("<section><h2>Providers &#215; cases</h2>")
    if any(p.cases for p in report.providers):
        out += _matrix(report)
    else:
        out.append('<p class="muted">No case ran.</p>')
    problems = [(p, pr) for p, pr in enumerate(report.providers) if pr.problem]
    if problems:
        out.append('<ul id="provider-problems">')
        for p, provider in problems:
            cls, label = _status(provider.status)
            out.append(
                f'<li><span class="badge {cls}">{label}</span> '
                f'<a href="#provider-{p}">{text(provider.provider_id)}</a>: '
                f"{text(provider.problem)}</li>"
            )
        out.append("</ul>")
    out.append("</section><section><h2>Cases</h2>")
    for p, provider in enumerate(report.providers):
        counts, checks = provider.counts(), provider.check_counts()
        cls, label = _status(provider.status)
        out.append(
            f'<h3 id="provider-{p}"><span class="badge {cls}">{label}</span> <span class="name">'
            f"{text(provider.provider_id)}</span></h3>"
            f'<p class="muted">{text(counted(counts, "case"))}; {text(counted(checks, "check"))}'
            f"{': ' + text(provider.problem) if provider.problem else ''}</p>"
        )
        if provider.warnings:
            out.append('<ul class="warnings">')
            out += [f"<li>{text(warning)}</li>" for warning in provider.warnings]
            out.append("</ul>")
        for c, outcome in _failing_first(provider.cases):
            out += _case(p, c, outcome)
    out.append("</section>")
    if report.plugin_errors:
        out.append('<section><h2>Plugin load errors</h2><table id="plugin-errors"><tbody>')
        out += [
            f'<tr><th scope="row">{text(name)}</th><td><pre>{text(redact(error))}</pre></td></tr>'
            for name, error in sorted(report.plugin_errors.items())
        ]
        out.append("</tbody></table></section>")
    out.append('<section><h2>Versions</h2><table id="versions"><tbody>')
    out += [f'<tr><th scope="row">{text(k)}</th><td>{text(v)}</td></tr>' for k, v in report.versions.items()]
    out.append("</tbody></table></section></main></body></html>")
    return "\n".join(out)
