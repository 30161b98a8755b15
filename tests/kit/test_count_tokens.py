"""The optional ``count_tokens`` capability (``Model.count_tokens`` / ``acount_tokens``) through the
kit, against a recording transport."""

from __future__ import annotations

import json

import pytest

from modelport._model import Model
from modelport.errors import InvalidRequestError
from modelport.provider import Capabilities, TokenCount

from .counter import Counter, NoCount, Transport, ok, provider


def test_count_tokens_through_the_model() -> None:
    transport = Transport(ok({"tokens": 7}))
    model = Model(provider(Counter, transport), "tiny")
    assert model.count_tokens(prompt="hi", system="be brief") == TokenCount(input_tokens=7)
    assert str(transport.requests[0].url) == "https://api.counter.test/v1/models/tiny:count"
    assert json.loads(transport.requests[0].content) == {"messages": 2}


@pytest.mark.asyncio
async def test_acount_tokens_through_the_model() -> None:
    transport = Transport(ok({"tokens": 3}))
    model = Model(provider(Counter, transport, asynchronous=True), "tiny")
    assert (await model.acount_tokens(prompt="hi")).input_tokens == 3


@pytest.mark.asyncio
async def test_count_tokens_rejects_before_any_request() -> None:
    transport = Transport()
    counting = Model(provider(Counter, transport), "tiny")
    without = Model(provider(NoCount, transport), "tiny")
    for call in (
        lambda: counting.count_tokens(prompt="hi", max_output_tokens=13),  # the provider's own rule
        lambda: counting.count_tokens(prompt="hi", temperature=-1),  # the core's validation
        lambda: without.count_tokens(prompt="hi"),  # no capability
    ):
        with pytest.raises(InvalidRequestError):
            call()
    with pytest.raises(InvalidRequestError, match="does not support count_tokens"):
        await without.acount_tokens(prompt="hi")
    assert transport.requests == []
    assert Capabilities().count_tokens is False and "count_tokens" in Capabilities().as_dict()
