"""The ``invariants`` check reads an error's status against the answer recorded: a plugin whose error
hook drops or shifts the status fails without any golden, even after ``--regenerate`` rewrote the
error cases' ``expected.json`` to accept it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from modelport.errors import (
    InvalidRequestError,
    ProviderAuthError,
    ProviderRequestError,
    StreamInterruptedError,
)
from modelport_conformance.cases import discover_suites
from modelport_conformance.invariants import check_error_status
from modelport_conformance.runner import run_case

from . import scaffold_plugin
from .conftest import install_alone


def test_an_error_with_the_status_answered_passes() -> None:
    error = ProviderRequestError("API key not valid.", provider="google", status_code=400)
    assert check_error_status(error, 400) == []


def test_an_error_with_another_status_or_none_is_reported() -> None:
    shifted = ProviderAuthError("invalid x-api-key", provider="anthropic", status_code=402)
    dropped = ProviderRequestError("API key not valid.", provider="google")
    assert check_error_status(shifted, 401) == [
        "ProviderAuthError.status_code is 402, but the answer recorded was 401"
    ]
    assert check_error_status(dropped, 400) == [
        "ProviderRequestError.status_code is None, but the answer recorded was 400"
    ]


def test_errors_not_read_from_an_error_answer_are_not_read() -> None:
    interrupted = StreamInterruptedError("the stream ended early", provider="openai")
    assert check_error_status(interrupted, 500) == []  # the stream checks read those
    assert check_error_status(ProviderRequestError("bad frame", provider="openai"), 200) == []
    assert check_error_status(InvalidRequestError("max_output_tokens: out of range"), None) == []
    assert check_error_status(None, 400) == []


@pytest.fixture
def dropped_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> Iterator[object]:
    scaffold_plugin.forget_package()
    source = scaffold_plugin.build(tmp_path / "project", "error status dropped")
    entry = {scaffold_plugin.NAME: f"{scaffold_plugin.PACKAGE}._plugin"}
    install_alone(monkeypatch, tmp_path / "site", "modelport-mm-llm", entry, source)
    suite = discover_suites([scaffold_plugin.NAME])[0][scaffold_plugin.NAME]
    assert suite is not None
    for case in suite.cases:  # the author runs --regenerate: the goldens accept the bug
        run_case(suite, case, regenerate=True)
    yield suite
    scaffold_plugin.forget_package()


def test_a_plugin_that_drops_the_status_fails_the_invariants_with_regenerated_goldens(dropped_status) -> None:
    failures = {}
    for case in dropped_status.cases:
        outcome = run_case(dropped_status, case)
        failed = {c.name: c.message for c in outcome.checks if c.status == "fail"}
        if failed:
            failures[case.name] = failed
    assert failures == {
        f"error-{status}": {"invariants": f"{kind}.status_code is None, but the answer recorded was {status}"}
        for status, kind in [
            (400, "ProviderRequestError"),
            (401, "ProviderAuthError"),
            (429, "ProviderRateLimitError"),
            (500, "ProviderOverloadedError"),
        ]
    }
