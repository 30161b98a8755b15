"""MOCK Google batch cases: the recorded ``batch-answers`` exchange (crmne/ruby_llm) with the
operation that ends it changed, for what the corpus has no recording of: an inlined response that
is an error, a batch cancelled before it ran, a cancel, output in a responses file, and inlined
responses of no known shape. tools/batch_cases.py builds them with its own cases
(``python tools/batch_cases.py``)."""

from __future__ import annotations

import json
from typing import Any

#: The inlined error: a ``google.rpc.Status`` as the Batch API reference gives it (code 7 is gRPC
#: PERMISSION_DENIED, HTTP 403; the message is invented).
DENIED = {
    "code": 7,
    "message": "Permission denied on the cached content of this request.",
    "status": "PERMISSION_DENIED",
}


def _ended(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recorded GETs whose operation is done (the poll that ends the batch, then the read)."""
    ended = []
    for interaction in interactions:
        if interaction["request"]["method"].upper() != "GET":
            continue
        body = json.loads(interaction["response"]["body"]["string"])
        if body.get("done"):
            ended.append(interaction)
    assert len(ended) == 2, len(ended)
    return ended


def _rewrite(interaction: dict[str, Any], change: Any) -> None:
    body = json.loads(interaction["response"]["body"]["string"])
    change(body["metadata"], body)
    interaction["response"]["body"]["string"] = json.dumps(body, indent=2)


def second_request_denied(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The second inlined response replaced by a PERMISSION_DENIED error; the counts set to match."""

    def change(batch: dict[str, Any], body: dict[str, Any]) -> None:
        # the output is in the operation twice: metadata.output and the operation's response
        for output in (batch["output"], body["response"]):
            responses = output["inlinedResponses"]["inlinedResponses"]
            responses[1] = {"error": dict(DENIED), "metadata": responses[1]["metadata"]}
        batch["batchStats"] = {"requestCount": "2", "successfulRequestCount": "1", "failedRequestCount": "1"}

    for interaction in _ended(interactions):
        _rewrite(interaction, change)
    return interactions


def cancelled_before_running(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The operation that ends the batch says it was cancelled with both requests pending: no output."""

    def change(batch: dict[str, Any], body: dict[str, Any]) -> None:
        batch.pop("output", None)
        body.pop("response", None)
        batch["state"] = "BATCH_STATE_CANCELLED"
        batch["batchStats"] = {"requestCount": "2", "pendingRequestCount": "2"}

    for interaction in _ended(interactions):
        _rewrite(interaction, change)
    return interactions


#: The responses file of a batch whose output went to the Files API, as tidyverse/ellmer's saved
#: Gemini batch (tests/testthat/batch/state-capitals-gemini.json) names it: ``files/batch-{id}``.
DOWNLOAD = "https://generativelanguage.googleapis.com/download/v1beta/files/batch-{id}:download?alt=media"


def results_in_a_file(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The done operation's output is a ``responsesFile`` (as ellmer's recorded Gemini batch has it)
    in place of the inlined responses; the read then downloads it: one JSON Lines line a request,
    ``{"key", "response"}``, the recorded inlined responses keyed by their custom ids."""
    ended = _ended(interactions)
    body = json.loads(ended[-1]["response"]["body"]["string"])
    batch_id = body["name"].removeprefix("batches/")
    inline = body["response"]["inlinedResponses"]["inlinedResponses"]
    lines = [{"key": entry["metadata"]["custom_id"], "response": entry["response"]} for entry in inline]

    def change(batch: dict[str, Any], operation: dict[str, Any]) -> None:
        name = f"files/batch-{batch_id}"
        batch["output"] = {"responsesFile": name}
        operation["response"] = {
            "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput",
            "responsesFile": name,
        }

    for interaction in ended:
        _rewrite(interaction, change)
    download = json.loads(json.dumps(ended[-1]))
    download["request"]["uri"] = DOWNLOAD.format(id=batch_id)
    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    download["response"]["body"]["string"] = text
    download["response"]["headers"] = {"content-type": ["application/octet-stream"]}
    return [*interactions, download]


def cancelled_while_pending(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recorded create, then ``POST batches/{id}:cancel`` answered ``{}`` (the reference's empty
    answer) and the GET after it answered with the first recorded poll's operation, cancelled with
    both requests pending."""
    create, poll = interactions[0], interactions[1]
    cancel = json.loads(json.dumps(create))
    cancel["request"]["uri"] = poll["request"]["uri"] + ":cancel"
    cancel["request"]["body"] = {"string": "{}"}
    cancel["response"]["body"]["string"] = "{}"
    after = json.loads(json.dumps(poll))

    def change(batch: dict[str, Any], operation: dict[str, Any]) -> None:
        batch["state"] = "BATCH_STATE_CANCELLED"
        batch["endTime"] = batch["updateTime"] = "2026-08-19T14:34:20.512604719Z"  # invented
        operation["done"] = True

    _rewrite(after, change)
    return [create, cancel, after]


def entries_of_no_shape(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first inlined response has neither ``response`` nor ``error``; the second's ``error`` is a
    string, not a google.rpc.Status object: each is that request's typed error."""

    def change(batch: dict[str, Any], body: dict[str, Any]) -> None:
        for output in (batch["output"], body["response"]):
            responses = output["inlinedResponses"]["inlinedResponses"]
            responses[0] = {"metadata": responses[0]["metadata"]}
            responses[1] = {"error": DENIED["message"], "metadata": responses[1]["metadata"]}
        batch["batchStats"] = {"requestCount": "2", "failedRequestCount": "2"}

    for interaction in _ended(interactions):
        _rewrite(interaction, change)
    return interactions


def google_mock_cases() -> list[dict[str, Any]]:
    """The MOCK Google batch cases: batch-answers' recorded exchange, its ending operation changed
    by an ``edit`` of this module (each case's note says how)."""
    from batch_cases import CHATS, GOOGLE, R, _gemini

    base = {"saved": R + "gemini_gemini-2_5-flash" + CHATS, "model": "gemini-2.5-flash", "requests": _gemini}
    return [
        {
            **base,
            "target": GOOGLE / "batch-inlined-error",
            "family": "google",
            "edit": second_request_denied,
            "mock": "MOCK: the corpus has no Gemini batch with a failed request: batch-answers' recorded "
            "exchange, the second inlined response of the two done polls replaced by a PERMISSION_DENIED "
            "google.rpc.Status (code 7, message invented) and batchStats set to one succeeded, one failed",
            "description": "A batchGenerateContent batch whose second inlined response is a "
            "google.rpc.Status error (gRPC 7): that request's typed permission error (403), the "
            "first keeps its answer.",
        },
        {
            **base,
            "target": GOOGLE / "batch-cancelled",
            "family": "google",
            "edit": cancelled_before_running,
            "mock": "MOCK: the corpus has no cancelled Gemini batch: batch-answers' recorded exchange, the "
            "two done polls' operation set to BATCH_STATE_CANCELLED with both requests pending and no "
            "output",
            "description": "A batchGenerateContent batch that ended cancelled with both requests "
            "pending: status cancelled, both counted cancelled; reading its results (it has no output) "
            "is a typed InvalidRequestError.",
        },
        {
            **base,
            "target": GOOGLE / "batch-responses-file",
            "family": "google",
            "edit": results_in_a_file,
            "steps": ["wait", "results"],
            "mock": "MOCK: the corpus has no HTTP recording of a Gemini batch whose output is a file: "
            "batch-answers' recorded exchange, the two done polls' output set to a responsesFile named "
            "as in tidyverse/ellmer's saved Gemini batch (files/batch-{id}), and a download of it added "
            "whose JSON Lines are the recorded inlined responses keyed by their custom ids",
            "description": "A batchGenerateContent batch whose output is a responses file: the read "
            "downloads files/batch-{id}:download?alt=media (the Files API's download service) and maps "
            "each {key, response} line as that request's answer.",
        },
        {
            **base,
            "target": GOOGLE / "batch-cancel",
            "family": "google",
            "edit": cancelled_while_pending,
            "steps": ["cancel"],
            "mock": "MOCK: the corpus has no Gemini batch cancel: batch-answers' recorded create, then "
            "POST batches/{id}:cancel answered {} (the reference's empty answer) and the GET after it "
            "answered with the first recorded poll's operation set to BATCH_STATE_CANCELLED (end time "
            "invented)",
            "description": "A batchGenerateContent batch cancelled while pending: POST "
            "batches/{id}:cancel, then the batch read again: cancelled, both requests counted cancelled.",
        },
        {
            **base,
            "target": GOOGLE / "batch-inlined-no-shape",
            "family": "google",
            "edit": entries_of_no_shape,
            "mock": "MOCK: the corpus has no Gemini batch with malformed inlined responses: batch-answers' "
            "recorded exchange, the first inlined response of the two done polls left with its metadata "
            "only, the second's error a string, and batchStats set to two failed",
            "description": "A batchGenerateContent batch whose first inlined response has neither "
            "response nor error and whose second's error is no object: each is that request's typed "
            "error; the batch still reads.",
        },
    ]
