"""Golden-independent invariants (K4): checks that hold for every case, whatever the expected file says.

Each function returns a list of readable problems (empty when the invariant holds).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from modelport.citations import cited_spans
from modelport.errors import (
    ProviderError,
    ProviderQuotaError,
    ProviderRateLimitError,
    StreamInterruptedError,
)
from modelport.events import (
    FinishEvent,
    ReasoningDeltaEvent,
    ReasoningEndEvent,
    ReasoningStartEvent,
    StreamAccumulator,
    StreamEvent,
    StreamStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    accumulate,
    parse_event,
)
from modelport.http import ERROR_TYPES, error_class, error_message, own_status
from modelport.types import EmbeddingResult, Message, Result, ToolCallPart, ToolResultPart, Usage

from .batch_replay import BatchRun

__all__ = [
    "check_citations",
    "check_error_provider",
    "check_error_status",
    "check_origin",
    "check_provider_executed",
    "check_round_trip",
    "check_stream_error",
    "check_stream_usage",
    "check_stream_well_formed",
    "check_usage",
    "check_warnings",
    "check_whole_tool_calls",
    "stream_error_object",
]

_STARTS = {TextStartEvent: "text", ReasoningStartEvent: "reasoning"}
_DELTAS = {TextDeltaEvent: "text", ReasoningDeltaEvent: "reasoning"}
_ENDS = {TextEndEvent: "text", ReasoningEndEvent: "reasoning"}


def check_stream_well_formed(events: Sequence[StreamEvent], *, finished: bool = True) -> list[str]:
    """stream-start first; every start has its end with the same id; one finish, last.

    ``finished=False`` (the stream ended in a provider error) only checks what arrived.
    """
    problems: list[str] = []
    if not events or not isinstance(events[0], StreamStartEvent):
        problems.append("the stream does not begin with a stream-start event")
    open_parts: dict[str, str] = {}
    closed: set[str] = set()
    finishes = [i for i, e in enumerate(events) if isinstance(e, FinishEvent)]
    for index, event in enumerate(events):
        kind = type(event)
        if kind in _STARTS:
            ident = event.id  # type: ignore[union-attr]
            if ident in open_parts or ident in closed:
                problems.append(f"event {index}: {event.type} reuses id {ident!r}")
            open_parts[ident] = _STARTS[kind]
        elif kind in _DELTAS or kind in _ENDS:
            ident = event.id  # type: ignore[union-attr]
            want: str = _DELTAS.get(kind) or _ENDS[kind]
            if open_parts.get(ident) != want:
                problems.append(f"event {index}: {event.type} for id {ident!r} without an open {want}-start")
            elif kind in _ENDS:
                del open_parts[ident]
                closed.add(ident)
        elif isinstance(event, StreamStartEvent) and index:
            problems.append(f"event {index}: a second stream-start")
    if finished:
        if len(finishes) != 1:
            problems.append(f"expected exactly one finish event, got {len(finishes)}")
        elif finishes[0] != len(events) - 1:
            problems.append(f"the finish event is at position {finishes[0]}, not last ({len(events) - 1})")
        for ident, part_kind in open_parts.items():
            problems.append(f"{part_kind}-start {ident!r} has no {part_kind}-end")
    elif finishes:
        problems.append("a stream that failed must not have sent a finish event")
    return problems


#: The parts of each whole, as the contract defines them (docs/usage.md).
USAGE_SUBSETS = (
    (("cache_read_input_tokens", "cache_write_input_tokens"), "input_tokens"),
    (("tool_use_prompt_tokens",), "input_tokens"),
    (("reasoning_tokens",), "output_tokens"),
)


#: What each whole counts, said where a part exceeds it (docs/usage.md: a provider whose billed
#: input leaves the cache out adds the cached tokens to ``input_tokens``).
_WHOLE = {
    "input_tokens": "input_tokens is every input token, cached ones included (docs/usage.md)",
    "output_tokens": "output_tokens is every output token, reasoning included (docs/usage.md)",
}


def _usage_problems(usage: Usage, where: str) -> list[str]:
    counts = usage.model_dump(exclude={"cached_input_tokens"})
    problems = [
        f"{where}.{name} is negative ({value})"
        for name, value in counts.items()
        if isinstance(value, int) and value < 0
    ]
    for parts, whole in USAGE_SUBSETS:
        reported = {name: counts[name] for name in parts if counts.get(name) is not None}
        if reported and counts.get(whole) is not None and sum(reported.values()) > counts[whole]:
            named = " + ".join(f"{name} ({value})" for name, value in reported.items())
            problems.append(
                f"{where}: {named} exceeds {whole} ({counts[whole]}), which includes it; {_WHOLE[whole]}"
            )
    given, produced, total = usage.input_tokens, usage.output_tokens, usage.total_tokens
    if given is not None and produced is not None and total is not None and given + produced != total:
        problems.append(
            f"{where}.total_tokens ({total}) is not input_tokens + output_tokens ({given} + {produced})"
        )
    return problems


def check_usage(
    result: Result | None = None, events: Iterable[StreamEvent] = (), embedding: EmbeddingResult | None = None
) -> list[str]:
    """Every token count is absent or non-negative, and the counts relate as the contract says:
    cache reads + cache writes, and tool-use prompts, within ``input_tokens``; reasoning within
    ``output_tokens``; ``total_tokens`` = input + output when all three are reported."""
    problems: list[str] = []
    if result is not None:
        problems += _usage_problems(result.usage, "result.usage")
    for index, event in enumerate(events):
        if isinstance(event, FinishEvent):
            problems += _usage_problems(event.usage, f"events[{index}].usage")
    if embedding is not None:
        problems += _usage_problems(embedding.usage, "embedding.usage")
    return problems


def check_stream_usage(
    streamed: Usage, decoded: Usage, whole: str = "the same answer decoded whole"
) -> list[str]:
    """The usage of a streamed answer equals that of the same answer decoded whole, count by count
    (``whole`` names where that answer came from, in the messages)."""
    got = streamed.model_dump(exclude={"cached_input_tokens"})
    want = decoded.model_dump(exclude={"cached_input_tokens"})
    return [
        f"usage.{name} of the stream is {got[name]}, of {whole} {want[name]}"
        for name in want
        if got[name] != want[name]
    ]


def check_round_trip(values: Iterable[Any]) -> list[str]:
    """Every result and event equals itself after ``model_dump_json`` → ``model_validate_json`` (C5)."""
    problems: list[str] = []
    for value in values:
        text = value.model_dump_json()
        try:
            again = (
                parse_event(text)
                if not isinstance(value, (Result, EmbeddingResult))
                else type(value).model_validate_json(text)
            )
        except ValueError as error:
            problems.append(f"{type(value).__name__} does not validate from its own JSON: {error}")
            continue
        if again != value:
            problems.append(f"{type(value).__name__} changes through JSON: {text[:200]}")
    return problems


def check_provider_executed(content: Sequence[Any], request: dict[str, Any]) -> list[str]:
    """Calls of the request's provider tools are marked ``provider_executed``; function calls are not."""
    tools = request.get("tools") or []
    provider_names = {
        t.get("name") or str(t.get("id", "")).split(".", 1)[-1] for t in tools if t.get("type") == "provider"
    }
    function_names = {t.get("name") for t in tools if t.get("type", "function") == "function"}
    executed_calls = {p.id for p in content if isinstance(p, ToolCallPart) and p.provider_executed}
    problems: list[str] = []
    for index, part in enumerate(content):
        if not isinstance(part, (ToolCallPart, ToolResultPart)):
            continue
        where = f"content[{index}] ({part.type} {part.name!r})"
        if part.name in provider_names and not part.provider_executed:
            problems.append(f"{where} comes from a provider tool but is not marked provider_executed")
        if part.name in function_names and part.name not in provider_names and part.provider_executed:
            problems.append(f"{where} is a function tool the application runs, yet marked provider_executed")
        if isinstance(part, ToolResultPart) and part.provider_executed and part.call_id not in executed_calls:
            problems.append(f"{where} answers call {part.call_id!r}, which is no provider-executed call")
    return problems


def check_whole_tool_calls(events: Sequence[StreamEvent]) -> list[str]:
    """Every ``tool-call-end`` carries ``part``, the call its start and deltas give (assembled by a
    fresh accumulator, as the core assembles it), which is also the call in the accumulated result."""
    problems: list[str] = []
    opened: dict[str, tuple[ToolCallStartEvent, list[ToolCallDeltaEvent]]] = {}
    for index, event in enumerate(events):
        if isinstance(event, ToolCallStartEvent):
            opened[event.id] = (event, [])
        elif isinstance(event, ToolCallDeltaEvent) and event.id in opened:
            opened[event.id][1].append(event)
        elif isinstance(event, ToolCallEndEvent):
            where = f"event {index}: tool-call-end {event.id!r}"
            if event.part is None:
                problems.append(f"{where} carries no part (the whole call)")
                continue
            if event.id not in opened:
                continue  # reported by the well-formedness check
            start, deltas = opened.pop(event.id)
            alone = StreamAccumulator()
            alone.add(start)
            for delta in deltas:
                alone.add(delta)
            built = alone.add(event.model_copy(update={"part": None}))
            assert isinstance(built, ToolCallEndEvent)
            if event.part != built.part:
                given, assembled = _short(event.part), _short(built.part)
                problems.append(f"{where} carries {given}, but its start and deltas give {assembled}")
    if not problems and any(isinstance(e, ToolCallEndEvent) for e in events):
        calls = [p for p in accumulate(events).content if p.type == "tool-call"]
        for event in events:
            if isinstance(event, ToolCallEndEvent) and event.part not in calls:
                problems.append(f"tool-call-end {event.id!r}: its part is not in the accumulated result")
    return problems


def _short(part: Any) -> str:
    return str(part.model_dump_json(exclude_defaults=True))[:300]


def stream_error_object(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The error object a recorded SSE body carries (a ``data:`` frame with an ``error`` object, an
    ``event: error``, a bare JSON error body, or a frame whose ``response`` envelope carries one, as
    a Responses ``response.failed`` does), else ``None``."""
    for entry in entries:
        data = entry.get("data") if "data" in entry else entry.get("raw")
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                continue
        if isinstance(data, list) and len(data) == 1:
            data = data[0]
        if not isinstance(data, dict):
            continue
        if isinstance(data.get("error"), dict) or entry.get("event") == "error":
            found = error_message(json.dumps(data))[2]
            return found if isinstance(found, dict) else data
        envelope = data.get("response")
        if isinstance(envelope, dict) and isinstance(envelope.get("error"), dict):
            return dict(envelope["error"])
    return None


def check_stream_error(
    error: BaseException, error_object: Mapping[str, Any] | None, events: Sequence[StreamEvent]
) -> list[str]:
    """A stream that ended in an error maps per the documented table (docs/errors.md).

    With an error object in the body: the class :func:`modelport.http.error_class` gives for its own
    status and its type strings (a 429 may be a quota error), ``status_code`` that status or ``None``,
    never an invented one. Without one (the transport broke or the body was cut): no status, and not
    a class of the type table. Either way ``partial`` is set once an event had arrived.
    """
    if not isinstance(error, ProviderError):
        return []
    problems: list[str] = []
    name = type(error).__name__
    if error_object is not None:
        status = own_status(error_object)
        kinds = [error_object.get(key) for key in ("status", "type", "code")]
        expected = error_class(status, kinds)
        allowed = {expected, ProviderQuotaError} if expected is ProviderRateLimitError else {expected}
        if type(error) not in allowed:
            wanted = " or ".join(sorted(c.__name__ for c in allowed))
            problems.append(f"the stream's error object maps to {wanted}, but {name} was raised")
        if error.status_code != status:
            problems.append(f"status_code is {error.status_code}, but the error object carries {status}")
    elif type(error) in {*ERROR_TYPES.values(), ProviderError}:
        problems.append(f"{name} says the provider reported an error, but the stream carried no error object")
    elif isinstance(error, StreamInterruptedError) and error.status_code is not None:
        problems.append(f"StreamInterruptedError with status {error.status_code}: a broken stream has none")
    if len(events) > 1 and error.partial is None:
        problems.append(f"{name} has no partial, though {len(events)} events had arrived")
    return problems


def check_origin(result: Result | None, provider_id: str, model: str) -> list[str]:
    """The result says where it came from: its ``origin`` names the provider and model called, and
    ``Result.message`` carries that origin through JSON, so the reasoning replay policy can send the
    turn back exactly to the same model and drop its opaque state anywhere else (C5)."""
    if result is None:
        return []
    origin = result.origin
    if origin is None:
        return ["the result has no origin (the core stamps it; a plugin that sets one must not clear it)"]
    problems: list[str] = []
    if (origin.provider, origin.model) != (provider_id, model):
        problems.append(
            f"the result's origin is {origin.provider}/{origin.model}, but {provider_id}/{model} was called"
        )
    again = Message.model_validate_json(result.message.model_dump_json())
    if again.origin != origin:
        problems.append(f"Result.message's origin changes through JSON: {again.origin!r} != {origin!r}")
    return problems


def check_error_provider(error: BaseException | None, provider_id: str) -> list[str]:
    """A provider's error names the provider called (``ProviderError.provider``), as its result's
    origin does: an error read with its fields swapped or from another provider's table is caught
    without the golden, which pins only the type and status."""
    if not isinstance(error, ProviderError) or error.provider == provider_id:
        return []
    return [f"{type(error).__name__}.provider is {error.provider!r}, but {provider_id!r} was called"]


def check_error_status(error: BaseException | None, answered: int | None) -> list[str]:
    """A provider's error read from an HTTP error answer carries that answer's status: ``answered``
    is the status of the last recorded answer the call was given. An off-by-one, a status read from
    the wrong place or dropped is caught without the golden."""
    if not isinstance(error, ProviderError) or isinstance(error, StreamInterruptedError):
        return []
    if answered is None or answered < 400 or error.status_code == answered:
        return []
    name = type(error).__name__
    return [f"{name}.status_code is {error.status_code}, but the answer recorded was {answered}"]


def check_warnings(result: Result | None, events: Sequence[StreamEvent]) -> list[str]:
    """Each warning names what it is about: its ``setting`` is a name or path (``prompt_cache.key``,
    ``groundingSupports[7]``), never a sentence, and it says why in ``details``. A warning built
    with the two swapped reads as a name that is a sentence."""
    warnings = result.warnings if result is not None else accumulate(events).warnings if events else []
    problems: list[str] = []
    for index, warning in enumerate(warnings):
        setting = warning.setting
        if setting is not None and (not setting.strip() or any(c.isspace() for c in setting)):
            problems.append(
                f"warning {index + 1} ({warning.type}): its setting {setting!r} is no name "
                f"(details {warning.details!r}: setting and details swapped?)"
            )
    return problems


def check_batch(batch: BatchRun | None, provider_id: str, model: str) -> list[str]:
    """A batch job's counts are non-negative with their parts within ``total``, and it does not end
    before it was created; its results, when read, are one per request, in the order given, each
    with sane usage, a JSON round trip and (an answer) its origin, as a single call's; and for a job
    that succeeded, as many succeeded and failed items as its counts say."""
    if batch is None or batch.job is None:
        return []
    job, problems = batch.job, []
    created, ended = job.created_at, job.ended_at
    if created and ended and (created.tzinfo is None) == (ended.tzinfo is None) and ended < created:
        problems.append(f"job.ended_at {ended.isoformat()} is before job.created_at {created.isoformat()}")
    counts = job.counts.model_dump()
    problems += [f"job.counts.{name} is negative ({value})" for name, value in counts.items() if value < 0]
    parts = sum(value for name, value in counts.items() if name != "total")
    if counts["total"] and parts > counts["total"]:
        problems.append(f"job.counts: the parts sum to {parts}, past total ({counts['total']})")
    if batch.items is None:
        return problems
    wanted = [saved.custom_id for saved in job.requests]
    got = [item.custom_id for item in batch.items]
    if wanted and got != wanted:
        problems.append(f"results are for {got}, but the requests were {wanted} (one each, in order)")
    for item in batch.items:
        if item.result is not None:
            where = f"results[{item.custom_id!r}]"
            result = item.result
            usage = (
                check_usage(embedding=result) if isinstance(result, EmbeddingResult) else check_usage(result)
            )
            if isinstance(result, Result):
                usage += check_origin(result, provider_id, model)
            problems += [f"{where}: {p}" for p in usage]
            problems += [f"{where}: {p}" for p in check_round_trip([result])]
    if job.status == "succeeded":
        ok = sum(item.result is not None for item in batch.items)
        for label, seen, said in (
            ("succeeded", ok, job.counts.succeeded),
            ("failed", len(got) - ok, job.counts.failed),
        ):
            if said != seen:
                problems.append(f"job.counts.{label} is {said}, but {seen} results {label}")
    return problems


def check_citations(result: Result | None, events: Sequence[StreamEvent]) -> list[str]:
    """Citations are spans of the answer's text (character and UTF-8 byte offsets selecting the same
    words), every source a citation names is listed once, and a stream's events carry the same
    sources and citations as its result (a grounded answer reads the same streamed or not)."""
    if result is None:
        if not events:
            return []
        result = accumulate(events)
    problems: list[str] = []
    text = result.text
    numbers = [source.number for source in result.sources]
    if len(set(numbers)) != len(numbers):
        problems.append(f"source numbers are listed more than once: {numbers}")
    for citation in result.citations:
        where = f"citation [{citation.start}, {citation.end})"
        if citation.end > len(text):
            problems.append(f"{where} ends past the text of {len(text)} characters")
        if missing := [n for n in citation.sources if n not in numbers]:
            problems.append(f"{where} cites sources {missing} that are not listed")
    raw = text.encode()
    for span in cited_spans(result):
        if raw[span.byte_start : span.byte_end].decode(errors="replace") != span.text:
            problems.append(f"citation [{span.start}, {span.end}): its byte offsets select other text")
    if events:
        streamed = accumulate(events)
        if (streamed.sources, streamed.citations) != (result.sources, result.citations):
            problems.append("the stream's events carry other sources or citations than its result")
    return problems
