"""The ``invariants`` check reads an error's status against the answer recorded: a plugin whose error
hook drops or shifts the status fails without any golden, even after ``--regenerate`` rewrote the
error cases' ``expected.json`` to accept it."""

from __future__ import annotations

from modelport.errors import (
    InvalidRequestError,
    ProviderAuthError,
    ProviderRequestError,
    StreamInterruptedError,
)
from modelport_conformance.invariants import check_error_status

from . import scaffold_plugin


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


def test_a_plugin_that_drops_the_status_fails_the_invariants_with_regenerated_goldens(build_plugin) -> None:
    failures = scaffold_plugin.failing_checks(build_plugin("error status dropped"))
    assert failures == {
        f"error-{status}": {"invariants": f"{kind}.status_code is None, but the answer recorded was {status}"}
        for status, kind in [
            (400, "ProviderRequestError"),
            (401, "ProviderAuthError"),
            (429, "ProviderRateLimitError"),
            (500, "ProviderOverloadedError"),
        ]
    }
