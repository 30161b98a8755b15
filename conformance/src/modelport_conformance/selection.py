"""Which cases run, and why the others are skipped: one rule for the CLI and for pytest.

:func:`skip_reason` is called by :func:`~modelport_conformance.runner.run_case`, which both
``modelport conformance`` and the pytest base class use, so a case is skipped (or not) with the same
reason everywhere. In this order:

1. **Models.** When models are given (``models`` on the pytest class, ``--model`` on the command
   line), a case whose ``model`` is not among them is skipped: ``model 'x' is not in models``.
   No models means every case runs.
2. **Declared unsupported.** A case whose method or one of whose ``features`` the suite declares in
   ``unsupported`` is skipped: ``declared unsupported: stream: <the suite's reason>``.
3. **Capabilities.** A case whose method or one of whose ``features`` names a
   :class:`modelport.provider.Capabilities` field the provider sets to ``False`` is skipped:
   ``provider declares no reasoning support``. Features that are no capability name only take
   part in rule 2.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from modelport import plugins
from modelport.errors import ModelportError

from .cases import Case, Suite

__all__ = ["capabilities", "skip_reason"]


def capabilities(provider_id: str) -> Mapping[str, bool]:
    """The provider's declared capabilities by name (empty when it is not registered)."""
    try:
        provider = plugins.provider_class(provider_id)
    except ModelportError:
        return {}
    return provider.capabilities.as_dict()


def skip_reason(suite: Suite, case: Case, *, models: Collection[str] = ()) -> str | None:
    """Why ``case`` is not run for ``suite`` (``None``: it runs)."""
    if models and case.model not in models:
        return f"model {case.model!r} is not in models"
    needs = [case.method, *case.features]
    for feature in needs:
        if feature in suite.unsupported:
            return f"declared unsupported: {feature}: {suite.unsupported[feature]}"
    declared = capabilities(suite.provider_id)
    for feature in needs:
        if declared.get(feature) is False:
            return f"provider declares no {feature} support"
    return None
