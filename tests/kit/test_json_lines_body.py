"""A JSON Lines body (a batch's results file) read as it arrives: lines split across chunks anywhere,
the last line without a newline, bounds per line, typed errors for a line that is not JSON."""

from __future__ import annotations

import httpx
import pytest

import modelport
from modelport.errors import ProviderResponseError
from modelport.http import HttpRequest, Limits
from modelport.http._lines import JsonLinesParser

BODY = b'{"a": 1}\n\n{"b": "x\\u00e9"}\r\n{"c": [1, 2]}'


@pytest.mark.parametrize("size", [1, 2, 5, 1000])
def test_lines_split_anywhere_come_out_whole(size: int) -> None:
    parser = JsonLinesParser("p", 1024)
    values = []
    for start in range(0, len(BODY), size):
        values += parser._frames(BODY[start : start + size])
    values += parser.close()
    assert values == [{"a": 1}, {"b": "xé"}, {"c": [1, 2]}]
    assert parser.frames == 3


def test_a_line_over_the_bound_and_a_line_that_is_not_json_are_typed_errors() -> None:
    with pytest.raises(ProviderResponseError, match="a line over 8 bytes"):
        JsonLinesParser("p", 8)._frames(b'{"long": "value"}')
    with pytest.raises(ProviderResponseError, match="line 2 of a JSON Lines body is not JSON"):
        JsonLinesParser("p", 1024)._frames(b'{"a": 1}\n{oops}\n')


def test_call_lines_streams_a_body_through_the_kit() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "application/x-jsonl"}, content=BODY)

    model = modelport.get_model(
        "anthropic/claude-haiku-4-5",
        api_key="sk-ant-test-0123456789abcdefghij",
        transport=httpx.MockTransport(answer),
    )
    values = list(model.provider.call_lines(HttpRequest("/v1/messages/batches/b/results", method="GET")))
    assert values == [{"a": 1}, {"b": "xé"}, {"c": [1, 2]}]
    small = modelport.get_model(
        "anthropic/claude-haiku-4-5",
        api_key="sk-ant-test-0123456789abcdefghij",
        transport=httpx.MockTransport(answer),
        limits=Limits(max_stream_bytes=10),
    )
    with pytest.raises(ProviderResponseError):
        list(small.provider.call_lines(HttpRequest("/v1/messages/batches/b/results", method="GET")))
