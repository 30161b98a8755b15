"""Saved prompts: ``modelport templates`` and ``generate -t NAME`` / ``chat -t NAME``.

A template is a file in the ``templates/`` directory of the command's directory (:mod:`._home`):
``NAME.json`` as ``templates save`` writes it, or ``NAME.yaml`` / ``NAME.yml`` written by hand
(read when PyYAML is installed; aliases are refused, so a few bytes cannot expand to gigabytes).
It holds any of ``prompt`` (``$input`` is replaced by the prompt given, else the prompt given is
added after a blank line), ``system``, ``model``, ``options`` (request keywords), ``schema`` (a
JSON schema object, or ``module:Type``) and ``fragments`` (what ``-f`` takes). What the command
line gives wins over the template.

A name is letters, digits, ``.``, ``_`` and ``-`` (not first), at most 64 characters: never a path.
A file is read bounded (:data:`MAX_TEMPLATE_BYTES`) like every file the command reads, and a bad
or missing template is one line of error text, exit status 2 (:class:`Refused`).
"""

from __future__ import annotations

import json
import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from ._files import FileRefused, decoded, parsed, read_bounded
from ._home import ensure_home, home, write_private
from .terminal import safe

__all__ = [
    "MAX_TEMPLATE_BYTES",
    "Refused",
    "Template",
    "checked_name",
    "load_template",
    "response_format",
    "template_option",
    "templates_group",
]

TEMPLATES_DIR = "templates"
#: The largest template file read.
MAX_TEMPLATE_BYTES = 1024**2
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")
_SUFFIXES = (".json", ".yaml", ".yml")
_KEYS = ("model", "system", "prompt", "options", "schema", "fragments")
#: Request keywords a template holds under their own key, not in ``options``.
_NOT_OPTIONS = {"prompt": "prompt", "messages": "prompt", "system": "system", "response_format": "schema"}


class Refused(click.ClickException):
    """A template, fragment or function that cannot be used: ``Error: ...`` on one line, exit 2."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(safe(message).split()))


def checked_name(name: str, what: str = "template") -> str:
    """``name`` when it is a valid name (never a path); :class:`Refused` otherwise."""
    if not _NAME.match(name) or ".." in name:
        raise Refused(
            f"{name!r} is not a {what} name: letters, digits, '.', '_' and '-' (not first), at most 64"
        )
    return name


def templates_dir() -> Path:
    return home() / TEMPLATES_DIR


def _files(name: str) -> list[Path]:
    return [templates_dir() / f"{name}{suffix}" for suffix in _SUFFIXES]


@dataclass(frozen=True)
class Template:
    """One saved template (every field optional)."""

    name: str
    prompt: str | None = None
    system: str | None = None
    model: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    schema: dict[str, Any] | str | None = None
    fragments: tuple[str, ...] = ()

    @property
    def needs_input(self) -> bool:
        """Whether the template takes the prompt given: it has no prompt, or one with ``$input``."""
        return self.prompt is None or _takes_input(self.prompt)

    def prompt_for(self, given: str | None) -> str:
        """The prompt sent for ``given`` (``$input`` replaced; ``$$`` is a ``$``)."""
        if self.prompt is None:
            if given is None:
                raise Refused(f"template {self.name!r} has no prompt: give one")
            return given
        if _takes_input(self.prompt):
            if given is None:
                raise Refused(f"template {self.name!r} takes $input: give a prompt, or pipe it in")
            return string.Template(self.prompt).safe_substitute(input=given)
        prompt = string.Template(self.prompt).safe_substitute()
        return prompt if given is None else f"{prompt}\n\n{given}"

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "model": self.model,
            "system": self.system,
            "prompt": self.prompt,
            "options": self.options or None,
            "schema": self.schema,
            "fragments": list(self.fragments) or None,
        }
        return {key: value for key, value in data.items() if value is not None}


def _takes_input(prompt: str) -> bool:
    return any(
        (m.group("named") or m.group("braced")) == "input" for m in string.Template.pattern.finditer(prompt)
    )


def response_format(schema: dict[str, Any] | str) -> Any:
    """A template's (or ``--schema``'s) schema as the request's ``response_format``."""
    from ._request import load_schema

    if isinstance(schema, dict):
        return {"type": "json_schema", "schema": schema}
    return load_schema(schema)


def template_from(name: str, data: Any, where: str) -> Template:
    """``data`` (a file's content) as the template ``name``; :class:`Refused` naming ``where``."""
    if not isinstance(data, dict):
        raise Refused(f"{where}: a template is an object (a mapping)")
    unknown = sorted(str(key) for key in data if key not in _KEYS)
    if unknown:
        raise Refused(f"{where}: unknown key {unknown[0]!r} (a template has {', '.join(_KEYS)})")
    for key in ("model", "system", "prompt"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise Refused(f"{where}: {key!r} must be a string")
    options = data.get("options") or {}
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise Refused(f"{where}: 'options' must be a mapping of request keywords")
    own = sorted(k for k in options if k in _NOT_OPTIONS)
    if own:
        raise Refused(f"{where}: {own[0]!r} is the template's {_NOT_OPTIONS[own[0]]!r}, not an option")
    try:
        json.dumps(options, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise Refused(f"{where}: 'options' must be JSON values: {error}") from None
    schema = data.get("schema")
    if schema is not None and not isinstance(schema, (dict, str)):
        raise Refused(f"{where}: 'schema' must be a JSON schema object or module:Type")
    fragments = data.get("fragments") or []
    if not isinstance(fragments, list) or not all(isinstance(f, str) for f in fragments):
        raise Refused(f"{where}: 'fragments' must be a list of files, URLs or fragment names")
    return Template(
        name=name,
        prompt=data.get("prompt"),
        system=data.get("system"),
        model=data.get("model") or None,
        options=dict(options),
        schema=schema,
        fragments=tuple(fragments),
    )


def _yaml(text: str, where: str) -> Any:
    try:
        import yaml
    except ImportError:
        raise Refused(f"{where}: YAML needs PyYAML (pip install pyyaml); or save it as JSON") from None

    class NoAliases(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                raise yaml.YAMLError("aliases (*name) are not read")
            return super().compose_node(parent, index)

    try:
        return yaml.load(text, Loader=NoAliases)  # a SafeLoader
    except RecursionError:
        raise Refused(f"{where}: not YAML: nested too deeply") from None
    except yaml.YAMLError as error:
        raise Refused(f"{where}: not YAML: {str(error).splitlines()[0]}") from None


def load_template(name: str) -> Template:
    """The saved template ``name``; :class:`Refused` when it is missing or cannot be read."""
    checked_name(name)
    path = next((p for p in _files(name) if p.exists() or p.is_symlink()), None)
    if path is None:
        raise Refused(f"no template {name!r} (`modelport templates list` lists them)")
    where = f"template {name!r} ({path})"
    try:
        text = decoded(read_bounded(path, MAX_TEMPLATE_BYTES))
        data = parsed(text) if path.suffix == ".json" else _yaml(text, where)
    except OSError as error:
        raise Refused(f"{where}: {error.strerror or error}") from None
    except FileRefused as error:
        raise Refused(f"{where}: {error}") from None
    from modelport.wire import MAX_DEPTH, _too_deep

    if _too_deep(data, MAX_DEPTH):
        raise Refused(f"{where}: nested deeper than {MAX_DEPTH} levels")
    return template_from(name, data, where)


def saved_names() -> list[str]:
    directory = templates_dir()
    if not directory.is_dir():
        return []
    names = {p.stem for p in directory.iterdir() if p.suffix in _SUFFIXES and _NAME.match(p.stem)}
    return sorted(names)


def template_option(command: Any) -> Any:
    """``-t`` / ``--template NAME`` (``generate`` and ``chat``)."""
    return click.option(
        "-t",
        "--template",
        "template_name",
        metavar="NAME",
        help="A saved template (`modelport templates`): its prompt ($input is the prompt given), "
        "system instruction, options, schema and model; what the command line gives wins.",
    )(command)


# --------------------------------------------------------------------------- the commands


@click.group("templates")
def templates_group() -> None:
    """Saved prompts (system instruction, options, schema, model) for `generate -t NAME`."""


@templates_group.command("save")
@click.argument("name")
@click.argument("prompt", required=False)
@click.option("-m", "--model", metavar="MODEL", help="The template's model.")
@click.option("-s", "--system", help="A system instruction.")
@click.option("-o", "--option", "options", multiple=True, metavar="KEY=VALUE", help="A request option.")
@click.option("--schema", metavar="FILE|MODULE:TYPE", help="A JSON schema file (kept inline) or a type.")
@click.option("-f", "--fragment", "fragments", multiple=True, metavar="PATH|URL|NAME", help="A fragment.")
def save_command(
    name: str,
    prompt: str | None,
    model: str | None,
    system: str | None,
    options: tuple[str, ...],
    schema: str | None,
    fragments: tuple[str, ...],
) -> None:
    """Save the template NAME: PROMPT ($input is what `generate -t NAME` is given) and the options."""
    from ._options import parse_options
    from ._request import load_schema

    checked_name(name)
    kept: dict[str, Any] | str | None = schema
    if schema is not None:
        loaded = load_schema(schema)
        kept = loaded["schema"] if isinstance(loaded, dict) else schema
    template = Template(
        name=name,
        prompt=prompt,
        system=system,
        model=model,
        options=parse_options(options),
        schema=kept,
        fragments=fragments,
    )
    ensure_home()
    target = templates_dir() / f"{name}.json"
    write_private(target, json.dumps(template.as_dict(), indent=2, ensure_ascii=False) + "\n")
    for other in _files(name)[1:]:
        other.unlink(missing_ok=True)
    click.echo(f"Saved the template {name!r} ({target}).")


@templates_group.command("list")
def list_command() -> None:
    """The saved templates, with the start of each one's prompt or system instruction."""
    for name in saved_names():
        try:
            template = load_template(name)
        except Refused as error:
            click.echo(safe(f"{name}: (unreadable: {error.message})"))
            continue
        summary = template.prompt or template.system or ""
        summary = " ".join(summary.split())
        click.echo(safe(f"{name}: {summary[:60] + '...' if len(summary) > 60 else summary}"))


@templates_group.command("show")
@click.argument("name")
def show_command(name: str) -> None:
    """The template NAME, as JSON."""
    from .terminal import json_text

    click.echo(json_text(load_template(name).as_dict()))


@templates_group.command("path")
def path_command() -> None:
    """The directory the templates are in."""
    click.echo(str(templates_dir()))


@templates_group.command("delete")
@click.argument("name")
def delete_command(name: str) -> None:
    """Delete the template NAME."""
    checked_name(name)
    found = [p for p in _files(name) if p.exists() or p.is_symlink()]
    if not found:
        raise Refused(f"no template {name!r} (`modelport templates list` lists them)")
    for path in found:
        path.unlink()
    click.echo(f"Deleted the template {name!r}.")
