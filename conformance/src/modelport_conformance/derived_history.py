"""The ``history`` derived fault case: a decoded answer, sent back as history, is what the real
client sent.

A multi-turn recording is one case per turn: the next turn's ``case.yaml`` carries the previous
answer as an ``assistant`` message, and its cassette holds the request the real client sent. For
each such message the suite's cases are searched for the recording that answered it: the case whose
recorded response holds the message's identifying strings (tool-call ids, signatures, response and
item ids: every string of at least :data:`MIN_KEY_LENGTH` characters without white space, outside
its names, arguments and text).
That case is replayed, its decoded answer (``Result.message``) put in the message's place, and the
request the plugin builds from it compared with the recorded one, JSON path by JSON path: a decoder
that drops a signature, renames a tool-call id or loses an argument fails here, with no golden.

What the real client sent that no decoded answer carries (a field it adds of its own) is declared
by the suite in ``volatile``: regular expressions searched in ``"<case>:<JSON path>"``
(``r"\\.cache_control$"`` anywhere, ``r"^turn-2:\\$\\.messages\\[1\\]"`` one case's message); the
differences they match are left out of the comparison.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

import httpx

from modelport.events import accumulate

from .cases import Case, Suite
from .cassette import body_bytes
from .jsondiff import Difference, diff_json, format_differences
from .outcomes import CheckOutcome
from .player import CassettePlayer
from .replay import Execution, call_case, describe_exception, execute, is_crash, replay_model

__all__ = ["MIN_KEY_LENGTH", "answered_by", "history_check", "identifying_strings"]

#: The shortest string of an assistant message that can name the recording it came from.
MIN_KEY_LENGTH = 12
_ROLES = {"assistant", "model"}
#: Fields whose values many recordings share (names, arguments, text): never a link.
_NOT_KEYS = frozenset({"type", "name", "args", "text", "role"})


def identifying_strings(message: Any) -> set[str]:
    """The strings of ``message`` (its ``case.yaml`` form) that name one recording: ids and
    signatures, at least :data:`MIN_KEY_LENGTH` characters, no white space (tool names, arguments
    and text are left out: many recordings share them)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key not in _NOT_KEYS:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and len(value) >= MIN_KEY_LENGTH and not any(c.isspace() for c in value):
            found.add(value)

    walk(message.get("content") if isinstance(message, dict) else None)
    return found


def _response_text(case: Case) -> str:
    bodies = [
        body_bytes(i.response.get("body")).decode("utf-8", "replace") for i in case.cassette.interactions
    ]
    return "\n".join(bodies)


def answered_by(case: Case, message: Any, cases: Iterable[Case]) -> Case | None:
    """The case whose recorded answer holds the most of ``message``'s identifying strings (``None``
    when none holds any)."""
    keys = identifying_strings(message)
    if not keys:
        return None
    best: tuple[int, Case] | None = None
    for other in cases:
        if other is case or other.method not in ("generate", "stream"):
            continue
        text = _response_text(other)
        hits = sum(key in text for key in keys)
        if hits and (best is None or hits > best[0]):
            best = (hits, other)
    return best[1] if best else None


class _Recorder(CassettePlayer):
    """Answers from the cassette whatever the body, keeping each request's JSON body."""

    def __init__(self, case: Case) -> None:
        super().__init__(case.cassette, match_body=False)
        self.bodies: list[Any] = []

    def handle(self, request: httpx.Request) -> httpx.Response:
        request.read()
        try:
            self.bodies.append(json.loads(request.content) if request.content else None)
        except ValueError:
            self.bodies.append(request.content.decode("utf-8", "replace"))
        return super().handle(request)


def _answer(suite: Suite, case: Case) -> Any:
    run = execute(suite, case)
    if run.error is not None:
        return run.error
    result = run.result if run.result is not None else accumulate(run.events)
    return result.message


def _kept(suite: Suite, case: Case, differences: Sequence[Difference]) -> list[Difference]:
    volatile = [re.compile(pattern) for pattern in suite.volatile]
    return [d for d in differences if not any(p.search(f"{case.name}:{d.path}") for p in volatile)]


def history_check(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    """The ``history`` check of one replay (see the module)."""
    messages = case.request.get("messages")
    if case.method not in ("generate", "stream") or not isinstance(messages, list):
        return CheckOutcome("history", "skip", "the request carries no history")
    sources = [
        (index, source)
        for index, message in enumerate(messages)
        if isinstance(message, dict) and message.get("role") in _ROLES
        if (source := answered_by(case, message, suite.cases)) is not None
    ]
    if not sources:
        return CheckOutcome("history", "skip", "no recording of this suite answered a message of its history")
    replaced = list(messages)
    for index, source in sources:
        answer = _answer(suite, source)
        if isinstance(answer, BaseException):
            reason = f"the recording that answered messages[{index}], {source.name}, replays with an error"
            return CheckOutcome("history", "skip", reason)
        replaced[index] = answer
    derived = dataclasses.replace(case, request={**case.request, "messages": replaced})
    recorder = _Recorder(derived)
    again = Execution(output={}, player=recorder)
    try:
        model = replay_model(suite, derived, recorder.transport)
        try:
            call_case(model, derived, again)
        finally:
            model.close()
    except Exception as error:
        if is_crash(error):
            return CheckOutcome("history", "fail", f"the call raised {describe_exception(error)}")
        if not recorder.bodies:
            raised = f"{type(error).__name__}: {error}"
            return CheckOutcome("history", "fail", f"the decoded answers sent back as history: {raised}")
    if not recorder.bodies:
        return CheckOutcome("history", "fail", "no request was sent with the decoded answers as history")
    recorded = json.loads(body_bytes(case.cassette.interactions[0].request.get("body")) or b"null")
    differences = _kept(suite, case, diff_json(recorded, recorder.bodies[0], "$"))
    if not differences:
        return CheckOutcome("history", "pass")
    named = ", ".join(f"messages[{index}] from {source.name}" for index, source in sources)
    message = (
        f"the decoded answers sent back as history ({named}) give another request than the real "
        f"client sent (expected: the recording):\n" + format_differences(differences)
    )
    return CheckOutcome("history", "fail", message)
