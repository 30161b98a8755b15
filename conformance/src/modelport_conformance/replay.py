"""Replaying one case through the provider: the ``get_model`` keywords, the call, what came out.

The keywords a case's model is built with are merged, later sources winning:

1. the runner's settings: the replay key :data:`REPLAY_API_KEY`, ``max_retries=0`` and the provider's
   ``default_base_url`` (:func:`replay_settings`), so nothing comes from the environment's
   endpoint variables or keys;
2. the suite's registered ``options``;
3. the case's ``config`` from ``case.yaml`` (so ``config: {max_retries: 2}`` replays a retry);

and then the transport, which is always the cassette player's. Recording (see
:func:`modelport_conformance.record_case`) merges the same way, with the real key instead of the
replay key, and the key, the recording ``base_url`` and the transport given to the recorder win.
"""

from __future__ import annotations

import asyncio
import sysconfig
import threading
import traceback
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import httpx

import modelport
from modelport import plugins
from modelport.events import StreamEvent
from modelport.types import EmbeddingResult, Result

from .batch_replay import BatchRun, abatch_run, batch_run
from .cases import Case, Suite
from .player import CassettePlayer

__all__ = [
    "REPLAY_API_KEY",
    "REPLAY_SETTINGS",
    "Execution",
    "aexecute",
    "batch_output",
    "call_case",
    "canonical",
    "default_base_url",
    "describe_exception",
    "describe_error",
    "execute",
    "is_crash",
    "model_options",
    "replay_model",
    "replay_settings",
    "run_coroutine",
]

#: The key given to providers during replay: obviously fake, never a credential pattern.
REPLAY_API_KEY = "conformance-replay-key"
#: The runner's own ``get_model`` keywords during replay (a case's ``config`` overrides them).
REPLAY_SETTINGS: Mapping[str, Any] = {"api_key": REPLAY_API_KEY, "max_retries": 0}

_T = TypeVar("_T")


@dataclass
class Execution:
    """What one replay produced."""

    output: dict[str, Any]
    player: CassettePlayer
    result: Result | None = None
    events: list[StreamEvent] = field(default_factory=list)
    embedding: EmbeddingResult | None = None
    batch: BatchRun | None = None
    error: BaseException | None = None


def model_options(suite: Suite, case: Case, settings: Mapping[str, Any] = REPLAY_SETTINGS) -> dict[str, Any]:
    """``get_model`` keywords for ``case``: ``settings``, then the suite's options, then the case's config."""
    return {**settings, **suite.options, **case.config}


def default_base_url(provider_id: str) -> str | None:
    """The provider class's ``default_base_url`` (``None`` when it declares none or is unknown)."""
    try:
        provider = plugins.provider_class(provider_id)
    except modelport.ModelportError:
        return None
    value = getattr(provider, "default_base_url", None)
    return value if isinstance(value, str) and value else None


def replay_settings(provider_id: str) -> dict[str, Any]:
    """:data:`REPLAY_SETTINGS` plus the provider's ``default_base_url`` as ``base_url``: the URLs a
    cassette holds. A replay reads no endpoint from the environment (``OPENAI_BASE_URL``,
    ``GOOGLE_GEMINI_BASE_URL``, ``OLLAMA_BASE_URL``...) and no key (the replay key is given)."""
    base_url = default_base_url(provider_id)
    return {**REPLAY_SETTINGS, "base_url": base_url} if base_url else dict(REPLAY_SETTINGS)


def replay_model(suite: Suite, case: Case, transport: httpx.MockTransport) -> modelport.Model:
    """The model a replay calls: :func:`model_options` over :func:`replay_settings`, plus ``transport``."""
    options = {**model_options(suite, case, replay_settings(suite.provider_id)), "transport": transport}
    return modelport.get_model(f"{suite.provider_id}/{case.model}", **options)


#: What the core stamps on a result whatever the plugin decoded.
_STAMPED = frozenset({"origin"})


def canonical(value: Any) -> Any:
    """The JSON form of a result, event or embedding as ``expected.json`` holds it.

    A result's ``origin`` is left out: the core stamps it, the plugin's mapping does not make it
    (the invariants check it instead). So is an embedding's ``embedding_type`` when it is the
    default ``"float"``: cases written before contract 2.3 hold floats and say nothing of it.
    """
    dumped = value.model_dump(mode="json", exclude_none=True, exclude=_STAMPED)
    if isinstance(value, EmbeddingResult) and dumped.get("embedding_type") == "float":
        del dumped["embedding_type"]
    return dumped


def is_crash(error: BaseException) -> bool:
    """Whether ``error`` is a bug rather than an outcome: anything that is not a modelport error."""
    return not isinstance(error, modelport.ModelportError)


_STDLIB = tuple({sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]})


def _origin(tb: TracebackType | None) -> str:
    for frame in reversed(traceback.extract_tb(tb)):
        if not frame.filename.startswith(_STDLIB):
            return f"{Path(frame.filename).name}:{frame.lineno} in {frame.name}"
    return ""


def describe_exception(error: BaseException) -> str:
    """``KeyError: 'output' (at provider.py:57 in decode)``: the exception, and where its root cause
    (the end of its ``raise … from`` chain) was raised, in the innermost frame outside the standard
    library, which is where the bug usually is."""
    text = f"{type(error).__name__}: {error}"
    root = error
    while root.__cause__ is not None and root.__cause__ is not root:
        root = root.__cause__
    where = _origin(root.__traceback__)
    return f"{text} (at {where})" if where else text


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


def batch_output(batch: BatchRun) -> dict[str, Any]:
    """The JSON form of a batch replay as ``expected.json`` holds it: the job as last seen (its
    id, statuses, counts and times) and, when they were read, the results in input order, each
    ``{custom_id, result}`` or ``{custom_id, error}``."""
    out: dict[str, Any] = {}
    if batch.job is not None:
        out["job"] = batch.job.model_dump(mode="json", include=_JOB_FIELDS, exclude_none=True)
    if batch.items is not None:
        out["results"] = [
            {"custom_id": item.custom_id, "result": canonical(item.result)}
            if item.result is not None
            else {"custom_id": item.custom_id, "error": describe_error(item.error or Exception())}
            for item in batch.items
        ]
    return {"batch": out}


_JOB_FIELDS = {"id", "status", "raw_status", "counts", "created_at", "ended_at"}


def _failed(run: Execution, error: BaseException) -> None:
    run.error = error
    if run.events:
        run.output = {"events": [canonical(e) for e in run.events]}
    if run.batch is not None:
        run.output = batch_output(run.batch)
    run.output["error"] = describe_error(error)


def execute(
    suite: Suite, case: Case, *, chunk_size: int | None = None, chunk_seed: int | None = None
) -> Execution:
    """Replay ``case`` through the provider and capture its canonical output (never raises);
    ``chunk_seed``: the body in chunks of random sizes up to ``chunk_size``."""
    player = CassettePlayer(case.cassette, chunk_size=chunk_size, chunk_seed=chunk_seed)
    run = Execution(output={}, player=player)
    try:
        model = replay_model(suite, case, player.transport)
        try:
            call_case(model, case, run)
        finally:
            model.close()
    except Exception as error:  # the adapter's failure is a finding, reported by the checks
        _failed(run, error)
    return run


async def aexecute(suite: Suite, case: Case, *, chunk_size: int | None = 7) -> Execution:
    """:func:`execute` through the async API."""
    player = CassettePlayer(case.cassette, chunk_size=chunk_size)
    run = Execution(output={}, player=player)
    try:
        model = replay_model(suite, case, player.transport)
        try:
            await _acall_case(model, case, run)
        finally:
            await model.aclose()
    except Exception as error:
        _failed(run, error)
    return run


def call_case(model: modelport.Model, case: Case, run: Execution, *, poll_interval: float = 0) -> None:
    """Make the case's call on ``model``, filling ``run`` (events are kept as they arrive;
    ``poll_interval``: a batch's, see :func:`~modelport_conformance.batch_replay.batch_run`)."""
    if case.method == "generate":
        run.result = model.generate(**case.request)
        run.output = {"result": canonical(run.result)}
    elif case.method == "stream":
        for event in model.stream(**case.request):
            run.events.append(event)
        run.output = {"events": [canonical(e) for e in run.events]}
    elif case.method == "count_tokens":
        run.output = {"token_count": token_count(model.count_tokens(**case.request))}
    elif case.method == "batch":
        run.batch = BatchRun()
        batch_run(model, case.request, run.batch, poll_interval=poll_interval)
        run.output = batch_output(run.batch)
    else:
        keywords = dict(case.request)
        values = keywords.pop("values")
        run.embedding = model.embed(values, **keywords)
        run.output = {"embedding": canonical(run.embedding)}


def token_count(count: Any) -> dict[str, Any]:
    """The JSON form of a :class:`~modelport.provider.TokenCount` as ``expected.json`` holds it."""
    out: dict[str, Any] = {"input_tokens": count.input_tokens}
    if count.cached_input_tokens is not None:
        out["cached_input_tokens"] = count.cached_input_tokens
    if count.provider_metadata:
        out["provider_metadata"] = dict(count.provider_metadata)
    return out


async def _acall_case(model: modelport.Model, case: Case, run: Execution) -> None:
    if case.method == "generate":
        run.result = await model.agenerate(**case.request)
        run.output = {"result": canonical(run.result)}
    elif case.method == "stream":
        async for event in model.astream(**case.request):
            run.events.append(event)
        run.output = {"events": [canonical(e) for e in run.events]}
    elif case.method == "count_tokens":
        run.output = {"token_count": token_count(await model.acount_tokens(**case.request))}
    elif case.method == "batch":
        run.batch = BatchRun()
        await abatch_run(model, case.request, run.batch)
        run.output = batch_output(run.batch)
    else:
        keywords = dict(case.request)
        values = keywords.pop("values")
        run.embedding = await model.aembed(values, **keywords)
        run.output = {"embedding": canonical(run.embedding)}


def run_coroutine(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coroutine`` to the end, also when called from inside a running event loop (a thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coroutine)
        except BaseException as error:
            box["error"] = error

    thread = threading.Thread(target=target, name="modelport-conformance-async")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]
