"""``modelport batch`` against a loopback fake of Anthropic's Message Batches: submit a JSON Lines
file, follow it, read its results and cancel, each command in its own invocation (the job is saved
between them, as it would be between processes)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport.cli import main
from tests.batches.fake_batch_server import FakeBatches

KEY = "sk-ant-test-0123456789abcdefghij"


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    with FakeBatches() as server:
        monkeypatch.setenv("MODELPORT_HOME", str(tmp_path / "home"))
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
        yield server


def _requests(tmp_path: Path) -> Path:
    path = tmp_path / "requests.jsonl"
    path.write_text(
        json.dumps({"custom_id": "first", "prompt": "2 + 2?"})
        + "\n\n"
        + json.dumps({"prompt": "3 + 3?", "max_output_tokens": 20})
        + "\n",
        encoding="utf-8",
    )
    return path


def test_submit_wait_and_results_run_from_the_saved_job(fake: FakeBatches, tmp_path: Path) -> None:
    runner = CliRunner()
    submitted = runner.invoke(
        main, ["batch", "submit", "anthropic/claude-haiku-4-5", str(_requests(tmp_path))]
    )
    assert submitted.exit_code == 0, submitted.output
    assert submitted.stdout.startswith("msgbatch_fake  anthropic/claude-haiku-4-5  running (in_progress)")
    assert fake.custom_ids == ["first", "1"]
    saved = tmp_path / "home" / "batches" / "msgbatch_fake.json"
    assert json.loads(saved.read_text())["requests"][0]["custom_id"] == "first"
    assert KEY not in saved.read_text()
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600

    waited = runner.invoke(main, ["batch", "wait", "msgbatch_fake", "--poll-interval", "0"])
    assert waited.exit_code == 0, waited.output
    assert "succeeded (ended)  2 succeeded, 0 failed, 0 processing of 2" in waited.stdout

    out = tmp_path / "out.jsonl"
    results = runner.invoke(main, ["batch", "results", "msgbatch_fake", "-o", str(out)])
    assert results.exit_code == 0, results.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(line["custom_id"], line["text"], line["usage"]["output_tokens"]) for line in lines] == [
        ("first", "ok", 3),
        ("1", "ok", 3),
    ]
    assert "2 results (0 errors) written to" in results.stderr

    listed = runner.invoke(main, ["batch", "list"])
    assert listed.stdout.startswith("msgbatch_fake  anthropic/claude-haiku-4-5  succeeded (ended)")


def test_cancel_and_status_ask_the_provider(fake: FakeBatches, tmp_path: Path) -> None:
    runner = CliRunner()
    assert (
        runner.invoke(
            main, ["batch", "submit", "anthropic/claude-haiku-4-5", str(_requests(tmp_path))]
        ).exit_code
        == 0
    )
    cancelled = runner.invoke(main, ["batch", "cancel", "msgbatch_fake"])
    assert (cancelled.exit_code, fake.cancelled) == (0, True)
    assert "running (canceling)" in cancelled.stdout
    status = runner.invoke(main, ["batch", "status", "msgbatch_fake", "--json"])
    assert json.loads(status.stdout)["raw_status"] == "in_progress"
    assert "requests" not in json.loads(status.stdout)


def test_bad_input_is_a_clear_error_before_any_request(fake: FakeBatches, tmp_path: Path) -> None:
    runner = CliRunner()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"prompt": "ok"}\n[1, 2]\n', encoding="utf-8")
    run = runner.invoke(main, ["batch", "submit", "anthropic/claude-haiku-4-5", str(bad)])
    assert run.exit_code == 2 and "line 2 is not a JSON object" in run.output
    invalid = tmp_path / "invalid.jsonl"
    invalid.write_text('{"prompt": "ok", "temperature": "hot"}\n', encoding="utf-8")
    run = runner.invoke(main, ["batch", "submit", "anthropic/claude-haiku-4-5", str(invalid)])
    assert run.exit_code == 1 and run.stderr.startswith("error: ")
    assert fake.custom_ids == []
    missing = runner.invoke(main, ["batch", "status", "msgbatch_nothing"])
    assert missing.exit_code == 1 and "no saved batch 'msgbatch_nothing'" in missing.output
    escape = runner.invoke(main, ["batch", "status", "../../etc/passwd"])
    assert escape.exit_code == 2


def test_the_jobs_folder_is_the_config_folder_without_modelport_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from modelport.cli._batch import jobs_dir

    monkeypatch.delenv("MODELPORT_HOME", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert jobs_dir() == tmp_path / "modelport" / "batches"


def test_the_batch_commands_use_a_stored_key_or_key_as_generate_does(
    fake: FakeBatches, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.setenv("MODELPORT_KEYRING", "0")
    runner = CliRunner()
    assert runner.invoke(main, ["keys", "set", "anthropic"], input=KEY + "\n").exit_code == 0
    submitted = runner.invoke(
        main, ["batch", "submit", "anthropic/claude-haiku-4-5", str(_requests(tmp_path))]
    )
    assert submitted.exit_code == 0, submitted.output
    other = "sk-ant-test-" + "9" * 20
    cancelled = runner.invoke(main, ["batch", "cancel", "msgbatch_fake", "--key", other])
    assert cancelled.exit_code == 0, cancelled.output
    assert other not in cancelled.output
    assert fake.keys == [KEY, other]  # the stored key, then --key over it
    # Listing reads the saved jobs only: it needs no key and sends nothing.
    monkeypatch.setenv("MODELPORT_HOME", str(tmp_path / "home"))
    assert runner.invoke(main, ["batch", "list"]).stdout.startswith(
        "msgbatch_fake  anthropic/claude-haiku-4-5"
    )
