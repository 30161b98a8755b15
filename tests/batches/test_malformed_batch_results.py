"""Batch objects and results of an unexpected shape give typed errors, never a bare ``KeyError``,
``TypeError``, ``AttributeError``, ``OverflowError`` or ``ValueError``: a results line that cannot
be read is that one request's ``ProviderResponseError`` and every other result still arrives; a
second result for one request and a result for no request are typed per-item errors; a damaged
saved job is an ``InvalidRequestError`` (one line of error in the CLI); results of a batch that has
not ended are refused."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import modelport
from modelport import restore_batch
from modelport.batches import BatchJob, BatchResults
from modelport.cli import main
from modelport.errors import BatchItemNotRunError, InvalidRequestError, ProviderResponseError
from modelport.types import Result
from tests.batches import shapes
from tests.batches.fake_batch_server import FakeBatches
from tests.batches.served import Lines, Served

ANTHROPIC_KEY = "sk-ant-" + "api03-malformed-0123456789abcdef"
GEMINI_KEY = "AIza" + "SyA-malformed-0123456789abcdefghijk"
OPENAI_KEY = "sk-proj-" + "malformed-0123456789abcdefghij"


def _requests(*ids: str) -> list[dict[str, Any]]:
    text = {"messages": [{"role": "user", "content": [{"type": "text", "text": "p"}]}]}
    return [{"custom_id": custom_id, "request": text} for custom_id in ids]


def _job(provider: str, model: str, batch_id: str, data: dict[str, Any], ids: tuple[str, ...]) -> dict:
    return {
        "id": batch_id,
        "provider": provider,
        "model": model,
        "status": "succeeded",
        "raw_status": "ended",
        "provider_data": data,
        "requests": _requests(*ids),
    }


def _texts(items: BatchResults) -> list[tuple[str, str]]:
    """Each item as ``(custom_id, text)``, or ``(custom_id, error class: provider_status)``."""
    shown = []
    for item in items:
        if item.result is not None:
            shown.append((item.custom_id, item.result.text))
        else:
            assert item.error is not None
            shown.append((item.custom_id, f"{type(item.error).__name__}: {item.error.provider_status}"))
    return shown


# Results lines ------------------------------------------------------------------------------------


def _anthropic_results(lines: list[Any], *ids: str, asynchronous: bool = False) -> BatchResults:
    batch = shapes.anthropic_batch()
    served = Served({f"/v1/messages/batches/{batch['id']}/results": Lines(lines)})
    saved = _job("anthropic", "claude-haiku-4-5", batch["id"], {"results_url": batch["results_url"]}, ids)
    job = restore_batch(saved, api_key=ANTHROPIC_KEY, transport=served)
    return asyncio.run(job.aresults()) if asynchronous else job.results()


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_unreadable_anthropic_results_line_is_its_own_error(asynchronous: bool) -> None:
    first, second = shapes.anthropic_lines()
    lines = [
        first,
        {},  # no custom_id
        [first],  # a JSON list
        {"custom_id": "2", "result": "succeeded"},  # result as a string
        {"custom_id": "3", "result": {"type": "succeeded"}},  # no message
        b'{"custom_id": "4", "result": ',  # not JSON
        second,
    ]
    items = _anthropic_results(lines, "0", "1", "2", "3", asynchronous=asynchronous)
    assert _texts(items) == [
        ("0", "4"),
        ("1", "Jupiter"),
        ("2", "ProviderResponseError: unreadable"),
        ("3", "ProviderResponseError: unreadable"),
        ("", "ProviderResponseError: unreadable"),
        ("", "ProviderResponseError: unreadable"),
        ("", "ProviderResponseError: unreadable"),
    ]
    assert "results line 4 ('2') could not be read" in str(items[2].error)
    assert "line 6 of a JSON Lines body is not JSON" in str(items[6].error)


def test_two_results_for_one_request_and_one_for_no_request_are_typed() -> None:
    first, second = shapes.anthropic_lines()
    stranger = {**second, "custom_id": "9"}
    items = _anthropic_results([first, second, first, stranger], "0", "1")
    assert _texts(items) == [
        ("0", "ProviderResponseError: duplicate"),
        ("1", "Jupiter"),
        ("9", "ProviderResponseError: unknown"),
    ]
    assert items[0].error.partial.text == "4"  # type: ignore[union-attr]
    assert items[2].error.partial.text == "Jupiter"  # type: ignore[union-attr]


def test_an_unreadable_openai_output_line_is_its_own_error() -> None:
    batch = shapes.openai_batch()
    first, second = shapes.openai_lines()
    served = Served(
        {
            f"/v1/files/{batch['output_file_id']}/content": Lines(
                [first, [second], {**second, "response": "ok"}, {**second, "custom_id": None}, second]
            )
        }
    )
    data = {"output_file_id": batch["output_file_id"], "endpoint": "/v1/responses"}
    saved = {**_job("openai-responses", "gpt-5-nano", batch["id"], data, ("0", "1")), "requests": []}
    job = restore_batch(saved, api_key=OPENAI_KEY, transport=served)
    texts = _texts(job.results())
    assert texts[:2] == [("0", "4"), ("1", "ProviderResponseError: duplicate")]
    assert texts[2:] == [("", "ProviderResponseError: unreadable")] * 2


def test_a_string_among_geminis_inline_responses_is_its_own_error() -> None:
    operation = shapes.gemini_operation()
    inline = operation["response"]["inlinedResponses"]["inlinedResponses"]
    inline.insert(1, "junk")
    inline.insert(2, {"metadata": {"custom_id": "2"}, "error": "denied"})
    batch_id = operation["name"].removeprefix("batches/")
    served = Served({f"/v1beta/batches/{batch_id}": operation})
    saved = _job("google", "gemini-2.5-flash", batch_id, {}, ("0", "1", "2"))
    job = restore_batch(saved, api_key=GEMINI_KEY, transport=served)
    assert _texts(job.results()) == [
        ("0", "4"),
        ("1", "Jupiter"),
        ("2", "ProviderResponseError: unreadable"),
        ("", "ProviderResponseError: unreadable"),
    ]


# Batch objects ------------------------------------------------------------------------------------


ODD_BATCHES = {
    "created_at 1e20": {"created_at": 1e20},
    "created_at year 10000": {"created_at": "10000-01-01T00:00:00Z"},
    "created_at a list": {"created_at": [1]},
    "processing x": {"request_counts": {"processing": "x"}},
    "negative count": {"request_counts": {"processing": 0, "succeeded": -2}},
    "huge count": {"request_counts": {"succeeded": 2**64}},
    "boolean count": {"request_counts": {"succeeded": True}},
    "counts a list": {"request_counts": [1, 2]},
    "no status": {"processing_status": None, "id": None},
}


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("change", ODD_BATCHES.values(), ids=ODD_BATCHES.keys())
def test_an_odd_batch_object_is_a_typed_error(change: dict[str, Any], asynchronous: bool) -> None:
    batch_id = shapes.anthropic_batch()["id"]
    batch = {**shapes.anthropic_batch(), **change}
    if change.get("processing_status", "") is None:
        del batch["processing_status"]
    served = Served({f"/v1/messages/batches/{batch_id}": batch})
    model = modelport.get_model("anthropic/claude-haiku-4-5", api_key=ANTHROPIC_KEY, transport=served)
    job = BatchJob(
        id=batch_id,
        provider="anthropic",
        model="claude-haiku-4-5",
        status="running",
        raw_status="in_progress",
    ).bind(model)
    with pytest.raises(ProviderResponseError, match="could not be decoded"):
        asyncio.run(job.arefresh()) if asynchronous else job.refresh()


@pytest.mark.parametrize(
    "counts", [{"requestCount": "-1"}, {"requestCount": "1e3"}, {"successfulRequestCount": 1.5}]
)
def test_odd_gemini_counts_are_a_typed_error(counts: dict[str, Any]) -> None:
    operation = shapes.gemini_operation()
    operation["metadata"]["batchStats"] = counts
    batch_id = operation["name"].removeprefix("batches/")
    served = Served({f"/v1beta/batches/{batch_id}": operation})
    model = modelport.get_model("google/gemini-2.5-flash", api_key=GEMINI_KEY, transport=served)
    with pytest.raises(ProviderResponseError):
        model.get_batch(batch_id)


def test_results_of_a_batch_that_has_not_ended_are_refused_before_any_request() -> None:
    served = Served({})
    saved = {**_job("anthropic", "claude-haiku-4-5", "msgbatch_1", {}, ("0",)), "status": "running"}
    job = restore_batch(saved, api_key=ANTHROPIC_KEY, transport=served)
    with pytest.raises(InvalidRequestError, match="has not ended"):
        job.results()
    with pytest.raises(InvalidRequestError, match="has not ended"):
        asyncio.run(job.aresults())
    assert served.sent == []


def test_a_saved_request_that_no_longer_reads_is_that_items_error() -> None:
    first, second = shapes.anthropic_lines()
    batch = shapes.anthropic_batch()
    served = Served({f"/v1/messages/batches/{batch['id']}/results": Lines([first, second])})
    saved = _job(
        "anthropic", "claude-haiku-4-5", batch["id"], {"results_url": batch["results_url"]}, ("0", "1")
    )
    saved["requests"][0]["request"] = {"messages": [{"role": "user", "parts": ["private prompt"]}]}
    items = restore_batch(saved, api_key=ANTHROPIC_KEY, transport=served).results()
    assert isinstance(items[0].error, InvalidRequestError)
    assert "the saved request '0' cannot be read: messages.0.content: Field required" in str(items[0].error)
    assert "private prompt" not in str(items[0].error)
    assert items[1].result is not None and items[1].result.text == "Jupiter"


# Saved jobs ---------------------------------------------------------------------------------------


DAMAGED = {
    "not JSON": "{",
    "a list": "[]",
    "no id": json.dumps({"provider": "anthropic", "model": "m", "status": "running", "raw_status": "x"}),
    "a bad status": json.dumps(
        {"id": "b", "provider": "anthropic", "model": "m", "status": "odd", "raw_status": "x"}
    ),
    "negative counts": json.dumps(
        {
            "id": "b",
            "provider": "anthropic",
            "model": "m",
            "status": "running",
            "raw_status": "x",
            "counts": {"total": -1},
        }
    ),
    "not UTF-8": b"\xff\xfe{}",
    "deep": "[" * 100_000,
}


@pytest.mark.parametrize("text", DAMAGED.values(), ids=DAMAGED.keys())
def test_restoring_a_damaged_job_is_a_typed_error(text: str | bytes) -> None:
    with pytest.raises(InvalidRequestError, match="not a saved batch job") as info:
        restore_batch(text)
    assert len(str(info.value)) < 400


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    with FakeBatches() as server:
        monkeypatch.setenv("MODELPORT_HOME", str(tmp_path / "home"))
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
        yield server


@pytest.mark.parametrize("command", [["status", "msgbatch_fake"], ["results", "msgbatch_fake"], ["list"]])
@pytest.mark.parametrize("text", [DAMAGED["not JSON"], DAMAGED["a bad status"], DAMAGED["not UTF-8"]])
def test_the_cli_on_a_damaged_saved_job_prints_one_line(
    fake: FakeBatches, tmp_path: Path, command: list[str], text: str | bytes
) -> None:
    folder = tmp_path / "home" / "batches"
    folder.mkdir(parents=True)
    path = folder / "msgbatch_fake.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    run = CliRunner().invoke(main, ["batch", *command])
    assert run.exit_code == 1
    assert run.exception is None or isinstance(run.exception, SystemExit)
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.output
    assert run.stderr.startswith(
        "error: the saved batch msgbatch_fake.json cannot be read: not a saved batch job"
    )
    assert fake.keys == []


def test_batch_results_of_an_unfinished_batch_exits_with_one_line(fake: FakeBatches, tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_text(json.dumps({"prompt": "2 + 2?"}) + "\n", encoding="utf-8")
    runner = CliRunner()
    assert (
        runner.invoke(main, ["batch", "submit", "anthropic/claude-haiku-4-5", str(requests)]).exit_code == 0
    )
    run = runner.invoke(main, ["batch", "results", "msgbatch_fake"])
    assert run.exit_code == 1 and run.stdout == ""
    assert run.stderr == (
        "Error: batch msgbatch_fake has not ended (in_progress): `modelport batch wait msgbatch_fake` first\n"
    )
    assert fake.polls == 1  # the saved status was asked again once


def test_batch_submit_numbers_lines_without_an_id_around_the_given_ones(
    fake: FakeBatches, tmp_path: Path
) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_text(
        "\n".join(
            json.dumps(line)
            for line in ({"prompt": "a"}, {"custom_id": "1", "prompt": "b"}, {"prompt": "c"}, {"prompt": "d"})
        ),
        encoding="utf-8",
    )
    run = CliRunner().invoke(main, ["batch", "submit", "anthropic/claude-haiku-4-5", str(requests)])
    assert run.exit_code == 0, run.output
    assert fake.custom_ids == ["0", "1", "2", "3"]
    requests.write_text(
        "\n".join(json.dumps(line) for line in ({"custom_id": "1", "prompt": "b"}, {"prompt": "c"})),
        encoding="utf-8",
    )
    run = CliRunner().invoke(main, ["batch", "submit", "anthropic/claude-haiku-4-5", str(requests)])
    assert run.exit_code == 0, run.output
    assert fake.custom_ids == ["1", "2"]
    assert BatchItemNotRunError  # the items a batch gave no result for keep their own class


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_unreadable_line_that_echoes_the_key_is_its_own_error_without_it(asynchronous: bool) -> None:
    # Found by the long fuzz run (batch-openai, seed 2026): scrubbing an unreadable line that held
    # the key rebuilt the parser's BadLine record wrongly, and the bare TypeError ended the results.
    batch = shapes.openai_batch()
    first, _ = shapes.openai_lines()
    echo = b'{"custom_id": "1", "error": "invalid key ' + OPENAI_KEY.encode() + b'"'  # cut: not JSON
    served = Served({f"/v1/files/{batch['output_file_id']}/content": Lines([first, echo])})
    data = {"output_file_id": batch["output_file_id"], "endpoint": "/v1/responses"}
    saved = _job("openai-responses", "gpt-5-nano", batch["id"], data, ("0", "1"))
    job = restore_batch(saved, api_key=OPENAI_KEY, transport=served)
    items = asyncio.run(job.aresults()) if asynchronous else job.results()
    assert _texts(items) == [
        ("0", "4"),
        ("1", "BatchItemNotRunError: missing"),
        ("", "ProviderResponseError: unreadable"),
    ]
    assert str(items[2].error).startswith(
        "openai-responses: results line 2 could not be read: line 2 of a JSON Lines body is not JSON"
    )
    assert OPENAI_KEY not in repr(items)


@pytest.mark.parametrize(
    "part",
    [
        b'{"text": [1e999, 9007199254740992]}',  # the fuzz run's line (batch-gemini-file, seed 2028)
        b'{"text": "4", "futureScore": -1E400}',  # an unknown field, which replay keeps verbatim
    ],
)
def test_a_gemini_results_line_with_a_number_no_double_holds_is_its_own_error(part: bytes) -> None:
    # Found by the fuzz extension (batch-gemini-file case 26407, seed 2028): the strict parser read
    # 1e999 as inf, the raw part was kept verbatim in the result's replay state, and the result no
    # longer round-tripped through JSON (inf is written as null).
    operation = shapes.gemini_operation()
    operation["response"] = {"responsesFile": "files/out-1"}
    batch_id = operation["name"].removeprefix("batches/")
    first, second = shapes.gemini_file_lines()
    second_text = json.dumps(second).encode()
    assert b'{"text": "Jupiter"}' in second_text
    bad = second_text.replace(b'{"text": "Jupiter"}', part, 1)
    served = Served(
        {
            f"/v1beta/batches/{batch_id}": operation,
            "/download/v1beta/files/out-1:download": Lines([first, bad]),
        }
    )
    job = restore_batch(
        _job("google", "gemini-2.5-flash", batch_id, {}, ("0", "1")), api_key=GEMINI_KEY, transport=served
    )
    items = job.results()
    assert _texts(items) == [
        ("0", "4"),
        ("1", "BatchItemNotRunError: missing"),
        ("", "ProviderResponseError: unreadable"),
    ]
    assert str(items[2].error) == (
        "google: results line 2 could not be read: line 2 of a JSON Lines body is not JSON:"
        " a number is too large for a double (unreadable)"
    )
    assert items[0].result is not None
    assert Result.model_validate_json(items[0].result.model_dump_json()) == items[0].result
