"""The batch case kind (``method: batch``): the shipped cases built from the batch recordings
(crmne/ruby_llm, MIT; tools/batch_cases.py) replay the whole exchange (upload, create, every poll,
cancel, results) through each provider, sync and async; and a planted bug in a plugin's batch
mapping fails the suite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import modelport_anthropic._batches as anthropic_batches
import pytest

from modelport.batches import BatchLine
from modelport_conformance.batch_replay import RECORD_POLL_INTERVAL, BatchPlan
from modelport_conformance.cases import Case, Suite, discover_suites, load_cases
from modelport_conformance.cassette import Cassette, Interaction, body_bytes
from modelport_conformance.player import CassettePlayer
from modelport_conformance.recording import record_case
from modelport_conformance.runner import run_case
from tests.conformance.servers import Answer, LocalServer, Seen

KEY = "sk-test-0123456789abcdefghijklmnop"

BATCH_CASES = {
    ("anthropic", "batch-answers"),
    ("anthropic", "batch-cancel"),
    ("anthropic", "batch-polled-again"),
    ("anthropic", "batch-results-errored"),  # MOCK: derived from batch-answers (no recording)
    ("anthropic", "batch-results-expired"),  # MOCK: derived from batch-answers (no recording)
    ("openai", "batch-cancel"),
    ("openai", "batch-embeddings"),
    ("openai", "batch-embeddings-failed-mock"),  # MOCK: derived from batch-embeddings (no recording)
    ("openai", "batch-embeddings-one-expired-mock"),  # MOCK: derived from batch-embeddings
    ("openai", "batch-embeddings-one-failed-mock"),  # MOCK: derived from batch-embeddings
    ("openai", "batch-embeddings-results-too-early-mock"),  # MOCK: derived from batch-embeddings
    ("openai-responses", "batch-answers"),
    ("openai-responses", "batch-expired-mock"),  # MOCK: derived from batch-answers (no recording)
    ("openai-responses", "batch-one-request-failed-mock"),  # MOCK: derived from batch-answers
    ("openai-responses", "batch-cancel-mock"),  # MOCK: openai/batch-cancel's edit of batch-answers
    ("openai-responses", "batch-failed-validation-mock"),  # MOCK: derived from batch-answers
    ("openai-responses", "batch-result-status-text-mock"),  # MOCK: derived from batch-answers
    ("openai-responses", "batch-id-not-an-id-mock"),  # MOCK: derived from batch-answers
    ("google", "batch-answers"),
    ("azure-openai", "batch-cancel-deployment-route"),  # MOCK: openai/batch-cancel on Azure's routes
    ("azure-openai-responses", "batch-answers-v1"),  # MOCK: openai-responses/batch-answers on Azure's
    ("google", "batch-cancelled"),  # MOCK: derived from batch-answers (no recording)
    ("google", "batch-inlined-error"),  # MOCK: derived from batch-answers (no recording)
    ("google", "batch-responses-file"),  # MOCK: derived from batch-answers (no recording)
    ("google", "batch-cancel"),  # MOCK: derived from batch-answers (no recording)
    ("google", "batch-inlined-no-shape"),  # MOCK: derived from batch-answers (no recording)
}


def _suites() -> dict[str, Suite]:
    suites, errors = discover_suites(sorted({provider for provider, _ in BATCH_CASES}))
    assert errors == {}
    return {provider: suite for provider, suite in suites.items() if suite is not None}


def _case(suite: Suite, name: str) -> Case:
    return next(case for case in suite.cases if case.name == name)


def test_every_provider_with_batches_ships_batch_cases_and_they_pass() -> None:
    suites = _suites()
    found = {(p, c.name) for p, s in suites.items() for c in s.cases if c.method == "batch"}
    assert found == BATCH_CASES
    for provider, name in sorted(BATCH_CASES):
        outcome = run_case(suites[provider], _case(suites[provider], name))
        checks = {check.name: (check.status, check.message) for check in outcome.checks}
        assert outcome.status == "pass", outcome.message
        # The stream checks make no sense for a batch: skipped with the reason, never failed.
        assert checks["chunked"] == ("skip", "not a stream")
        assert checks["merged"] == ("skip", "not a stream")
        assert checks["async"] == ("pass", "")
        assert checks["request"] == ("pass", "")


def test_the_expected_values_are_the_recorded_ones() -> None:
    suites = _suites()
    anthropic = _case(suites["anthropic"], "batch-answers").expected
    assert anthropic is not None
    job = anthropic["batch"]["job"]
    assert (job["id"], job["status"], job["raw_status"]) == (
        "msgbatch_01GUqGVJfUzZfBnjRymfPdV3",
        "succeeded",
        "ended",
    )
    assert (job["created_at"], job["ended_at"]) == (
        "2026-08-19T14:44:51.493319Z",
        "2026-08-19T14:46:57.158324Z",
    )
    assert [(r["custom_id"], r["result"]["text"]) for r in anthropic["batch"]["results"]] == [
        ("0", "4"),
        ("1", "Jupiter"),
    ]
    cancel = _case(suites["anthropic"], "batch-cancel")
    assert cancel.request["steps"] == ["cancel"]
    assert cancel.expected == {
        "batch": {
            "job": {
                "id": "msgbatch_016z7nD8oj5sT4pMEcEnvJQQ",
                "status": "running",
                "raw_status": "canceling",
                "counts": {
                    "total": 1,
                    "processing": 1,
                    "succeeded": 0,
                    "failed": 0,
                    "cancelled": 0,
                    "expired": 0,
                },
                "created_at": "2026-08-19T14:49:30.044811Z",
            }
        }
    }
    embeddings = _case(suites["openai"], "batch-embeddings")
    assert embeddings.request["kind"] == "embed"
    assert embeddings.request["requests"][1] == {
        "values": "Batches come back within a day",
        "output_dimensionality": 256,
    }
    assert embeddings.expected is not None
    results = embeddings.expected["batch"]["results"]
    assert [len(r["result"]["embeddings"][0]) for r in results] == [1536, 256]
    assert embeddings.request["steps"] == ["wait", "refresh", "results"]  # the recording polled once more
    google = _case(suites["google"], "batch-answers")
    assert len(google.cassette.interactions) == 28
    assert google.expected is not None
    assert google.expected["batch"]["job"]["raw_status"] == "BATCH_STATE_SUCCEEDED"


def test_swapped_counts_in_a_plugin_s_batch_mapping_fail_the_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    real = anthropic_batches.batch_state

    def swapped(data: Any) -> Any:
        state = real(data)
        counts = state.counts.model_copy(
            update={"succeeded": state.counts.failed, "failed": state.counts.succeeded}
        )
        return state.model_copy(update={"counts": counts})

    monkeypatch.setattr(anthropic_batches, "batch_state", swapped)
    suite = _suites()["anthropic"]
    outcome = run_case(suite, _case(suite, "batch-answers"))
    failed = {check.name: check.message for check in outcome.checks if check.status == "fail"}
    assert set(failed) == {"expected", "invariants"}
    assert "$.batch.job.counts.succeeded: expected 2, got 0" in failed["expected"]
    assert "job.counts.succeeded is 0, but 2 results succeeded" in failed["invariants"]
    assert "job.counts.failed is 2, but 0 results failed" in failed["invariants"]


def test_swapped_batch_times_fail_the_invariants(monkeypatch: pytest.MonkeyPatch) -> None:
    real = anthropic_batches.batch_state

    def swapped(data: Any) -> Any:
        state = real(data)
        return state.model_copy(update={"created_at": state.ended_at, "ended_at": state.created_at})

    monkeypatch.setattr(anthropic_batches, "batch_state", swapped)
    suite = _suites()["anthropic"]
    outcome = run_case(suite, _case(suite, "batch-answers"))
    failed = {check.name: check.message for check in outcome.checks if check.status == "fail"}
    assert set(failed) == {"expected", "invariants"}
    assert (
        "job.ended_at 2026-08-19T14:44:51.493319+00:00 is before job.created_at 2026-08-19T14:46:57.158324+00:00"
        in failed["invariants"]
    )


def test_a_result_decoded_under_the_wrong_custom_id_fails_the_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    real = anthropic_batches.result_line

    def shifted(*args: Any, **kwargs: Any) -> Any:
        line = real(*args, **kwargs)
        return BatchLine({"0": "1", "1": "0"}.get(line.custom_id, line.custom_id), line.data, line.error)

    monkeypatch.setattr(anthropic_batches, "result_line", shifted)
    suite = _suites()["anthropic"]
    outcome = run_case(suite, _case(suite, "batch-answers"))
    assert outcome.status == "fail"
    expected = next(check for check in outcome.checks if check.name == "expected")
    assert "$.batch.results[0].result.text: expected '4', got 'Jupiter'" in expected.message


def _upload(boundary: str, lines: list[dict[str, Any]], *, file_first: bool) -> bytes:
    purpose = f'--{boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n'
    content = "\n".join(json.dumps(line) for line in lines)
    file = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.jsonl"\r\n'
        f"Content-Type: application/jsonl\r\n\r\n{content}\r\n"
    )
    return ((file + purpose) if file_first else (purpose + file)).encode() + f"--{boundary}--\r\n".encode()


LINES = [{"custom_id": "0", "body": {"model": "m", "input": "a"}}, {"custom_id": "1", "body": {"input": "b"}}]


def _player(recorded_boundary: str = "-----RECORDED") -> CassettePlayer:
    interaction = Interaction(
        request={
            "method": "POST",
            "uri": "https://api.example.com/v1/files",
            "headers": {"content-type": [f"multipart/form-data; boundary={recorded_boundary}"]},
            "body": {"string": _upload(recorded_boundary, LINES, file_first=True).decode()},
        },
        response={"status": {"code": 200}, "headers": {}, "body": {"json": {"id": "file-1"}}},
    )
    return CassettePlayer(Cassette([interaction]))


def _send(player: CassettePlayer, boundary: str, lines: list[dict[str, Any]]) -> httpx.Response:
    with httpx.Client(transport=player.transport) as client:
        return client.post(
            "https://api.example.com/v1/files",
            content=_upload(boundary, lines, file_first=False),
            headers={"content-type": f"multipart/form-data; boundary={boundary}"},
        )


def test_a_multipart_upload_matches_whatever_its_boundary_and_field_order() -> None:
    player = _player()
    # The same lines, the keys of each in another order: JSON Lines compare structurally.
    same = [{"body": line["body"], "custom_id": line["custom_id"]} for line in LINES]
    response = _send(player, "8f14e45fceea167a5a36dedd4bea2543", same)
    assert response.status_code == 200
    assert player.problems() == []


def test_a_multipart_upload_with_a_different_line_is_a_mismatch_naming_it() -> None:
    player = _player()
    changed = [LINES[0], {"custom_id": "1", "body": {"input": "c"}}]
    assert _send(player, "8f14e45fceea167a5a36dedd4bea2543", changed).status_code == 599
    (problem, _unplayed) = player.problems()
    assert "$form.file.lines[1].body.input: expected 'b', got 'c'" in problem


def test_a_body_that_is_not_multipart_is_compared_as_before() -> None:
    player = _player()
    with httpx.Client(transport=player.transport) as client:
        response = client.post("https://api.example.com/v1/files", json={"purpose": "batch"})
    assert response.status_code == 599
    assert "body: expected" in player.problems()[0]


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"kind": "rerank", "requests": [{"prompt": "x"}]}, "kind is generate or embed, got 'rerank'"),
        ({"requests": []}, "'requests' is a non-empty list"),
        ({"requests": [{"prompt": "x"}], "steps": ["wait", "sleep"]}, "got ['sleep']"),
    ],
)
def test_a_malformed_batch_request_is_named(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        BatchPlan.read(request_)


def test_a_pair_in_yaml_is_a_custom_id_and_its_entry() -> None:
    plan = BatchPlan.read({"requests": [["capital", {"prompt": "Capital of France?"}], {"prompt": "x"}]})
    assert plan.entries == [("capital", {"prompt": "Capital of France?"}), {"prompt": "x"}]
    assert plan.steps == ("wait", "results")


def test_recording_a_batch_case_polls_at_an_interval_and_its_cassette_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recording against a loopback server serving the recorded answers of ``batch-embeddings`` in
    order: the recorder waits between polls (never polls in a tight loop), the cassette it writes
    replays (its upload has a boundary of its own, matched part by part) and regenerates the
    shipped expected file."""
    from modelport._runtime import retry as _retry

    shipped = _case(_suites()["openai"], "batch-embeddings")
    answers = [interaction.response for interaction in shipped.cassette.interactions]
    directory = tmp_path / "cases" / "batch-embeddings"
    directory.mkdir(parents=True)
    (directory / "case.yaml").write_text(shipped.files["case.yaml"], encoding="utf-8")
    slept: list[float] = []
    monkeypatch.setattr(_retry, "sleep", slept.append)

    def answer(seen: Seen) -> Answer:
        recorded = answers[len(server.seen) - 1]
        content_type = recorded["headers"]["content-type"][0]
        return Answer(
            recorded["status"]["code"], body_bytes(recorded["body"]), {"content-type": content_type}
        )

    suite = _suites()["openai"].replace(location=tmp_path / "cases")
    suite.cases = load_cases(tmp_path / "cases")
    with LocalServer(answer) as server:
        outcome = record_case(suite, suite.cases[0], api_key=KEY, base_url=f"{server.url}/v1")
    assert outcome.status == "pass", outcome.message
    assert [(seen.method, seen.path.split("/")[2]) for seen in server.seen] == [
        ("POST", "files"),
        ("POST", "batches"),
        *[("GET", "batches")] * 7,
        ("GET", "files"),
    ]
    # Five polls before the one that says completed, each followed by a wait backing off by half
    # (the replay that regenerates expected.json then sleeps 0).
    assert slept[:5] == [RECORD_POLL_INTERVAL * 1.5**n for n in range(5)]
    assert set(slept[5:]) == {0}
    assert json.loads((directory / "expected.json").read_text()) == shipped.expected
    [case] = load_cases(tmp_path / "cases")
    upload = case.cassette.interactions[0].request
    assert (
        upload["headers"]["content-type"][0]
        != shipped.cassette.interactions[0].request["headers"]["content-type"][0]
    )
    assert run_case(suite, case).status == "pass"


def test_the_batch_capability_is_covered_and_a_batch_entry_s_needs_are_exercised() -> None:
    from modelport_conformance.capabilities import exercised, uncovered

    for provider, suite in _suites().items():
        assert "batch" not in uncovered(provider, suite.cases), provider
    location = _case(_suites()["anthropic"], "batch-cancel").location
    case = Case(
        name="b",
        method="batch",
        model="m",
        request={
            "requests": [
                ["a", {"prompt": "x", "response_format": {"type": "json"}}],
                {"prompt": "y", "tools": [{"type": "function", "name": "f", "parameters": {}}]},
            ]
        },
        cassette=Cassette(),
        expected=None,
        location=location,
    )
    assert exercised(case) == ["batch", "structured_output", "function_tools"]
