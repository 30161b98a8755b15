"""``modelport generate``: one call from the command line (streamed on a terminal), continuing a
logged conversation or not, or a cassette replayed; every call is logged (:mod:`._logs`).

Nothing here prints a credential: keys are only read by providers, error messages are scrubbed,
and a cassette given to ``--cassette`` is scanned before it is replayed (by modelport-conformance,
which contributes the replay transport: :mod:`modelport.cli.transports`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from . import terminal
from ._connect import connect_options, error_text, model_id, open_model, verbose_logging
from ._files import check_user_file, stdin_text
from ._fragments import fragment_option
from ._fragments import resolve as resolve_fragment
from ._functions import FunctionRun, function_options
from ._home import Settings
from ._logstore import Call, new_conversation_id
from ._mcp import mcp_options, mcp_servers
from ._options import parse_options
from ._request import attachment, history, resent_options, user_message
from ._templates import load_template, response_format, template_option
from ._turn import Printing, log_call, run_turn
from .terminal import safe

__all__ = ["generate_command", "logged_conversation", "parse_options"]


def _read_prompt(prompt: str | None, required: bool = True) -> str | None:
    """The prompt given (``-``: standard input); ``None`` when none is, and none is ``required``."""
    if prompt != "-":
        return prompt
    text = stdin_text(sys.stdin, param_hint="'PROMPT'").rstrip("\r\n")
    if not text.strip():
        if not required:
            return None
        raise click.BadParameter("standard input is empty", param_hint="'PROMPT'")
    return text


def _model_and_prompt(
    words: tuple[str, ...], model_option: str | None, required: bool = True
) -> tuple[str | None, str | None]:
    """``[MODEL] PROMPT``: two words are the model and the prompt, one is the prompt (the model
    comes from ``-m``, the conversation or the default); none reads the prompt from piped input
    (or is no prompt, when a template needs none)."""
    if len(words) > 2:
        raise click.UsageError("expected [MODEL] PROMPT (quote a prompt of several words)")
    if len(words) == 2:
        if model_option is not None:
            raise click.UsageError("the model is given twice (as -m and as an argument)")
        return words[0], words[1]
    if len(words) == 1:
        return model_option, words[0]
    if sys.stdin.isatty():
        if not required:
            return model_option, None
        raise click.UsageError("no prompt: give one, or pipe it in")
    return model_option, "-"


def logged_conversation(continue_: bool, cid: str | None) -> list[Call]:
    """The calls of the conversation ``-c`` (the latest) or ``--cid`` continues, oldest first."""
    if not (continue_ or cid):
        return []
    from ._logs import log_store

    store = log_store()
    cid = cid or store.latest_conversation()
    calls = store.conversation(cid) if cid else []
    if not calls:
        raise click.UsageError(
            f"no logged conversation {cid!r}" if cid else "no logged conversation to continue"
        )
    return calls


@click.command("generate")
@click.argument("words", nargs=-1, metavar="[MODEL] PROMPT")
@click.option(
    "-m",
    "--model",
    "model_option",
    metavar="MODEL",
    help="The model (provider/name, or an alias); else the default model.",
)
@connect_options
@template_option
@fragment_option
@click.option("-s", "--system", help="A system instruction.")
@click.option(
    "-a",
    "--attach",
    "attachments",
    multiple=True,
    metavar="FILE|URL",
    help="Attach an image, a PDF or a text file (or an http(s) URL) to the prompt (repeatable).",
)
@click.option(
    "--schema",
    metavar="FILE|MODULE:TYPE|FIELDS",
    help="Answer in JSON following a JSON schema file, a type (myapp:Person) or fields "
    "('name, age int'); prints the parsed JSON.",
)
@click.option("-c", "--continue", "continue_", is_flag=True, help="Continue the latest logged conversation.")
@click.option("--cid", metavar="ID", help="Continue the logged conversation ID (`modelport logs` shows ids).")
@click.option(
    "--tool",
    "tools",
    multiple=True,
    help="A server tool: web_search, web_fetch or code_execution on any provider that has it, or one "
    "of the model's provider's own tools, e.g. google_search (repeatable; `modelport providers` "
    "lists them).",
)
@click.option(
    "-o",
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A request option, e.g. -o temperature=0.2 -o max_output_tokens=100 (repeatable); "
    "the value is parsed as JSON when it parses, else taken as a string.",
)
@function_options
@mcp_options
@click.option("--max-output-tokens", type=int, help="Limit the answer's length.")
@click.option(
    "--stream/--no-stream",
    default=None,
    help="Print the answer as it arrives (the default on a terminal) or once it is complete.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--usage", is_flag=True, help="Print the token usage on standard error.")
@click.option("-v", "--verbose", is_flag=True, help="Show retries and timings on standard error.")
@click.option("--no-log", is_flag=True, help="Do not log this call.")
@click.option(
    "--cassette",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Replay a recorded cassette offline (needs modelport-conformance).",
)
def generate_command(
    words: tuple[str, ...],
    model_option: str | None,
    base_url: str | None,
    key: str | None,
    template_name: str | None,
    fragments: tuple[str, ...],
    system: str | None,
    attachments: tuple[str, ...],
    schema: str | None,
    continue_: bool,
    cid: str | None,
    tools: tuple[str, ...],
    options: tuple[str, ...],
    function_specs: tuple[str, ...],
    function_files: tuple[str, ...],
    yes: bool,
    max_steps: int,
    mcp_specs: tuple[str, ...],
    mcp_headers: tuple[str, ...],
    mcp_timeout: float,
    max_output_tokens: int | None,
    stream: bool | None,
    as_json: bool,
    usage: bool,
    verbose: bool,
    no_log: bool,
    cassette: Path | None,
) -> None:
    """Generate an answer from MODEL (provider/model, e.g. google/gemini-2.5-flash, or an alias;
    else -m, else the default model) for PROMPT (`-` reads it from standard input); cited answers
    get [n] markers and a numbered Sources list.

    On a terminal the answer streams as it arrives, and a spinner on standard error shows until the
    first token. The call is logged (`modelport logs`); -c continues the latest conversation."""
    import modelport

    settings = Settings.load()
    template = load_template(template_name) if template_name is not None else None
    model_arg, prompt = _model_and_prompt(words, model_option, template is None or template.needs_input)
    if template is not None:  # what the command line gives wins
        model_arg = model_arg or template.model
        system = template.system if system is None else system
        schema_spec: dict[str, Any] | str | None = template.schema if schema is None else schema
    else:
        schema_spec = schema
    conversation = logged_conversation(continue_, cid)
    if conversation and model_arg is None:
        model_arg = conversation[-1].model
    if conversation and base_url is None:
        base_url = conversation[-1].base_url
    model = model_id(model_arg, settings)
    base_url = base_url or settings.base_url(model_arg)
    if cassette is not None:
        cassette = check_user_file(cassette, param_hint="'--cassette'")
    servers = mcp_servers(mcp_specs, mcp_headers, mcp_timeout)
    functions = FunctionRun.checked(function_specs, function_files, yes, max_steps, verbose, servers)
    given = {**(template.options if template else {}), **parse_options(options)}
    if conversation:  # the conversation's instruction and options, unless given again
        system = conversation[-1].system if system is None else system
        given = {**resent_options(conversation[-1]), **given}
        if max_output_tokens is None and isinstance(given.get("max_output_tokens"), int):
            max_output_tokens = given.pop("max_output_tokens")
        previous_tools = given.pop("tools", None)
        if not tools and isinstance(previous_tools, list):
            tools = tuple(str(name) for name in previous_tools)
    logged: dict[str, Any] = dict(given)
    request: dict[str, Any] = dict(logged)
    read = _read_prompt(prompt, template is None or template.needs_input)
    text = template.prompt_for(read) if template is not None else str(read)
    context = [resolve_fragment(v) for v in (*(template.fragments if template else ()), *fragments)]
    parts = [*(f.part() for f in context), *(attachment(value) for value in attachments)]
    if conversation or parts:
        request["messages"] = [*history(conversation), user_message(text, parts)]
    else:
        request["prompt"] = text
    if system:
        request["system"] = system
    if max_output_tokens is not None:
        request["max_output_tokens"] = logged["max_output_tokens"] = max_output_tokens
    if schema_spec:
        request["response_format"] = response_format(schema_spec)
        logged["schema"] = schema_spec
    if template is not None:
        logged["template"] = template.name
    if context:
        logged["fragments"] = [f.logged() for f in context]
    if tools:
        logged["tools"] = list(tools)
    if functions is not None and functions.tools:
        logged["functions"] = [t.name for t in functions.tools]
    if servers:  # by name: never a header, a URL's query, or a command's key-shaped argument
        logged["mcp"] = [safe(server.name) for server in servers]
    if stream is None:
        stream = terminal.is_terminal(sys.stdout) and not (as_json or schema_spec or functions)
    printing = Printing(
        stream=stream, as_json=as_json, schema=bool(schema_spec), usage=usage, verbose=verbose
    )
    try:
        with verbose_logging(verbose):
            outcome = _generate(model, request, tools, printing, cassette, base_url, key, functions)
    except modelport.ModelportError as error:
        click.echo(f"error: {error_text(error)}", err=True)
        sys.exit(1)
    if not no_log and cassette is None and _was_sent(outcome.error):
        log_call(
            settings,
            conversation_id=conversation[-1].conversation_id if conversation else new_conversation_id(),
            model=model,
            prompt=text,
            outcome=outcome,
            system=system,
            options=logged,
            attachments=list(attachments),
            base_url=base_url,
            fragments={f.sha256: f.text for f in context},
        )
    if outcome.problems:
        _report_mismatch(outcome.problems)
        sys.exit(1)
    if outcome.error is not None:
        click.echo(f"error: {error_text(outcome.error)}", err=True)
        sys.exit(1)


def _was_sent(error: BaseException | None) -> bool:
    """Whether a call may have reached the provider (a request refused before any I/O is not logged)."""
    from modelport.errors import ConfigurationError, InvalidRequestError

    return not isinstance(error, (ConfigurationError, InvalidRequestError))


def _generate(
    model_id: str,
    request: dict[str, Any],
    tools: tuple[str, ...],
    printing: Printing,
    cassette_path: Path | None,
    base_url: str | None,
    key: str | None,
    functions: FunctionRun | None = None,
) -> Any:
    from modelport import plugins

    provider_cls = plugins.provider_class(plugins.split_model_id(model_id)[0])
    if tools:
        request["tools"] = _resolve_tools(provider_cls, tools)
    problems: Callable[[], list[str]] = list
    if cassette_path is not None:
        model, problems = _replayed_model(model_id, cassette_path)
    else:
        model = open_model(model_id, base_url=base_url, key=key)
    try:
        if functions is not None:
            return functions.run(model, request, printing)
        return run_turn(model, request, printing, problems)
    finally:
        model.close()


def _resolve_tools(provider_cls: Any, names: tuple[str, ...]) -> list[Any]:
    """A neutral tool's name (``web_search``, :mod:`modelport.tools`) → that neutral tool, compiled
    for the provider when the call is validated; else ``google_search`` or ``google.google_search``
    → the registered provider tool. Order is kept."""
    import modelport
    from modelport.provider_tools import resolve_tool_names
    from modelport.tools import NEUTRAL_TOOL_NAMES, NeutralTool

    namespace = provider_cls.tool_namespace
    own = [name for name in names if name not in NEUTRAL_TOOL_NAMES]
    if own and namespace is None:
        raise modelport.ProviderToolError(f"provider {provider_cls.id!r} has no provider tools")
    resolved = iter(
        resolve_tool_names([name.removeprefix(f"{namespace}.") for name in own], namespace=namespace or "")
    )
    return [
        NeutralTool.model_validate({"name": name, "options": {}})
        if name in NEUTRAL_TOOL_NAMES
        else next(resolved)
        for name in names
    ]


def _replayed_model(model_id: str, path: Path) -> tuple[Any, Callable[[], list[str]]]:
    """A model answering from the recording at ``path``, and the function listing its mismatches."""
    import modelport

    from .transports import open_transport

    replay = open_transport("cassette", model_id, path)
    return modelport.get_model(model_id, **replay.options, transport=replay.transport), replay.problems


def _report_mismatch(problems: list[str]) -> None:
    click.echo("error: the request does not match the cassette:", err=True)
    for problem in problems:
        click.echo(safe(problem), err=True)
