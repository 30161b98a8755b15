"""Goldens reviewed, not overwritten: ``--regenerate`` proposes, a person reviews, ``--accept`` applies.

The workflow of snapshot-testing tools (insta's ``.snap.new`` files and ``cargo insta review``,
syrupy's ``--snapshot-update``, inline-snapshot's ``--inline-snapshot=review``):

- ``modelport conformance --regenerate`` replays every case and writes what the plugin decodes
  today to ``expected.proposed.json`` beside the case's ``expected.json`` (nothing when they are
  equal; a stale proposal is removed), then prints each proposal's diff against ``expected.json``.
  A change to a value the golden-free checks rely on (usage counts, finish reasons, tool-call names,
  ids and arguments, citations and sources, text) is flagged with ``!`` and what it is: accepting
  it changes what the plugin is held to, so it is read before it is accepted;
- ``modelport conformance --accept`` moves every proposal over its ``expected.json``
  (``--modelport-record-mode=accept`` does the same under pytest, case by case);
- with ``CI`` set, ``--regenerate`` refuses: a CI job never rewrites what it checks.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .cases import EXPECTED_FILE, Case
from .jsondiff import Difference, diff_json
from .outcomes import CheckOutcome

__all__ = [
    "PROPOSED_FILE",
    "Proposal",
    "accept_all",
    "accept_command",
    "accept_case",
    "ci_refusal",
    "cli_refusal",
    "propose",
    "proposal_of",
    "print_review",
    "proposed_in",
    "relied_on",
    "review_lines",
]

#: The file ``--regenerate`` writes beside ``expected.json``.
PROPOSED_FILE = "expected.proposed.json"
_PROPOSED = "proposed "
#: What the golden-free checks (invariants, derived and metamorphic checks) read, by JSON path.
_RELIED = (
    (re.compile(r"\.usage\b"), "usage"),
    (re.compile(r"finish_reason\b"), "finish reason"),
    (re.compile(r"\.(args|arguments|call_id|part)\b|\.name$"), "tool call"),
    (re.compile(r"\.(citations|sources)\b"), "citations"),
    (re.compile(r"\.(text|delta)$"), "text"),
)
#: Part and event types whose addition or removal changes what those checks read.
_RELIED_TYPES = {
    "tool-call": "tool call",
    "tool-call-start": "tool call",
    "tool-call-delta": "tool call",
    "tool-call-end": "tool call",
    "text": "text",
    "text-delta": "text",
    "finish": "finish reason",
}


def ci_refusal(environ: Mapping[str, str] | None = None) -> str | None:
    """Why ``--regenerate`` may not run here (``CI`` is set), else ``None``."""
    value = (os.environ if environ is None else environ).get("CI", "")
    if value.strip().lower() in {"", "0", "false", "no"}:
        return None
    return "--regenerate refuses to run in CI (CI is set): regenerate locally, review, --accept, commit"


def _text(output: Any) -> str:
    return json.dumps(output, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def propose(case: Case, output: dict[str, Any]) -> CheckOutcome:
    """The ``expected`` check in regenerate mode: write the proposal for ``case`` (or remove a stale
    one when ``output`` equals its ``expected.json``)."""
    target = case.location / PROPOSED_FILE
    if not hasattr(target, "write_text"):
        where = case.location / EXPECTED_FILE
        return CheckOutcome("expected", "fail", f"cannot write {where}: the cases are not in a directory")
    if case.expected is not None and not diff_json(case.expected, output):
        if target.is_file():
            target.unlink()
        return CheckOutcome("expected", "pass", "expected.json is current")
    target.write_text(_text(output), encoding="utf-8")
    return CheckOutcome("expected", "pass", f"{_PROPOSED}{target}")


@dataclass(frozen=True)
class Proposal:
    """A proposal beside a case's ``expected.json``, read (``current`` is ``None`` for a new case)."""

    name: str
    location: Any
    current: Any
    proposed: Any

    def differences(self) -> list[Difference]:
        """How the proposal differs from ``expected.json``."""
        return diff_json(self.current, self.proposed) if self.current is not None else []


def proposal_of(name: str, location: Any) -> Proposal | None:
    """The proposal of the case at ``location`` (``None`` when it has none)."""
    proposed = location / PROPOSED_FILE
    if not proposed.is_file():
        return None
    current = location / EXPECTED_FILE
    old = json.loads(current.read_text(encoding="utf-8")) if current.is_file() else None
    return Proposal(name, location, old, json.loads(proposed.read_text(encoding="utf-8")))


def relied_on(difference: Difference) -> str | None:
    """What a golden-free check reads at this difference (``"usage"``...), else ``None``."""
    for pattern, label in _RELIED:
        if pattern.search(difference.path):
            return label
    for value in (difference.expected, difference.actual):
        if isinstance(value, dict) and value.get("type") in _RELIED_TYPES:
            return _RELIED_TYPES[str(value["type"])]
    return None


def review_lines(proposals: Iterable[Proposal]) -> list[str]:
    """The per-case diff ``--regenerate`` prints: each change on a line, flagged ones with ``!``."""
    lines: list[str] = []
    for proposal in proposals:
        if proposal.current is None:
            lines.append(f"{proposal.name}: new expected.json proposed (no expected.json yet)")
            continue
        differences = proposal.differences()
        flagged = [d for d in differences if relied_on(d)]
        lines.append(
            f"{proposal.name}: {len(differences)} change{'s' if len(differences) != 1 else ''}"
            f" proposed, {len(flagged)} to values the golden-free checks rely on"
        )
        for difference in differences:
            label = relied_on(difference)
            mark = f"  ! [{label}] " if label else "    "
            lines.append(mark + difference.describe())
    return lines


def proposed_in(outcomes: Iterable[Any]) -> list[Proposal]:
    """The proposals a regenerating run wrote, from its case outcomes (their ``expected`` checks)."""
    from pathlib import Path

    found: list[Proposal] = []
    for outcome in outcomes:
        for check in outcome.checks:
            if check.name == "expected" and check.message.startswith(_PROPOSED):
                location = Path(check.message[len(_PROPOSED) :]).parent
                proposal = proposal_of(f"{outcome.provider_id}/{outcome.case}", location)
                if proposal is not None:
                    found.append(proposal)
    return found


def accept_all(suites: Mapping[str, Any]) -> list[str]:
    """Accept every proposal of the cases of ``suites`` (by provider id); the cases accepted."""
    return [
        f"{provider_id}/{case.name}"
        for provider_id, suite in suites.items()
        if suite is not None
        for case in suite.cases
        if accept_case(case.location)
    ]


def accept_case(location: Any) -> bool:
    """Move the case's proposal over its ``expected.json``; whether there was one."""
    proposed = location / PROPOSED_FILE
    if not proposed.is_file():
        return False
    (location / EXPECTED_FILE).write_text(proposed.read_text(encoding="utf-8"), encoding="utf-8")
    proposed.unlink()
    return True


# The command line (``modelport conformance``) ---------------------------------------------------


def cli_refusal(*, regenerate: bool, accept: bool) -> str | None:
    """The one line ``modelport conformance`` exits with before running, else ``None``."""
    if regenerate and accept:
        return "--regenerate and --accept do not go together: review the proposals, then --accept"
    return ci_refusal() if regenerate else None


def accept_command(provider_ids: Iterable[str] | None, echo: Callable[[str], None]) -> int:
    """``--accept``: accept every proposal of the registered suites; the exit code."""
    from .cases import discover_suites

    suites, _ = discover_suites(provider_ids)
    accepted = accept_all(suites)
    for name in accepted:
        echo(f"accepted {name}")
    echo(f"{len(accepted)} proposal{'s' if len(accepted) != 1 else ''} accepted")
    return 0


def print_review(report: Any, echo: Callable[[str], None]) -> None:
    """After ``--regenerate``: each proposal's diff, then how to accept them."""
    proposals = proposed_in(outcome for provider in report.providers for outcome in provider.cases)
    for line in review_lines(proposals):
        echo(line)
    if proposals:
        echo(f"{len(proposals)} proposal(s) written; review them, then: modelport conformance --accept")
    else:
        echo("no proposals: every expected.json is current")
