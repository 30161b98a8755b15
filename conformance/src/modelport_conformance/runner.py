"""Running a case: replay its cassette through the provider, compare, and check the invariants.

Every case gets these checks, each ``pass``, ``fail`` or ``skip`` with a message:

- ``credentials``: no file of the case contains anything that looks like a credential (the
  built-in shapes plus the suite's ``secret_patterns``);
- ``request``: every request matched a recorded interaction (JSON bodies structurally, credential
  headers present), each interaction was played exactly once;
- ``expected``: the canonical output equals ``expected.json`` (regenerating, the output is written
  as a proposal beside it instead: :mod:`modelport_conformance.goldens`);
- ``invariants``: usage non-negative with its parts within their wholes and total = input +
  output, JSON round-trip, provider-executed parts marked, a result's origin (the provider and
  model called, kept on ``Result.message``), and for streams, well-formedness (K4);
- ``chunked``: streams decode identically when the body arrives 1 and 7 bytes at a time, and in
  chunks of random sizes (seeded);
- ``merged``: the accumulated stream equals the whole answer: the non-streaming decode of its
  frames merged by the suite's ``merge_frames`` when it gives one, else the answer
  ``expected.json`` holds; its usage count by count (see
  :mod:`modelport_conformance.whole_answer`);
- ``async``: the async API (``agenerate``/``astream``/``aembed``, body in 7-byte chunks) gives the
  same output and requests (skipped when the provider implements no async method);
- ``cut``, ``unterminated`` and ``history``: the derived fault cases (:mod:`.derived`,
  :mod:`.derived_history`): a stream cut short, a unary body cut short, a stream without its
  terminal frame; an earlier recording's decoded answer sent back as this case's history;
- ``metamorphic``: the recorded answer edited where the provider's wire map says a value lives
  moves the decoded result exactly there (:mod:`modelport_conformance.metamorphic`);
- ``request-edits``: the request's system or prompt text edited changes the body sent exactly where
  the wire map says it goes (:mod:`modelport_conformance.request_edits`).

A check the suite lists in ``expected_failures`` (``"case/check"`` → the defect) is a skip naming it
while it fails, and a failure once it passes (:mod:`modelport_conformance.expected_failures`).

A case can also be skipped as a whole (see :mod:`modelport_conformance.selection`), or refused: a
case that needs a capability the provider does not declare fails its one ``capabilities`` check
(:mod:`modelport_conformance.capabilities`). :func:`check_results` reads an outcome check by check.

An exception from plugin code that is not a modelport error (a ``KeyError`` in a decoder, a bug in
``merge_frames``) is a bug, not an outcome: it fails the one check it broke, with the exception and
where it was raised; the checks that depend on that output are skipped, never blamed, and the run
goes on with the next case.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import modelport
from modelport import plugins
from modelport.events import accumulate

from . import invariants
from .capabilities import CAPABILITY_CHECK, refusal
from .cases import Case, Suite
from .credentials import redact, scan_text
from .derived import cut_check, unterminated_check
from .derived_history import history_check
from .expected_failures import apply_expected_failures
from .goldens import propose
from .jsondiff import diff_json, format_differences
from .metamorphic import metamorphic_check
from .outcomes import CHECKS, CaseOutcome, CheckOutcome, check_results
from .replay import (
    REPLAY_API_KEY,
    Execution,
    aexecute,
    call_case,
    describe_error,
    describe_exception,
    execute,
    is_crash,
    run_coroutine,
)
from .request_edits import request_edits_check
from .selection import skip_reason
from .whole_answer import merged_check, sse_entries, stream_output

__all__ = [
    "CHECKS",
    "CHUNK_SIZES",
    "REPLAY_API_KEY",
    "CaseOutcome",
    "CheckOutcome",
    "Execution",
    "call_case",
    "check_results",
    "describe_error",
    "execute",
    "run_case",
    "scan_case",
]

#: Chunk sizes the stream body is replayed in.
CHUNK_SIZES = (1, 7)
#: Seeds of the replays whose chunk sizes are random (1 to 64 bytes, the same on every run).
CHUNK_SEEDS = (35,)
RANDOM_CHUNK_LIMIT = 64


def _check(name: str, problems: list[str]) -> CheckOutcome:
    return CheckOutcome(name, "fail" if problems else "pass", "\n".join(problems))


def _guarded(name: str, check: Callable[[], CheckOutcome]) -> CheckOutcome:
    """Run one check; an exception in it (plugin code it calls, or a bug) fails that check only."""
    try:
        return check()
    except Exception as error:
        return CheckOutcome(name, "fail", f"raised {describe_exception(error)}")


def _request_check(run: Execution) -> CheckOutcome:
    problems = run.player.problems()
    if problems and run.error is not None and not run.player.mismatches:
        error = run.error
        raised = describe_exception(error) if is_crash(error) else f"{type(error).__name__}: {error}"
        problems.append(f"the call raised {raised}")
    return _check("request", problems)


def _expected_check(case: Case, run: Execution, regenerate: bool) -> CheckOutcome:
    if regenerate:
        output = stream_output(case.expected, run) if case.is_stream else run.output
        outcome = propose(case, output)
        case.expected = output
        return outcome
    if case.expected is None:
        return CheckOutcome("expected", "fail", "no expected.json: replay with --regenerate, review, commit")
    output = stream_output(case.expected, run) if case.is_stream else run.output
    differences = diff_json(case.expected, output)
    if not differences:
        return CheckOutcome("expected", "pass")
    message = "output differs from expected.json:\n" + format_differences(differences)
    if run.error is not None and "error" not in case.expected:
        message = f"the call raised {describe_exception(run.error)}\n{message}"
    return CheckOutcome("expected", "fail", message)


def _invariants(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    problems: list[str] = []
    problems += invariants.check_origin(run.result, suite.provider_id, case.model)
    problems += invariants.check_error_provider(run.error, suite.provider_id)
    if run.player.played and not run.player.mismatches:
        answered = case.cassette.interactions[run.player.played[-1]].status
        problems += invariants.check_error_status(run.error, answered)
    problems += invariants.check_usage(run.result, run.events, run.embedding)
    values: list[Any] = [v for v in (run.result, run.embedding) if v is not None] + list(run.events)
    problems += invariants.check_round_trip(values)
    if case.is_stream and (run.events or run.error is None):
        problems += invariants.check_stream_well_formed(run.events, finished=run.error is None)
    content = run.result.content if run.result else (accumulate(run.events).content if run.events else [])
    problems += invariants.check_provider_executed(content, case.request)
    problems += invariants.check_batch(run.batch, suite.provider_id, case.model)
    problems += invariants.check_citations(run.result, run.events)
    problems += invariants.check_warnings(run.result, run.events)
    if case.is_stream:
        problems += invariants.check_whole_tool_calls(run.events)
        entries = sse_entries(case)
        if run.error is not None and entries is not None:
            error_object = invariants.stream_error_object(entries)
            problems += invariants.check_stream_error(run.error, error_object, run.events)
    return _check("invariants", problems)


def _same_output(label: str, run: Execution, again: Execution) -> list[str]:
    """How ``again`` differs from the first replay: a crash only it had, else the output diff."""
    if again.error is not None and is_crash(again.error):
        return [f"{label}: the provider raised {describe_exception(again.error)}"]
    differences = diff_json(run.output, again.output)
    return [f"{label} gives a different output:\n" + format_differences(differences)] if differences else []


def _chunked(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    if not case.is_stream:
        return CheckOutcome("chunked", "skip", "not a stream")
    problems: list[str] = []
    for size in CHUNK_SIZES:
        problems += _same_output(f"{size}-byte chunks", run, execute(suite, case, chunk_size=size))
    for seed in CHUNK_SEEDS:
        again = execute(suite, case, chunk_size=RANDOM_CHUNK_LIMIT, chunk_seed=seed)
        problems += _same_output(f"random 1-{RANDOM_CHUNK_LIMIT}-byte chunks (seed {seed})", run, again)
    return _check("chunked", problems)


#: The async hook a case's method runs through (a generation through its send, contract 2.3).
_ASYNC_METHODS = {
    "generate": "asend",
    "stream": "asend_stream",
    "embed": "aembed",
    "count_tokens": "acount_tokens",
}


def _async_parity(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    provider = plugins.provider_class(suite.provider_id)
    name = _ASYNC_METHODS.get(case.method)  # a batch's async twins come with its steps (kit)
    if name is not None and getattr(provider, name) is getattr(modelport.Provider, name):
        return CheckOutcome("async", "skip", f"the provider has no {name} of its own")
    again = run_coroutine(aexecute(suite, case))
    problems = again.player.problems() + _same_output("the async API", run, again)
    return _check("async", problems)


def scan_case(case: Case, extra: Any = None) -> CheckOutcome:
    """The credential scan of every file of the case (``extra``: the suite's ``secret_patterns``)."""
    problems = [
        finding.describe(f"{case.name}/{name}")
        for name, text in sorted(case.files.items())
        for finding in scan_text(text, extra)
    ]
    return _check("credentials", problems)


def _after_replay(suite: Suite, case: Case, run: Execution, regenerate: bool) -> list[CheckOutcome]:
    """The checks of a replay whose requests matched."""
    if run.error is not None and is_crash(run.error):
        crash = type(run.error).__name__
        skipped = f"not run: the replay raised {crash} (see the expected check)"
        return [
            CheckOutcome("expected", "fail", f"the provider raised {describe_exception(run.error)}"),
            *(CheckOutcome(name, "skip", skipped) for name in CHECKS[3:]),
        ]
    return [
        _guarded("expected", lambda: _expected_check(case, run, regenerate)),
        _guarded("invariants", lambda: _invariants(suite, case, run)),
        _guarded("chunked", lambda: _chunked(suite, case, run)),
        _guarded("merged", lambda: merged_check(suite, case, run)),
        _guarded("async", lambda: _async_parity(suite, case, run)),
        _guarded("cut", lambda: cut_check(suite, case, run)),
        _guarded("unterminated", lambda: unterminated_check(suite, case, run)),
        _guarded("history", lambda: history_check(suite, case, run)),
        _guarded("metamorphic", lambda: metamorphic_check(suite, case, run)),
        _guarded("request-edits", lambda: request_edits_check(suite, case)),
    ]


def run_case(
    suite: Suite, case: Case, *, regenerate: bool = False, models: Collection[str] = ()
) -> CaseOutcome:
    """Run every check of one case (``models``: run only cases of these models, see ``selection``)."""
    outcome = CaseOutcome(
        suite.provider_id, case.name, case.method, "pass", requirements=list(case.requirements)
    )
    reason = skip_reason(suite, case, models=models)
    if reason is not None:
        outcome.status, outcome.message = "skip", reason
        return outcome
    refused = refusal(suite.provider_id, case)
    if refused is not None:
        outcome.status, outcome.message = "fail", f"[{CAPABILITY_CHECK}] {refused}"
        outcome.checks = [CheckOutcome(CAPABILITY_CHECK, "fail", refused)]
        return outcome
    checks = [scan_case(case, suite.secret_patterns)]
    if checks[0].status == "fail":
        # A cassette holding a credential is not replayed: nothing of it may reach a report.
        outcome.status, outcome.checks = "fail", checks
        outcome.message = f"[credentials] {checks[0].message}"
        return outcome
    run = execute(suite, case)
    checks.append(_request_check(run))
    if checks[-1].status == "fail":
        # The output of a mismatched replay means nothing; the request diff is the finding.
        checks.append(CheckOutcome("expected", "skip", "request mapping failed"))
    else:
        checks += _after_replay(suite, case, run, regenerate)
    outcome.checks = checks = apply_expected_failures(suite.expected_failures, case.name, checks)
    failed = [c for c in checks if c.status == "fail"]
    if failed:
        outcome.status = "fail"
        for check in failed:
            check.message = redact(check.message, suite.secret_patterns)
        outcome.message = "\n".join(f"[{c.name}] {c.message}" for c in failed)
    return outcome
