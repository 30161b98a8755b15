"""The ``modelport`` command: ``providers`` (alias ``models``), ``conformance`` and ``generate``.

Nothing here prints a credential: keys are only read by providers, error messages are scrubbed,
and a cassette given to ``generate --cassette`` is scanned before it is replayed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

__all__ = ["main"]


def _scrub(text: str) -> str:
    from modelport.errors import scrub

    return scrub(text)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="modelport-conformance", prog_name="modelport")
def main() -> None:
    """modelport: list providers, run the conformance suite, generate from the command line."""


# --------------------------------------------------------------------------- providers


def _provider_rows() -> tuple[list[dict[str, Any]], dict[str, str]]:
    from modelport import plugins
    from modelport.errors import ConfigurationError
    from modelport.provider_tools import provider_tool_specs

    providers = plugins.providers()
    specs = provider_tool_specs()
    try:
        suites = plugins.conformance_suites()
    except ConfigurationError:  # recorded in load_errors(), shown below
        suites = {}
    aliases = plugins.aliases()
    rows = []
    for provider_id, cls in sorted(providers.items()):
        rows.append(
            {
                "id": provider_id,
                "name": cls.display_name or provider_id,
                "aliases": sorted(a for a, target in aliases.items() if target == provider_id),
                "capabilities": sorted(k for k, v in cls.capabilities.as_dict().items() if v),
                "provider_tools": sorted(s.id for s in specs.values() if s.namespace == cls.tool_namespace),
                "conformance_suites": len(suites.get(provider_id, [])),
            }
        )
    return rows, plugins.load_errors()


@main.command("providers")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def providers_command(fmt: str) -> None:
    """Registered providers, their capabilities and provider tools, and plugin load errors."""
    rows, errors = _provider_rows()
    if fmt == "json":
        click.echo(json.dumps({"providers": rows, "plugin_errors": errors}, indent=2))
        return
    if not rows:
        click.echo("No providers registered. Install a plugin, e.g. pip install modelport-google")
    for row in rows:
        aliases = f" (aliases: {', '.join(row['aliases'])})" if row["aliases"] else ""
        click.echo(f"{row['id']}: {row['name']}{aliases}")
        click.echo(f"  capabilities: {', '.join(row['capabilities']) or 'none'}")
        click.echo(f"  provider tools: {', '.join(row['provider_tools']) or 'none'}")
    if errors:
        click.echo("Plugin load errors:")
        for name, error in sorted(errors.items()):
            click.echo(f"  {name}: {_scrub(error.splitlines()[-1] if error else error)}")


main.add_command(providers_command, name="models")


# --------------------------------------------------------------------------- conformance


@main.command("conformance")
@click.option("--provider", "providers", multiple=True, help="Run only this provider (repeatable).")
@click.option(
    "--model", "models", multiple=True, help="Run only cases of this model, skip the rest (repeatable)."
)
@click.option("--strict", is_flag=True, help="Fail when a registered provider has no cases.")
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table", show_default=True
)
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the report here.")
@click.option(
    "--regenerate", is_flag=True, help="Rewrite expected.json files from the current adapter (offline)."
)
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
def conformance_command(
    providers: tuple[str, ...],
    models: tuple[str, ...],
    strict: bool,
    fmt: str,
    output: Path | None,
    regenerate: bool,
    quiet: bool,
) -> None:
    """Replay every registered provider's cassettes offline and print the matrix."""
    from .report import render, run_conformance
    from .runner import CaseOutcome

    def progress(outcome: CaseOutcome) -> None:
        if not quiet:
            click.echo(f"{outcome.provider_id}/{outcome.case} ... {outcome.status.upper()}", err=True)

    report = run_conformance(
        providers or None, strict=strict, regenerate=regenerate, progress=progress, models=models
    )
    text = render(report, fmt)
    if output is not None:
        output.write_text(text + "\n", encoding="utf-8")
        if not quiet:
            click.echo(f"report written to {output}", err=True)
    else:
        click.echo(text)
    if fmt != "table" and output is not None and not quiet:
        click.echo("conformance: OK" if report.ok else "conformance: FAILED", err=True)
    sys.exit(0 if report.ok else 1)


# --------------------------------------------------------------------------- generate


def _safe(text: str) -> str:
    """Stripped of every terminal control sequence (newline and tab stay), then scrubbed of
    credentials: provider text never reaches the terminal raw, on a TTY or piped."""
    from modelport.citations import strip_control_sequences

    return _scrub(strip_control_sequences(text))


def _json_text(payload: Any) -> str:
    """``payload`` as JSON whose text holds no control character: JSON escapes 7-bit controls itself;
    DEL and 8-bit controls (one-byte CSI/OSC introducers) are escaped here as ``\\u00XX``."""
    import re

    text = json.dumps(payload, indent=2, ensure_ascii=False)
    return re.sub(r"[\x7f-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", text)


@main.command("generate")
@click.argument("model")
@click.argument("prompt")
@click.option("--tool", "tools", multiple=True, help="A provider tool by name, e.g. google_search.")
@click.option("--stream", is_flag=True, help="Stream the answer as it arrives.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--system", help="A system instruction.")
@click.option("--max-output-tokens", type=int, help="Limit the answer's length.")
@click.option(
    "--cassette", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Replay offline."
)
def generate_command(
    model: str,
    prompt: str,
    tools: tuple[str, ...],
    stream: bool,
    as_json: bool,
    system: str | None,
    max_output_tokens: int | None,
    cassette: Path | None,
) -> None:
    """Generate an answer; cited answers get [n] markers and a numbered Sources list."""
    import modelport

    try:
        sys.exit(_generate(model, prompt, tools, stream, as_json, system, max_output_tokens, cassette))
    except modelport.ModelportError as error:
        click.echo(f"error: {_safe(str(error))}", err=True)
        sys.exit(1)


def _generate(
    model_id: str,
    prompt: str,
    tools: tuple[str, ...],
    stream: bool,
    as_json: bool,
    system: str | None,
    max_output_tokens: int | None,
    cassette_path: Path | None,
) -> int:
    import modelport
    from modelport import plugins
    from modelport.provider_tools import resolve_tool_names

    provider_cls = plugins.provider_class(plugins.split_model_id(model_id)[0])
    request: dict[str, Any] = {"prompt": prompt}
    if system:
        request["system"] = system
    if max_output_tokens is not None:
        request["max_output_tokens"] = max_output_tokens
    if tools:
        if provider_cls.tool_namespace is None:
            raise modelport.ProviderToolError(f"provider {provider_cls.id!r} has no provider tools")
        request["tools"] = resolve_tool_names(tools, namespace=provider_cls.tool_namespace)
    player = None
    if cassette_path is not None:
        from .cassette import load_cassette
        from .credentials import scan_text
        from .player import CassettePlayer
        from .replay import REPLAY_API_KEY

        text = cassette_path.read_text(encoding="utf-8")
        findings = scan_text(text, _secret_patterns(provider_cls.id))
        if findings:
            click.echo("error: the cassette contains credential-looking strings:", err=True)
            for finding in findings:
                click.echo("  " + _safe(finding.describe(cassette_path.name)), err=True)
            return 1
        player = CassettePlayer(load_cassette(text))
        model = modelport.get_model(
            model_id, api_key=REPLAY_API_KEY, transport=player.transport, max_retries=0
        )
    else:
        model = modelport.get_model(model_id)
    try:
        if stream:
            from modelport.citations import ControlStripper

            stripper = ControlStripper()  # a sequence split across deltas is still removed whole
            result_stream = model.stream(**request)
            for event in result_stream:
                if event.type == "text-delta" and not as_json:
                    click.echo(stripper.feed(event.delta), nl=False)
            result = result_stream.result()
            if not as_json:
                click.echo(stripper.flush())
        else:
            result = model.generate(**request)
    except modelport.ModelportError:
        if player is not None and player.problems():
            _report_player(player.problems())
            return 1
        raise
    finally:
        model.close()
    if player is not None and player.problems():
        _report_player(player.problems())
        return 1
    cited = modelport.cite(result)
    if as_json:
        payload: dict[str, Any] = {
            "text": cited.text,
            "sources": [s.model_dump(mode="json", exclude_none=True) for s in cited.sources],
        }
        payload["result"] = result.model_dump(mode="json", exclude_none=True)
        click.echo(_json_text(payload))
    elif stream:
        if cited.sources:
            click.echo("\n" + _safe(cited.with_sources()))
    else:
        click.echo(_safe(cited.with_sources()))
    return 0


def _secret_patterns(provider_id: str) -> dict[str, str]:
    """The ``secret_patterns`` the provider's suites registered (the scan adds them to its own)."""
    from modelport import plugins
    from modelport.errors import ConfigurationError

    try:
        suites = plugins.conformance_suites().get(provider_id, [])
    except ConfigurationError:
        return {}
    return {kind: pattern for suite in suites for kind, pattern in suite.secret_patterns.items()}


def _report_player(problems: list[str]) -> None:
    click.echo("error: the request does not match the cassette:", err=True)
    for problem in problems:
        click.echo(_safe(problem), err=True)
