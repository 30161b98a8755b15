"""The ``--mutate`` options of ``modelport conformance`` and what they run
(:mod:`modelport_conformance.mutation`); kept apart so the command itself grows by two lines."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from modelport.cli.terminal import safe

from .mutation import DEFAULT_MUTANT_TIMEOUT, DEFAULT_SAMPLE, MutantResult, render_mutation, run_mutation

__all__ = ["mutate_options", "run_mutate"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _bounded(name: str, kind: Any, default: float, text: str) -> Callable[[_F], _F]:
    """A numeric ``--mutate`` option with its default shown."""
    return click.option(name, type=kind, default=default, show_default=True, help=f"With --mutate: {text}")


_OPTIONS = (
    click.option(
        "--mutate",
        is_flag=True,
        help="Mutation score: replay the cases against mutants of the provider's mapping modules.",
    ),
    _bounded(
        "--sample", click.IntRange(min=0), DEFAULT_SAMPLE, "mutants drawn per provider (0: every mutant)."
    ),
    _bounded("--seed", click.INT, 0, "the sampling seed."),
    _bounded(
        "--mutant-timeout",
        click.FloatRange(min=1),
        DEFAULT_MUTANT_TIMEOUT,
        "seconds one mutant's process may run; past it the mutant counts as killed.",
    ),
    _bounded(
        "--budget",
        click.FloatRange(min=0),
        0,
        "seconds after which no further mutant starts (0: no bound).",
    ),
    _bounded("--jobs", click.IntRange(min=1), 1, "mutants run at once."),
)


def mutate_options(command: _F) -> _F:
    """The ``--mutate`` options, gathered into one ``mutation`` keyword of ``command``."""
    names = ("mutate", "sample", "seed", "mutant_timeout", "budget", "jobs")

    def gathered(**kwargs: Any) -> Any:
        mutation = {name: kwargs.pop(name) for name in names}
        return command(mutation=mutation, **kwargs)

    gathered.__name__, gathered.__doc__ = command.__name__, command.__doc__
    wrapped: Any = gathered
    for option in reversed(_OPTIONS):
        wrapped = option(wrapped)
    return wrapped  # type: ignore[no-any-return]


def run_mutate(
    providers: tuple[str, ...],
    mutation: dict[str, Any],
    *,
    fmt: str,
    output: Path | None,
    quiet: bool,
    case_timeout: float,
) -> None:
    """Run ``--mutate`` for each provider asked for (all registered suites when none) and exit."""
    from modelport.errors import ConfigurationError

    from .cases import discover_suites

    if not providers:
        suites, _ = discover_suites()
        providers = tuple(pid for pid, suite in suites.items() if suite is not None and suite.cases)

    def progress(result: MutantResult) -> None:
        if not quiet:
            click.echo(safe(f"{result.status.upper()} {result.where()}").replace("\n", " "), err=True)

    reports = []
    for provider_id in providers:
        try:
            reports.append(
                run_mutation(
                    provider_id,
                    sample=mutation["sample"],
                    seed=mutation["seed"],
                    mutant_timeout=mutation["mutant_timeout"],
                    case_timeout=case_timeout or 60.0,
                    budget=mutation["budget"] or None,
                    jobs=mutation["jobs"],
                    progress=progress,
                )
            )
        except ConfigurationError as error:
            click.echo(safe(f"error: {error}").replace("\n", " "), err=True)
            sys.exit(2)
    text = render_mutation(reports, "json" if fmt == "json" else "table")
    if output is not None:
        output.write_text(text + "\n", encoding="utf-8")
    else:
        click.echo(text if fmt == "json" else safe(text))
    sys.exit(1 if any(r.problem for r in reports) else 0)
