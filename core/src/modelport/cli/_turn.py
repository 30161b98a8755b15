"""One call of ``generate`` or ``chat``: sent, printed (streamed or whole, cited, as JSON or as the
parsed JSON of a schema), timed, and logged.

Whatever happens, what arrived is kept: a stream that breaks has printed its text and logs it with
the error; an answer cut short (``finish_reason`` other than ``stop``/``tool-calls``) says so.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click

from . import terminal
from ._connect import timing
from ._cost import catalog_installed, priced
from ._home import Settings
from ._logstore import Call
from ._request import parsed_json
from .terminal import json_text, safe, visible

__all__ = ["Outcome", "Printing", "log_call", "run_turn"]


@dataclass(frozen=True)
class Printing:
    """How the answer is shown."""

    stream: bool = False
    as_json: bool = False
    schema: bool = False
    usage: bool = False
    verbose: bool = False


@dataclass
class Outcome:
    """What a call gave: its result (or the partial one of an error), its error, its timings."""

    result: Any = None
    error: BaseException | None = None
    seconds: float = 0.0
    first_token: float | None = None
    problems: list[str] = field(default_factory=list)
    #: The tool loop's whole conversation (its calls and results), when the call ran one.
    messages: list[Any] | None = None

    @property
    def text(self) -> str:
        return str(getattr(self.result, "text", "") or "")


def run_turn(
    model: Any,
    request: dict[str, Any],
    printing: Printing,
    problems: Callable[[], list[str]] = list,
) -> Outcome:
    """Send ``request`` to ``model`` and print the answer; errors are returned, not raised (a
    :class:`modelport.ModelportError`; anything else propagates)."""
    import modelport

    outcome = Outcome()
    started = time.monotonic()
    stderr = sys.stderr
    spinner = terminal.Spinner(stderr, f"waiting for {model.id}", enabled=terminal.is_terminal(stderr))

    def first_token() -> None:
        if outcome.first_token is None:
            outcome.first_token = time.monotonic() - started
        spinner.stop()

    try:
        with spinner:
            if printing.stream:
                outcome.result = _print_stream(model, request, printing.as_json, first_token)
            else:
                outcome.result = model.generate(**request)
    except modelport.ModelportError as error:
        outcome.error = error
        outcome.result = getattr(error, "partial", None)
    outcome.seconds = time.monotonic() - started
    outcome.problems = problems()
    if outcome.error is None and not outcome.problems:
        _print_result(outcome.result, printing)
    _report(model.id, outcome, printing)
    return outcome


def _print_stream(model: Any, request: dict[str, Any], as_json: bool, first_token: Callable[[], None]) -> Any:
    """Print text deltas as they arrive (a control sequence split across deltas is removed whole)."""
    from modelport.citations import ControlStripper

    stripper = ControlStripper()
    result_stream = model.stream(**request)
    printed = False
    try:
        for event in result_stream:
            if event.type == "text-delta":
                first_token()
                if not as_json:
                    click.echo(visible(stripper.feed(event.delta)), nl=False)
                    printed = True
        first_token()
        return result_stream.result()
    finally:
        if printed:
            click.echo(visible(stripper.flush()))


def _print_result(result: Any, printing: Printing) -> None:
    import modelport

    if printing.schema:
        try:
            data = parsed_json(result)
        except ValueError as error:
            click.echo(safe(result.text))
            raise click.ClickException(f"the answer is not the JSON the schema asks for: {error}") from None
        click.echo(json_text(data))
        return
    cited = modelport.cite(result)
    if printing.as_json:
        payload: dict[str, Any] = {
            "text": cited.text,
            "sources": [s.model_dump(mode="json", exclude_none=True) for s in cited.sources],
            "result": result.model_dump(mode="json", exclude_none=True),
        }
        click.echo(json_text(payload))
    elif printing.stream:
        if cited.sources:
            click.echo("\n" + safe(cited.with_sources()))
    else:
        click.echo(safe(cited.with_sources()))


def _report(model_id: str, outcome: Outcome, printing: Printing) -> None:
    """Timings (``-v``), usage (``--usage``), and an answer that ended early, on standard error."""
    result = outcome.result
    if printing.verbose:
        if outcome.first_token is not None:
            timing(f"{model_id}: first token after", outcome.first_token)
        timing(f"{model_id}: {'failed' if outcome.error else 'answered'} after", outcome.seconds)
    if printing.usage and result is not None and result.usage is not None:
        counts = result.usage.model_dump(exclude_none=True)
        shown = ", ".join(f"{name.removesuffix('_tokens')} {value}" for name, value in counts.items())
        price = priced(result)
        cost = f"; cost ${price}" if price else ("; cost unknown" if catalog_installed() else "")
        click.echo(f"usage: {shown or 'not reported'} (tokens){cost}", err=True)
    reason = getattr(result, "finish_reason", None)
    if outcome.error is None and reason not in (None, "stop", "tool-calls"):
        click.echo(f"warning: the answer ended early (finish reason: {reason})", err=True)


def log_call(
    settings: Settings,
    *,
    conversation_id: str,
    model: str,
    prompt: str,
    outcome: Outcome,
    system: str | None = None,
    options: dict[str, Any] | None = None,
    attachments: list[str] | None = None,
    base_url: str | None = None,
    fragments: dict[str, str] | None = None,
) -> None:
    """Record the call in the log (unless logging is off), with the text of each fragment it sent
    (by sha256: a text is kept once however many calls send it); a log that cannot be written is a
    warning, never the call's failure."""
    if not settings.logging:
        return
    import sqlite3

    from modelport.errors import ModelportError, scrub

    from ._logs import log_store

    result = outcome.result
    usage = getattr(result, "usage", None)
    call = Call(
        conversation_id=conversation_id,
        model=model,
        prompt=prompt,
        system=system,
        options=options or {},
        attachments=attachments or [],
        response=outcome.text,
        usage=usage.model_dump(exclude_none=True) if usage is not None else None,
        duration_ms=round(outcome.seconds * 1000),
        base_url=base_url,
        finish_reason=getattr(result, "finish_reason", None),
        error=scrub(str(outcome.error)) if outcome.error is not None else None,
        cost=priced(result),
    )
    try:
        log_store().add(call, fragments=fragments)
    except (ModelportError, OSError, ValueError, sqlite3.Error) as error:
        click.echo(f"warning: the call was not logged: {safe(str(error))}", err=True)
