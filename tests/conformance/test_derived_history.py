"""The ``history`` derived case (modelport_conformance.derived_history): an earlier recording's
decoded answer, sent back as the next turn's history, must give the request the real client sent.

This round's Gemini defect is planted in a wrapper of the decoder: Gemini 3 ends each streamed call
(``partialArgs``) with an empty ``{"functionCall": {}}`` part, and the planted decoder turns it into
a call with no name. The two-turn recording is MOCK (the corpus has no streamed-arguments
recording): turn 1 is the shipped ``stream-partial-args-gemini3`` with that empty part added, turn 2
carries the call back as a client that decoded it right sends it (one ``functionCall`` with its
``thoughtSignature``), its request the one that history gives."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
import yaml

import modelport
from modelport import events as ev
from modelport.http import HttpRequest
from modelport.types import ToolCallPart
from modelport_conformance.cases import Suite, load_cases
from modelport_conformance.cassette import Cassette, Interaction, clean_request, dump_cassette, load_cassette
from modelport_conformance.derived_history import answered_by, identifying_strings
from modelport_conformance.runner import run_case
from modelport_conformance.whole_answer import expected_answer
from modelport_google.provider import VertexProvider

ROOT = Path(__file__).parents[2]
VERTEX = ROOT / "plugins" / "google" / "src" / "modelport_google" / "cassettes" / "google-vertex"
TURN_1 = "stream-partial-args-gemini3"
CONFIG = {"project": "conformance-project", "location": "us-central1", "token": "conformance-replay-token"}
EMPTY_CALL = {"functionCall": {}}
ANSWER = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "Sunny, 21 °C."}]}, "finishReason": "STOP"}
    ],
    "usageMetadata": {"promptTokenCount": 90, "candidatesTokenCount": 6, "totalTokenCount": 96},
}


class _EmptyCallsLeftOut:
    """The decoder, fed every frame without its empty ``functionCall`` parts; ``planted`` turns each
    one into a call with no name, as this round's defect did."""

    def __init__(self, inner: Any, planted: bool) -> None:
        self.inner, self.planted, self.count = inner, planted, 0

    def feed(self, frame: Any) -> list[Any]:
        frame = copy.deepcopy(frame)
        empty = 0
        for candidate in frame.get("candidates") or []:
            parts = (candidate.get("content") or {}).get("parts") or []
            kept = [part for part in parts if part != EMPTY_CALL]
            empty += len(parts) - len(kept)
            if parts:
                candidate["content"]["parts"] = kept
        events = list(self.inner.feed(frame))
        for _ in range(empty if self.planted else 0):
            self.count += 1
            events.append(ev.ToolCallEvent(part=ToolCallPart(id=f"nameless-{self.count}", name="", args={})))
        return events

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class _Vertex(VertexProvider):
    planted: ClassVar[bool] = False

    def stream_decoder(self, spec: HttpRequest) -> Any:
        return _EmptyCallsLeftOut(super().stream_decoder(spec), self.planted)


class RightVertex(_Vertex):
    id: ClassVar[str] = "vertex-right"


class NamelessVertex(_Vertex):
    id: ClassVar[str] = "vertex-nameless"
    planted: ClassVar[bool] = True


class Plugin:
    @modelport.hookimpl
    def modelport_register_providers(self, register: Any) -> None:
        register(RightVertex)
        register(NamelessVertex)


def _turn_one(cases: Path) -> dict[str, Any]:
    """Turn 1 with Gemini 3's empty part after the call's last argument; its decoded answer."""
    shutil.copytree(VERTEX / TURN_1, cases / TURN_1)
    path = cases / TURN_1 / "cassette.yaml"
    cassette = load_cassette(path.read_text(encoding="utf-8"))
    frames = cassette.interactions[0].response["body"]["sse"]
    ending = copy.deepcopy(frames[-2])
    ending["data"]["candidates"][0]["content"]["parts"] = [EMPTY_CALL]
    frames.insert(len(frames) - 1, ending)
    path.write_text(dump_cassette(cassette), encoding="utf-8")
    expected = json.loads((cases / TURN_1 / "expected.json").read_text(encoding="utf-8"))
    answer = expected_answer(expected)
    assert answer is not None
    return answer.message.model_dump(mode="json", exclude_none=True, exclude={"origin"})


def _turn_two(cases: Path, answer: dict[str, Any]) -> None:
    """Turn 2: the call sent back with its result; the request the right history gives, recorded."""
    first = yaml.safe_load((cases / TURN_1 / "case.yaml").read_text(encoding="utf-8"))
    [call] = [part for part in answer["content"] if part["type"] == "tool-call"]
    request = {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": first["request"]["prompt"]}]},
            answer,
            {
                "role": "user",
                "content": [
                    {"type": "tool-result", "call_id": call["id"], "name": call["name"], "output": "Sunny"}
                ],
            },
        ],
        "tools": first["request"]["tools"],
    }
    sent: list[httpx.Request] = []

    def answering(outgoing: httpx.Request) -> httpx.Response:
        sent.append(outgoing)
        return httpx.Response(200, json=ANSWER)

    model = modelport.get_model(
        "vertex-right/gemini-3-pro-preview", **CONFIG, transport=httpx.MockTransport(answering)
    )
    model.generate(**request)
    [outgoing] = sent
    recorded = clean_request(
        {
            "method": "POST",
            "uri": str(outgoing.url),
            "headers": dict(outgoing.headers),
            "body": outgoing.content,
        }
    )
    response = {"status": {"code": 200, "message": "OK"}, "headers": {"content-type": ["application/json"]}}
    cassette = Cassette([Interaction(request=recorded, response={**response, "body": {"json": ANSWER}})])
    case = cases / "generate-after-streamed-call"
    case.mkdir()
    (case / "cassette.yaml").write_text(dump_cassette(cassette), encoding="utf-8")
    spec = {"method": "generate", "model": "gemini-3-pro-preview", "config": CONFIG, "request": request}
    (case / "case.yaml").write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")


@pytest.fixture
def two_turns(tmp_path: Path, fresh_registry: None) -> Path:
    modelport.register_plugin(Plugin(), name="vertex-variants")
    cases = tmp_path / "cases"
    _turn_two(cases, _turn_one(cases))
    return cases


def _history(provider_id: str, cases: Path) -> tuple[str, str]:
    loaded = load_cases(cases)
    [turn_two] = [case for case in loaded if case.name == "generate-after-streamed-call"]
    outcome = run_case(Suite(provider_id, loaded), turn_two)
    [check] = [check for check in outcome.checks if check.name == "history"]
    return check.status, check.message


def test_turn_two_is_linked_to_turn_one_by_the_signature(two_turns: Path) -> None:
    loaded = load_cases(two_turns)
    turn_one, turn_two = (
        next(c for c in loaded if c.name == name) for name in (TURN_1, "generate-after-streamed-call")
    )
    message = turn_two.request["messages"][1]
    assert identifying_strings(message) == {"CiQBjz1rX2Zv6mVv0QmKx4r0dQ1c3m1pZ1cpR0tQb2NrZXQ="}
    assert answered_by(turn_two, message, loaded) is turn_one


def test_a_right_decoder_sends_the_answer_back_as_the_real_client_did(two_turns: Path) -> None:
    assert _history("vertex-right", two_turns) == ("pass", "")


def test_an_empty_function_call_part_turned_into_a_nameless_call_fails_history(two_turns: Path) -> None:
    status, message = _history("vertex-nameless", two_turns)
    assert status == "fail"
    # The nameless call makes the next turn impossible: it is refused before anything is sent.
    assert message.startswith(
        "the decoded answers sent back as history: InvalidRequestError: the assistant message's tool "
        "calls [('nameless-1', ''), ('call-0', 'fetchWeather')] do not match its raw Gemini parts "
        "[('call-0', 'fetchWeather')]"
    )
