"""Checks a suite declares expected to fail, each with the defect that makes it fail.

A plugin whose derived fault cases find a defect not fixed yet registers it, rather than weakening
the check::

    register("acme", cases, expected_failures={"stream-text/cut": "acme#12: a cut stream is complete"})

The key is ``"<case>/<check>"``. While the check fails it is a ``skip`` whose message names the
defect, then the failure; once it passes it is a ``fail`` telling to remove the entry, so a fixed
defect cannot leave a check switched off.
"""

from __future__ import annotations

from collections.abc import Mapping

from .outcomes import CheckOutcome

__all__ = ["apply_expected_failures"]


def apply_expected_failures(
    declared: Mapping[str, str], case: str, checks: list[CheckOutcome]
) -> list[CheckOutcome]:
    """``checks`` of ``case`` with the suite's ``expected_failures`` applied (see the module)."""
    if not declared:
        return checks
    out: list[CheckOutcome] = []
    for check in checks:
        key = f"{case}/{check.name}"
        reason = declared.get(key)
        if reason is None or check.status == "skip":
            out.append(check)
        elif check.status == "fail":
            out.append(CheckOutcome(check.name, "skip", f"expected failure: {reason}\n{check.message}"))
        else:
            message = f"expected to fail ({reason}), but passed: remove {key!r} from expected_failures"
            out.append(CheckOutcome(check.name, "fail", message))
    return out
