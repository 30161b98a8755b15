"""A very short credential (a test key such as ``t``) is scrubbed from the HTTP libraries' logs only as
a whole token, so it does not garble the log lines of every other endpoint in the process.

Found by an order-dependent failure: a Vertex test's endpoint with the token ``t`` was still alive
(garbage not yet collected) when a later test read its own log, and the filter, which sees every
endpoint's records, had replaced every letter ``t`` in it (``POS[REDAC[REDAC…``). The echo of such a
key as a header value or a query parameter is still removed.
"""

from __future__ import annotations

import json
import logging

import httpx
import pytest

import modelport
from modelport.http._logs import scrubbed
from tests import recordings
from tests.loopback import Loopback, Received, Reply

_OPENAI = "vercel__ai/packages__openai__src__chat____fixtures____openai-text.json"
LONG_KEY = "mp-" + "another" + "Endpoint" + "9c2b1e7f"


def _answer() -> bytes:
    return recordings.openai(_OPENAI).read_bytes()


def test_a_live_one_letter_credential_leaves_other_log_lines_whole(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    answer = httpx.MockTransport(lambda request: httpx.Response(200, content=_answer()))
    with modelport.get_model("openai/gpt-4o-mini", api_key="t", transport=answer, max_retries=0) as short:
        short.generate(prompt="hi")  # its endpoint (and credential) is live from here
        with Loopback(lambda received: Reply(200, {"content-type": "application/json"}, _answer())) as server:
            base = server.url + "/v1"
            with modelport.get_model(
                "openai/gpt-4o-mini", api_key=LONG_KEY, base_url=base, max_retries=0
            ) as model:
                caplog.clear()
                text = model.generate(prompt="hi").text
    assert text == json.loads(_answer())["choices"][0]["message"]["content"]
    lines = [r.getMessage() for r in caplog.records if r.name == "httpcore.http11"]
    assert lines[:2] == [
        "send_request_headers.started request=<Request [b'POST']>",
        "send_request_headers.complete",
    ]
    assert "(b'content-type', b'application/json')" in lines[5]
    assert "[REDACTED]" not in caplog.text


def test_a_one_letter_credential_echoed_in_a_header_is_still_scrubbed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def echoing(received: Received) -> Reply:
        sent = received.headers.get("authorization", "").removeprefix("Bearer ")
        return Reply(
            200,
            {"content-type": "application/json", "x-request-id": sent, "x-trace": sent.upper()},
            _answer(),
        )

    caplog.set_level(logging.DEBUG)
    with Loopback(echoing) as server:
        with modelport.get_model(
            "openai/gpt-4o-mini", api_key="t", base_url=server.url + "/v1", max_retries=0
        ) as m:
            m.generate(prompt="hi")
    assert server.received[0].headers["authorization"] == "Bearer t", "the request was really sent"
    headers = [
        r.getMessage()
        for r in caplog.records
        if r.name == "httpcore.http11" and "x-request-id" in r.getMessage()
    ]
    assert len(headers) == 1
    assert "(b'x-request-id', b'[REDACTED]'), (b'x-trace', b'[REDACTED]')" in headers[0]
    assert "receive_response_headers.complete" in headers[0]  # the rest of the line is whole


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("POST /v1/chat 'HTTP/1.1 200 OK'", "POST /v1/chat 'HTTP/1.1 200 OK'"),
        (
            "[(b'x-request-id', b't'), (b'x-trace', b'T')]",
            "[(b'x-request-id', b'[REDACTED]'), (b'x-trace', b'[REDACTED]')]",
        ),
        ("GET /models?key=t&page=2", "GET /models?key=[REDACTED]&page=2"),
        ("Bearer t", "Bearer [REDACTED]"),
        ("https://t.example/t-1/x.t", "https://t.example/t-1/x.t"),  # part of a host, a path, a name
    ],
)
def test_a_short_credential_is_replaced_only_as_a_whole_token(message: str, expected: str) -> None:
    assert scrubbed(message, ("t",)) == expected


def test_a_credential_of_eight_characters_is_replaced_everywhere_in_any_case() -> None:
    assert (
        scrubbed("id=xabcdef12x ABCDEF12 abcdef12", ("abcdef12",)) == "id=x[REDACTED]x [REDACTED] [REDACTED]"
    )
