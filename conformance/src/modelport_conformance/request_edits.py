"""The ``request-edits`` check: edit a case's system instruction or prompt text, build the request
again, and the body sent must change exactly where the plugin's wire map
(:attr:`modelport.wire_map.WireMap.request`) says that text goes, carrying the edited text.

The recorded request pins what was sent when the cassette was recorded; a plugin that loses the
system message, recorded again, still matches its own recording. This check needs no recording:
the body of the request as the case states it is compared with the body of the same request with
one text changed (both built by the plugin now, sent to a transport that answers nothing). It fails
when the body did not change (the text is lost), changed somewhere the map does not name, or the
mapped place does not carry the new text; and, when the case has that text, when the map names no
place for it at all.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import httpx

import modelport
from modelport.wire_map import Paths, Pointer, WirePath, as_paths

from .cases import Case, Suite
from .metamorphic import provider_wire_map
from .outcomes import CheckOutcome
from .replay import model_options, replay_settings

__all__ = ["EDIT_SUFFIX", "request_edits_check", "sent_body"]

#: What the edit appends to the text.
EDIT_SUFFIX = " (edited by the conformance suite)"


def _text_slot(holder: Any, key: Any) -> tuple[Any, Any] | None:
    """Where a message's text is: the content string, else its first text part's ``text``."""
    value = holder[key]
    if isinstance(value, str):
        return holder, key
    if isinstance(value, list):
        for part in value:
            if (
                isinstance(part, dict)
                and part.get("type", "text") == "text"
                and isinstance(part.get("text"), str)
            ):
                return part, "text"
    return None


def _slot(request: dict[str, Any], which: str) -> tuple[Any, Any] | None:
    """Where ``which`` (``system`` or ``prompt``) text is in the case's request keywords."""
    if isinstance(request.get(which), str):
        return request, which
    messages = request.get("messages")
    if not isinstance(messages, list):
        return None
    roles = ("system", "developer") if which == "system" else ("user",)
    found = [m for m in messages if isinstance(m, dict) and m.get("role") in roles and "content" in m]
    if not found:
        return None
    return _text_slot(found[0] if which == "system" else found[-1], "content")


def sent_body(suite: Suite, case: Case, request: dict[str, Any]) -> Any:
    """The JSON body the provider sends first for ``request`` (``None`` when it sends none)."""
    sent: list[bytes] = []

    def handle(outgoing: httpx.Request) -> httpx.Response:
        sent.append(outgoing.read())
        return httpx.Response(400, json={"error": {"message": "conformance: request-edits sends nothing"}})

    options = {**model_options(suite, case, replay_settings(suite.provider_id)), "max_retries": 0}
    model = modelport.get_model(
        f"{suite.provider_id}/{case.model}", **options, transport=httpx.MockTransport(handle)
    )
    try:
        if case.is_stream:
            for _ in model.stream(**request):
                pass
        else:
            model.generate(**request)
    except modelport.ModelportError:
        pass
    finally:
        model.close()
    try:
        return json.loads(sent[0]) if sent else None
    except ValueError:  # not a JSON body (an upload): the check does not apply
        return None


def _differences(before: Any, after: Any, at: Pointer = ()) -> Iterator[Pointer]:
    if isinstance(before, dict) and isinstance(after, dict):
        for key in dict.fromkeys([*before, *after]):
            if key not in before or key not in after:
                yield (*at, key)
            else:
                yield from _differences(before[key], after[key], (*at, key))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (a, b) in enumerate(zip(before, after, strict=True)):
            yield from _differences(a, b, (*at, index))
    elif before != after:
        yield at


def _covered(paths: Paths, body: Any, pointer: Pointer) -> bool:
    for path in as_paths(paths):
        for place, _ in WirePath.parse(path).locate(body):
            if pointer[: len(place)] == place:
                return True
    return False


def _value(body: Any, pointer: Pointer) -> Any:
    for key in pointer:
        try:
            body = body[key]
        except (KeyError, IndexError, TypeError):
            return None
    return body


def _edit_problems(suite: Suite, case: Case, which: str, paths: Paths, before: Any) -> list[str]:
    request = copy.deepcopy(case.request)
    slot = _slot(request, which)
    if slot is None:
        return []
    holder, key = slot
    holder[key] = holder[key] + EDIT_SUFFIX
    label = f"the {which} text edited"
    if not paths:
        return [f"{label}: the wire map names no place for it (request.{which})"]
    after = sent_body(suite, case, request)
    changed = list(_differences(before, after))
    if not changed:
        return [f"{label}: the body sent did not change (the map says {', '.join(as_paths(paths))})"]
    problems = []
    for pointer in changed:
        where = "/" + "/".join(str(k) for k in pointer)
        if not _covered(paths, after, pointer):
            problems.append(f"{label}: the body changed at {where}, which the map does not name for it")
    if not any(EDIT_SUFFIX in json.dumps(_value(after, p), ensure_ascii=False) for p in changed):
        problems.append(f"{label}: no changed place carries the edited text")
    return problems


def request_edits_check(suite: Suite, case: Case) -> CheckOutcome:
    """The ``request-edits`` check of one case (see the module)."""
    wire = provider_wire_map(suite.provider_id)
    if wire is None:
        return CheckOutcome("request-edits", "skip", "the provider declares no wire_map")
    if case.method not in ("generate", "stream"):
        return CheckOutcome("request-edits", "skip", f"a {case.method} case")
    edits = [
        (w, getattr(wire.request, w)) for w in ("system", "prompt") if _slot(case.request, w) is not None
    ]
    if not edits:
        return CheckOutcome("request-edits", "skip", "the request has no system or prompt text")
    before = sent_body(suite, case, case.request)
    if before is None:
        return CheckOutcome("request-edits", "skip", "the request sends no JSON body")
    problems = [p for which, paths in edits for p in _edit_problems(suite, case, which, paths, before)]
    names = " and ".join(which for which, _ in edits)
    return CheckOutcome(
        "request-edits", "fail" if problems else "pass", "\n".join(problems) or f"{names} edited"
    )
