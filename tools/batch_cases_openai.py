"""The MOCK ``openai`` (Chat Completions plugin) batch cases (written by ``python
tools/batch_cases.py``): the recorded text-embedding-3-small exchange of ``batch-embeddings``, edited
where no recording exists, each edit named in its case's ``source.note``: a batch with one request
failed (an error file beside the output file), one that expired with a request unfinished (the
documented ``batch_expired`` error line, no response), one that failed validation, and results asked
for while the batch still runs. Each was pointed to by mutants of ``_batches.py`` no case reached
(``modelport conformance --mutate``, docs/conformance.md)."""

from __future__ import annotations

from typing import Any

from batch_cases import OPENAI, R, _embeddings_upload, _json, final_poll, with_error_file

__all__ = ["openai_mock_cases"]

SAVED = (
    R + "openai_text-embedding-3-small_embeddings_embeds_staged_texts_and_hydrates_each_request_result.yml"
)
#: MOCK: the error file of the cases below (its id invented).
ERROR_FILE = "file-Q3vX8nRe2ErrorsKb7Mw4Jd9"
#: MOCK: a line of the error file answered 400 (message, ids invented; OpenAI's error shape).
_FAILED_LINE = {
    "id": "batch_req_6a85c161492c81908e872a539548e95b",
    "custom_id": "1",
    "response": {
        "status_code": 400,
        "request_id": "47b4decb-c21b-40a5-8c7e-2800b6452226",
        "body": {
            "error": {
                "message": "This model's maximum context length is 8192 tokens.",
                "type": "invalid_request_error",
                "param": None,
                "code": "context_length_exceeded",
            }
        },
    },
    "error": None,
}
#: The error file's line of a request the window closed on (the Batch API guide's "Batch
#: expiration": no response, the ``batch_expired`` error).
_EXPIRED_LINE = {
    "id": "batch_req_6a85c161492c81908e872a539548e95b",
    "custom_id": "1",
    "response": None,
    "error": {
        "code": "batch_expired",
        "message": "This request could not be executed before the completion window expired.",
    },
}


def _one_failed(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    counts = {"total": 2, "completed": 1, "failed": 1}
    return with_error_file(interactions, _FAILED_LINE, ERROR_FILE, request_counts=counts)


def _one_expired(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ended = _json(interactions[-2]["response"]["body"]["string"])
    return with_error_file(
        interactions,
        _EXPIRED_LINE,
        ERROR_FILE,
        status="expired",
        completed_at=None,
        expired_at=ended["expires_at"],
        request_counts={"total": 2, "completed": 1, "failed": 0},
    )


def _failed_validation(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recorded upload and create, then the poll answered ``failed``: the input file refused
    (the batch object's documented ``errors`` list), no request run, no files."""
    created = _json(interactions[1]["response"]["body"]["string"])
    error = {"code": "invalid_json_line", "message": "This line is not parseable as valid JSON.", "line": 2}
    poll = final_poll(
        interactions,
        status="failed",
        output_file_id=None,
        finalizing_at=None,
        completed_at=None,
        failed_at=created["created_at"] + 3,
        errors={"object": "list", "data": [{**error, "param": None}]},
        request_counts={"total": 0, "completed": 0, "failed": 0},
    )
    return [interactions[0], interactions[1], poll]


def _still_running(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recorded upload and create, then a poll answered ``in_progress`` (no files yet)."""
    created = _json(interactions[1]["response"]["body"]["string"])
    poll = final_poll(
        interactions,
        status="in_progress",
        output_file_id=None,
        finalizing_at=None,
        completed_at=None,
        in_progress_at=created["created_at"] + 5,
        request_counts={"total": 2, "completed": 1, "failed": 0},
    )
    return [interactions[0], interactions[1], poll]


def openai_mock_cases() -> list[dict[str, Any]]:
    """The specs, in :mod:`batch_cases`' shape."""
    base = {
        "saved": SAVED,
        "model": "text-embedding-3-small",
        "kind": "embed",
        "requests": _embeddings_upload,
        "family": "openai",
    }
    recorded = "the upload and create are the recorded ones"
    return [
        {
            **base,
            "target": OPENAI / "openai/batch-embeddings-one-failed-mock",
            "steps": ["refresh", "results"],
            "edit": _one_failed,
            "mock": f"MOCK: no recording of an OpenAI batch error file is vendored; {recorded}, the output "
            "file too (without its second line), the poll is the recorded final batch object with "
            "request_counts 1 completed, 1 failed and an error_file_id, and the error file holds the "
            "second request answered 400 (status_code, request_id and an error body in OpenAI's error "
            "shape, message invented)",
            "description": "MOCK a /v1/embeddings batch with one request failed: the output file holds "
            "the first embedding, the error file the second request's 400 (context_length_exceeded).",
        },
        {
            **base,
            "target": OPENAI / "openai/batch-embeddings-one-expired-mock",
            "steps": ["refresh", "results"],
            "edit": _one_expired,
            "mock": f"MOCK: no recording of an expired OpenAI batch is vendored; {recorded}, the output "
            "file too (without its second line), the poll is the recorded final batch object with its "
            "status expired, expired_at for completed_at, request_counts 1 of 2 completed and an "
            "error_file_id, and the error file holds the second request as the Batch API guide's "
            "'Batch expiration' shows it: no response, error code batch_expired",
            "description": "MOCK a /v1/embeddings batch that expired with its second request unfinished: "
            "status expired (one counted expired), the first embedding kept, the second a typed error "
            "from the error line's batch_expired error (no status code: 500).",
        },
        {
            **base,
            "target": OPENAI / "openai/batch-embeddings-failed-mock",
            "steps": ["refresh"],
            "edit": _failed_validation,
            "mock": f"MOCK: no recording of a failed OpenAI batch is vendored; {recorded}, the poll after "
            "them is the recorded final batch object with its status failed, failed_at, no output "
            "file, request_counts 0 and the documented errors list (invalid_json_line)",
            "description": "MOCK a /v1/embeddings batch whose input file failed validation: polled once, "
            "status failed, no request counted.",
        },
        {
            **base,
            "target": OPENAI / "openai/batch-embeddings-results-too-early-mock",
            "steps": ["refresh", "results"],
            "edit": _still_running,
            "mock": f"MOCK: no recording of an OpenAI batch in progress is vendored; {recorded}, the poll "
            "after them is the recorded final batch object with its status in_progress, in_progress_at, "
            "no output file and request_counts 1 of 2 completed",
            "description": "MOCK a /v1/embeddings batch still in_progress when its results are asked "
            "for: status running, one processing; reading the results is a typed InvalidRequestError.",
        },
    ]
