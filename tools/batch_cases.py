"""Build the batch conformance cases (``method: batch``) from the recordings in tests/corpus/batch.

    python tools/batch_cases.py                                        # (re)write case.yaml + cassette.yaml
    modelport conformance --provider anthropic --case batch- --regenerate  # then expected.json; review

Each case is one whole recorded exchange (create or upload + create, every poll, cancel, results),
in recorded order, from crmne/ruby_llm's VCR cassettes (MIT): the responses as recorded (only the
headers a mapping reads), the requests as recorded with two adaptations, each named in
``source.note``: a request body built by another client is rewritten to the body the API reference
prescribes for the case's canonical requests (the request oracles of the other case tables:
``anthropic_wire.wire``, ``openai_responses_corpus.wire``, ``gemini_corpus.wire``); and Gemini's
``displayName``, the client's own label, is the one the plugin derives from the requests. The
steps (``wait``, ``refresh``, ``cancel``, ``results``) are read off the recording: every poll after
the first that ends the batch is one ``refresh``.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.batches.replay reads the corpus
sys.path.insert(0, str(Path(__file__).resolve().parent))

import anthropic_corpus
import anthropic_wire
import corpus_attribution
import gemini_corpus
import openai_responses_corpus

from modelport_conformance.cassette import Cassette, Interaction, clean_request, clean_response, dump_cassette
from modelport_google._batches import display_name
from tests.batches.replay import load_interactions

ROOT = Path(__file__).resolve().parents[1]
SOURCES: corpus_attribution.Sources = {
    "crmne__ruby_llm": ("crmne/ruby_llm", "fb5a49bf04da78d3e74496431ad1c99df5e7e5f0", "MIT"),
}
R = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_"
CHATS = "_answers_staged_chats_and_appends_the_answers_to_their_conversations.yml"
ANTHROPIC = ROOT / "plugins/anthropic/src/modelport_anthropic/cassettes/anthropic"
OPENAI = ROOT / "plugins/openai/src/modelport_openai/cassettes"
GOOGLE = ROOT / "plugins/google/src/modelport_google/cassettes/google"
#: A recorded poll answer that says the batch ended, per provider.
ENDED: dict[str, Callable[[dict[str, Any]], bool]] = {
    "anthropic": lambda body: body.get("processing_status") == "ended",
    "openai": lambda body: body.get("status") in ("completed", "failed", "expired", "cancelled"),
    "google": lambda body: bool(body.get("done")),
}
ADAPTED = "request bodies rewritten to the API reference's body for the canonical requests"


def _json(text: Any) -> Any:
    return json.loads(text) if text else None


def _adapted(recorded: list[dict[str, Any]], rewritten: list[dict[str, Any]]) -> str:
    """``source.note``'s words on the rewritten bodies: the top-level fields where they differ."""
    fields = sorted(
        {
            k
            for old, new in zip(recorded, rewritten, strict=True)
            for k in {*old, *new}
            if old.get(k) != new.get(k)
        }
    )
    return f"{ADAPTED}; the recorded bodies differ in: {', '.join(fields)}" if fields else ""


def _anthropic(interaction: dict[str, Any], model: str) -> tuple[list[Any], str]:
    """The canonical requests of a Message Batches create, and its body as the reference gives it."""
    sent = _json(interaction["request"]["body"]["string"])
    entries = [anthropic_corpus.canonical(entry["params"]) for entry in sent["requests"]]
    body = {
        "requests": [
            {"custom_id": entry["custom_id"], "params": anthropic_wire.wire(request, model, stream=False)}
            for entry, request in zip(sent["requests"], entries, strict=True)
        ]
    }
    interaction["request"]["body"] = {"string": json.dumps(body)}
    return entries, _adapted([e["params"] for e in sent["requests"]], [e["params"] for e in body["requests"]])


def _responses_upload(interaction: dict[str, Any], model: str) -> tuple[list[Any], str]:
    """The canonical requests of a Responses JSON Lines upload; the file's lines rewritten."""
    text = interaction["request"]["body"]["string"]
    head, rest = text.split("\r\n\r\n", 1)
    content, tail = rest.split("\r\n--", 1)
    lines = [json.loads(line) for line in content.splitlines()]
    entries = [{"prompt": line["body"]["input"][0]["content"]} for line in lines]
    recorded = [line["body"] for line in lines]
    for line, request in zip(lines, entries, strict=True):
        line["body"] = openai_responses_corpus.wire(request, model, stream=False)
    rewritten = "\n".join(json.dumps(line) for line in lines)
    interaction["request"]["body"] = {"string": f"{head}\r\n\r\n{rewritten}\r\n--{tail}"}
    return entries, _adapted(recorded, [line["body"] for line in lines])


def _embeddings_upload(interaction: dict[str, Any], model: str) -> tuple[list[Any], str]:
    """The canonical entries of an embeddings JSON Lines upload (its lines are the reference's)."""
    text = interaction["request"]["body"]["string"]
    content = text.split("\r\n\r\n", 1)[1].split("\r\n--", 1)[0]
    entries: list[Any] = []
    for line in map(json.loads, content.splitlines()):
        body = line["body"]
        entry = {"values": body["input"]}
        if "dimensions" in body:
            entry["output_dimensionality"] = body["dimensions"]
        entries.append(entry)
    return entries, ""


def _gemini(interaction: dict[str, Any], model: str) -> tuple[list[Any], str]:
    """The canonical requests of an inline ``batchGenerateContent``; its body as the reference says."""
    sent = _json(interaction["request"]["body"]["string"])
    recorded = sent["batch"]["inputConfig"]["requests"]["requests"]
    entries = [{"prompt": r["request"]["contents"][0]["parts"][0]["text"]} for r in recorded]
    inline = [
        {
            "request": {**gemini_corpus.wire(request, model), "model": f"models/{model}"},
            "metadata": r["metadata"],
        }
        for request, r in zip(entries, recorded, strict=True)
    ]
    body = {"batch": {"displayName": display_name(inline), "inputConfig": {"requests": {"requests": inline}}}}
    interaction["request"]["body"] = {"string": json.dumps(body)}
    note = _adapted([r["request"] for r in recorded], [i["request"] for i in inline])
    return entries, "; ".join(filter(None, [note, "displayName: the plugin's digest of the requests"]))


def _cancelled(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """MOCK (see its case's note): the recorded upload and create, then a cancel answered
    ``cancelling`` and a poll answered ``cancelled``, both the recorded batch object with the status,
    its time and the request counts changed (no recording of an OpenAI batch cancel is vendored)."""
    upload, create = interactions[0], interactions[1]
    created = _json(create["response"]["body"]["string"])
    uri = f"{create['request']['uri']}/{created['id']}"
    counts = {"total": 2, "completed": 0, "failed": 0}  # the two requests, none run
    cancelling = {
        **created,
        "status": "cancelling",
        "cancelling_at": created["created_at"] + 4,
        "request_counts": counts,
    }
    cancelled = {**cancelling, "status": "cancelled", "cancelled_at": created["created_at"] + 9}

    def exchange(method: str, target: str, sent: str, answer: dict[str, Any]) -> dict[str, Any]:
        headers = {
            k: v for k, v in create["request"]["headers"].items() if method == "post" or k != "Content-Type"
        }
        return {
            "request": {"method": method, "uri": target, "body": {"string": sent}, "headers": headers},
            "response": {**create["response"], "body": {"string": json.dumps(answer, indent=2)}},
        }

    return [
        upload,
        create,
        exchange("post", f"{uri}/cancel", "{}", cancelling),
        exchange("get", uri, "", cancelled),
    ]


CASES: list[dict[str, Any]] = [
    {
        "target": ANTHROPIC / "batch-answers",
        "saved": R + "anthropic_claude-haiku-4-5" + CHATS,
        "model": "claude-haiku-4-5",
        "requests": _anthropic,
        "family": "anthropic",
        "description": "A Message Batch of two requests (one with a system prompt): created, polled 10 times "
        "(in_progress -> ended), its results JSONL read; answers in input order.",
    },
    {
        "target": ANTHROPIC / "batch-polled-again",
        "saved": R
        + "anthropic_claude-haiku-4-5_reloads_a_batch_by_id_and_collects_messages_without_the_chats.yml",
        "model": "claude-haiku-4-5",
        "requests": _anthropic,
        "family": "anthropic",
        "description": "A Message Batch of one request: polled until it ended, asked once more, "
        "results read.",
    },
    {
        "target": ANTHROPIC / "batch-cancel",
        "saved": R + "anthropic_claude-haiku-4-5_cancels_a_running_batch.yml",
        "model": "claude-haiku-4-5",
        "requests": _anthropic,
        "family": "anthropic",
        "steps": ["cancel"],
        "description": "A Message Batch cancelled while it runs: processing_status canceling is "
        "still running.",
    },
    {
        "target": OPENAI / "openai-responses/batch-answers",
        "saved": R + "openai_gpt-5-nano" + CHATS,
        "model": "gpt-5-nano",
        "requests": _responses_upload,
        "family": "openai",
        "description": "A /v1/responses batch: JSON Lines uploaded (multipart), created, polled "
        "(validating -> in_progress -> completed), the output file read; reasoning kept.",
    },
    {
        "target": OPENAI / "openai/batch-embeddings",
        "saved": R
        + "openai_text-embedding-3-small_embeddings_embeds_staged_texts_and_hydrates_each_request_result.yml",
        "model": "text-embedding-3-small",
        "kind": "embed",
        "requests": _embeddings_upload,
        "family": "openai",
        "description": "A /v1/embeddings batch of two texts (one at 256 dimensions): uploaded, created, "
        "polled, the output file read as one EmbeddingResult each.",
    },
    {
        "target": OPENAI / "openai/batch-cancel",
        "saved": R
        + "openai_text-embedding-3-small_embeddings_embeds_staged_texts_and_hydrates_each_request_result.yml",
        "model": "text-embedding-3-small",
        "kind": "embed",
        "requests": _embeddings_upload,
        "family": "openai",
        "steps": ["cancel", "refresh"],
        "edit": _cancelled,
        "mock": "MOCK: no recording of an OpenAI batch cancel is vendored; the upload and create are the "
        "recorded ones, the cancel (answered cancelling) and the poll after it (answered cancelled, with "
        "cancelled_at) are the recorded batch object with its status, time and request_counts (2, none "
        "run) changed",
        "description": "A /v1/embeddings batch cancelled right after it was created: POST "
        "/batches/{id}/cancel (cancelling, still running), then polled: cancelled, both requests "
        "counted cancelled.",
    },
    {
        "target": GOOGLE / "batch-answers",
        "saved": R + "gemini_gemini-2_5-flash" + CHATS,
        "model": "gemini-2.5-flash",
        "requests": _gemini,
        "family": "google",
        "description": "A batchGenerateContent batch with two inline requests: 26 polls of the operation "
        "(PENDING -> RUNNING -> SUCCEEDED), the inlined responses read.",
    },
]


#: Where the MOCK results lines below follow the API: the batch results of the Message Batches guide
#: and the SDK's ``MessageBatchIndividualResponse`` (an errored line holds the whole error response).
BATCH_DOCS = ["https://docs.anthropic.com/en/docs/build-with-claude/batch-processing"]


def _ended_with(
    counts: dict[str, int], lines: list[dict[str, Any]], *, expired: bool = False
) -> Callable[[list[dict[str, Any]]], None]:
    """A MOCK derivation of a recorded Anthropic batch exchange: the poll that ended it reports
    ``counts`` (``expired``: and its ``ended_at`` is its ``expires_at``, when the API expires a
    batch), and its results file holds ``lines`` (one per request, in order)."""

    def derive(interactions: list[dict[str, Any]]) -> None:
        polls = [i for i in interactions if i["request"]["method"].upper() == "GET"]
        for poll in polls[:-1]:
            body = _json(poll["response"]["body"]["string"])
            if ENDED["anthropic"](body):
                body["request_counts"] = {**body["request_counts"], **counts}
                if expired:
                    body["ended_at"] = body["expires_at"]
                poll["response"]["body"]["string"] = json.dumps(body)
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
        polls[-1]["response"]["body"]["string"] = text

    return derive


def _errored(custom_id: str) -> dict[str, Any]:
    message = "messages.0.content: Input should be a valid list"  # invented
    error = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
    return {"custom_id": custom_id, "result": {"type": "errored", "error": error}}


def _answer_of(interactions: list[dict[str, Any]], custom_id: str) -> dict[str, Any]:
    """The recorded results line of ``custom_id``."""
    lines = interactions[-1]["response"]["body"]["string"].splitlines()
    return next(line for line in map(json.loads, lines) if line["custom_id"] == custom_id)


MOCK_CASES: list[dict[str, Any]] = [
    {
        "target": ANTHROPIC / "batch-results-errored",
        "saved": R + "anthropic_claude-haiku-4-5" + CHATS,
        "model": "claude-haiku-4-5",
        "requests": _anthropic,
        "family": "anthropic",
        "derive": lambda recorded: _ended_with(
            {"succeeded": 1, "errored": 1}, [_answer_of(recorded, "0"), _errored("1")]
        ),
        "mock": "the corpus has no batch with an errored request: batch-answers' recorded exchange, its "
        "second results line replaced by an errored one (the error response nested, message invented) "
        "and the final counts set to match",
        "description": "A Message Batch whose second request errored: the line's nested error "
        "(invalid_request_error) is that request's typed error (400); the first keeps its answer.",
    },
    {
        "target": ANTHROPIC / "batch-results-expired",
        "saved": R + "anthropic_claude-haiku-4-5" + CHATS,
        "model": "claude-haiku-4-5",
        "requests": _anthropic,
        "family": "anthropic",
        "derive": lambda recorded: _ended_with(
            {"succeeded": 0, "expired": 2},
            [{"custom_id": c, "result": {"type": "expired"}} for c in ("0", "1")],
            expired=True,
        ),
        "mock": "the corpus has no expired batch: batch-answers' recorded exchange, its final counts "
        "set to two expired requests, its ended_at to its expires_at, and its results lines to the "
        "documented expired lines",
        "description": "A Message Batch that ended with every request expired: status expired, and "
        "each request's result an expired error.",
    },
]


def _steps(spec: dict[str, Any], interactions: list[dict[str, Any]]) -> list[str]:
    if "steps" in spec:
        return list(spec["steps"])
    ended = ENDED[spec["family"]]
    polls = [i for i in interactions if i["request"]["method"].upper() == "GET"][
        :-1
    ]  # the last reads results
    first = next(n for n, poll in enumerate(polls) if ended(_json(poll["response"]["body"]["string"])))
    return ["wait"] + ["refresh"] * (len(polls) - first - 1) + ["results"]


def _request(recorded: dict[str, Any]) -> dict[str, Any]:
    """The request as recorded (VCR's ``{encoding, string}`` body read as its text)."""
    return clean_request({**recorded, "body": recorded["body"].get("string") or None})


def _response(recorded: dict[str, Any]) -> dict[str, Any]:
    """The response as recorded, with its content type only (no batch mapping reads another header)."""
    response = clean_response({**recorded, "body": recorded["body"].get("string")})
    response["headers"] = {k: v for k, v in response["headers"].items() if k == "content-type"}
    return response


def build(spec: dict[str, Any]) -> None:
    """Write one case directory (``expected.json``, when present, is kept)."""
    interactions = load_interactions(spec["saved"])
    if "edit" in spec:
        interactions = spec["edit"](interactions)
    steps = _steps(spec, interactions)
    entries, note = spec["requests"](interactions[0], spec["model"])
    if "derive" in spec:
        spec["derive"](copy.deepcopy(interactions))(interactions)
        note = "; ".join(filter(None, [f"MOCK: {spec['mock']}", note]))
    else:  # an edited recording names its own MOCK reason
        note = "; ".join(filter(None, [spec.get("mock", ""), note]))
    source = corpus_attribution.attribution(SOURCES, spec["saved"], note=note)
    if "derive" in spec:
        source = {**source, "mock": True, "docs": BATCH_DOCS}
    request: dict[str, Any] = {"kind": spec.get("kind", "generate"), "requests": entries, "steps": steps}
    case = {"description": spec["description"], "method": "batch", "model": spec["model"], "request": request}
    case["source"] = source
    directory: Path = spec["target"]
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "case.yaml").write_text(
        yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )
    cassette = Cassette(
        [Interaction(_request(i["request"]), _response(i["response"])) for i in interactions],
        metadata={"source": source},
    )
    (directory / "cassette.yaml").write_text(dump_cassette(cassette), encoding="utf-8")


def final_poll(interactions: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    """The recorded poll that ended an OpenAI batch (the last before the results), its batch
    object with ``changes``."""
    poll = copy.deepcopy(interactions[-2])
    body = {**_json(poll["response"]["body"]["string"]), **changes}
    poll["response"]["body"]["string"] = json.dumps(body, indent=2)
    return poll


def with_error_file(
    interactions: list[dict[str, Any]], line: dict[str, Any], error_file: str, **changes: Any
) -> list[dict[str, Any]]:
    """The recorded upload and create of an OpenAI batch, its final poll with ``changes`` and the
    error file ``error_file``, the output file without its second line, then that error file
    holding ``line``."""
    poll = final_poll(interactions, error_file_id=error_file, **changes)
    output = copy.deepcopy(interactions[-1])
    output["response"]["body"]["string"] = output["response"]["body"]["string"].splitlines(keepends=True)[0]
    errors = copy.deepcopy(output)
    errors["request"]["uri"] = f"https://api.openai.com/v1/files/{error_file}/content"
    errors["response"]["body"]["string"] = json.dumps(line) + "\n"
    return [interactions[0], interactions[1], poll, output, errors]


def main() -> None:
    """Write every case."""
    from batch_cases_openai import openai_mock_cases  # they read this module's helpers
    from batch_cases_responses import responses_mock_cases
    from google_batch_cases import google_mock_cases

    specs = CASES + MOCK_CASES + google_mock_cases() + responses_mock_cases() + openai_mock_cases()
    for spec in specs:
        build(spec)
        print(f"{spec['target'].relative_to(ROOT)}")


if __name__ == "__main__":
    main()
