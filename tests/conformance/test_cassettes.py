"""The YAML cassette format, vcrpy compatibility, recording filters and the replay player."""

from __future__ import annotations

import json

import httpx
import pytest
import yaml

from modelport_conformance.cases import Case, Suite, load_cases
from modelport_conformance.cassette import body_bytes, load_cassette, parse_sse, serializer, store_body
from modelport_conformance.player import CassettePlayer
from modelport_conformance.recording import RecordingError, json_body_matcher, modelport_vcr, record_case

from .conftest import EXAMPLE_CASES

REAL_KEY = "AIza" + "R" * 35
SSE = 'data: {"id": "r-9"}\r\n\r\ndata: {"delta": "Hi"}\r\n\r\ndata: {"stop_reason": "end", "usage": {"input": 1, "output": 1}}\r\n\r\n'


def test_sse_body_is_stored_one_event_per_entry_and_rebuilt():
    stored = store_body(SSE.encode(), {"Content-Type": ["text/event-stream"]})
    assert stored == {
        "sse": [
            {"data": {"id": "r-9"}},
            {"data": {"delta": "Hi"}},
            {"data": {"stop_reason": "end", "usage": {"input": 1, "output": 1}}},
        ],
        "newline": "\r\n",
    }
    assert body_bytes(stored).decode() == SSE


def test_non_sse_text_in_a_stream_is_kept_raw():
    entries, newline = parse_sse('data: {"a": 1}\n\n{"error": {"code": 499}}\n')
    assert (entries, newline) == ([{"data": {"a": 1}}, {"raw": '{"error": {"code": 499}}'}], "\n")


def _fake_api(request: httpx.Request) -> httpx.Response:
    """The "Example API" as a local fake, so recording is testable offline."""
    body = json.loads(request.content)
    if request.url.path.endswith("/stream"):
        return httpx.Response(
            200, headers={"content-type": "text/event-stream", "x-secret-server": "s"}, content=SSE.encode()
        )
    return httpx.Response(
        200,
        headers={"content-type": "application/json", "set-cookie": "session=abc"},
        json={
            "id": "r-1",
            "output": [{"type": "text", "text": f"echo {body['messages'][-1]['text']}"}],
            "stop_reason": "end",
            "usage": {"input": 3, "output": 2},
        },
    )


def test_record_mode_writes_a_clean_readable_cassette(example_installed, tmp_path):
    directory = tmp_path / "cases" / "hello"
    directory.mkdir(parents=True)
    (directory / "case.yaml").write_text("method: generate\nmodel: tiny-1\nrequest: {prompt: ping}\n")
    suite = Suite("example", load_cases(tmp_path / "cases"))
    transport = httpx.MockTransport(_fake_api)
    outcome = record_case(suite, suite.cases[0], api_key=REAL_KEY, transport=transport)
    assert outcome.status == "pass"
    text = (directory / "cassette.yaml").read_text()
    assert REAL_KEY not in text and "cookie" not in text
    data = yaml.safe_load(text)
    [interaction] = data["interactions"]
    assert interaction["request"] == {
        "method": "POST",
        "uri": "https://api.example.test/v1/generate",
        "headers": {
            "accept": ["*/*"],
            "authorization": ["<credential>"],
            "content-type": ["application/json"],
        },
        "body": {"json": {"model": "tiny-1", "messages": [{"role": "user", "text": "ping"}]}},
    }
    assert interaction["response"]["headers"] == {"content-type": ["application/json"]}
    assert interaction["response"]["body"]["json"]["output"] == [{"type": "text", "text": "echo ping"}]
    assert json.loads((directory / "expected.json").read_text())["result"]["text"] == "echo ping"
    assert list(data) == ["version", "metadata", "interactions"]


def test_vcrpy_replays_our_cassette_exactly_once(example_installed, tmp_path):
    cassette_path = tmp_path / "c.yaml"
    cassette_path.write_text((EXAMPLE_CASES / "generate-basic" / "cassette.yaml").read_text())
    import modelport

    with modelport_vcr("none").use_cassette(str(cassette_path)) as cassette:
        model = modelport.get_model("example/tiny-1", api_key="k", max_retries=0)
        result = model.generate(
            system="Be brief.", prompt="Say hello.", max_output_tokens=20, temperature=0.5
        )
        assert cassette.all_played
    assert result.text == "Hello!"


def test_vcrpy_json_matcher_assertion_names_the_path():
    class R:
        def __init__(self, body):
            self.body = body

    with pytest.raises(AssertionError) as info:
        json_body_matcher(R(b'{"contents": [{"role": "model"}]}'), R(b'{"contents": [{"role": "user"}]}'))
    assert str(info.value) == (
        "request body differs from the recording:\n  $.contents[0].role: expected 'user', got 'model'"
    )


def test_serializer_round_trips_through_vcrpy_dict():
    text = (EXAMPLE_CASES / "stream-basic" / "cassette.yaml").read_text()
    vcr_dict = serializer.deserialize(text)
    assert vcr_dict["interactions"][0]["response"]["body"]["string"].startswith(
        'data: {"id": "resp-2"}\r\n\r\n'
    )
    again = serializer.serialize(vcr_dict)
    assert load_cassette(again).interactions == load_cassette(text).interactions


def test_player_serves_chunks_and_reports_body_mismatch():
    cassette = Case.load(EXAMPLE_CASES / "stream-basic").cassette
    player = CassettePlayer(cassette, chunk_size=7)
    with httpx.Client(transport=player.transport) as client:
        body = {"model": "tiny-1", "messages": [{"role": "user", "text": "Say hello."}], "stream": True}
        with client.stream("POST", "https://api.example.test/v1/stream", json=body) as response:
            chunks = list(response.iter_raw())
        assert {len(c) for c in chunks[:-1]} == {7}
        assert client.post("https://api.example.test/v1/stream", json=body).status_code == 599
    assert player.played == [0]
    assert player.problems() == [
        "unexpected request POST https://api.example.test/v1/stream: the cassette has no unplayed interaction left"
    ]


def test_a_failed_recording_keeps_the_old_cassette(example_installed, tmp_path):
    import shutil

    cases = tmp_path / "cases"
    shutil.copytree(EXAMPLE_CASES, cases)
    before = (cases / "generate-basic" / "cassette.yaml").read_text()
    suite = Suite("example", load_cases(cases))

    def offline(request):
        raise httpx.ConnectError("no network", request=request)

    with pytest.raises(RecordingError) as info:
        record_case(suite, suite.cases[0], api_key=REAL_KEY, transport=httpx.MockTransport(offline))
    assert str(info.value).startswith("recording example/generate-basic failed: ")
    assert str(info.value).endswith("no network")
    assert info.value.__suppress_context__
    assert (cases / "generate-basic" / "cassette.yaml").read_text() == before
    assert sorted(p.name for p in (cases / "generate-basic").iterdir()) == [
        "case.yaml",
        "cassette.yaml",
        "expected.json",
    ]


def _versioned_cassette():
    from modelport_conformance.cassette import Cassette, Interaction

    request = {
        "method": "POST",
        "uri": "https://api.anthropic.com/v1/messages",
        "headers": {"anthropic-version": ["2023-06-01"], "x-api-key": ["<credential>"]},
        "body": {"json": {"model": "claude-sonnet-4-5"}},
    }
    response = {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"json": {"ok": True}}}
    return Cassette([Interaction(request=request, response=response)])


@pytest.mark.parametrize(
    ("headers", "problem"),
    [
        ({"x-api-key": "k"}, "header anthropic-version: missing (expected '2023-06-01')"),
        (
            {"x-api-key": "k", "anthropic-version": "2024-01-01"},
            "header anthropic-version: expected '2023-06-01', got '2024-01-01'",
        ),
    ],
)
def test_replay_pins_the_api_version_header_a_recording_holds(headers, problem):
    player = CassettePlayer(_versioned_cassette())
    with httpx.Client(transport=player.transport) as client:
        url = "https://api.anthropic.com/v1/messages"
        assert client.post(url, json={"model": "claude-sonnet-4-5"}, headers=headers).status_code == 599
        assert player.played == []
        sent = {"x-api-key": "k", "anthropic-version": "2023-06-01"}
        assert client.post(url, json={"model": "claude-sonnet-4-5"}, headers=sent).status_code == 200
    assert player.played == [0]
    (report,) = player.problems()
    assert problem in report
    assert "credential" not in report


def test_a_recorded_version_header_and_request_id_are_kept():
    from modelport_conformance.cassette import clean_request, clean_response

    request = clean_request(
        {
            "method": "POST",
            "uri": "https://api.anthropic.com/v1/messages",
            "headers": {
                "anthropic-version": "2023-06-01",
                "anthropic-beta": "files-api-2025-04-14",
                "x-api-key": "k",
            },
            "body": None,
        }
    )
    assert request["headers"] == {
        "anthropic-version": ["2023-06-01"],
        "anthropic-beta": ["files-api-2025-04-14"],
        "x-api-key": ["<credential>"],
    }
    response = clean_response(
        {
            "status": {"code": 404},
            "headers": {"request-id": "req_011CdufXo8Y2LVfY2veyuQWG", "cf-ray": "x"},
            "body": None,
        }
    )
    assert response["headers"] == {"request-id": ["req_011CdufXo8Y2LVfY2veyuQWG"]}
