"""``modelport chat``: an interactive conversation with a model, logged as one conversation.

Each line is a turn (line editing and history through ``readline`` where Python has it); ``!multi``
starts a block of several lines, ended by ``!end``; ``!edit`` writes the turn in ``$VISUAL`` /
``$EDITOR`` (an empty file sends nothing); ``!fragment X [Y ...]`` sends those fragments (files,
URLs, stored names, as ``generate -f``) with the next turn; ``exit``, ``quit`` or Ctrl-D ends the
chat.
Answers stream on a terminal. A failed turn is reported and left out of the conversation.

``--mcp CMD|URL`` (repeatable, with ``--mcp-header``, ``--mcp-timeout``, ``--yes``, ``--max-steps``
as in ``generate``: :mod:`._mcp`, :mod:`._functions`) opens the servers once, before the first turn,
and closes them when the chat ends, however it ends; each turn runs the tool loop with their tools,
each call asked about on the terminal unless ``--yes``, and the turn's calls and results stay in
the conversation the next turn sends.

A turn is bounded like a file the command reads (:data:`MAX_TURN_CHARS`, 32 MiB): piped input is
read at most that much at a time, and a longer line (or ``!multi`` block) is read on to its end,
dropped and reported in one line, and the chat goes on; on a terminal, the line editor returns
the line whole and the same bound refuses it.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import click

from . import terminal
from ._connect import connect_options, error_text, model_id, open_model, verbose_logging
from ._files import MAX_FILE_BYTES, LineRefused, NotText, _size, stdin_line
from ._functions import FunctionRun, approval_options
from ._generate import logged_conversation, parse_options
from ._home import Settings
from ._logstore import new_conversation_id
from ._mcp import mcp_options, mcp_servers
from ._request import history, resent_options, user_message
from ._templates import Refused, Template, load_template, template_option
from ._turn import Outcome, Printing, log_call, run_turn

__all__ = ["chat_command"]

MULTI, END, EDIT, FRAGMENT = "!multi", "!end", "!edit", "!fragment"

#: The longest turn, in characters: a line, or a ``!multi`` block with its line ends.
MAX_TURN_CHARS = MAX_FILE_BYTES


def _read_line(prompt: str) -> str:
    """One line typed, without its line end (``EOFError`` at the end of input), at most
    :data:`MAX_TURN_CHARS` characters (:class:`LineRefused` otherwise)."""
    if sys.stdin.isatty():
        line = input(prompt)  # the line editor (readline) returns the line whole
        if len(line) > MAX_TURN_CHARS:
            raise LineRefused(f"the line is larger than the limit of {_size(MAX_TURN_CHARS)}; it is not sent")
        return line
    sys.stdout.write(prompt)
    sys.stdout.flush()
    read = stdin_line(sys.stdin, limit=MAX_TURN_CHARS)
    if read is None:
        raise EOFError
    return read


def _read_turn(prompt: str) -> str | None:
    """The next turn typed (a ``!multi`` block joined by newlines); ``None`` at the end."""
    try:
        line = _read_line(prompt)
    except EOFError:
        return None
    if line.strip() == MULTI:
        return _read_block()
    if line.strip() == EDIT:
        return _edited()
    if line.strip() in ("exit", "quit"):
        return None
    return line


def _edited() -> str:
    """A turn written in the user's editor (click finds ``$VISUAL``, ``$EDITOR``, else a default);
    ``""`` (nothing sent) when the file is left empty or the editor is quit without saving."""
    try:
        text = click.edit("", extension=".md", require_save=True)
    except click.ClickException as error:  # no editor could be started
        raise LineRefused(f"!edit: {error.format_message()}") from None
    if text is not None and len(text) > MAX_TURN_CHARS:
        raise LineRefused(f"the text is larger than the limit of {_size(MAX_TURN_CHARS)}; it is not sent")
    return (text or "").rstrip("\n")


def _read_block() -> str:
    """The lines of a ``!multi`` block up to ``!end`` (or the end of input), joined by newlines; a
    block over :data:`MAX_TURN_CHARS` is read to its end and refused (:class:`LineRefused`)."""
    lines: list[str] = []
    size, too_long = 0, False
    while True:
        try:
            line = _read_line("... ")
        except EOFError:
            break
        except NotText:
            raise
        except LineRefused:
            too_long = True
            continue
        if line.strip() == END:
            break
        size += len(line) + 1
        too_long = too_long or size - 1 > MAX_TURN_CHARS
        if not too_long:
            lines.append(line)
    if too_long:
        raise LineRefused(f"the block is larger than the limit of {_size(MAX_TURN_CHARS)}; it is not sent")
    return "\n".join(lines)


@dataclass
class _Chat:
    """One chat: the model, what every turn carries, and the conversation so far."""

    model: Any
    model_id: str
    conversation_id: str
    printing: Printing
    settings: Settings
    turns: list[dict[str, Any]] = field(default_factory=list)
    system: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    base_url: str | None = None
    template: Template | None = None
    #: ``!fragment``: sent with the next turn (and kept until one is answered).
    pending: list[Any] = field(default_factory=list)
    #: ``--mcp``: the tool loop each turn runs, its servers open for the whole chat.
    tools: FunctionRun | None = None

    def run(self) -> None:
        """Turns until the end of input: each sent with the conversation so far, printed, logged;
        a turn over the bound is reported and not sent, and the chat goes on."""
        while True:
            try:
                text = _read_turn("> ")
            except NotText as error:
                click.echo(f"error: {error}", err=True)
                raise SystemExit(1) from None
            except LineRefused as error:
                click.echo(f"error: {error}", err=True)
                continue
            if text is None:
                return
            if text.strip().split(maxsplit=1)[:1] == [FRAGMENT]:
                self.add_fragments(text.split()[1:])
            elif text.strip():
                self.turn(text)

    def add_fragments(self, values: list[str]) -> None:
        """``!fragment X [Y ...]``: each resolved now (a bad one is one line, the others kept)."""
        from ._fragments import resolve

        if not values:
            click.echo("error: !fragment takes a file, a URL or a stored fragment name", err=True)
        for value in values:
            try:
                fragment = resolve(value)
            except click.ClickException as error:
                click.echo(f"error: {terminal.safe(error.format_message())}", err=True)
                continue
            self.pending.append(fragment)
            click.echo(
                terminal.safe(f"fragment {value}: {len(fragment.text)} characters, sent with the next turn"),
                err=True,
            )

    def turn(self, text: str) -> None:
        if self.template is not None and self.template.prompt is not None:
            text = self.template.prompt_for(text)
        message = user_message(text, [f.part() for f in self.pending])
        request: dict[str, Any] = {**self.options, "messages": [*self.turns, message]}
        if self.system:
            request["system"] = self.system
        outcome = self._answer(request)
        if outcome is None:  # the servers' tools could not be listed: nothing was sent
            return
        if outcome.error is not None:
            click.echo(f"error: {error_text(outcome.error)}", err=True)
        elif outcome.messages is not None:  # the tool loop's calls and results are the conversation's
            self.turns = list(outcome.messages)
        else:
            self.turns += [message, {"role": "assistant", "content": outcome.text}]
        sent, options = self.pending, dict(self.options)
        if self.tools is not None:  # by name, as generate logs them
            options["mcp"] = [terminal.safe(server.name) for server in self.tools.servers]
        if sent:
            options["fragments"] = [f.logged() for f in sent]
            if outcome.error is None:
                self.pending = []
        log_call(
            self.settings,
            conversation_id=self.conversation_id,
            model=self.model_id,
            prompt=text,
            outcome=outcome,
            system=self.system,
            options=options,
            base_url=self.base_url,
            fragments={f.sha256: f.text for f in sent},
        )

    def _answer(self, request: dict[str, Any]) -> Outcome | None:
        """The turn sent and printed: one call, or the tool loop with the servers' tools; ``None``
        (reported in one line) when those tools cannot be listed again (a server gone, two tools
        of one name after a list changed)."""
        if self.tools is None:
            return run_turn(self.model, request, self.printing)
        from modelport.errors import ModelportError

        try:
            return self.tools.run(self.model, request, self.printing)
        except ModelportError as error:
            click.echo(f"error: {error_text(error)}", err=True)
        except click.ClickException as error:
            click.echo(f"error: {error.format_message()}", err=True)
        return None


@click.command("chat")
@click.argument("model", required=False)
@connect_options
@template_option
@click.option("-s", "--system", help="A system instruction for the whole chat.")
@click.option(
    "-o", "--option", "options", multiple=True, metavar="KEY=VALUE", help="A request option (repeatable)."
)
@click.option("--cid", metavar="ID", help="Continue the logged conversation ID.")
@click.option("-c", "--continue", "continue_", is_flag=True, help="Continue the latest logged conversation.")
@mcp_options
@approval_options
@click.option("--stream/--no-stream", default=None, help="Stream answers (the default on a terminal).")
@click.option("-v", "--verbose", is_flag=True, help="Show retries and timings on standard error.")
def chat_command(
    model: str | None,
    base_url: str | None,
    key: str | None,
    template_name: str | None,
    system: str | None,
    options: tuple[str, ...],
    cid: str | None,
    continue_: bool,
    mcp_specs: tuple[str, ...],
    mcp_headers: tuple[str, ...],
    mcp_timeout: float,
    yes: bool,
    max_steps: int,
    stream: bool | None,
    verbose: bool,
) -> None:
    """Chat with MODEL (else the default model): type a message, !multi for several lines
    (ended by !end), Ctrl-D or exit to leave. With --mcp, each turn may call the tools of MCP
    servers, open for the whole chat (each call asked about, unless --yes)."""
    import modelport

    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    settings = Settings.load()
    template = load_template(template_name) if template_name is not None else None
    if template is not None:  # what the command line gives wins
        if template.schema is not None or template.fragments:
            raise Refused(f"template {template.name!r} has a schema or fragments: use generate -t")
        model = model or template.model
        system = template.system if system is None else system
    earlier = logged_conversation(continue_, cid)
    if earlier:
        model = model or earlier[-1].model
        base_url = base_url or earlier[-1].base_url
    chosen = model_id(model, settings)
    base_url = base_url or settings.base_url(model)
    request_options = {**(template.options if template else {}), **parse_options(options)}
    if earlier:  # the conversation's instruction and options, unless given again (tools: generate's)
        system = earlier[-1].system if system is None else system
        carried = {k: v for k, v in resent_options(earlier[-1]).items() if k != "tools"}
        request_options = {**carried, **request_options}
    servers = mcp_servers(mcp_specs, mcp_headers, mcp_timeout)
    tools = FunctionRun.checked((), (), yes, max_steps, verbose, servers)
    try:
        opened = open_model(chosen, base_url=base_url, key=key)
    except modelport.ModelportError as error:
        click.echo(f"error: {error_text(error)}", err=True)
        raise SystemExit(1) from None
    chat = _Chat(
        model=opened,
        model_id=chosen,
        conversation_id=earlier[-1].conversation_id if earlier else new_conversation_id(),
        printing=Printing(
            stream=terminal.is_terminal(sys.stdout) if stream is None else stream, verbose=verbose
        ),
        settings=settings,
        turns=history(earlier),
        system=system,
        options=request_options,
        base_url=base_url,
        template=template,
        tools=tools,
    )
    with ExitStack() as stack:  # the model and the servers closed however the chat ends
        stack.callback(opened.close)
        if tools is not None:
            try:
                stack.enter_context(tools.session())
            except modelport.ModelportError as error:  # a server that cannot start: one line
                click.echo(f"error: {error_text(error)}", err=True)
                raise SystemExit(1) from None
        click.echo(f"Chatting with {chosen}: !multi for several lines, Ctrl-D or exit to leave.", err=True)
        with verbose_logging(verbose):
            chat.run()
    click.echo("", err=True)
