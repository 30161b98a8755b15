"""A mistyped request keyword is refused before any I/O with the keyword it most likely meant: a
name other SDKs use (``max_tokens``), a near miss (``temprature``), or a connection setting given to
the call instead of to ``get_model``."""

from __future__ import annotations

import httpx
import pytest

import modelport
from modelport import testing
from modelport._model.keywords import PEER_NAMES, request_keywords


@pytest.fixture
def model() -> modelport.Model:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"no request may be sent: {request.url}")

    return modelport.get_model("openai/gpt-4o-mini", api_key="k", transport=httpx.MockTransport(refuse))


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"max_tokens": 5}, "max_tokens: Extra inputs are not permitted (did you mean max_output_tokens=?)"),
        (
            {"max_completion_tokens": 5},
            "max_completion_tokens: Extra inputs are not permitted (did you mean max_output_tokens=?)",
        ),
        ({"stop": ["x"]}, "stop: Extra inputs are not permitted (did you mean stop_sequences=?)"),
        ({"temprature": 0.2}, "temprature: Extra inputs are not permitted (did you mean temperature=?)"),
        ({"tool": []}, "tool: Extra inputs are not permitted (did you mean tools=?)"),
        (
            {"base_url": "http://127.0.0.1:1/v1"},
            "base_url: Extra inputs are not permitted "
            "(base_url= is a connection setting: pass it to get_model(...), not to the call)",
        ),
        ({"colour": "blue"}, "colour: Extra inputs are not permitted"),
    ],
)
def test_a_mistyped_keyword_names_the_one_meant(
    model: modelport.Model, given: dict[str, object], message: str
) -> None:
    with pytest.raises(modelport.InvalidRequestError) as raised:
        model.generate(prompt="hi", **given)  # type: ignore[call-arg]
    assert str(raised.value) == f"invalid request: {message}"


def test_a_suggestion_is_only_added_to_unknown_top_level_keywords(model: modelport.Model) -> None:
    with pytest.raises(modelport.InvalidRequestError) as raised:
        model.generate(prompt="hi", max_tokens=5, temperature="hot")  # type: ignore[call-arg, arg-type]
    assert str(raised.value) == (
        "invalid request: temperature: Input should be a valid number, unable to parse string as a number; "
        "max_tokens: Extra inputs are not permitted (did you mean max_output_tokens=?)"
    )


def test_every_suggested_keyword_is_one_the_call_takes() -> None:
    assert set(PEER_NAMES.values()) <= set(request_keywords())


def test_the_stream_and_the_tool_loop_say_the_same(model: modelport.Model) -> None:
    for call in (model.stream, model.run):
        with pytest.raises(modelport.InvalidRequestError, match=r"did you mean max_output_tokens=\?"):
            call(prompt="hi", max_tokens=5)  # type: ignore[call-arg]


def test_scripted_providers_get_the_suggestion_too(scripted: testing.Script) -> None:
    model = modelport.get_model("scripted/m", script=scripted)
    with pytest.raises(modelport.InvalidRequestError, match=r"did you mean system=\?"):
        model.generate(prompt="hi", system_prompt="be brief")  # type: ignore[call-arg]
