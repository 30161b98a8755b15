"""The two MOCK ``openai-responses`` batch cases (tools/batch_cases_responses.py: the recorded
gpt-5-nano exchange, edited where no recording exists): an expired batch and one whose second
request failed. Their values, and the counting bugs that only they catch, each failing a check that
reads no golden (``invariants``)."""

from __future__ import annotations

from typing import Any

import modelport_openai._batches as openai_batches
import pytest

from modelport_conformance.cases import Case, Suite, discover_suites
from modelport_conformance.runner import run_case


def _suite() -> Suite:
    suites, errors = discover_suites(["openai-responses"])
    assert errors == {}
    suite = suites["openai-responses"]
    assert suite is not None
    return suite


def _case(suite: Suite, name: str) -> Case:
    return next(case for case in suite.cases if case.name == name)


def _failed_checks(name: str) -> dict[str, str]:
    suite = _suite()
    outcome = run_case(suite, _case(suite, name))
    return {check.name: check.message for check in outcome.checks if check.status == "fail"}


def test_an_expired_batch_counts_both_requests_expired_and_none_processing() -> None:
    case = _case(_suite(), "batch-expired-mock")
    assert case.request["steps"] == ["refresh"]
    assert case.expected == {
        "batch": {
            "job": {
                "counts": {
                    "cancelled": 0,
                    "expired": 2,
                    "failed": 0,
                    "processing": 0,
                    "succeeded": 0,
                    "total": 2,
                },
                "created_at": "2026-08-19T14:41:14Z",
                "ended_at": "2026-08-20T14:41:14Z",
                "id": "batch_6a85c08a63188190982c56b42faa4ff5",
                "raw_status": "expired",
                "status": "expired",
            }
        }
    }
    assert _failed_checks("batch-expired-mock") == {}


def test_a_failed_line_of_the_error_file_is_that_request_s_typed_error() -> None:
    case = _case(_suite(), "batch-one-request-failed-mock")
    assert case.request["steps"] == ["refresh", "results"]
    assert [i.request["uri"].rsplit("/", 2)[-2] for i in case.cassette.interactions[-2:]] == [
        "file-4SnbT9qu8ShH2A1wCvTHNp",
        "file-7Jk2mErrorsQv9Lw3Xc5Zp8",
    ]
    assert case.expected is not None
    batch = case.expected["batch"]
    assert batch["job"]["counts"] == {
        "cancelled": 0,
        "expired": 0,
        "failed": 1,
        "processing": 0,
        "succeeded": 1,
        "total": 2,
    }
    assert (batch["job"]["status"], batch["job"]["raw_status"]) == ("succeeded", "completed")
    assert [r["custom_id"] for r in batch["results"]] == ["0", "1"]
    assert batch["results"][0]["result"]["text"] == "4"
    assert batch["results"][1] == {
        "custom_id": "1",
        "error": {
            "provider_status": "invalid_value",
            "retryable": False,
            "status_code": 400,
            "type": "ProviderRequestError",
        },
    }
    assert _failed_checks("batch-one-request-failed-mock") == {}


def test_expired_requests_also_counted_processing_fail_the_invariants(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = openai_batches.batch_state

    def still_processing(data: Any) -> Any:
        state = real(data)
        counts = state.counts.model_copy(update={"processing": state.counts.expired})
        return state.model_copy(update={"counts": counts})

    monkeypatch.setattr(openai_batches, "batch_state", still_processing)
    failed = _failed_checks("batch-expired-mock")
    assert set(failed) == {"expected", "invariants"}
    assert failed["invariants"] == "job.counts: the parts sum to 4, past total (2)"


def test_a_failed_count_read_as_none_fails_the_invariants(monkeypatch: pytest.MonkeyPatch) -> None:
    real = openai_batches.batch_state

    def none_failed(data: Any) -> Any:
        state = real(data)
        return state.model_copy(update={"counts": state.counts.model_copy(update={"failed": 0})})

    monkeypatch.setattr(openai_batches, "batch_state", none_failed)
    failed = _failed_checks("batch-one-request-failed-mock")
    assert set(failed) == {"expected", "invariants"}
    assert failed["invariants"] == "job.counts.failed is 0, but 1 results failed"
