"""The ``invariants`` check holds each warning to naming what it is about: a scaffold-built plugin
whose unsupported-setting warning has its ``setting`` and ``details`` swapped fails it, with no
``merge_frames`` and its goldens regenerated from the buggy plugin (so ``expected`` passes)."""

from __future__ import annotations

from modelport.types import CallWarning, Result
from modelport_conformance.invariants import check_warnings

from . import scaffold_plugin


def test_setting_and_details_swapped_fail_the_invariants(build_plugin) -> None:
    failures = scaffold_plugin.failing_checks(build_plugin("warning setting and details swapped"))
    assert failures == {
        "generate-unsupported-setting": {
            "invariants": "warning 1 (unsupported-setting): its setting 'the API has no field for it' is no"
            " name (details 'seed': setting and details swapped?)"
        }
    }


def test_a_setting_named_by_a_path_passes() -> None:
    names = ["prompt_cache.key", "groundingSupports[7]", "web_search.blocked_domains"]
    warnings = [CallWarning(type="unsupported-setting", setting=n, details="not sent") for n in names]
    assert check_warnings(Result(warnings=warnings), []) == []
    blank = CallWarning(type="other", setting=" ", details="x")
    assert check_warnings(Result(warnings=[blank]), []) == [
        "warning 1 (other): its setting ' ' is no name (details 'x': setting and details swapped?)"
    ]
