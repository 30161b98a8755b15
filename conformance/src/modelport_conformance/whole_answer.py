"""The ``merged`` check: a stream, accumulated, equals the whole answer it streamed.

A recorded stream is the only recording of its answer, so "the whole answer" comes from one of two
places:

- the suite's ``merge_frames`` (optional): the stream's own frames merged into the body a
  non-streamed call returns, decoded by the plugin's ``decode_response``. This is the one source
  independent of ``expected.json``: it catches a stream decoder that disagrees with the response
  decoder even after ``expected.json`` was regenerated from the stream decoder;
- otherwise ``expected.json`` (:func:`expected_answer`): its ``result`` when it holds one, else its
  ``events`` accumulated. A plugin author writes one stream mapper (the decoder) and reviews one
  expected answer.

Either way the usage is compared count by count
(:func:`~modelport_conformance.invariants.check_stream_usage`) and every other field a stream
carries (:data:`STREAM_RESULT_FIELDS`) through the JSON diff.

A stream case's ``expected.json`` may hold ``result`` (the accumulated answer, the form a generate
case's file has) instead of ``events``: the ``expected`` check then compares the accumulated stream
with it (:func:`stream_output`), and ``--regenerate`` keeps that form.
"""

from __future__ import annotations

from typing import Any

import httpx

from modelport.events import accumulate, parse_event
from modelport.types import Result, Usage

from . import invariants
from .cases import Case, Suite
from .jsondiff import diff_json, format_differences
from .outcomes import CheckOutcome
from .replay import Execution, canonical, describe_exception, replay_model

__all__ = [
    "STREAM_RESULT_FIELDS",
    "expected_answer",
    "merged_check",
    "sse_entries",
    "stream_frames",
    "stream_output",
]

#: The fields of :class:`~modelport.types.Result` an accumulated stream carries: every field but
#: ``origin``, which the core stamps (see :func:`~modelport_conformance.replay.canonical`).
STREAM_RESULT_FIELDS = tuple(name for name in Result.model_fields if name != "origin")


def sse_entries(case: Case) -> list[dict[str, Any]] | None:
    """The entries of the case's one SSE body (``None`` when it has none, or several)."""
    streams = [i for i in case.cassette.interactions if "sse" in (i.response.get("body") or {})]
    if len(streams) != 1:
        return None
    entries: list[dict[str, Any]] = streams[0].response["body"]["sse"]
    return entries


def stream_frames(case: Case, *, chunks: bool = False) -> list[Any] | None:
    """The JSON frames of the case's one SSE body, or of its one AWS event-stream body (the kit's
    ``{"event", "data"}`` frames; with ``chunks``, the JSON of each ``chunk`` event's ``bytes``, the
    ``"aws-event-stream-chunks"`` framing); ``None`` when it has neither, or several."""
    entries = sse_entries(case)
    if entries is None:
        return _event_stream_frames(case, chunks=chunks)
    return [e["data"] for e in entries if isinstance(e.get("data"), (dict, list))]


def _framing(provider_id: str) -> str:
    from modelport import plugins

    try:
        return str(getattr(plugins.provider_class(provider_id), "stream_framing", "sse"))
    except Exception:  # an unknown provider: the suite reports it elsewhere
        return "sse"


def _event_stream_frames(case: Case, *, chunks: bool = False) -> list[Any] | None:
    """The frames of the case's one binary (base64) event-stream body, read by the kit's parser;
    ``None`` when there is not exactly one, or it does not read to the end (an exception frame)."""
    from modelport.errors import ModelportError, ProviderError
    from modelport.http.event_stream import EventStreamParser

    from .cassette import body_bytes

    bodies = [
        i.response["body"] for i in case.cassette.interactions if "base64" in (i.response.get("body") or {})
    ]
    if len(bodies) != 1:
        return None

    def failed(status: int | None, text: str) -> ProviderError:
        return ProviderError(text, provider="conformance")

    parser = EventStreamParser(provider="conformance", on_error=failed, chunks=chunks)
    try:
        return [*parser.feed(body_bytes(bodies[0])), *parser.close()]
    except ModelportError:
        return None


def expected_answer(expected: dict[str, Any] | None) -> Result | None:
    """The whole answer a stream case's ``expected.json`` gives: its ``result``, else its ``events``
    accumulated; ``None`` when it has neither or the stream is expected to end in an error."""
    if not expected or "error" in expected:
        return None
    if "result" in expected:
        return Result.model_validate(expected["result"])
    if "events" in expected:
        return accumulate([parse_event(event) for event in expected["events"]])
    return None


def stream_output(expected: dict[str, Any] | None, run: Execution) -> dict[str, Any]:
    """The output of a stream replay in the form ``expected`` has: ``events`` (the default), or the
    accumulated ``result`` when ``expected`` holds a ``result`` and no ``events``."""
    if expected is None or "events" in expected or "result" not in expected or run.error is not None:
        return run.output
    return {"result": canonical(accumulate(run.events))}


def merged_check(suite: Suite, case: Case, run: Execution) -> CheckOutcome:
    """The ``merged`` check of one replay (see the module)."""
    if not case.is_stream:
        return CheckOutcome("merged", "skip", "not a stream")
    if run.error is not None:
        return CheckOutcome("merged", "skip", "the stream ended in an error")
    streamed = accumulate(run.events)
    if suite.merge_frames is None:
        whole = expected_answer(case.expected)
        if whole is None:
            reason = "no merge_frames, and expected.json holds no answer (an error, or nothing)"
            return CheckOutcome("merged", "skip", reason)
        return _compare("merged", streamed, whole, "the answer in expected.json")
    chunks = _framing(suite.registration.provider_id) == "aws-event-stream-chunks"
    frames = stream_frames(case, chunks=chunks)
    if frames is None:
        return CheckOutcome("merged", "skip", "the stream has no single SSE body to merge")
    try:
        body = suite.merge_frames(frames)
    except Exception as error:
        return CheckOutcome("merged", "fail", f"merge_frames raised {describe_exception(error)}")
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=body))
    try:
        model = replay_model(suite, case, transport)
        try:
            direct = model.generate(**case.request)
        finally:
            model.close()
    except Exception as error:
        raised = describe_exception(error)
        return CheckOutcome("merged", "fail", f"decoding the merged frames raised {raised}")
    return _compare("merged", streamed, direct, "the merged-frames decode")


def _carried(result: Result) -> dict[str, Any]:
    """The JSON form of the fields of ``result`` a stream carries."""
    return result.model_dump(mode="json", exclude_none=True, include=set(STREAM_RESULT_FIELDS))


def _compare(name: str, streamed: Result, whole: Result, source: str) -> CheckOutcome:
    label = "the same answer decoded whole" if source == "the merged-frames decode" else source
    problems = invariants.check_stream_usage(streamed.usage, whole.usage, label)
    # Usage is named by its invariant above; the diff covers every other field a stream carries.
    got, expected = (_carried(r.model_copy(update={"usage": Usage()})) for r in (streamed, whole))
    differences = diff_json(expected, got, "$.result")
    if differences:
        problems.append(
            f"accumulated stream (got) differs from {source} (expected):\n" + format_differences(differences)
        )
    return CheckOutcome(name, "fail" if problems else "pass", "\n".join(problems))
