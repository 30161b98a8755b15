"""Names that left the contract stay readable for one minor version, each read with a
:class:`DeprecationWarning`: ``Warning`` (renamed ``CallWarning``: it shadowed the builtin) and the
``grounding_metadata`` fields (moved to ``provider_metadata["google"]["groundingMetadata"]``)."""

from __future__ import annotations

import importlib
import warnings

import pytest

import modelport
import modelport.types
from modelport.events import FinishEvent
from modelport.types import CallWarning, Result, TextPart

from .test_public_api import EXPECTED_CORE

#: (module, old name, new name) of every rename of contract 2.1.
RENAMED = [("modelport", "Warning", "CallWarning"), ("modelport.types", "Warning", "CallWarning")]
#: ``modelport.__all__`` before contract 2.1.
OLD_CORE = (EXPECTED_CORE - {"CallWarning"}) | {"Warning"}
GROUNDING = {"groundingChunks": [{"web": {"uri": "https://www.bbc.co.uk/weather", "title": "BBC"}}]}


@pytest.mark.parametrize(("module", "old", "new"), RENAMED)
def test_an_old_name_reads_the_new_one_and_warns(module: str, old: str, new: str) -> None:
    package = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{old} is deprecated .* use {module}\.{new}"):
        value = getattr(package, old)
    assert value is getattr(package, new) is CallWarning
    with pytest.warns(DeprecationWarning):  # every read warns, not only the first
        assert getattr(package, old) is CallWarning
    assert old not in package.__all__ and old not in dir(package)


@pytest.mark.parametrize("module", ["modelport", "modelport.types"])
def test_from_import_of_the_old_name_warns_and_star_import_no_longer_shadows_the_builtin(module: str) -> None:
    with pytest.warns(DeprecationWarning, match=r"\.Warning is deprecated"):
        exec(f"from {module} import Warning as old", {})
    namespace: dict[str, object] = {}
    exec(f"from {module} import *", namespace)
    assert "Warning" not in namespace and namespace["CallWarning"] is CallWarning


def test_every_name_of_the_old_core_face_still_imports_and_only_old_ones_warn() -> None:
    for name in sorted(OLD_CORE):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert getattr(modelport, name) is not None
        deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
        assert len(deprecations) == (1 if name == "Warning" else 0), name


def test_a_warning_made_under_the_old_name_is_a_call_warning() -> None:
    with pytest.warns(DeprecationWarning):
        old = modelport.types.Warning  # type: ignore[attr-defined]
    made = old(type="unsupported-setting", setting="seed")
    assert made == CallWarning(type="unsupported-setting", setting="seed")
    assert Result(warnings=[made]).model_dump()["warnings"] == [
        {"type": "unsupported-setting", "setting": "seed", "details": None}
    ]


def test_the_grounding_fields_read_the_google_namespace_and_warn() -> None:
    result = Result(
        content=[TextPart(text="Sunny.")], provider_metadata={"google": {"groundingMetadata": GROUNDING}}
    )
    with pytest.warns(DeprecationWarning, match=r"Result\.grounding_metadata is deprecated"):
        assert result.grounding_metadata == GROUNDING  # type: ignore[attr-defined]
    event = FinishEvent(finish_reason="stop", provider_metadata={"google": {"groundingMetadata": GROUNDING}})
    with pytest.warns(DeprecationWarning, match=r"FinishEvent\.grounding_metadata is deprecated"):
        assert event.grounding_metadata == GROUNDING  # type: ignore[attr-defined]
    with pytest.warns(DeprecationWarning):
        assert Result(content=[TextPart(text="Sunny.")]).grounding_metadata is None  # type: ignore[attr-defined]
