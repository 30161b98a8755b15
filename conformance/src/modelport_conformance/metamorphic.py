"""The ``metamorphic`` check: edit the recorded answer where the plugin's wire map says a value
lives, replay, and the decoded result must move exactly there, and nowhere else the map covers.

The map is :attr:`modelport.Provider.wire_map` (:mod:`modelport.wire_map`): :attr:`~modelport.
wire_map.WireMap.response` for a generate case's answer, :attr:`~modelport.wire_map.WireMap.stream`
for each frame of a stream case. The last successful answer of the cassette is edited, one edit per
replay, at most :data:`MAX_EDITS` per case (:mod:`.wire_edits` says what each edit writes):

- ``usage``: every mapped count grows by its own step; each count's field and its ``also`` fields
  must move by exactly their steps (two counts swapped move the wrong fields);
- ``text``, ``tool name``, ``tool arguments``: one letter of the first fragment the map locates;
  exactly one part of the content must change, by that letter (arguments dropped from a stream, or
  read from elsewhere, move nothing);
- ``finish reason``: the raw value becomes another of the map's ``finish_reasons``; the result's
  ``finish_reason`` must be that value's;
- ``citation start``/``citation end``: an offset moves by one inside its span; one citation must
  move by one, and the decoded offset must be the wire's, counted from the start of a text part of
  the answer (a decoder that shifts every offset by one moves with the edit, yet fails this).

Any edit whose replay moves nothing the map covers fails the check, so a map entry that is wrong
(a path the decoder does not read) cannot pass silently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from modelport import plugins
from modelport.events import accumulate
from modelport.wire_map import BodyMap, Paths, Pointer, WireMap, as_paths, get, locate, replaced

from .cases import Case, Suite
from .cassette import Cassette, Interaction
from .outcomes import CheckOutcome
from .replay import Execution, describe_exception, execute
from .wire_edits import View, edit_letter, one_letter_apart, usage_step, view

__all__ = ["MAX_EDITS", "metamorphic_check", "provider_wire_map"]

#: The most replays the check makes for one case.
MAX_EDITS = 7

#: A place in the answer: the document's index (0 for a whole answer, the frame's for a stream)
#: and the pointer in it.
Place = tuple[int, Pointer]
Judge = Callable[[View, View], list[str]]


@dataclass
class _Edit:
    kind: str
    label: str
    documents: list[Any]
    judge: Judge


def provider_wire_map(provider_id: str) -> WireMap | None:
    """The wire map the provider's class declares (``None``: none, or an unknown provider)."""
    try:
        found = getattr(plugins.provider_class(provider_id), "wire_map", None)
    except Exception:
        return None
    return found if isinstance(found, WireMap) else None


def _answer(case: Case) -> tuple[int, list[Any]] | None:
    """The index of the last successful answer of the cassette, and its documents."""
    for index in reversed(range(len(case.cassette.interactions))):
        interaction = case.cassette.interactions[index]
        body = interaction.response.get("body") or {}
        if interaction.status >= 300 or not isinstance(body, dict):
            continue
        if case.is_stream and isinstance(body.get("sse"), list):
            return index, [entry.get("data") for entry in body["sse"]]
        if not case.is_stream and isinstance(body.get("json"), (dict, list)):
            return index, [body["json"]]
    return None


def _with_documents(case: Case, index: int, documents: list[Any]) -> Case:
    interactions = list(case.cassette.interactions)
    old = interactions[index]
    body = dict(old.response["body"])
    if "sse" in body:
        body["sse"] = [
            {**entry, "data": doc} if doc is not entry.get("data") else entry
            for entry, doc in zip(body["sse"], documents, strict=True)
        ]
    else:
        body["json"] = documents[0]
    interactions[index] = Interaction(old.request, {**old.response, "body": body})
    cassette = Cassette(interactions, case.cassette.metadata)
    return dataclasses.replace(case, cassette=cassette)


def _places(paths: Paths, documents: list[Any]) -> Iterator[tuple[Place, Pointer, Any]]:
    for number, document in enumerate(documents):
        if isinstance(document, (dict, list)):
            for pointer, wild in locate(paths, document):
                yield (number, pointer), wild, get(document, pointer)


def _where(place: Place, stream: bool) -> str:
    pointer = "/" + "/".join(str(key) for key in place[1])
    return f"frame {place[0]} {pointer}" if stream else pointer


def _edited(documents: list[Any], changes: dict[Place, Any]) -> list[Any]:
    out = list(documents)
    for (number, pointer), value in changes.items():
        out[number] = replaced(out[number], pointer, value)
    return out


def _covered(body: BodyMap) -> tuple[str, ...]:
    """What ``body`` maps of the decoded values a check compares (``content``, ``usage``,
    ``finish``, ``citations``): only those must stay as they were when another value is edited."""
    kinds = {
        "content": body.text or body.tool_name or body.tool_arguments,
        "usage": body.usage,
        "finish": body.finish_reason,
        "citations": body.citations,
    }
    return tuple(name for name, paths in kinds.items() if paths)


def _unchanged(before: View, after: View, body: BodyMap, *names: str) -> list[str]:
    return [
        f"it also changed the {n}"
        for n in before.others(_covered(body), *names)
        if before.part(n) != after.part(n)
    ]


def _changed_parts(before: View, after: View) -> list[int]:
    if len(before.content) != len(after.content):
        return [-1]
    return [i for i, (a, b) in enumerate(zip(before.content, after.content, strict=True)) if a != b]


# The edits ---------------------------------------------------------------------------------------


def _usage_edit(body: BodyMap, documents: list[Any], stream: bool) -> Iterator[_Edit]:
    changes: dict[Place, Any] = {}
    moves: dict[str, int] = {}
    said: list[str] = []
    for number, count in enumerate(body.counts):
        step = usage_step(number)
        places = [
            (p, v)
            for p, _, v in _places(count.paths, documents)
            if isinstance(v, int) and not isinstance(v, bool)
        ]
        if not places:
            continue
        for place, value in places:
            changes[place] = value + step
        for name in (count.field, *count.also):
            moves[name] = moves.get(name, 0) + step
        said.append(f"{count.field} +{step} at {_where(places[0][0], stream)}")
    if not changes:
        return

    def judge(before: View, after: View) -> list[str]:
        problems = []
        for name in sorted(set(before.usage) | set(moves)):
            old, new = before.usage.get(name), after.usage.get(name)
            want = moves.get(name, 0)
            moved = (new or 0) - (old or 0) if (old, new) != (None, None) else 0
            if moved != want or (want and new is None):
                problems.append(f"usage.{name} moved by {moved:+d}, the map says {want:+d}")
        return problems + _unchanged(before, after, body, "usage")

    yield _Edit("usage", "usage (" + ", ".join(said) + ")", _edited(documents, changes), judge)


def _first_edit(
    paths: Paths, documents: list[Any], make: Callable[[Any], Any]
) -> tuple[Place, Any, Any] | None:
    for place, _, value in _places(paths, documents):
        new = make(value)
        if new is not None:
            return place, value, new
    return None


def _text_like(body: BodyMap, kind: str, field_index: int, label: str) -> Judge:
    def judge(before: View, after: View) -> list[str]:
        changed = _changed_parts(before, after)
        if not changed:
            return [f"{label}: moved nothing the map covers"]
        if len(changed) > 1 or changed[0] < 0:
            return [f"{label}: changed {len(changed)} parts of the content, not one"]
        old, new = before.content[changed[0]], after.content[changed[0]]
        if (kind == "text" and old[0] not in ("text", "reasoning")) or (kind != "text" and old[0] != kind):
            return [f"{label}: changed content[{changed[0]}], a {old[0]} part"]
        same = [i for i in (0, 1, 2, 3) if i != field_index]
        a, b = old[field_index], new[field_index]
        if any(old[i] != new[i] for i in same) or a is None or b is None or not one_letter_apart(a, b):
            return [f"{label}: content[{changed[0]}] became {new!r}, not one letter of it"]
        return _unchanged(before, after, body, "content")

    return judge


def _deep_letter(value: Any) -> Any:
    if isinstance(value, str):
        return edit_letter(value)
    items = (
        list(value.items())
        if isinstance(value, dict)
        else list(enumerate(value))
        if isinstance(value, list)
        else []
    )
    for key, child in items:
        new = _deep_letter(child)
        if new is not None:
            return replaced(value, (key,), new)
    return None


def _arguments_letter(value: Any) -> Any:
    return edit_letter(value, json_text=True) if isinstance(value, str) else _deep_letter(value)


def _letter_edits(body: BodyMap, documents: list[Any], stream: bool) -> Iterator[_Edit]:
    kinds = (
        ("text", body.text, "text", 1, lambda v: edit_letter(v) if isinstance(v, str) else None),
        (
            "tool name",
            body.tool_name,
            "tool-call",
            2,
            lambda v: edit_letter(v) if isinstance(v, str) else None,
        ),
        ("tool arguments", body.tool_arguments, "tool-call", 3, _arguments_letter),
    )
    for label, paths, kind, field_index, make in kinds:
        found = _first_edit(paths, documents, make)
        if found is not None:
            place, _, new = found
            text = f"{label} at {_where(place, stream)}"
            yield _Edit(
                label, text, _edited(documents, {place: new}), _text_like(body, kind, field_index, text)
            )


def _finish_edit(
    wire: WireMap, body: BodyMap, documents: list[Any], stream: bool, before: View
) -> Iterator[_Edit]:
    table = wire.finish_reasons
    places = [
        (p, v) for p, _, v in _places(body.finish_reason, documents) if isinstance(v, str) and v in table
    ]
    if not places:
        return
    current = places[-1][1]
    if before.finish_reason != table[current]:
        return  # the answer's reason is not the raw value's alone here (a refusal, calls after STOP)
    target = next((raw for raw, reason in table.items() if reason != table[current]), None)
    if target is None:
        return
    label = f"finish reason {current!r} → {target!r} at {_where(places[-1][0], stream)}"

    def judge(before: View, after: View) -> list[str]:
        problems = []
        wanted = (
            {table[target], "tool-calls"}
            if table[target] == "stop" and after.tool_calls()
            else {table[target]}
        )
        if after.finish_reason not in wanted:
            problems.append(
                f"{label}: finish_reason is {after.finish_reason!r}, the map says {table[target]!r}"
            )
        if before.raw_finish_reason == current and after.raw_finish_reason != target:
            problems.append(f"{label}: raw_finish_reason is {after.raw_finish_reason!r}, not {target!r}")
        return problems + _unchanged(before, after, body, "finish")

    yield _Edit(
        "finish reason", label, _edited(documents, dict.fromkeys((p for p, _ in places), target)), judge
    )


def _bases(view_: View, units: str) -> set[int]:
    """Where each text part starts in the answer's text, in the map's units."""
    bases, at = {0}, 0
    for kind, text, _, _ in view_.content:
        if kind == "text" and text is not None:
            at += len(text.encode()) if units == "utf8-bytes" else len(text)
            bases.add(at)
    return bases


def _citation_judge(body: BodyMap, label: str, which: int, raw: int, step: int, units: str) -> Judge:
    def judge(before: View, after: View) -> list[str]:
        if len(before.citations) != len(after.citations):
            return [f"{label}: the answer has {len(after.citations)} citations, not {len(before.citations)}"]
        pairs = enumerate(zip(before.citations, after.citations, strict=True))
        changed = [i for i, (a, b) in pairs if a != b]
        if len(changed) != 1:
            return [f"{label}: moved {len(changed)} citations, not one"]
        old, new = before.citations[changed[0]], after.citations[changed[0]]
        ends_old, ends_new = (old[0], old[1]), (new[0], new[1])
        other = 1 - which
        if (
            ends_old[other] != ends_new[other]
            or old[2] != new[2]
            or ends_new[which] - ends_old[which] != step
        ):
            return [f"{label}: citation {ends_old} became {ends_new}, not its offset moved by {step:+d}"]
        offset = ends_new[which]
        if units == "utf8-bytes":
            span = after.byte_starts.get((new[0], new[1]))
            if span is None:
                return []
            offset = span[which]
        if offset - raw not in _bases(after, units):
            return [
                f"{label}: the decoded offset is {offset}, not the wire's {raw} from the start of a text part"
            ]
        return _unchanged(before, after, body, "citations")

    return judge


def _citation_edits(wire: WireMap, body: BodyMap, documents: list[Any], stream: bool) -> Iterator[_Edit]:
    for span in body.spans:
        ends = {(p[0], wild): (p, v) for p, wild, v in _places((span.end,), documents)}
        for place, wild, start in _places((span.start,), documents):
            end_place, end = ends.get((place[0], wild), (None, None))
            if not isinstance(start, int) or not isinstance(end, int) or end_place is None or end - start < 2:
                continue
            for which, at, value, step in ((0, place, start, 1), (1, end_place, end, -1)):
                label = f"citation {('start', 'end')[which]} {value} → {value + step} at {_where(at, stream)}"
                judge = _citation_judge(body, label, which, value + step, step, wire.citation_units)
                yield _Edit(
                    f"citation {('start', 'end')[which]}",
                    label,
                    _edited(documents, {at: value + step}),
                    judge,
                )
            return


def _unlocated(body: BodyMap, documents: list[Any], before: View, stream: bool) -> list[str]:
    """What the answer decoded to that the map names a place for, yet locates nowhere in it: a
    wrong path edits nothing, so it is found here."""
    where = "any frame" if stream else "the answer"

    def found(paths: Paths) -> bool:
        return next(_places(paths, documents), None) is not None

    wanted = [
        ("text", body.text, any(kind == "text" and text for kind, text, _, _ in before.content)),
        ("tool name", body.tool_name, before.function_calls > 0),
        ("tool arguments", body.tool_arguments, before.function_calls > 0),
        # A content filter's raw reason may come from elsewhere (Gemini's blocked prompt).
        (
            "finish reason",
            body.finish_reason,
            before.raw_finish_reason and before.finish_reason != "content-filter",
        ),
        ("citation", tuple(s.start for s in body.spans), bool(before.citations)),
    ]
    problems = [
        f"the result has a {name}, but the map's {', '.join(as_paths(paths))} locates none in {where}"
        for name, paths, present in wanted
        if paths and present and not found(paths)
    ]
    for count in body.counts:
        others = [c for c in body.counts if count.field in (c.field, *c.also)]
        if before.usage.get(count.field) is not None and not any(found(c.paths) for c in others):
            problems.append(
                f"usage.{count.field} is {before.usage[count.field]}, but the map locates no count of it"
            )
    return list(dict.fromkeys(problems))


def _edits(wire: WireMap, case: Case, documents: list[Any], before: View) -> list[_Edit]:
    stream = case.is_stream
    body = wire.stream if stream else wire.response
    if case.request.get("response_format") not in (None, "text"):
        # A forced answer tool (Anthropic's structured output) is answered as text, not as a call.
        body = dataclasses.replace(body, tool_name=(), tool_arguments=())
    edits = [
        *_usage_edit(body, documents, stream),
        *_letter_edits(body, documents, stream),
        *_finish_edit(wire, body, documents, stream, before),
        *_citation_edits(wire, body, documents, stream),
    ]
    return edits[:MAX_EDITS]


def _decoded(run: Execution) -> View | None:
    if run.result is not None:
        return view(run.result)
    return view(accumulate(run.events)) if run.events else None


def metamorphic_check(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    """The ``metamorphic`` check of one replay (see the module)."""
    wire = provider_wire_map(suite.provider_id)
    if wire is None:
        return CheckOutcome("metamorphic", "skip", "the provider declares no wire_map")
    if case.method not in ("generate", "stream"):
        return CheckOutcome("metamorphic", "skip", f"a {case.method} case")
    before = _decoded(run)
    if run.error is not None or before is None:
        return CheckOutcome("metamorphic", "skip", "the call ended in an error")
    answer = _answer(case)
    if answer is None:
        return CheckOutcome("metamorphic", "skip", "the cassette holds no answer to edit")
    body = wire.stream if case.is_stream else wire.response
    structured = case.request.get("response_format") not in (None, "text")
    problems = [] if structured else _unlocated(body, answer[1], before, case.is_stream)
    edits = _edits(wire, case, answer[1], before)
    if not edits and not problems:
        return CheckOutcome("metamorphic", "skip", "the wire map locates nothing to edit in the answer")
    problems += _replay_edits(suite, case, answer[0], edits, before)
    status = "fail" if problems else "pass"
    kinds = ", ".join(dict.fromkeys(edit.kind for edit in edits))
    return CheckOutcome(
        "metamorphic", status, "\n".join(problems) if problems else f"moved as mapped: {kinds}"
    )


def _replay_edits(suite: Suite, case: Case, index: int, edits: list[_Edit], before: View) -> list[str]:
    problems: list[str] = []
    for edit in edits:
        again = execute(suite, _with_documents(case, index, edit.documents))
        after = _decoded(again)
        if again.error is not None:
            problems.append(f"{edit.label}: the edited answer raised {describe_exception(again.error)}")
        elif after is None:
            problems.append(f"{edit.label}: the edited answer decoded to nothing")
        else:
            found = edit.judge(before, after)
            problems += [p if p.startswith(edit.label) else f"{edit.label}: {p}" for p in found]
    return problems
