"""The MOCK ``openai-responses`` batch cases (written by ``python tools/batch_cases.py``): the recorded
gpt-5-nano exchange of ``batch-answers``, edited where no recording exists, each edit named in its
case's ``source.note``: a batch that expired before any request ran, one whose second request
failed (an error file beside the output file), one cancelled, one whose input file failed
validation, an error file line whose ``status_code`` is no number, and a batch id that is not an
OpenAI id. Each was pointed to by mutants of the batch mapping that survived the suite or that no
case reached (``modelport conformance --mutate``, docs/conformance.md)."""

from __future__ import annotations

import copy
import json
from typing import Any

from batch_cases import CHATS, OPENAI, R, _cancelled, _json, _responses_upload, final_poll, with_error_file

__all__ = ["responses_mock_cases"]

#: MOCK: the error file of :func:`_one_failed` (its message, file and request ids invented).
ERROR_FILE = "file-7Jk2mErrorsQv9Lw3Xc5Zp8"
_FAILED_LINE = {
    "id": "batch_req_6a85c10ebfa08190b20a29426c204c43",
    "custom_id": "1",
    "response": {
        "status_code": 400,
        "request_id": "5f0e2b1c-2d7a-4e8b-9c61-0b7a3d1e4f52",
        "body": {
            "error": {
                "message": "Invalid value for 'input': the input is empty.",
                "type": "invalid_request_error",
                "param": "input",
                "code": "invalid_value",
            }
        },
    },
    "error": None,
}


def _expired(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recorded upload and create, then the final poll answered ``expired`` with none of the
    two requests run (no recording of an expired OpenAI batch is vendored)."""
    ended = _json(interactions[-2]["response"]["body"]["string"])
    poll = final_poll(
        interactions,
        status="expired",
        output_file_id=None,
        finalizing_at=None,
        completed_at=None,
        expired_at=ended["expires_at"],
        request_counts={"total": 2, "completed": 0, "failed": 0},
        usage=None,
    )
    return [interactions[0], interactions[1], poll]


def _one_failed(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recorded upload, create and final poll (one request completed, one failed, an error
    file), the output file without its second line, then the error file holding that request's 400
    (no recording of an OpenAI batch error file is vendored)."""
    counts = {"total": 2, "completed": 1, "failed": 1}
    return with_error_file(interactions, _FAILED_LINE, ERROR_FILE, request_counts=counts)


def _failed(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recorded upload and create, then the final poll answered ``failed`` (the input file
    refused in validation: the documented ``errors`` list, none run; no recording is vendored)."""
    ended = _json(interactions[-2]["response"]["body"]["string"])
    error = {
        "code": "invalid_json_line",
        "message": "This line is not parseable as valid JSON.",
        "param": None,
        "line": 2,
    }
    poll = final_poll(
        interactions,
        status="failed",
        errors={"object": "list", "data": [error]},
        output_file_id=None,
        in_progress_at=None,
        finalizing_at=None,
        completed_at=None,
        failed_at=ended["created_at"] + 2,
        request_counts={"total": 0, "completed": 0, "failed": 0},
        usage=None,
    )
    return [interactions[0], interactions[1], poll]


def _status_text(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`_one_failed`, the error file's line with its ``status_code`` written as a string."""
    edited = _one_failed(interactions)
    line = {**_FAILED_LINE, "response": {**_FAILED_LINE["response"], "status_code": "400"}}
    edited[-1]["response"]["body"]["string"] = json.dumps(line) + "\n"
    return edited


def _odd_id(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recorded upload, then the create answered with an id that holds a path separator."""
    create = copy.deepcopy(interactions[1])
    body = {**_json(create["response"]["body"]["string"]), "id": "batch_6a85c08a/../files"}
    create["response"]["body"]["string"] = json.dumps(body, indent=2)
    return [interactions[0], create]


def responses_mock_cases() -> list[dict[str, Any]]:
    """The specs, in :mod:`batch_cases`' shape."""
    base = {
        "saved": R + "openai_gpt-5-nano" + CHATS,
        "model": "gpt-5-nano",
        "requests": _responses_upload,
        "family": "openai",
    }
    return [
        {
            **base,
            "target": OPENAI / "openai-responses/batch-expired-mock",
            "steps": ["refresh"],
            "edit": _expired,
            "mock": "MOCK: no recording of an expired OpenAI batch is vendored; the upload and create are "
            "the recorded ones, the poll after them is the recorded final batch object with its status "
            "expired, expired_at for completed_at, no output file and request_counts 2 with none run",
            "description": "MOCK a /v1/responses batch that expired before any request ran: polled once, "
            "expired, both requests counted expired, none processing.",
        },
        {
            **base,
            "target": OPENAI / "openai-responses/batch-one-request-failed-mock",
            "steps": ["refresh", "results"],
            "edit": _one_failed,
            "mock": "MOCK: no recording of an OpenAI batch error file is vendored; the upload, create and "
            "output file are the recorded ones (the output file without its second line), the poll is "
            "the recorded final batch object with request_counts 1 completed, 1 failed and an "
            "error_file_id, and the error file holds the second request answered 400, shaped as the "
            "output file's lines (id, custom_id, response with status_code, request_id and body) with "
            "an error body in OpenAI's error shape",
            "description": "MOCK a /v1/responses batch with one request failed: the output file holds "
            "the first answer, the error file the second request's 400 error, read after the output file.",
        },
        {
            **base,
            "target": OPENAI / "openai-responses/batch-cancel-mock",
            "steps": ["cancel", "refresh"],
            "edit": _cancelled,
            "mock": "MOCK: no recording of an OpenAI batch cancel is vendored; the upload and create are the "
            "recorded ones, the cancel (answered cancelling) and the poll after it (answered cancelled, with "
            "cancelled_at) are the recorded batch object with its status, time and request_counts (2, none "
            "run) changed, as openai/batch-cancel derives them",
            "description": "MOCK a /v1/responses batch cancelled right after it was created: POST "
            "/batches/{id}/cancel (cancelling, still running), then polled: cancelled, both requests "
            "counted cancelled, none processing.",
        },
        {
            **base,
            "target": OPENAI / "openai-responses/batch-failed-validation-mock",
            "steps": ["refresh"],
            "edit": _failed,
            "mock": "MOCK: no recording of a failed OpenAI batch is vendored; the upload and create are the "
            "recorded ones, the poll after them is the recorded final batch object with its status failed, "
            "failed_at for completed_at, no output file, request_counts 0 and the documented errors list "
            "(one invalid_json_line error, its message and line invented)",
            "description": "MOCK a /v1/responses batch whose input file failed validation: polled once, "
            "failed, no request run, the errors list kept in provider_data.",
        },
        {
            **base,
            "target": OPENAI / "openai-responses/batch-result-status-text-mock",
            "steps": ["refresh", "results"],
            "edit": _status_text,
            "mock": "MOCK: batch-one-request-failed-mock's exchange (itself MOCK: no recording of an OpenAI "
            "batch error file is vendored) with the error file line's status_code written as the string "
            '"400": a line of another shape, that request\'s typed error',
            "description": "MOCK an error file line whose status_code is not a number: the first request "
            "keeps its answer, the second is a typed error for the malformed line.",
        },
        {
            **base,
            "target": OPENAI / "openai-responses/batch-id-not-an-id-mock",
            "steps": ["refresh"],
            "edit": _odd_id,
            "mock": "MOCK: the recorded upload and create, the create's batch object with an id holding a "
            "path (batch_6a85c08a/../files, as a misbehaving proxy might answer): polling it is refused "
            "before any request, nothing more recorded",
            "description": "MOCK a /v1/responses batch whose id is not an OpenAI id: refreshing it is an "
            "InvalidRequestError before any request (the id is never put in a URL).",
        },
    ]
