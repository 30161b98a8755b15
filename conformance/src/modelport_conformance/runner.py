"""Running a case: replay its cassette through the provider, compare, and check the invariants.

Every case gets these checks, each ``pass``, ``fail`` or ``skip`` with a message:

- ``credentials``: no file of the case contains anything that looks like a credential;
- ``request``: every request matched a recorded interaction (JSON bodies structurally), each
  interaction was played exactly once;
- ``expected``: the canonical output equals ``expected.json``;
- ``invariants``: usage non-negative, JSON round-trip, provider-executed parts marked, and for
  streams, well-formedness (K4);
- ``chunked``: streams decode identically when the body arrives 1 and 7 bytes at a time;
- ``merged``: the accumulated stream equals the non-streaming decode of the frames merged by the
  suite's ``merge_frames`` (skipped when the plugin gives none);
- ``async``: the async API (``agenerate``/``astream``/``aembed``, body in 7-byte chunks) gives the
  same output and requests (skipped when the provider implements no async method).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

import modelport
from modelport.events import StreamEvent, accumulate
from modelport.types import EmbeddingResult, Result

from . import invariants
from .cases import Case, Suite, unsupported_reason
from .credentials import redact, scan_text
from .jsondiff import diff_json, format_differences
from .player import CassettePlayer

__all__ = [
    "CHUNK_SIZES",
    "REPLAY_API_KEY",
    "CaseOutcome",
    "CheckOutcome",
    "Execution",
    "call_case",
    "describe_error",
    "execute",
    "run_case",
    "scan_case",
]

#: The key given to providers during replay: obviously fake, never a credential pattern.
REPLAY_API_KEY = "conformance-replay-key"
#: Chunk sizes the stream body is replayed in.
CHUNK_SIZES = (1, 7)


@dataclass
class CheckOutcome:
    """One check of one case."""

    name: str
    status: str
    message: str = ""


@dataclass
class CaseOutcome:
    """Everything known about one case after running it."""

    provider_id: str
    case: str
    method: str
    status: str
    checks: list[CheckOutcome] = field(default_factory=list)
    requirements: list[str] = field(default_factory=list)
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping."""
        return {
            "case": self.case,
            "method": self.method,
            "status": self.status,
            "requirements": list(self.requirements),
            "message": self.message,
            "checks": [{"name": c.name, "status": c.status, "message": c.message} for c in self.checks],
        }


@dataclass
class Execution:
    """What one replay produced."""

    output: dict[str, Any]
    player: CassettePlayer
    result: Result | None = None
    events: list[StreamEvent] = field(default_factory=list)
    embedding: EmbeddingResult | None = None
    error: BaseException | None = None


def _dump(value: Any) -> Any:
    return value.model_dump(mode="json", exclude_none=True)


def describe_error(error: BaseException) -> dict[str, Any]:
    """The canonical form of an error: its class and the typed fields a caller relies on."""
    described: dict[str, Any] = {"type": type(error).__name__}
    if isinstance(error, modelport.ProviderError):
        for name in ("status_code", "provider_status", "retry_after"):
            value = getattr(error, name, None)
            if value is not None:
                described[name] = value
        described["retryable"] = bool(getattr(error, "retryable", False))
    else:
        described["message"] = str(error)
    return described


def _model(suite: Suite, case: Case, transport: httpx.MockTransport) -> modelport.Model:
    options: dict[str, Any] = {"api_key": REPLAY_API_KEY, **suite.options, **case.config}
    return modelport.get_model(
        f"{suite.provider_id}/{case.model}", transport=transport, max_retries=0, **options
    )


def execute(suite: Suite, case: Case, *, chunk_size: int | None = None) -> Execution:
    """Replay ``case`` through the provider and capture its canonical output (never raises)."""
    player = CassettePlayer(case.cassette, chunk_size=chunk_size)
    run = Execution(output={}, player=player)
    try:
        model = _model(suite, case, player.transport)
        try:
            call_case(model, case, run)
        finally:
            model.close()
    except Exception as error:  # the adapter's failure is a finding, reported by the checks
        run.error = error
        if run.events:
            run.output = {"events": [_dump(e) for e in run.events]}
        run.output["error"] = describe_error(error)
    return run


def call_case(model: modelport.Model, case: Case, run: Execution) -> None:
    """Make the case's call on ``model``, filling ``run`` (events are kept as they arrive)."""
    if case.method == "generate":
        run.result = model.generate(**case.request)
        run.output = {"result": _dump(run.result)}
    elif case.method == "stream":
        for event in model.stream(**case.request):
            run.events.append(event)
        run.output = {"events": [_dump(e) for e in run.events]}
    else:
        keywords = dict(case.request)
        values = keywords.pop("values")
        run.embedding = model.embed(values, **keywords)
        run.output = {"embedding": _dump(run.embedding)}


async def _acall_case(model: modelport.Model, case: Case, run: Execution) -> None:
    if case.method == "generate":
        run.result = await model.agenerate(**case.request)
        run.output = {"result": _dump(run.result)}
    elif case.method == "stream":
        async for event in model.astream(**case.request):
            run.events.append(event)
        run.output = {"events": [_dump(e) for e in run.events]}
    else:
        keywords = dict(case.request)
        values = keywords.pop("values")
        run.embedding = await model.aembed(values, **keywords)
        run.output = {"embedding": _dump(run.embedding)}


async def _aexecute(suite: Suite, case: Case) -> Execution:
    player = CassettePlayer(case.cassette, chunk_size=7)
    run = Execution(output={}, player=player)
    try:
        model = _model(suite, case, player.transport)
        try:
            await _acall_case(model, case, run)
        finally:
            await model.aclose()
    except Exception as error:
        run.error = error
        if run.events:
            run.output = {"events": [_dump(e) for e in run.events]}
        run.output["error"] = describe_error(error)
    return run


_ASYNC_METHODS = {"generate": "agenerate", "stream": "astream", "embed": "aembed"}


def _async_parity(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    from modelport._registry import registry

    provider = registry().provider_class(suite.provider_id)
    name = _ASYNC_METHODS[case.method]
    if getattr(provider, name) is getattr(modelport.Provider, name):
        return CheckOutcome("async", "skip", f"the provider has no {name} of its own")
    again = asyncio.run(_aexecute(suite, case))
    problems = again.player.problems()
    differences = diff_json(run.output, again.output)
    if differences:
        problems.append("the async API gives a different output:\n" + format_differences(differences))
    return _check("async", problems)


def _check(name: str, problems: list[str]) -> CheckOutcome:
    return CheckOutcome(name, "fail" if problems else "pass", "\n".join(problems))


def _expected_check(case: Case, run: Execution, regenerate: bool) -> CheckOutcome:
    if regenerate:
        target = case.location / "expected.json"
        if not hasattr(target, "write_text"):
            return CheckOutcome(
                "expected", "fail", f"cannot write {target}: the cases are not in a directory"
            )
        text = json.dumps(run.output, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
        target.write_text(text, encoding="utf-8")
        case.expected = run.output
        return CheckOutcome("expected", "pass", f"regenerated {target}")
    if case.expected is None:
        return CheckOutcome("expected", "fail", "no expected.json: replay with --regenerate, review, commit")
    differences = diff_json(case.expected, run.output)
    if not differences:
        return CheckOutcome("expected", "pass")
    return CheckOutcome(
        "expected", "fail", "output differs from expected.json:\n" + format_differences(differences)
    )


def _invariants(case: Case, run: Execution) -> CheckOutcome:
    problems: list[str] = []
    problems += invariants.check_usage(run.result, run.events, run.embedding)
    values: list[Any] = [v for v in (run.result, run.embedding) if v is not None] + list(run.events)
    problems += invariants.check_round_trip(values)
    if case.is_stream and (run.events or run.error is None):
        problems += invariants.check_stream_well_formed(run.events, finished=run.error is None)
    content = run.result.content if run.result else (accumulate(run.events).content if run.events else [])
    problems += invariants.check_provider_executed(content, case.request)
    return _check("invariants", problems)


def _chunked(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    if not case.is_stream:
        return CheckOutcome("chunked", "skip", "not a stream")
    problems = []
    for size in CHUNK_SIZES:
        again = execute(suite, case, chunk_size=size)
        differences = diff_json(run.output, again.output)
        if differences:
            problems.append(f"{size}-byte chunks decode differently:\n" + format_differences(differences))
    return _check("chunked", problems)


def _stream_frames(case: Case) -> list[Any] | None:
    streams = [i for i in case.cassette.interactions if "sse" in (i.response.get("body") or {})]
    if len(streams) != 1:
        return None
    entries = streams[0].response["body"]["sse"]
    return [e["data"] for e in entries if isinstance(e.get("data"), (dict, list))]


def _merged(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    if not case.is_stream:
        return CheckOutcome("merged", "skip", "not a stream")
    merge: Callable[[list[Any]], Any] | None = suite.merge_frames
    if merge is None:
        return CheckOutcome("merged", "skip", "the suite registers no merge_frames")
    frames = _stream_frames(case)
    if run.error is not None or frames is None:
        return CheckOutcome("merged", "skip", "the stream ended in an error or has no single SSE body")
    body = merge(frames)
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=body))
    try:
        model = _model(suite, case, transport)
        try:
            direct = model.generate(**case.request)
        finally:
            model.close()
    except Exception as error:
        return CheckOutcome(
            "merged", "fail", f"decoding the merged frames raised {type(error).__name__}: {error}"
        )
    differences = diff_json(_dump(direct), _dump(accumulate(run.events)), "$.result")
    if not differences:
        return CheckOutcome("merged", "pass")
    return CheckOutcome(
        "merged",
        "fail",
        "accumulated stream (got) differs from the merged-frames decode (expected):\n"
        + format_differences(differences),
    )


def scan_case(case: Case) -> CheckOutcome:
    """The credential scan of every file of the case."""
    problems = [
        finding.describe(f"{case.name}/{name}")
        for name, text in sorted(case.files.items())
        for finding in scan_text(text)
    ]
    return _check("credentials", problems)


def run_case(suite: Suite, case: Case, *, regenerate: bool = False) -> CaseOutcome:
    """Run every check of one case."""
    outcome = CaseOutcome(
        suite.provider_id, case.name, case.method, "pass", requirements=list(case.requirements)
    )
    reason = unsupported_reason(case, suite.unsupported)
    if reason is not None:
        outcome.status, outcome.message = "skip", f"declared unsupported: {reason}"
        return outcome
    checks = [scan_case(case)]
    if checks[0].status == "fail":
        # A cassette holding a credential is not replayed: nothing of it may reach a report.
        outcome.status, outcome.checks = "fail", checks
        outcome.message = f"[credentials] {checks[0].message}"
        return outcome
    run = execute(suite, case)
    problems = run.player.problems()
    if problems and run.error is not None and not run.player.mismatches:
        problems.append(f"the call raised {type(run.error).__name__}: {run.error}")
    checks.append(_check("request", problems))
    if problems:
        # The output of a mismatched replay means nothing; the request diff is the finding.
        checks.append(CheckOutcome("expected", "skip", "request mapping failed"))
    else:
        checks.append(_expected_check(case, run, regenerate))
        checks.append(_invariants(case, run))
        checks.append(_chunked(suite, case, run))
        checks.append(_merged(suite, case, run))
        checks.append(_async_parity(suite, case, run))
    outcome.checks = checks
    failed = [c for c in checks if c.status == "fail"]
    if failed:
        outcome.status = "fail"
        for check in failed:
            check.message = redact(check.message)
        outcome.message = "\n".join(f"[{c.name}] {c.message}" for c in failed)
    return outcome
