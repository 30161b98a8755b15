"""``modelport new-provider NAME``: a new provider plugin distribution, generated from a template.

The template (``provider_template/``, package data of :mod:`modelport.cli`) is a small working
plugin for a fake JSON-over-HTTP API: the provider on the HTTP kit with every hook documented, a
loopback fake server and a recording script, recorded cases, a pytest conformance module, a CI
workflow and a README. Every file of it ends in ``.tmpl`` and is rendered with
:class:`string.Template` (``$$`` is a literal ``$``); in paths, ``__package__`` is the import name
and a leading ``dot.`` is a leading ``.``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import metadata
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from importlib.abc import Traversable

__all__ = ["ScaffoldNames", "new_provider_command", "render_scaffold", "scaffold_names"]

TEMPLATE_SUFFIX = ".tmpl"
#: A provider id the scaffold accepts: lowercase words of letters and digits joined by single hyphens.
NAME_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_NAME_LENGTH = 30
#: Names the generated provider module imports, which its provider class may not take.
TAKEN_CLASS_NAMES = frozenset({"HttpProvider"})


@dataclass(frozen=True)
class ScaffoldNames:
    """Every name the template derives from the provider id (``"my-llm"`` in the examples)."""

    name: str  # the provider id: my-llm
    distribution: str  # modelport-my-llm
    package: str  # modelport_my_llm
    class_prefix: str  # MyLlm
    class_name: str  # MyLlmProvider
    display_name: str  # My Llm
    env_prefix: str  # MY_LLM (MY_LLM_API_KEY, MY_LLM_BASE_URL)

    def mapping(self) -> dict[str, str]:
        """The template's placeholders, with the versions of the running modelport."""
        from ..provider import CONTRACT_VERSION  # httpx and the contract, loaded only to generate

        return {
            **{field: getattr(self, field) for field in self.__dataclass_fields__},
            "contract_version": CONTRACT_VERSION,
            "modelport_requirement": f">={metadata.version('modelport')}",
        }


def scaffold_names(name: str) -> ScaffoldNames:
    """The names of a new provider plugin; a ``click.BadParameter`` saying why ``name`` cannot be one."""
    if not NAME_PATTERN.fullmatch(name) or len(name) > MAX_NAME_LENGTH:
        raise click.BadParameter(
            f"{name!r} is not a provider id: use lowercase letters and digits, words joined by single "
            f"hyphens, starting with a letter, at most {MAX_NAME_LENGTH} characters (e.g. my-llm)",
            param_hint="NAME",
        )
    words = name.split("-")
    prefix = "".join(word.capitalize() for word in words)
    names = ScaffoldNames(
        name=name,
        distribution=f"modelport-{name}",
        package="modelport_" + "_".join(words),
        class_prefix=prefix,
        class_name=f"{prefix}Provider",
        display_name=" ".join(word.capitalize() for word in words),
        env_prefix="_".join(words).upper(),
    )
    if names.class_name in TAKEN_CLASS_NAMES:
        raise click.BadParameter(
            f"{name!r} would name its provider class {names.class_name}, which the "
            "generated module imports; choose another id",
            param_hint="NAME",
        )
    return names


def _taken(names: ScaffoldNames) -> str | None:
    """What already installed would clash with a plugin of ``names`` (its distribution, its import
    package, or its provider id), or ``None``."""
    import importlib.util

    from .. import plugins

    try:
        installed = metadata.distribution(names.distribution).metadata["Name"] or names.distribution
    except metadata.PackageNotFoundError:
        pass
    else:
        return f"the installed distribution {installed}"
    try:
        found = importlib.util.find_spec(names.package) is not None
    except (ImportError, ValueError):
        found = True
    if found:
        return f"the installed package {names.package}"
    if names.name in plugins.providers() or names.name in plugins.aliases():
        return f"the installed provider {names.name!r}"
    return None


def _refuse_installed(names: ScaffoldNames) -> None:
    """A ``click.BadParameter`` when the plugin would take a name already installed (``openai``
    would generate ``modelport-openai`` and ``modelport_openai``, the OpenAI plugin's own)."""
    taken = _taken(names)
    if taken is not None:
        raise click.BadParameter(
            f"{names.name!r} would clash with {taken}; choose another id (e.g. my-{names.name})",
            param_hint="NAME",
        )


def _template_files(folder: Traversable, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    """(relative path parts, text) of every template file under ``folder``, sorted."""
    found = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            found += _template_files(entry, (*prefix, entry.name))
        elif entry.name.endswith(TEMPLATE_SUFFIX):
            found.append(((*prefix, entry.name), entry.read_text(encoding="utf-8")))
    return found


def _target_part(part: str, names: ScaffoldNames) -> str:
    part = part.removesuffix(TEMPLATE_SUFFIX).replace("__package__", names.package)
    return "." + part[len("dot.") :] if part.startswith("dot.") else part


def render_scaffold(names: ScaffoldNames, target: Path) -> list[Path]:
    """Write the rendered template into ``target`` (created if absent; it must be empty); returns
    the files written, relative to ``target``."""
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise click.UsageError(f"{target} is not an empty folder; give a new or empty one")
    values = names.mapping()
    rendered = [
        (Path(*(_target_part(part, names) for part in parts)), Template(text).substitute(values))
        for parts, text in _template_files(files("modelport.cli") / "provider_template")
    ]
    written = []
    for relative, text in rendered:
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(relative)
    return written


@click.command("new-provider")
@click.argument("name")
@click.option(
    "--directory",
    "-d",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Where to generate it (new or empty). Default: ./modelport-NAME",
)
def new_provider_command(name: str, directory: Path | None) -> None:
    """Generate a provider plugin distribution NAME (a provider id such as my-llm): a working plugin
    for a fake JSON-over-HTTP API, with recorded cases, tests, a CI workflow and a README, that
    passes its own tests and conformance as generated."""
    names = scaffold_names(name)
    _refuse_installed(names)
    target = directory if directory is not None else Path(names.distribution)
    written = render_scaffold(names, target)
    click.echo(f"Created {names.distribution} in {target} ({len(written)} files). Next:")
    click.echo(f"  cd {target}")
    click.echo('  python3 -m venv .venv && . .venv/bin/activate && python -m pip install -e ".[dev]"')
    click.echo(f"  pytest && modelport conformance --provider {name} --strict")
