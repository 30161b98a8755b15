"""MOCK Google batch cases: the recorded ``batch-answers`` exchange (crmne/ruby_llm) with the
operation that ends it changed, for what the corpus has no recording of: an inlined response that
is an error, and a batch cancelled before it ran. tools/batch_cases.py builds them with its own
cases (``python tools/batch_cases.py``)."""

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
