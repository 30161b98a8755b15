"""``modelport batch``: submit a JSON Lines file of requests to a provider's batch service, follow
it, read its results, cancel it.

Every submitted job is saved (its JSON, requests included, mode 0600) in ``batches/`` of the
command's directory (``$MODELPORT_HOME``, else the user's config folder), so ``status``, ``wait``,
``results`` and ``cancel`` take just its id, in any later process. Nothing here prints a credential.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ._connect import connect_options, error_text, open_model
from ._files import MAX_BATCH_FILE_BYTES, user_text
from ._home import home, write_private
from .terminal import is_terminal, json_text, safe

if TYPE_CHECKING:
    from modelport.batches import BatchJob

__all__ = ["batch_group", "jobs_dir"]

_ID = re.compile(r"^[A-Za-z0-9_.\-/]{1,200}$")


def jobs_dir() -> Path:
    """Where submitted jobs are saved: ``batches/`` in the command's directory (see :mod:`._home`)."""
    return home() / "batches"


def _path(batch_id: str) -> Path:
    if not _ID.match(batch_id) or ".." in batch_id:
        raise click.BadParameter(f"not a batch id: {batch_id!r}", param_hint="'ID'")
    return jobs_dir() / (batch_id.replace("/", "_") + ".json")


def _save(job: BatchJob) -> Path:
    """Write the job (mode 0600: its requests may hold private prompts) and return its path."""
    path = _path(job.id)
    write_private(path, job.model_dump_json())
    return path


#: A saved job larger than this is not read (a job of 200,000 requests is far smaller).
MAX_SAVED_BYTES = 1 << 30


def _saved(path: Path) -> BatchJob:
    """A saved job as last seen, bound to no model; a damaged one is a typed error naming the file."""
    from modelport.batches import BatchJob
    from modelport.errors import InvalidRequestError

    try:
        if path.stat().st_size > MAX_SAVED_BYTES:
            raise InvalidRequestError(f"larger than {MAX_SAVED_BYTES} bytes")
        return BatchJob.restored(path.read_bytes())
    except (OSError, InvalidRequestError) as error:
        problem = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise InvalidRequestError(f"the saved batch {path.name} cannot be read: {problem}") from None


def _load(batch_id: str, base_url: str | None = None, key: str | None = None) -> BatchJob:
    """The saved job ``batch_id``, bound to its model with the key the command finds (as generate),
    on the server it was submitted to (``--base-url`` wins)."""
    path = _path(batch_id)
    if not path.is_file():
        raise click.ClickException(f"no saved batch {batch_id!r} in {jobs_dir()} (submitted elsewhere?)")
    from modelport import plugins

    job = _saved(path)
    options = job.connection_options(getattr(plugins.provider_class(job.provider), "saved_options", ()))
    if base_url:
        options["base_url"] = base_url
    return job.bind(open_model(f"{job.provider}/{job.model}", key=key, **options))


def _read_requests(path: Path) -> list[Any]:
    """Each line a JSON object of generate keywords; an optional ``custom_id`` key names it."""
    from modelport.wire import loads

    entries: list[Any] = []
    text = user_text(path, param_hint="'FILE'", limit=MAX_BATCH_FILE_BYTES)  # a regular file, bounded
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = loads(line)  # nesting bounded: a ValueError, never a RecursionError
        except ValueError as error:
            raise click.BadParameter(f"line {number} is not JSON: {error}", param_hint="'FILE'") from None
        if not isinstance(value, dict):
            raise click.BadParameter(f"line {number} is not a JSON object", param_hint="'FILE'")
        custom_id = value.pop("custom_id", None)
        entries.append((str(custom_id), value) if custom_id is not None else value)
    if not entries:
        raise click.BadParameter("the file has no requests", param_hint="'FILE'")
    return _numbered(entries)


def _numbered(entries: list[Any]) -> list[tuple[str, Any]]:
    """Each entry with its custom id: a line without one gets its position (``"0"``, ``"1"``...),
    or, when another line took that id, the next number no line took."""
    taken = {entry[0] for entry in entries if isinstance(entry, tuple)}
    numbered: list[tuple[str, Any]] = []
    for position, entry in enumerate(entries):
        if not isinstance(entry, tuple):
            number = position
            while str(number) in taken:
                number += 1
            taken.add(str(number))
            entry = (str(number), entry)
        numbered.append(entry)
    return numbered


def _summary(job: BatchJob) -> str:
    counts = job.counts
    return safe(
        f"{job.id}  {job.provider}/{job.model}  {job.status} ({job.raw_status})  "
        f"{counts.succeeded} succeeded, {counts.failed} failed, "
        f"{counts.processing} processing of {counts.total}"
    )


def _wait(job: BatchJob, poll_interval: float, timeout: float | None) -> BatchJob:
    """Poll until the batch ends, with a progress bar on a terminal (a line per change otherwise)."""
    total = max(job.counts.total, len(job.requests), 1)
    shown: dict[str, Any] = {"done": 0, "status": ""}
    with click.progressbar(length=total, label="batch", file=sys.stderr, show_pos=True) as bar:

        def progress(current: BatchJob) -> None:
            done = (
                current.counts.succeeded
                + current.counts.failed
                + current.counts.cancelled
                + current.counts.expired
            )
            if is_terminal(sys.stderr):
                bar.label = safe(current.raw_status)
                bar.update(max(done - shown["done"], 0))
            elif current.raw_status != shown["status"]:
                click.echo(_summary(current), err=True)
            shown["done"], shown["status"] = max(done, shown["done"]), current.raw_status
            _save(current)

        job.wait(poll_interval=poll_interval, timeout=timeout, progress=progress)
    return job


def _errors(handler: Any) -> Any:
    """Run a command; a modelport error is one line on standard error and exit status 1."""
    import functools

    @functools.wraps(handler)
    def run(*args: Any, **kwargs: Any) -> Any:
        import modelport

        try:
            return handler(*args, **kwargs)
        except modelport.ModelportError as error:
            click.echo(f"error: {error_text(error)}", err=True)
            sys.exit(1)

    return run


@click.group("batch")
def batch_group() -> None:
    """Run requests on a provider's batch service (about half the price; results within 24 hours)."""


@batch_group.command("submit")
@click.argument("model")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--wait", "wait_", is_flag=True, help="Wait for the batch to end, with a progress bar.")
@click.option("--poll-interval", type=float, default=10.0, show_default=True, help="Seconds between polls.")
@connect_options
@_errors
def submit_command(
    model: str, file: Path, wait_: bool, poll_interval: float, base_url: str | None, key: str | None
) -> None:
    """Submit FILE (JSON Lines: one object of generate keywords per line, with an optional
    custom_id) to MODEL's batch service; prints the batch id."""
    entries = _read_requests(file)
    job = open_model(model, base_url=base_url, key=key).submit_batch(entries)
    path = _save(job)
    click.echo(_summary(job))
    click.echo(safe(f"saved: {path}"), err=True)
    if wait_:
        click.echo(_summary(_wait(job, poll_interval, None)))


@batch_group.command("status")
@click.argument("batch_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print the job as JSON (without its requests).")
@connect_options
@_errors
def status_command(batch_id: str, as_json: bool, base_url: str | None, key: str | None) -> None:
    """Ask the provider where batch ID is now."""
    job = _load(batch_id, base_url, key).refresh()
    _save(job)
    if as_json:
        click.echo(json_text(job.model_dump(mode="json", exclude={"requests"})))
    else:
        click.echo(_summary(job))


@batch_group.command("wait")
@click.argument("batch_id", metavar="ID")
@click.option("--poll-interval", type=float, default=10.0, show_default=True, help="Seconds between polls.")
@click.option("--timeout", type=float, help="Give up waiting after this many seconds (the batch goes on).")
@connect_options
@_errors
def wait_command(
    batch_id: str, poll_interval: float, timeout: float | None, base_url: str | None, key: str | None
) -> None:
    """Wait for batch ID to end, with a progress bar."""
    click.echo(_summary(_wait(_load(batch_id, base_url, key), poll_interval, timeout)))


@batch_group.command("results")
@click.argument("batch_id", metavar="ID")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to this file.")
@connect_options
@_errors
def results_command(batch_id: str, output: Path | None, base_url: str | None, key: str | None) -> None:
    """The results of ended batch ID as JSON Lines, in the order of the requests: custom_id, text,
    usage and the whole result, or the error of that request."""
    from modelport.types import Result

    job = _load(batch_id, base_url, key)
    if not job.done:  # the saved status may be old: ask once
        job = job.refresh()
        _save(job)
    if not job.done:
        raise click.ClickException(
            safe(f"batch {job.id} has not ended ({job.raw_status}): `modelport batch wait {job.id}` first")
        )
    items = job.results()
    lines = []
    for item in items:
        if item.result is not None:
            answer = item.result
            line = {
                "custom_id": item.custom_id,
                **(
                    {"text": answer.text} if isinstance(answer, Result) else {"embeddings": answer.embeddings}
                ),
                "usage": answer.usage.model_dump(mode="json", exclude_none=True),
                "result": answer.model_dump(mode="json", exclude_none=True),
            }
        else:
            line = {
                "custom_id": item.custom_id,
                "error": {"type": type(item.error).__name__, "message": str(item.error)},
            }
        lines.append(json.dumps(line))  # ASCII only: nothing in a result can drive the terminal
    text = "\n".join(lines) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(safe(f"{len(items)} results ({len(items.errors)} errors) written to {output}"), err=True)


@batch_group.command("cancel")
@click.argument("batch_id", metavar="ID")
@connect_options
@_errors
def cancel_command(batch_id: str, base_url: str | None, key: str | None) -> None:
    """Ask the provider to cancel batch ID (finished requests keep their results)."""
    job = _load(batch_id, base_url, key).cancel()
    _save(job)
    click.echo(_summary(job))


@batch_group.command("list")
def list_command() -> None:
    """The saved batches, as last seen (``status ID`` asks again; listing needs no key). A saved
    job that cannot be read is one line of error on standard error; the exit status is then 1."""
    from modelport.errors import ModelportError

    folder = jobs_dir()
    damaged = 0
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            click.echo(_summary(_saved(path)))
        except ModelportError as error:
            damaged += 1
            click.echo(f"error: {error_text(error)}", err=True)
    if damaged:
        sys.exit(1)
