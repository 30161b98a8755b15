"""Replaying a batch case: submit, then the steps the recording made (polls, cancel, results).

A batch case's ``request`` (in ``case.yaml``)::

    kind: generate              # or embed: submit_batch / submit_embed_batch
    requests: [...]             # the entries, as submit_batch (submit_embed_batch) takes them
    steps: [wait, results]      # the default; any of wait, refresh, cancel, results, in order

``wait`` polls until the batch ends (with ``poll_interval=0`` in replay, every
:data:`RECORD_POLL_INTERVAL` seconds at first while recording), ``refresh`` asks once more (a
recording that polled past the end), ``cancel`` cancels, ``results`` reads every result. The
cassette holds the whole exchange in order: polls are identical requests with different answers,
and the player answers each with the first interaction not yet played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import modelport
from modelport.batches import BatchItem, BatchJob

__all__ = ["BATCH_STEPS", "RECORD_POLL_INTERVAL", "BatchPlan", "BatchRun", "abatch_run", "batch_run"]

#: What a batch case may do after submitting, in the order it lists.
BATCH_STEPS = ("wait", "refresh", "cancel", "results")
_DEFAULT_STEPS = ("wait", "results")
#: Seconds between the first polls of a batch recorded against the real service (then longer,
#: as :meth:`~modelport.batches.BatchJob.wait` backs off).
RECORD_POLL_INTERVAL = 10.0


@dataclass(frozen=True)
class BatchPlan:
    """A batch case's request, checked: what to submit and what to do then."""

    kind: str
    entries: list[Any]
    steps: tuple[str, ...]

    @classmethod
    def read(cls, request: Mapping[str, Any]) -> BatchPlan:
        """The plan of a case's ``request``; a malformed one is a ``ValueError`` naming the key."""
        kind = request.get("kind", "generate")
        if kind not in ("generate", "embed"):
            raise ValueError(f"a batch case's kind is generate or embed, got {kind!r}")
        entries = request.get("requests")
        if not isinstance(entries, list) or not entries:
            raise ValueError("a batch case's 'requests' is a non-empty list of entries")
        steps = tuple(request.get("steps") or _DEFAULT_STEPS)
        unknown = [step for step in steps if step not in BATCH_STEPS]
        if unknown:
            raise ValueError(f"a batch case's steps are among {', '.join(BATCH_STEPS)}, got {unknown}")
        # YAML has no tuples: a two-item list [custom_id, entry] is a (custom_id, entry) pair.
        pairs = [tuple(e) if isinstance(e, list) and len(e) == 2 else e for e in entries]
        return cls(kind, pairs, steps)


@dataclass
class BatchRun:
    """What a batch replay produced: the job as last seen, its results when read."""

    job: BatchJob | None = None
    items: list[BatchItem] | None = None
    steps: list[str] = field(default_factory=list)


def batch_run(
    model: modelport.Model, request: Mapping[str, Any], run: BatchRun, *, poll_interval: float = 0
) -> None:
    """Submit the case's batch on ``model`` and take its steps, filling ``run`` as it goes
    (``poll_interval``: 0 in replay; a recording against the real service waits between polls)."""
    plan = BatchPlan.read(request)
    submit = model.submit_embed_batch if plan.kind == "embed" else model.submit_batch
    run.job = job = submit(plan.entries)
    for step in plan.steps:
        if step == "wait":
            job.wait(poll_interval=poll_interval)
        elif step == "refresh":
            job.refresh()
        elif step == "cancel":
            job.cancel()
        else:
            run.items = list(job.results())
        run.steps.append(step)


async def abatch_run(model: modelport.Model, request: Mapping[str, Any], run: BatchRun) -> None:
    """:func:`batch_run` through the async API."""
    plan = BatchPlan.read(request)
    submit = model.asubmit_embed_batch if plan.kind == "embed" else model.asubmit_batch
    run.job = job = await submit(plan.entries)
    for step in plan.steps:
        if step == "wait":
            await job.await_done(poll_interval=0)
        elif step == "refresh":
            await job.arefresh()
        elif step == "cancel":
            await job.acancel()
        else:
            run.items = list(await job.aresults())
        run.steps.append(step)
