"""``modelport chat``: an interactive conversation with a model, logged as one conversation.

Each line is a turn (line editing and history through ``readline`` where Python has it); ``!multi``
starts a block of several lines, ended by ``!end``; ``exit``, ``quit`` or Ctrl-D ends the chat.
Answers stream on a terminal. A failed turn is reported and left out of the conversation.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from . import terminal
from ._connect import connect_options, error_text, model_id, open_model, verbose_logging
from ._generate import parse_options
from ._home import Settings
from ._logstore import new_conversation_id
from ._request import history, user_message
from ._turn import Printing, log_call, run_turn

__all__ = ["chat_command"]

MULTI, END = "!multi", "!end"


def _read_turn(prompt: str) -> str | None:
    """The next turn typed (a ``!multi`` block joined by newlines); ``None`` at the end."""
    try:
        line = input(prompt)
    except EOFError:
        return None
    if line.strip() == MULTI:
        lines = []
        while True:
            try:
                line = input("... ")
            except EOFError:
                break
            if line.strip() == END:
                break
            lines.append(line)
        return "\n".join(lines)
    if line.strip() in ("exit", "quit"):
        return None
    return line


@click.command("chat")
@click.argument("model", required=False)
@connect_options
@click.option("-s", "--system", help="A system instruction for the whole chat.")
@click.option(
    "-o", "--option", "options", multiple=True, metavar="KEY=VALUE", help="A request option (repeatable)."
)
@click.option("--cid", metavar="ID", help="Continue the logged conversation ID.")
@click.option("-c", "--continue", "continue_", is_flag=True, help="Continue the latest logged conversation.")
@click.option("--stream/--no-stream", default=None, help="Stream answers (the default on a terminal).")
@click.option("-v", "--verbose", is_flag=True, help="Show retries and timings on standard error.")
def chat_command(
    model: str | None,
    base_url: str | None,
    key: str | None,
    system: str | None,
    options: tuple[str, ...],
    cid: str | None,
    continue_: bool,
    stream: bool | None,
    verbose: bool,
) -> None:
    """Chat with MODEL (else the default model): type a message, !multi for several lines
    (ended by !end), Ctrl-D or exit to leave."""
    import modelport

    from ._generate import _conversation

    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    settings = Settings.load()
    earlier = _conversation(continue_, cid)
    if earlier:
        model = model or earlier[-1].model
        base_url = base_url or earlier[-1].base_url
    chosen = model_id(model, settings)
    request_options: dict[str, Any] = parse_options(options)
    conversation_id = earlier[-1].conversation_id if earlier else new_conversation_id()
    turns = history(earlier)
    verbose_logging(verbose)
    printing = Printing(
        stream=terminal.is_terminal(sys.stdout) if stream is None else stream, verbose=verbose
    )
    try:
        opened = open_model(chosen, base_url=base_url, key=key)
    except modelport.ModelportError as error:
        click.echo(f"error: {error_text(error)}", err=True)
        raise SystemExit(1) from None
    click.echo(f"Chatting with {chosen}: !multi for several lines, Ctrl-D or exit to leave.", err=True)
    try:
        while (text := _read_turn("> ")) is not None:
            if not text.strip():
                continue
            message = user_message(text, [])
            request: dict[str, Any] = {**request_options, "messages": [*turns, message]}
            if system:
                request["system"] = system
            outcome = run_turn(opened, request, printing)
            if outcome.error is not None:
                click.echo(f"error: {error_text(outcome.error)}", err=True)
            else:
                turns += [message, {"role": "assistant", "content": outcome.text}]
            log_call(
                settings,
                conversation_id=conversation_id,
                model=chosen,
                prompt=text,
                outcome=outcome,
                system=system,
                options=request_options,
                base_url=base_url,
            )
    finally:
        opened.close()
    click.echo("", err=True)
