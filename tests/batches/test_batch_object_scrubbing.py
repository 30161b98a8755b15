"""A batch object or results line that echoes the key (a server repeating it in
``errors.data[].message``, in any field) is kept scrubbed: the key reaches neither ``repr(job)``,
``job.model_dump_json()``, the saved job file, ``modelport batch status ID --json`` nor a result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import modelport
from modelport.cli import main
from tests.batches import shapes
from tests.batches.fake_batch_server import FakeBatches
from tests.batches.served import Lines, Served

OPENAI_KEY = "sk-proj-" + "scrub-canary-0123456789abcdefghij"
ANTHROPIC_KEY = "sk-ant-" + "api03-scrub-canary-0123456789abcdef"


def test_an_openai_batch_object_echoing_the_key_is_kept_scrubbed() -> None:
    batch = shapes.openai_batch()
    batch_id = batch["id"]
    batch["status"] = "failed"
    batch["errors"] = {
        "object": "list",
        "data": [
            {"code": "invalid_key", "message": f"Incorrect API key provided: {OPENAI_KEY}", "line": None}
        ],
    }
    served = Served({f"/v1/batches/{batch_id}": batch})
    model = modelport.get_model("openai-responses/gpt-5-nano", api_key=OPENAI_KEY, transport=served)
    job = model.get_batch(batch_id)
    assert job.status == "failed"
    message = job.provider_data["errors"]["data"][0]["message"]
    assert message == "Incorrect API key provided: [REDACTED]"
    for shown in (repr(job), job.model_dump_json(), str(job.model_dump())):
        assert OPENAI_KEY not in shown
    job.refresh()
    assert OPENAI_KEY not in job.model_dump_json()


def test_a_results_line_echoing_the_key_is_decoded_scrubbed() -> None:
    batch = shapes.anthropic_batch()
    lines = shapes.anthropic_lines()
    lines[0]["result"]["message"]["content"][0]["text"] = f"your key is {ANTHROPIC_KEY}"
    served = Served(
        {
            f"/v1/messages/batches/{batch['id']}": batch,
            f"/v1/messages/batches/{batch['id']}/results": Lines(lines),
        }
    )
    model = modelport.get_model("anthropic/claude-haiku-4-5", api_key=ANTHROPIC_KEY, transport=served)
    items = model.get_batch(batch["id"]).results()
    assert [item.result.text for item in items if item.result] == ["your key is [REDACTED]", "Jupiter"]


class EchoingBatches(FakeBatches):
    """The fake Anthropic batch service, echoing the key in a field of the batch object it keeps."""

    def _batch(self, status: str) -> dict:
        return {**super()._batch(status), "expires_at": f"key {ANTHROPIC_KEY} expires"}


@pytest.fixture
def echoing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    with EchoingBatches() as server:
        monkeypatch.setenv("MODELPORT_HOME", str(tmp_path / "home"))
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
        yield server


def test_the_saved_job_and_batch_status_json_hold_no_echoed_key(echoing: FakeBatches, tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_text(json.dumps({"prompt": "2 + 2?"}) + "\n", encoding="utf-8")
    runner = CliRunner()
    submitted = runner.invoke(main, ["batch", "submit", "anthropic/claude-haiku-4-5", str(requests)])
    assert submitted.exit_code == 0, submitted.output
    status = runner.invoke(main, ["batch", "status", "msgbatch_fake", "--json"])
    assert status.exit_code == 0, status.output
    assert json.loads(status.stdout)["provider_data"]["expires_at"] == "key [REDACTED] expires"
    saved = (tmp_path / "home" / "batches" / "msgbatch_fake.json").read_text(encoding="utf-8")
    for shown in (submitted.output, status.output, saved):
        assert ANTHROPIC_KEY not in shown
