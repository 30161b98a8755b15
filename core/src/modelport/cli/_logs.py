"""``modelport logs``: the calls the command made, from its local SQLite log (:mod:`._logstore`)."""

from __future__ import annotations

from typing import Any

import click

from ._home import Settings, home
from ._logstore import LOGS_FILE, Call, LogStore
from .terminal import json_text, safe

__all__ = ["log_store", "logs_group"]


def log_store() -> LogStore:
    """The command's log database."""
    return LogStore(home() / LOGS_FILE)


def _preview(text: str, limit: int = 100) -> str:
    """The first line of ``text``, at most ``limit`` characters (``…`` when there is more)."""
    line = text.strip().split("\n", 1)[0]
    more = len(line) > limit or "\n" in text.strip()
    return (line[:limit].rstrip() + " …") if more else line


def _field(name: str, text: str, whole: bool) -> str:
    if not whole:
        return safe(f"  {name}: {_preview(text)}")
    return safe(f"  {name}: " + text.replace("\n", "\n    "))


def _print(calls: list[Call], as_json: bool, *, whole: bool = False) -> None:
    """The calls as JSON, or as text: a preview of each (``whole``: all of it)."""
    if as_json:
        click.echo(json_text([call.as_dict() for call in calls]))
        return
    for call in calls:
        took = f"  {call.duration_ms} ms" if call.duration_ms is not None else ""
        click.echo(
            safe(f"#{call.id}  {call.created}  {call.model}  conversation {call.conversation_id}{took}")
        )
        if call.system:
            click.echo(_field("system", call.system, whole))
        for logged in call.options.get("fragments") or () if whole else ():
            if isinstance(logged, dict):
                text = log_store().fragment(str(logged.get("sha256")))
                shown = f"fragment {logged.get('source')} (sha256 {str(logged.get('sha256'))[:12]})"
                click.echo(_field(shown, text if text is not None else "(not in the log)", whole))
        click.echo(_field("prompt", call.prompt, whole))
        if call.attachments:
            click.echo(safe(f"  attachments: {', '.join(call.attachments)}"))
        click.echo(_field("response", call.response, whole))
        if call.usage:
            counts = ", ".join(
                f"{k.removesuffix('_tokens')} {v}" for k, v in call.usage.items() if v is not None
            )
            click.echo(f"  usage: {counts} (tokens)" + (f", cost ${call.cost}" if call.cost else ""))
        if call.error:
            click.echo(_field("error", call.error, whole))


_json_option = click.option("--json", "as_json", is_flag=True, help="Print the calls as JSON.")
_count_option = click.option(
    "-n", "--count", type=click.IntRange(min=0), default=10, show_default=True, help="How many (0: all)."
)


_cid_option = click.option("--cid", help="Only the calls of this conversation.")
_model_option = click.option(
    "-m", "--model", metavar="MODEL", help="Only the calls of this model (an id or an alias)."
)
_response_option = click.option(
    "-r", "--response", "response_only", is_flag=True, help="Print the latest answer's text only."
)


def _model(model: str | None) -> str | None:
    """``-m``: an alias stands for its model."""
    return Settings.load().resolve(model) if model else None


@click.group("logs", invoke_without_command=True)
@_count_option
@_cid_option
@_model_option
@_response_option
@_json_option
@click.pass_context
def logs_group(ctx: click.Context, /, **filters: Any) -> None:
    """The calls `generate` and `chat` made (keys are never logged); without a subcommand: list
    (`modelport logs -m MODEL`, `modelport logs -r`)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(logs_list, **filters)


@logs_group.command("list")
@_count_option
@_cid_option
@_model_option
@_response_option
@_json_option
def logs_list(
    count: int = 10,
    cid: str | None = None,
    model: str | None = None,
    response_only: bool = False,
    as_json: bool = False,
) -> None:
    """The latest calls, latest first."""
    store = log_store()
    if response_only:
        latest = store.recent(1, conversation_id=cid, model=_model(model))
        if not latest:
            click.echo("error: no call is logged" + (" for these filters" if cid or model else ""), err=True)
            raise SystemExit(1)
        click.echo(safe(latest[0].response))
        return
    _print(store.recent(count or None, conversation_id=cid, model=_model(model)), as_json)


@logs_group.command("search")
@click.argument("text")
@_count_option
@_model_option
@_json_option
def logs_search(text: str, count: int, model: str | None, as_json: bool) -> None:
    """Calls whose prompt, system instruction or response contains TEXT (any case), latest first:
    through the log's full-text index (SQLite FTS5, trigram) for three characters or more."""
    _print(log_store().search(text, count or None, model=_model(model)), as_json)


@logs_group.command("show")
@click.argument("call_id", metavar="ID", type=int)
@_json_option
def logs_show(call_id: int, as_json: bool) -> None:
    """One call by its number."""
    call = log_store().get(call_id)
    if call is None:
        click.echo(f"error: no call #{call_id} is logged", err=True)
        raise SystemExit(1)
    _print([call], as_json, whole=True)


def _set_logging(on: bool) -> None:
    settings = Settings.load()
    settings.logging = on
    settings.save()


@logs_group.command("off")
def logs_off() -> None:
    """Stop logging calls (the log is kept)."""
    _set_logging(False)
    click.echo("Logging is off.", err=True)


@logs_group.command("on")
def logs_on() -> None:
    """Log calls again (the default)."""
    _set_logging(True)
    click.echo("Logging is on.", err=True)


@logs_group.command("path")
def logs_path() -> None:
    """Where the log database is."""
    click.echo(str(log_store().path))
