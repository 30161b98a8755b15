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

__all__ = [
    "ScaffoldNames",
    "ScaffoldSettings",
    "new_provider_command",
    "render_scaffold",
    "scaffold_names",
    "scaffold_settings",
]

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


@dataclass(frozen=True)
class ScaffoldSettings:
    """What the name cannot tell about the API: each value goes into one place of the generated
    plugin (a class attribute of its provider), which everything else reads."""

    key_env: str  # MY_LLM_API_KEY
    base_url: str  # https://api.my-llm.test/v1
    auth_header: str  # authorization (sent as "Bearer <key>"), else the header the key goes in as is
    stream: str  # sse

    def mapping(self) -> dict[str, str]:
        return {field: getattr(self, field) for field in self.__dataclass_fields__}


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


#: An environment variable name the generated code can hold: shell-style, upper case.
KEY_ENV_PATTERN = re.compile(r"[A-Z_][A-Z0-9_]*")
#: The characters a base URL may have to be written into the generated code and cassettes as is.
URL_CHARACTERS = re.compile(r"[A-Za-z0-9._~:/%-]+")
#: A header name the key may go in: letters, digits, hyphens (what a YAML cassette keeps as is).
HEADER_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
#: The longest key variable and header name, and base URL, that keep the generated lines within 110.
MAX_SETTING_LENGTH = 60
MAX_URL_LENGTH = 64
#: The stream framings the HTTP kit reads for a streamed generation.
STREAM_FRAMINGS = ("sse",)
AUTH_STYLES = "bearer (authorization: Bearer <key>) or header:<Name> (the key as is in that header)"


def scaffold_settings(
    names: ScaffoldNames,
    *,
    key_env: str | None = None,
    base_url: str | None = None,
    auth: str = "bearer",
    stream: str = "sse",
) -> ScaffoldSettings:
    """The API settings of a new plugin, each given or derived from ``names``; a
    ``click.BadParameter`` naming the option and why its value cannot be one."""
    from ..errors import ConfigurationError
    from ..http.urls import check_base_url

    key_env = f"{names.env_prefix}_API_KEY" if key_env is None else key_env
    if not KEY_ENV_PATTERN.fullmatch(key_env) or len(key_env) > MAX_SETTING_LENGTH:
        raise click.BadParameter(
            f"{key_env!r} is not an environment variable name: use upper-case letters, digits and "
            f"underscores, not starting with a digit, at most {MAX_SETTING_LENGTH} (e.g. MY_LLM_API_KEY)",
            param_hint="'--key-env'",
        )
    base_url = f"https://api.{names.name}.test/v1" if base_url is None else base_url
    try:
        base_url = check_base_url(base_url, source="the base URL")
    except ConfigurationError as error:
        raise click.BadParameter(str(error), param_hint="'--base-url'") from None
    if len(base_url) > MAX_URL_LENGTH:
        raise click.BadParameter(
            f"the base URL has {len(base_url)} characters; a generated plugin holds at most {MAX_URL_LENGTH} "
            "(set a longer one in its provider.py)",
            param_hint="'--base-url'",
        )
    if "@" in base_url or not URL_CHARACTERS.fullmatch(base_url):
        bad = "@" if "@" in base_url else next(c for c in base_url if not URL_CHARACTERS.fullmatch(c))
        raise click.BadParameter(
            f"the base URL cannot contain {bad!r} in a generated plugin (letters, digits and . _ ~ : / % - "
            "only; no user:password)",
            param_hint="'--base-url'",
        )
    style, _, header = auth.partition(":")
    if auth == "bearer":
        auth_header = "authorization"
    elif (
        style == "header"
        and HEADER_PATTERN.fullmatch(header)
        and len(header) <= MAX_SETTING_LENGTH
        and header.lower() != "authorization"
    ):
        auth_header = header.lower()
    elif style == "query":
        raise click.BadParameter(
            f"{auth!r}: the HTTP kit sends the key in a header, never in the URL (where logs and "
            f"recordings would keep it); use {AUTH_STYLES}",
            param_hint="'--auth'",
        )
    else:
        raise click.BadParameter(f"{auth!r} is not an auth style: use {AUTH_STYLES}", param_hint="'--auth'")
    if stream not in STREAM_FRAMINGS:
        raise click.BadParameter(
            f"{stream!r} is not a stream framing of the HTTP kit: a streamed generation is read as "
            "server-sent events (sse); a JSON Lines stream needs a provider of its own "
            "(modelport.provider.Provider)",
            param_hint="'--stream'",
        )
    return ScaffoldSettings(key_env=key_env, base_url=base_url, auth_header=auth_header, stream=stream)


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


def render_scaffold(
    names: ScaffoldNames, target: Path, settings: ScaffoldSettings | None = None
) -> list[Path]:
    """Write the rendered template into ``target`` (created if absent; it must be empty); returns
    the files written, relative to ``target``. ``settings`` default to those derived from the name."""
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise click.UsageError(f"{target} is not an empty folder; give a new or empty one")
    settings = settings if settings is not None else scaffold_settings(names)
    values = {**names.mapping(), **settings.mapping()}
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
@click.option("--key-env", default=None, help="The variable holding the API key. Default: NAME_API_KEY")
@click.option("--base-url", default=None, help="The API's base URL. Default: https://api.NAME.test/v1")
@click.option(
    "--auth",
    default="bearer",
    show_default=True,
    help="How the key is sent: bearer (authorization: Bearer <key>) or header:<Name> (as is in that header)",
)
@click.option(
    "--stream", default="sse", show_default=True, help="The stream framing (the HTTP kit reads sse)"
)
def new_provider_command(
    name: str, directory: Path | None, key_env: str | None, base_url: str | None, auth: str, stream: str
) -> None:
    """Generate a provider plugin distribution NAME (a provider id such as my-llm): a working plugin
    for a fake JSON-over-HTTP API, with recorded cases, tests, a CI workflow and a README, that
    passes its own tests and conformance as generated."""
    names = scaffold_names(name)
    settings = scaffold_settings(names, key_env=key_env, base_url=base_url, auth=auth, stream=stream)
    _refuse_installed(names)
    target = directory if directory is not None else Path(names.distribution)
    written = render_scaffold(names, target, settings)
    click.echo(f"Created {names.distribution} in {target} ({len(written)} files). Next:")
    click.echo(f"  cd {target}")
    click.echo("  python3 -m venv .venv && . .venv/bin/activate")
    click.echo("  python -m pip install ${MODELPORT_SPEC:-modelport modelport-conformance}  # see README.md")
    click.echo('  python -m pip install -e ".[dev]"')
    click.echo(f"  pytest && modelport conformance --provider {name} --strict")
