"""A saved batch job carries what reaches the same server again (its base URL and the provider
options that matter, never the key): restoring it, in the library or with ``modelport batch``,
goes there, never to the provider's default host."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import modelport
from modelport import restore_batch
from modelport.batches import BatchJob
from modelport.cli import main
from modelport.errors import InvalidRequestError
from tests.batches import shapes
from tests.batches.fake_batch_server import FakeBatches
from tests.batches.served import Lines, Served

KEY = "sk-ant-" + "api03-saved-connection-0123456789"
BATCH = "msgbatch_01GUqGVJfUzZfBnjRymfPdV3"
GATEWAY = "https://gateway.example/anthropic"


def _served() -> Served:
    batch = {**shapes.anthropic_batch(), "results_url": f"{GATEWAY}/v1/messages/batches/{BATCH}/results"}
    return Served(
        {
            f"/anthropic/v1/messages/batches/{BATCH}": batch,
            f"/anthropic/v1/messages/batches/{BATCH}/results": Lines(shapes.anthropic_lines()),
        }
    )


def test_a_job_restored_without_a_base_url_goes_to_the_server_it_was_submitted_to() -> None:
    served = _served()
    model = modelport.get_model(
        "anthropic/claude-haiku-4-5", api_key=KEY, base_url=GATEWAY, transport=served, beta="b1"
    )
    saved = model.get_batch(BATCH).model_dump_json()
    assert json.loads(saved)["connection"] == {"base_url": GATEWAY, "beta": "b1"}
    assert KEY not in saved

    job = restore_batch(saved, api_key=KEY, transport=served)
    assert job.refresh().status == "succeeded"
    assert [item.result.text for item in job.results() if item.result] == ["4", "Jupiter"]
    assert {request.url.host for request in served.sent} == {"gateway.example"}
    assert {request.headers["anthropic-beta"] for request in served.sent} == {"b1"}


def test_a_base_url_given_at_restore_wins() -> None:
    served = Served({f"/other/v1/messages/batches/{BATCH}": shapes.anthropic_batch()})
    saved = BatchJob(
        id=BATCH,
        provider="anthropic",
        model="claude-haiku-4-5",
        status="running",
        raw_status="in_progress",
        connection={"base_url": GATEWAY},
    ).model_dump_json()
    job = restore_batch(saved, api_key=KEY, transport=served, base_url="https://gateway.example/other")
    job.refresh()
    assert served.urls == [f"https://gateway.example/other/v1/messages/batches/{BATCH}"]


def test_a_connection_naming_anything_but_the_servers_options_is_refused() -> None:
    saved = {
        "id": BATCH,
        "provider": "anthropic",
        "model": "claude-haiku-4-5",
        "status": "running",
        "raw_status": "in_progress",
        "connection": {"base_url": GATEWAY, "api_key": "sk-ant-planted"},
    }
    with pytest.raises(InvalidRequestError, match="connection cannot set"):
        restore_batch(saved, api_key=KEY)


def test_vertex_keeps_its_project_location_and_bucket(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_LOCATION", "europe-west4")
    model = modelport.get_model(
        "google-vertex/gemini-2.5-flash",
        token="ya29." + "t" * 20,
        project="proj-1",
        batch_bucket="gs://bucket-1/runs",
    )
    assert model.provider.saved_connection() == {
        "base_url": "https://europe-west4-aiplatform.googleapis.com/v1",
        "batch_bucket": "gs://bucket-1/runs",
        "location": "europe-west4",
        "project": "proj-1",
    }


@pytest.fixture
def two_servers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The provider's default host (``ANTHROPIC_BASE_URL``) and a gateway, both loopback fakes."""
    with FakeBatches() as default, FakeBatches() as gateway:
        monkeypatch.setenv("MODELPORT_HOME", str(tmp_path / "home"))
        monkeypatch.setenv("ANTHROPIC_BASE_URL", default.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
        yield default, gateway


def test_batch_status_of_a_job_submitted_with_base_url_asks_that_server(
    two_servers: tuple[FakeBatches, FakeBatches], tmp_path: Path
) -> None:
    default, gateway = two_servers
    requests = tmp_path / "requests.jsonl"
    requests.write_text(json.dumps({"prompt": "2 + 2?"}) + "\n", encoding="utf-8")
    runner = CliRunner()
    submit = ["batch", "submit", "anthropic/claude-haiku-4-5", str(requests), "--base-url", gateway.url]
    assert runner.invoke(main, submit).exit_code == 0
    for _ in range(2):
        status = runner.invoke(main, ["batch", "status", "msgbatch_fake", "--json"])
        assert status.exit_code == 0, status.output
    assert json.loads(status.stdout)["connection"] == {"base_url": gateway.url}
    results = runner.invoke(main, ["batch", "results", "msgbatch_fake"])
    assert results.exit_code == 0, results.output
    assert [json.loads(line)["text"] for line in results.stdout.splitlines()] == ["ok"]
    assert (gateway.polls, gateway.keys) == (2, [KEY])
    assert (default.polls, default.keys) == (0, [])  # the default host never heard of it
