"""Stateful turns on the Responses API, when asked: ``previous_response_id`` continues a stored
answer and the request sends only the new messages (pydantic-ai's recorded two-turn exchange);
``store`` then defaults to on, and nothing asks for encrypted reasoning. The default stays
stateless (``store: false``, the whole history sent)."""

from __future__ import annotations

import pytest

from modelport.errors import InvalidRequestError

from . import responses_corpus as corpus

NAME = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_previous_response_id.yaml"


def test_previous_response_id_sends_only_the_new_turn() -> None:
    exchanges = corpus.exchanges(NAME)
    recorded = corpus.Recorded(exchanges)
    model = recorded.model()
    first = model.generate(
        prompt="The secret key is sesame", provider_options={"openai-responses": {"store": True}}
    )
    assert first.response_id == "resp_1234"
    second = model.generate(
        prompt="What is the secret key again?",
        provider_options={"openai-responses": {"previous_response_id": first.response_id}},
    )
    assert second.text == "sesame"
    sent = recorded.sent[1]
    wanted = exchanges[1].request
    assert sent["previous_response_id"] == wanted["previous_response_id"] == "resp_1234"
    assert sent["input"] == wanted["input"] == [{"role": "user", "content": "What is the secret key again?"}]
    assert sent["store"] is True  # the answer continued from must be stored, and so is this one
    assert "include" not in sent  # the stored items carry the reasoning: no encrypted copy needed
    assert recorded.sent[0]["store"] is True


def test_stateless_is_the_default() -> None:
    recorded = corpus.Recorded(corpus.exchanges(NAME))
    recorded.model().generate(prompt="The secret key is sesame")
    assert recorded.sent[0]["store"] is False
    assert "previous_response_id" not in recorded.sent[0]


def test_an_explicit_store_wins_over_the_stateful_default() -> None:
    recorded = corpus.Recorded(corpus.exchanges(NAME))
    options = {"openai-responses": {"previous_response_id": "resp_1234", "store": False}}
    recorded.model().generate(prompt="Again?", provider_options=options)
    assert (recorded.sent[0]["previous_response_id"], recorded.sent[0]["store"]) == ("resp_1234", False)


@pytest.mark.parametrize("value", ["", 1234])
def test_a_bad_previous_response_id_is_refused_before_any_request(value: object) -> None:
    recorded = corpus.Recorded([])
    with pytest.raises(InvalidRequestError, match="previous_response_id"):
        recorded.model().generate(
            prompt="Hi", provider_options={"openai-responses": {"previous_response_id": value}}
        )
    assert recorded.sent == []
