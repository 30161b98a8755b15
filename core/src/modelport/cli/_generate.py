"""``modelport generate``: one call from the command line, streamed or not, or a cassette replayed.

Nothing here prints a credential: keys are only read by providers, error messages are scrubbed,
and a cassette given to ``--cassette`` is scanned before it is replayed (by modelport-conformance,
which contributes the replay transport: :mod:`modelport.cli.transports`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from . import terminal
from .terminal import json_text, safe, visible

__all__ = ["generate_command", "parse_options"]

#: Request keywords that have their own option or argument.
_OWN_OPTIONS = {
    "prompt": "the PROMPT argument",
    "messages": "the PROMPT argument",
    "system": "--system",
    "tools": "--tool",
}


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``key=value`` pairs as request keywords: a value that parses as JSON is that JSON value
    (``0.2``, ``100``, ``true``, ``["a"]``, ``{"google": {...}}``), anything else is the string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise click.BadParameter(f"expected key=value, got {pair!r}", param_hint="'-o' / '--option'")
        if key in _OWN_OPTIONS:
            raise click.BadParameter(f"use {_OWN_OPTIONS[key]} for {key!r}", param_hint="'-o' / '--option'")
        if key in options:
            raise click.BadParameter(f"{key!r} is given twice", param_hint="'-o' / '--option'")
        options[key] = _option_value(key, raw)
    return options


def _option_value(key: str, raw: str) -> Any:
    """The JSON value of ``raw``, else ``raw``; JSON nested deeper than the core accepts (or than
    Python's parser can read) is a usage error, not a ``RecursionError``."""
    from modelport.wire import MAX_DEPTH, _too_deep

    try:
        value = json.loads(raw)
    except RecursionError:
        value = too_deep = True
    except ValueError:
        return raw
    else:
        too_deep = raw.count("[") + raw.count("{") > MAX_DEPTH and _too_deep(value, MAX_DEPTH)
    if too_deep:
        raise click.BadParameter(
            f"the value of {key!r} is JSON nested deeper than {MAX_DEPTH} levels",
            param_hint="'-o' / '--option'",
        )
    return value


def _read_prompt(prompt: str) -> str:
    if prompt != "-":
        return prompt
    text = sys.stdin.read().rstrip("\r\n")
    if not text.strip():
        raise click.BadParameter("standard input is empty", param_hint="'PROMPT'")
    return text


@click.command("generate")
@click.argument("model")
@click.argument("prompt")
@click.option("--system", help="A system instruction.")
@click.option(
    "--tool",
    "tools",
    multiple=True,
    help="A provider tool of the model's provider by name, e.g. google_search (repeatable; "
    "`modelport providers` lists them).",
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
@click.option("--max-output-tokens", type=int, help="Limit the answer's length.")
@click.option("--stream", is_flag=True, help="Print the answer as it arrives, token by token.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--cassette",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Replay a recorded cassette offline (needs modelport-conformance).",
)
def generate_command(
    model: str,
    prompt: str,
    system: str | None,
    tools: tuple[str, ...],
    options: tuple[str, ...],
    max_output_tokens: int | None,
    stream: bool,
    as_json: bool,
    cassette: Path | None,
) -> None:
    """Generate an answer from MODEL (provider/model, e.g. google/gemini-2.5-flash) for PROMPT
    (`-` reads it from standard input); cited answers get [n] markers and a numbered Sources list.

    On a terminal a spinner on standard error shows until the first token arrives."""
    import modelport

    request: dict[str, Any] = parse_options(options)
    request["prompt"] = _read_prompt(prompt)
    if system:
        request["system"] = system
    if max_output_tokens is not None:
        request["max_output_tokens"] = max_output_tokens
    try:
        sys.exit(_generate(model, request, tools, stream, as_json, cassette))
    except modelport.ModelportError as error:
        click.echo(f"error: {safe(str(error))}", err=True)
        sys.exit(1)


def _resolve_tools(provider_cls: Any, names: tuple[str, ...]) -> list[Any]:
    """``google_search`` or ``google.google_search`` → the registered provider tool."""
    import modelport
    from modelport.provider_tools import resolve_tool_names

    namespace = provider_cls.tool_namespace
    if namespace is None:
        raise modelport.ProviderToolError(f"provider {provider_cls.id!r} has no provider tools")
    short = [name.removeprefix(f"{namespace}.") for name in names]
    return resolve_tool_names(short, namespace=namespace)


def _replayed_model(model_id: str, path: Path) -> tuple[Any, Callable[[], list[str]]]:
    """A model answering from the recording at ``path``, and the function listing its mismatches."""
    import modelport

    from .transports import open_transport

    replay = open_transport("cassette", model_id, path)
    return modelport.get_model(model_id, **replay.options, transport=replay.transport), replay.problems


def _generate(
    model_id: str,
    request: dict[str, Any],
    tools: tuple[str, ...],
    stream: bool,
    as_json: bool,
    cassette_path: Path | None,
) -> int:
    import modelport
    from modelport import plugins

    provider_cls = plugins.provider_class(plugins.split_model_id(model_id)[0])
    if tools:
        request["tools"] = _resolve_tools(provider_cls, tools)
    problems: Callable[[], list[str]] = list
    if cassette_path is not None:
        model, problems = _replayed_model(model_id, cassette_path)
    else:
        model = modelport.get_model(model_id)
    stderr = sys.stderr
    spinner = terminal.Spinner(stderr, f"waiting for {model_id}", enabled=terminal.is_terminal(stderr))
    try:
        with spinner:
            if stream:
                result = _print_stream(model, request, as_json, spinner.stop)
            else:
                result = model.generate(**request)
    except modelport.ModelportError:
        if problems():
            _report_mismatch(problems())
            return 1
        raise
    finally:
        model.close()
    if problems():
        _report_mismatch(problems())
        return 1
    cited = modelport.cite(result)
    if as_json:
        payload: dict[str, Any] = {
            "text": cited.text,
            "sources": [s.model_dump(mode="json", exclude_none=True) for s in cited.sources],
        }
        payload["result"] = result.model_dump(mode="json", exclude_none=True)
        click.echo(json_text(payload))
    elif stream:
        if cited.sources:
            click.echo("\n" + safe(cited.with_sources()))
    else:
        click.echo(safe(cited.with_sources()))
    return 0


def _print_stream(model: Any, request: dict[str, Any], as_json: bool, first_token: Callable[[], None]) -> Any:
    """Print text deltas as they arrive (a control sequence split across deltas is removed whole)."""
    from modelport.citations import ControlStripper

    stripper = ControlStripper()
    result_stream = model.stream(**request)
    for event in result_stream:
        if event.type == "text-delta":
            first_token()
            if not as_json:
                click.echo(visible(stripper.feed(event.delta)), nl=False)
    first_token()
    result = result_stream.result()
    if not as_json:
        click.echo(visible(stripper.flush()))
    return result


def _report_mismatch(problems: list[str]) -> None:
    click.echo("error: the request does not match the cassette:", err=True)
    for problem in problems:
        click.echo(safe(problem), err=True)
