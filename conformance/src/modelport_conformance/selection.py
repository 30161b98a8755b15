"""Which cases run, and why the others are skipped: one rule for the CLI and for pytest.

:func:`skip_reason` is called by :func:`~modelport_conformance.runner.run_case`, which both
``modelport conformance`` and the pytest base class use, so a case is skipped (or not) with the same
reason everywhere. In this order:

1. **Models.** When models are given (``models`` on the pytest class, ``--model`` on the command
   line), a case whose ``model`` is not among them is skipped: ``model 'x' is not in models``.
   No models means every case runs.
2. **Declared unsupported.** A case that exercises something the suite declares in ``unsupported``
   (its method, a feature, or what its request uses:
   :func:`~modelport_conformance.capabilities.exercised`) is skipped:
   ``declared unsupported: stream: <the suite's reason>``.

A case that needs a capability the provider does not declare is not skipped: it is refused, a
failure (:mod:`modelport_conformance.capabilities`).
"""

from __future__ import annotations

from collections.abc import Collection

from .capabilities import capabilities, exercised
from .cases import Case, Suite

__all__ = ["capabilities", "skip_reason"]


def skip_reason(suite: Suite, case: Case, *, models: Collection[str] = ()) -> str | None:
    """Why ``case`` is not run for ``suite`` (``None``: it runs)."""
    if models and case.model not in models:
        return f"model {case.model!r} is not in models"
    for feature in exercised(case):
        if feature in suite.unsupported:
            return f"declared unsupported: {feature}: {suite.unsupported[feature]}"
    return None
