"""Reasoning on ``bedrock`` from pydantic-ai's recordings of Claude on Converse: the request's
``reasoning`` as ``additionalModelRequestFields.thinking``, ``reasoningContent`` with its signature
(whole and streamed) and redacted reasoning decoded, and both replayed in the next turn exactly as
the recorded second call sent them."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from modelport_aws._frames import merge_frames
from modelport_aws._stream import ConverseStream

import modelport
from modelport.errors import InvalidRequestError, StreamInterruptedError
from modelport.http.event_stream import EventStreamParser
from modelport.types import ReasoningPart
from tests.aws.replay import answering, keys, recorded

SONNET_4 = "bedrock/us.anthropic.claude-sonnet-4-20250514-v1:0"
SONNET_37 = "bedrock/us.anthropic.claude-3-7-sonnet-20250219-v1:0"
RAW_EMPTY = {"bedrock": {"system": [], "inferenceConfig": {}}}
THINKING = {"thinking": {"type": "enabled", "budget_tokens": 1024}}


def two_turns(name: str, model_id: str, question: str) -> tuple[Any, list[httpx.Request]]:
    """Turn 1 of the recording, then turn 2 with turn 1's answer in the history."""
    seen: list[httpx.Request] = []
    answers = iter([recorded(name, 0)[1], recorded(name, 1)[1]])
    transport = httpx.MockTransport(
        lambda request: (seen.append(request), httpx.Response(200, json=next(answers)))[1]
    )
    model = modelport.get_model(model_id, transport=transport, **keys())
    first_question = recorded(name, 0)[0]["messages"][0]["content"][0]["text"]
    first = model.generate(
        prompt=first_question, reasoning={"budget_tokens": 1024}, provider_options=RAW_EMPTY
    )
    model.generate(
        messages=[
            {"role": "user", "content": first_question},
            first.message,
            {"role": "user", "content": question},
        ],
        reasoning={"budget_tokens": 1024},
        provider_options=RAW_EMPTY,
    )
    return first, seen


def test_signed_reasoning_is_decoded_and_replayed_as_recorded() -> None:
    name = "test_bedrock_model_thinking_part_anthropic.yaml"
    question = "Considering the way to cross the street, analogously, how do I cross the river?"
    first, seen = two_turns(name, SONNET_4, question)
    recorded_block = recorded(name, 0)[1]["output"]["message"]["content"][0]["reasoningContent"][
        "reasoningText"
    ]
    reasoning = first.content[0]
    assert isinstance(reasoning, ReasoningPart)
    assert reasoning.text == (
        "This is a straightforward question about crossing the street safely. I should provide clear, "
        "practical safety advice that applies generally, while noting that specific rules may vary by location."
    )
    assert reasoning.signature == recorded_block["signature"]
    assert reasoning.signature.startswith("Eu4CCkgIBxABGAIqQCc4A+JU") and len(reasoning.signature) == 496
    assert first.text.startswith("Here are the basic steps for crossing the street safely:")
    assert (first.usage.input_tokens, first.usage.output_tokens, first.usage.reasoning_tokens) == (
        42,
        313,
        None,
    )
    assert [json.loads(r.content) for r in seen] == [recorded(name, 0)[0], recorded(name, 1)[0]]
    assert json.loads(seen[0].content)["additionalModelRequestFields"] == THINKING


def test_redacted_reasoning_is_kept_opaque_and_replayed_as_it_came() -> None:
    name = "test_bedrock_model_thinking_part_redacted.yaml"
    first, seen = two_turns(name, SONNET_37, "What was that?")
    redacted = recorded(name, 0)[1]["output"]["message"]["content"][0]["reasoningContent"]["redactedContent"]
    part = first.content[0]
    assert isinstance(part, ReasoningPart)
    assert (part.text, part.signature) == ("", None)
    assert part.provider_metadata == {"bedrock": {"redacted_content": redacted}}
    assert redacted.startswith("RXU4RUNrZ0lCeEFCR0FJcVFJaGtJYVN0OHBF") and len(redacted) == 1120
    assert json.loads(seen[1].content) == recorded(name, 1)[0]
    assert json.loads(seen[1].content)["messages"][1]["content"][0] == {
        "reasoningContent": {"redactedContent": redacted}
    }


def test_streamed_reasoning_has_its_deltas_and_signature_and_matches_generate() -> None:
    sent, body = recorded("test_bedrock_model_thinking_part_stream.yaml")
    seen: list[httpx.Request] = []
    model = modelport.get_model(SONNET_4, transport=answering(body, seen=seen), **keys())
    events = list(model.stream(prompt="Hello", reasoning={"budget_tokens": 1024}, provider_options=RAW_EMPTY))
    assert json.loads(seen[0].content) == sent
    deltas = [e.delta for e in events if e.type == "reasoning-delta"]
    assert len(deltas) == 14
    thought = (
        'The user has greeted me with a simple "Hello". I should respond in a friendly and welcoming manner. '
        "This is a straightforward greeting, so I'll respond warmly and ask how I can help them today."
    )
    assert "".join(deltas) == thought
    (end,) = [e for e in events if e.type == "reasoning-end"]
    assert end.signature is not None and end.signature.startswith("Eu0CCkgIBxABGAIqQJDccbDQ")
    assert len(end.signature) == 496
    frames = list(EventStreamParser(provider="bedrock", on_error=lambda s, t: AssertionError(t)).feed(body))
    whole = modelport.get_model(SONNET_4, transport=answering(merge_frames(frames)), **keys()).generate(
        prompt="Hello"
    )
    streamed = modelport.get_model(SONNET_4, transport=answering(body), **keys()).stream(prompt="Hello")
    for _ in streamed:
        pass
    assert streamed.result().content == whole.content
    assert whole.content[0] == ReasoningPart(text=thought, signature=end.signature)
    assert whole.text == "Hello! It's nice to meet you. How can I help you today?"


def test_an_unsigned_reasoning_part_is_not_replayed() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        SONNET_4, transport=answering(recorded("test_bedrock_model.yaml")[1], seen=seen), **keys()
    )
    history = [
        {"role": "user", "content": "Hi"},
        {
            "role": "assistant",
            "content": [{"type": "reasoning", "text": "unsigned"}, {"type": "text", "text": "Hello"}],
        },
        {"role": "user", "content": "Again"},
    ]
    model.generate(messages=history)
    assert json.loads(seen[0].content)["messages"][1] == {"role": "assistant", "content": [{"text": "Hello"}]}


@pytest.mark.parametrize(
    ("reasoning", "extra", "thinking"),
    [
        ({"effort": "low"}, {}, {"thinking": {"type": "enabled", "budget_tokens": 2048}}),
        ({"effort": "high"}, {}, {"thinking": {"type": "enabled", "budget_tokens": 16384}}),
        (
            {"effort": "max"},
            {"max_output_tokens": 40000},
            {"thinking": {"type": "enabled", "budget_tokens": 32000}},
        ),
        ({"enabled": True}, {}, {"thinking": {"type": "enabled", "budget_tokens": 8192}}),
        ({"enabled": False}, {}, None),
    ],
)
def test_reasoning_settings_become_a_thinking_budget(
    reasoning: dict[str, Any], extra: dict[str, Any], thinking: dict[str, Any] | None
) -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        SONNET_4, transport=answering(recorded("test_bedrock_model.yaml")[1], seen=seen), **keys()
    )
    model.generate(prompt="Hi", reasoning=reasoning, **extra)
    assert json.loads(seen[0].content).get("additionalModelRequestFields") == thinking


@pytest.mark.parametrize(
    ("model_id", "change", "message"),
    [
        (
            "bedrock/us.amazon.nova-micro-v1:0",
            {"reasoning": {"effort": "low"}},
            "for Anthropic Claude models only",
        ),
        (SONNET_4, {"reasoning": {"budget_tokens": 512}}, "at least 1024 on Claude, got 512"),
        (
            SONNET_4,
            {"reasoning": {"budget_tokens": 4096}, "max_output_tokens": 4096},
            "below max_output_tokens 4096",
        ),
        (SONNET_4, {"reasoning": {"enabled": False, "effort": "low"}}, "cannot be combined"),
    ],
)
def test_reasoning_converse_cannot_send_is_refused_before_any_request(
    model_id: str, change: dict[str, Any], message: str
) -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(model_id, transport=answering({}, seen=seen), **keys())
    with pytest.raises(InvalidRequestError, match=message):
        model.generate(prompt="Hi", **change)
    assert seen == []


def test_temperature_is_not_sent_while_claude_thinks() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        SONNET_4, transport=answering(recorded("test_bedrock_model.yaml")[1], seen=seen), **keys()
    )
    result = model.generate(prompt="Hi", reasoning={"budget_tokens": 1024}, temperature=0.2, top_p=0.95)
    assert json.loads(seen[0].content)["inferenceConfig"] == {"topP": 0.95}
    (warning,) = result.warnings
    assert (warning.type, warning.setting) == ("unsupported-setting", "temperature")


def test_a_forced_tool_while_thinking_is_refused_before_any_request() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(SONNET_4, transport=answering({}, seen=seen), **keys())
    with pytest.raises(InvalidRequestError, match="cannot think with a forced tool_choice"):
        model.generate(
            prompt="Hi",
            reasoning={"budget_tokens": 1024},
            tools=[{"type": "function", "name": "f"}],
            tool_choice="required",
        )
    assert seen == []


def test_a_reasoning_stream_cut_mid_thought_keeps_the_thought_so_far() -> None:
    _, body = recorded("test_bedrock_model_thinking_part_stream.yaml")
    parser = EventStreamParser(provider="bedrock", on_error=lambda s, t: AssertionError(t))
    sizes = [len(frame) for frame in _frames_bytes(body)]
    cut = body[: sum(sizes[:8])]  # messageStart and the first 7 reasoning deltas, whole frames
    assert [f["event"] for f in parser.feed(cut)] == ["messageStart", *["contentBlockDelta"] * 7]
    stream = modelport.get_model(SONNET_4, transport=answering(cut), max_retries=0, **keys()).stream(
        prompt="Hello"
    )
    with pytest.raises(StreamInterruptedError) as info:
        for _ in stream:
            pass
    partial = info.value.partial
    assert partial is not None
    (thought,) = partial.content
    assert isinstance(thought, ReasoningPart)
    assert (
        thought.text
        == 'The user has greeted me with a simple "Hello". I should respond in a friendly and welcoming manner.'
    )
    assert thought.signature is None


def _frames_bytes(body: bytes) -> list[bytes]:
    """The event-stream messages of ``body``, each as its bytes (the prelude's first 4 bytes are
    the message's total length)."""
    out, at = [], 0
    while at < len(body):
        size = int.from_bytes(body[at : at + 4], "big")
        out.append(body[at : at + size])
        at += size
    return out


def test_streamed_redacted_reasoning_is_one_opaque_part() -> None:
    # ConverseStream sends redacted reasoning as a redactedContent delta (no recorded stream has
    # one: the frames are the documented shape, with the recorded redacted text).
    whole = recorded("test_bedrock_model_thinking_part_redacted.yaml")[1]
    redacted = whole["output"]["message"]["content"][0]["reasoningContent"]["redactedContent"]
    decoder = ConverseStream()
    delta = {"reasoningContent": {"redactedContent": redacted}}
    events = [
        *decoder.feed({"event": "contentBlockDelta", "data": {"contentBlockIndex": 0, "delta": delta}}),
        *decoder.feed({"event": "contentBlockStop", "data": {"contentBlockIndex": 0}}),
    ]
    assert [e.type for e in events] == ["reasoning-start", "reasoning-end"]
    assert events[1].provider_metadata == {"bedrock": {"redacted_content": redacted}}


def test_another_model_gets_the_turn_without_its_reasoning() -> None:
    name = "test_bedrock_model_thinking_part_anthropic.yaml"
    first = modelport.get_model(SONNET_4, transport=answering(recorded(name)[1]), **keys()).generate(
        prompt="How do I cross the street?", reasoning={"budget_tokens": 1024}
    )
    seen: list[httpx.Request] = []
    other = modelport.get_model(SONNET_37, transport=answering(recorded(name)[1], seen=seen), **keys())
    result = other.generate(
        messages=[{"role": "user", "content": "How?"}, first.message, {"role": "user", "content": "And?"}]
    )
    replayed = json.loads(seen[0].content)["messages"][1]["content"]
    assert [next(iter(block)) for block in replayed] == ["text"]
    (warning,) = result.warnings
    assert warning.setting == "reasoning_replay" and "1 reasoning part" in warning.details
