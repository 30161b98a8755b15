"""What a provider declares it can do, held against its cases.

A provider declares :class:`modelport.provider.Capabilities`; a case exercises (:func:`exercised`)
its ``method`` (``generate``, ``stream``, ``embed``, ``count_tokens``, ``batch``), its ``features``,
and what its request (a batch's: each entry) uses: ``response_format`` (other than ``"text"``) is
``structured_output``, a function tool ``function_tools``, a provider tool ``provider_tools``,
``reasoning`` settings ``reasoning``, ``prompt_cache`` settings ``prompt_cache``, request
``documents`` ``documents``.
Two rules, the same for ``modelport conformance`` and pytest:

- **A case that needs an undeclared capability is refused**: a case whose method or one of whose
  features names a ``Capabilities`` field the provider sets to ``False`` fails with
  :func:`refusal`'s reason (check ``capabilities``), whatever else it holds. Either the provider can
  do it (declare it) or the case is for something it cannot (list the feature in the suite's
  ``unsupported`` with the reason: such a case is skipped before this rule is read, see
  :mod:`modelport_conformance.selection`). Features that name no capability take no part.
- **A capability declared with no case exercising it is reported** (:func:`uncovered`): a warning
  on the provider's report, in every format. It does not fail the run, not even under
  ``--strict``: the capabilities are declared per provider id, while one mapping often serves
  several ids (the Chat Completions presets) and is proven by the cases of one of them. A
  capability no case can exercise (:data:`NO_CASE_METHOD`: a case has no method for it) is not
  reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from modelport import plugins
from modelport.errors import ModelportError

from .cases import Case

__all__ = ["CAPABILITY_CHECK", "NO_CASE_METHOD", "capabilities", "exercised", "refusal", "uncovered"]

#: The name of the check a refused case reports.
CAPABILITY_CHECK = "capabilities"
#: Capabilities no case can exercise: a case's ``method`` is one of
#: :data:`~modelport_conformance.cases.METHODS`, and none lists models.
NO_CASE_METHOD = ("list_models",)


def capabilities(provider_id: str) -> Mapping[str, bool]:
    """The provider's declared capabilities by name (empty when it is not registered)."""
    try:
        provider = plugins.provider_class(provider_id)
    except ModelportError:
        return {}
    return provider.capabilities.as_dict()


def exercised(case: Case) -> list[str]:
    """What ``case`` exercises: its method, its features, then what its request uses (see the
    module); a refusal case (no interaction, an expected error) uses nothing of its request: it
    shows the request is refused, as ``documents`` are by a provider without them (a new one's
    ``expected.json`` is the ``{"error": {"type", "message"}}`` the refusal raises)."""
    refused = not case.cassette.interactions and "error" in (case.expected or {})
    used = [] if refused else [name for request in _requests(case) for name in _used(request)]
    return list(dict.fromkeys([case.method, *case.features, *used]))


def _requests(case: Case) -> list[Mapping[str, object]]:
    """The request keywords of ``case``: for a batch, each entry's (an entry may be a
    ``[custom_id, entry]`` pair, or for embeddings a bare string)."""
    if case.method != "batch":
        return [case.request]
    entries = case.request.get("requests") or []
    unpaired = [e[1] if isinstance(e, (list, tuple)) and len(e) == 2 else e for e in entries]
    return [entry for entry in unpaired if isinstance(entry, Mapping)]


def _used(request: Mapping[str, object]) -> list[str]:
    used: list[str] = []
    if request.get("response_format") not in (None, "text"):
        used.append("structured_output")
    tools = request.get("tools")
    kinds = (
        {t.get("type", "function") for t in tools if isinstance(t, dict)}
        if isinstance(tools, list)
        else set()
    )
    used += [f"{kind}_tools" for kind in ("function", "provider") if kind in kinds]
    used += [name for name in ("reasoning", "prompt_cache") if request.get(name) is not None]
    used += ["documents"] if request.get("documents") else []
    return used


def refusal(provider_id: str, case: Case) -> str | None:
    """Why ``case`` cannot be run for ``provider_id`` (``None``: nothing it needs is undeclared)."""
    declared = capabilities(provider_id)
    missing = [name for name in exercised(case) if declared.get(name) is False]
    if not missing:
        return None
    names = ", ".join(missing)
    fields = ", ".join(f"{name}=False" for name in missing)
    return (
        f"refused: the case needs {names}, which provider {provider_id!r} does not declare "
        f"(Capabilities: {fields}); declare it, or list it in the suite's unsupported with the reason"
    )


def uncovered(provider_id: str, cases: Iterable[Case]) -> list[str]:
    """The capabilities ``provider_id`` declares that no case of ``cases`` exercises, in field order."""
    used = {name for case in cases for name in exercised(case)}
    declared = capabilities(provider_id)
    return [name for name, on in declared.items() if on and name not in used and name not in NO_CASE_METHOD]
