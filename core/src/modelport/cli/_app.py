"""The ``modelport`` click group: built-in commands plus the ones installed packages contribute."""

from __future__ import annotations

import errno
import json
from importlib import metadata
from typing import Any

import click

from .terminal import safe

__all__ = ["COMMANDS_GROUP", "command_errors", "failure_text", "main"]

#: The entry-point group subcommands are contributed through (name = command, value = click.Command).
COMMANDS_GROUP = "modelport.commands"


def _entry_points() -> list[metadata.EntryPoint]:
    """The group's entry points, one per (name, value), sorted by name."""
    unique: dict[tuple[str, str], metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=COMMANDS_GROUP):
        unique.setdefault((ep.name, ep.value), ep)
    return sorted(unique.values(), key=lambda ep: (ep.name, ep.value))


def _describe(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return safe(text).replace("\n", " ")


#: Longest error text the command prints for a failure it did not expect.
_FAILURE_LIMIT = 1_000


def failure_text(error: BaseException) -> str:
    """An error that ended a command, as its one line of error text: a modelport error's own
    message (scrubbed); anything else its class and message, scrubbed, bounded, on one line."""
    from modelport.errors import ModelportError

    from ._connect import error_text

    if isinstance(error, ModelportError):
        text = error_text(error)
    else:
        text = _os_error(error) if isinstance(error, OSError) else _describe(error)
    text = " ".join(safe(text[: _FAILURE_LIMIT * 4]).split())
    return text if len(text) <= _FAILURE_LIMIT else text[:_FAILURE_LIMIT] + "..."


def _os_error(error: OSError) -> str:
    where = f"{error.filename}: " if error.filename else ""
    return f"{where}{error.strerror or error}"


def _load(ep: metadata.EntryPoint) -> click.Command:
    try:
        command = ep.load()
    except (Exception, SystemExit) as error:  # one package's failure must not stop the command
        raise _LoadError(_describe(error)) from None
    if not isinstance(command, click.Command):
        raise _LoadError(f"{ep.value} is a {type(command).__name__}, not a click command")
    return command


class _LoadError(Exception):
    pass


def _broken(name: str, problem: str) -> click.Command:
    """What a subcommand that failed to load becomes: listed, and an error when invoked."""

    def fail() -> None:
        click.echo(f"error: the command {name!r} failed to load: {problem}", err=True)
        raise SystemExit(1)

    return click.Command(name, callback=fail, help=f"(failed to load: {problem})", add_help_option=False)


class _PluginGroup(click.Group):
    """Built-in commands first; then each entry point of :data:`COMMANDS_GROUP`, imported only when
    its command is looked up."""

    def _contributed(self) -> dict[str, list[metadata.EntryPoint]]:
        found: dict[str, list[metadata.EntryPoint]] = {}
        for ep in _entry_points():
            found.setdefault(ep.name, []).append(ep)
        return found

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self._contributed()})

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; whatever it raises that click does not handle itself ends the command
        on one line of error text on standard error, exit status 1, never a traceback."""
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, KeyboardInterrupt, EOFError):
            raise
        except OSError as error:
            if error.errno == errno.EPIPE:  # a closed pipe: click's own handling
                raise
            click.echo(f"error: {failure_text(error)}", err=True)
            ctx.exit(1)
        except Exception as error:
            click.echo(f"error: {failure_text(error)}", err=True)
            ctx.exit(1)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        eps = self._contributed().get(cmd_name)
        if not eps:
            return None
        try:
            return _load(eps[0])
        except _LoadError as error:
            return _broken(cmd_name, str(error))


def command_errors() -> dict[str, str]:
    """Command name → why a contributed subcommand is not available (import failure, not a command,
    a clash with a built-in or another package's command of the same name)."""
    errors: dict[str, str] = {}
    seen: dict[str, str] = {}
    for ep in _entry_points():
        source = getattr(getattr(ep, "dist", None), "name", None) or ep.value
        if ep.name in main.commands:
            errors[ep.name] = f"{source} declares a command with a built-in command's name; not used"
            continue
        if ep.name in seen:
            errors[f"{ep.name} ({source})"] = f"{seen[ep.name]} already provides the command; not used"
            continue
        seen[ep.name] = source
        try:
            _load(ep)
        except _LoadError as error:
            errors[ep.name] = str(error)
    return errors


@click.group(cls=_PluginGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="modelport", prog_name="modelport")
def main() -> None:
    """modelport: generate and chat from the command line, list providers and their models, keep
    keys and logs, and whatever installed packages add (modelport-conformance: conformance)."""


# --------------------------------------------------------------------------- providers


def _provider_rows() -> tuple[list[dict[str, Any]], dict[str, str]]:
    from modelport import plugins
    from modelport.provider_tools import provider_tool_specs

    providers = plugins.providers()
    specs = provider_tool_specs()
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
            }
        )
    return rows, plugins.load_errors()


@main.command("providers")
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table", show_default=True
)
def providers_command(fmt: str) -> None:
    """Registered providers, their capabilities and provider tools, and plugin load errors
    (``--format markdown``: the feature-by-provider matrix the README and docs/providers.md hold)."""
    rows, errors = _provider_rows()
    broken_commands = command_errors()
    if fmt == "markdown":
        from ._matrix import feature_matrix

        click.echo(safe(feature_matrix()), nl=False)
        return
    if fmt == "json":
        payload = {"providers": rows, "plugin_errors": errors, "command_errors": broken_commands}
        click.echo(json.dumps(payload, indent=2))
        return
    if not rows:
        click.echo("No providers registered. Install a plugin, e.g. pip install modelport-google")
    for row in rows:
        aliases = f" (aliases: {', '.join(row['aliases'])})" if row["aliases"] else ""
        click.echo(safe(f"{row['id']}: {row['name']}{aliases}"))
        click.echo(f"  capabilities: {', '.join(row['capabilities']) or 'none'}")
        click.echo(safe(f"  provider tools: {', '.join(row['provider_tools']) or 'none'}"))
    if errors:
        click.echo("Plugin load errors:")
        for name, error in sorted(errors.items()):
            click.echo(safe(f"  {name}: {error.splitlines()[-1] if error else error}"))
    if broken_commands:
        click.echo("Command load errors:")
        for name, error in sorted(broken_commands.items()):
            click.echo(safe(f"  {name}: {error}"))


def _register_builtins() -> None:
    from ._batch import batch_group
    from ._chat import chat_command
    from ._fragments import fragments_group
    from ._generate import generate_command
    from ._keys import keys_group
    from ._logs import logs_group
    from ._models import aliases_group, default_model_command, models_command
    from ._new_provider import new_provider_command
    from ._templates import templates_group

    for command in (
        aliases_group,
        batch_group,
        chat_command,
        default_model_command,
        fragments_group,
        generate_command,
        keys_group,
        logs_group,
        models_command,
        new_provider_command,
        templates_group,
    ):
        main.add_command(command)


_register_builtins()
