"""``modelport conformance``, contributed to the core's ``modelport`` command through the entry-point
group ``modelport.commands``, and the cassette replay transport behind ``modelport generate
--cassette``, contributed through the group ``modelport.transports``.

:data:`main` is the whole ``modelport`` command (the core's :data:`modelport.cli.main`), kept here so
``from modelport_conformance.cli import main`` goes on working.

Nothing here prints a credential: error messages are scrubbed, and a cassette given to
``generate --cassette`` is scanned before it is replayed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from modelport.cli import main, terminal
from modelport.cli.terminal import safe
from modelport.cli.transports import Replay

from .bounds import DEFAULT_CASE_MEMORY, DEFAULT_CASE_TIMEOUT
from .import_command import import_command
from .mutation_command import mutate_options
from .report import FORMATS

if TYPE_CHECKING:
    from .report import Report

__all__ = ["cassette_replay", "cassette_transport", "conformance_command", "main"]


@click.group("conformance", invoke_without_command=True)
@click.option("--provider", "providers", multiple=True, help="Run only this provider (repeatable).")
@click.option(
    "--model", "models", multiple=True, help="Run only cases of this model, skip the rest (repeatable)."
)
@click.option("--strict", is_flag=True, help="Fail when a registered provider has no cases.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the report here.")
@click.option(
    "--junit",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write JUnit XML here (one test case per check).",
)
@click.option(
    "--summary",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write a summary JSON here (counts and a shields.io badge object).",
)
@click.option(
    "--badge",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the shields.io endpoint badge JSON alone here.",
)
@click.option(
    "--regenerate",
    is_flag=True,
    help="Write expected.proposed.json beside each expected.json that the current adapter changes "
    "(offline), and print the diff to review; refused when CI is set.",
)
@click.option("--accept", is_flag=True, help="Move every expected.proposed.json over its expected.json.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or progress lines.")
@click.option(
    "--case-timeout",
    type=click.FloatRange(min=0),
    default=DEFAULT_CASE_TIMEOUT,
    show_default=True,
    help="Seconds one case may run before it is stopped with a time-out row (0: no bound).",
)
@click.option(
    "--case-memory",
    type=click.IntRange(min=0),
    default=DEFAULT_CASE_MEMORY // 1024**2,
    show_default=True,
    help="MiB the process may grow by during one case before it is stopped (Linux; 0: no bound).",
)
@mutate_options
@click.pass_context
def conformance_command(
    ctx: click.Context,
    providers: tuple[str, ...],
    models: tuple[str, ...],
    strict: bool,
    fmt: str,
    output: Path | None,
    junit: Path | None,
    summary: Path | None,
    badge: Path | None,
    regenerate: bool,
    accept: bool,
    quiet: bool,
    case_timeout: float,
    case_memory: int,
    mutation: dict[str, Any],
) -> None:
    """Replay every registered provider's cassettes offline and print the matrix.

    On a terminal a progress bar on standard error; otherwise one line per case. `--format html`
    writes one self-contained page (use it with --output). `conformance import` turns recorded
    traffic into cases."""
    if ctx.invoked_subcommand is not None:
        return
    from . import goldens
    from .report import render, run_conformance
    from .runner import CaseOutcome

    refused = goldens.cli_refusal(regenerate=regenerate, accept=accept)
    if refused is not None:
        click.echo(f"error: {refused}", err=True)
        sys.exit(2)
    if accept:
        sys.exit(goldens.accept_command(providers or None, click.echo))
    if mutation["mutate"]:
        from .mutation_command import run_mutate

        run_mutate(providers, mutation, fmt=fmt, output=output, quiet=quiet, case_timeout=case_timeout)

    stderr = sys.stderr
    bar: terminal.ProgressBar | None = None

    def start(total: int) -> None:
        nonlocal bar
        if not quiet and terminal.is_terminal(stderr):
            bar = terminal.ProgressBar(stderr, total, enabled=True)

    def progress(outcome: CaseOutcome) -> None:
        label = f"{outcome.provider_id}/{outcome.case}"
        if bar is not None:
            bar.advance(f"{label} {outcome.status.upper()}")
        elif not quiet:
            click.echo(safe(f"{label} ... {outcome.status.upper()}").replace("\n", " "), err=True)

    try:
        report = run_conformance(
            providers or None,
            strict=strict,
            regenerate=regenerate,
            progress=progress,
            models=models,
            start=start,
            case_timeout=case_timeout or None,
            case_memory=case_memory * 1024**2 or None,
        )
    finally:
        if bar is not None:
            bar.close()
    if regenerate:
        goldens.print_review(report, lambda line: click.echo(safe(line), err=True))
    _write_ci_files(report, junit=junit, summary=summary, badge=badge, quiet=quiet)
    text = render(report, fmt)
    if output is not None:
        output.write_text(text + "\n", encoding="utf-8")
        if not quiet:
            click.echo(safe(f"report written to {output}"), err=True)
    else:
        click.echo(text if fmt in {"json", "html"} else safe(text))
    if fmt != "table" and output is not None and not quiet:
        click.echo("conformance: OK" if report.ok else "conformance: FAILED", err=True)
    sys.exit(0 if report.ok else 1)


conformance_command.add_command(import_command)


def _write_ci_files(
    report: Report, *, junit: Path | None, summary: Path | None, badge: Path | None, quiet: bool
) -> None:
    """The files a CI system reads (:mod:`modelport_conformance.ci_files`), those asked for."""
    import json

    from . import ci_files
    from .report import writable

    texts: list[tuple[Path | None, Callable[[], str]]] = [
        (junit, lambda: ci_files.junit_xml(report)),
        (summary, lambda: json.dumps(ci_files.summary(report), indent=2, ensure_ascii=False) + "\n"),
        (badge, lambda: json.dumps(ci_files.badge(report), ensure_ascii=False) + "\n"),
    ]
    for path, text in texts:
        if path is not None:
            path.write_text(writable(text()), encoding="utf-8")
            if not quiet:
                click.echo(safe(f"written {path}"), err=True)


# --------------------------------------------------------------------------- generate --cassette


def cassette_transport(model_id: str, path: Path) -> Replay:
    """The replay transport behind ``modelport generate --cassette`` (contributed through the
    entry-point group ``modelport.transports``): the cassette at ``path`` is scanned for
    credential-looking strings first, and refused with them listed."""
    import yaml

    from modelport import plugins
    from modelport.errors import ConfigurationError

    from .cases import read_case_file
    from .cassette import load_cassette
    from .credentials import scan_text
    from .player import CassettePlayer
    from .replay import replay_settings

    provider_id = plugins.provider_class(plugins.split_model_id(model_id)[0]).id
    try:
        text = read_case_file(path)
    except ValueError as error:
        raise ConfigurationError(str(error)) from None
    findings = scan_text(text, _secret_patterns(provider_id))
    if findings:
        lines = ["the cassette contains credential-looking strings:"]
        raise ConfigurationError("\n".join(lines + ["  " + f.describe(path.name) for f in findings]))
    try:
        cassette = load_cassette(text, path.name)
    except (ValueError, yaml.YAMLError) as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or str(error) or type(error).__name__
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise ConfigurationError(f"{path.name} is not a cassette: {problem}{where}") from None
    player = CassettePlayer(cassette)
    return Replay(player.transport, replay_settings(provider_id), player.problems)


def cassette_replay(model_id: str, path: Path) -> tuple[Any, Callable[[], list[str]]] | list[str]:
    """A model that replays the cassette at ``path`` and the function listing the requests that did
    not match it; or, when the cassette cannot be used, the error lines to print."""
    import modelport
    from modelport.errors import ConfigurationError

    try:
        replay = cassette_transport(model_id, path)
    except ConfigurationError as error:
        return [f"error: {line}" if i == 0 else line for i, line in enumerate(str(error).splitlines())]
    model = modelport.get_model(model_id, **replay.options, transport=replay.transport)
    return model, replay.problems


def _secret_patterns(provider_id: str) -> dict[str, str]:
    """The ``secret_patterns`` the provider's suites registered (the scan adds them to its own)."""
    from .suites import conformance_suites

    suites = conformance_suites().get(provider_id, [])
    return {kind: pattern for suite in suites for kind, pattern in suite.secret_patterns.items()}
