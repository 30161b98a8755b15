"""Every public name of the distributions has an entry in the API reference (docs/api/*.md).

A public module is one of the packages below or a submodule none of whose dotted parts starts with
``_``; its public names are its ``__all__``. Each public module must have ``__all__`` and a
docstring, and each public name must resolve to an object with a docstring and have a rendered
entry: mkdocstrings renders it under its own path, or under the path of another name for the same
object (``modelport.Result`` is documented as ``modelport.types.Result``).

The sources are read statically with griffe, from the handler's ``paths`` in mkdocs.yml, as
mkdocstrings reads them. Two callers:

- ``tests/test_api_reference.py`` predicts what the ``:::`` directives of docs/api/*.md render
  (:func:`planned_entries`) and checks that, without building the site;
- ``tools/mkdocs_hooks.py`` checks the anchors the build actually wrote, so ``mkdocs build
  --strict`` fails on a missing entry too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import griffe
import yaml

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "modelport",
    "modelport_google",
    "modelport_openai",
    "modelport_anthropic",
    "modelport_conformance",
)

_DIRECTIVE = re.compile(r"^::: *(?P<identifier>\S+)[ \t]*\n(?P<options>(?:[ \t]+\S.*\n?)*)", re.M)


@dataclass(frozen=True)
class Directive:
    """One ``::: identifier`` block of a page, with the options written under it."""

    page: str
    identifier: str
    options: dict[str, Any] = field(default_factory=dict)


def handler_config(root: Path = ROOT) -> dict[str, Any]:
    """The mkdocstrings python handler's configuration in mkdocs.yml (``paths``, ``options``)."""
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "mkdocstrings" in plugin:
            handler: dict[str, Any] = plugin["mkdocstrings"]["handlers"]["python"]
            return handler
    raise LookupError("mkdocs.yml configures no mkdocstrings python handler")


def load(root: Path = ROOT) -> griffe.ModulesCollection:
    """The packages as griffe reads them from the handler's source paths, aliases resolved."""
    config = handler_config(root)
    paths = [root / path for path in config["paths"]]
    extensions = griffe.load_extensions(*config.get("options", {}).get("extensions", ()))
    loader = griffe.GriffeLoader(search_paths=paths, extensions=extensions)
    for package in PACKAGES:
        loader.load(package)
    loader.resolve_aliases(implicit=False, external=False)
    return loader.modules_collection


def public_modules(
    collection: griffe.ModulesCollection, packages: Iterable[str] = PACKAGES
) -> Iterator[griffe.Module]:
    """Each package and its submodules whose names do not start with ``_`` (imports excluded)."""

    def walk(module: griffe.Module) -> Iterator[griffe.Module]:
        yield module
        for name, submodule in module.modules.items():
            if not name.startswith("_") and not submodule.is_alias:
                yield from walk(submodule)

    for package in packages:
        yield from walk(collection[package])


def _target(obj: griffe.Object | griffe.Alias) -> griffe.Object | griffe.Alias:
    """The object an alias finally points at; the alias itself when it cannot be resolved."""
    try:
        return obj.final_target if obj.is_alias else obj  # type: ignore[union-attr]
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return obj


def _lookup(collection: griffe.ModulesCollection, path: str) -> griffe.Object | griffe.Alias | None:
    try:
        obj: griffe.Object | griffe.Alias = collection.get_member(path)
    except (KeyError, ValueError, AttributeError, griffe.AliasResolutionError):
        return None
    return obj


def problems(
    collection: griffe.ModulesCollection, rendered: Iterable[str], packages: Iterable[str] = PACKAGES
) -> list[str]:
    """What keeps the reference from documenting every public name, one line each.

    ``rendered`` holds the identifiers of the rendered entries (anchors such as
    ``modelport.types.Result``); identifiers that name no object are ignored.
    """
    documented = set()
    for identifier in rendered:
        obj = _lookup(collection, identifier)
        if obj is not None:
            documented.add(_target(obj).path)
    found: list[str] = []
    for module in public_modules(collection, packages):
        if not module.docstring:
            found.append(f"{module.path}: the module has no docstring")
        if module.exports is None:
            found.append(f"{module.path}: the module has no __all__")
            continue
        for name in map(str, module.exports):
            path = f"{module.path}.{name}"
            member = module.members.get(name)
            if member is None:
                found.append(f"{path}: in __all__ but not defined")
                continue
            target = _target(member)
            if not target.docstring:
                found.append(f"{path}: no docstring (on {target.path})")
            if target.path not in documented:
                found.append(f"{path}: no rendered entry in docs/api")
    return found


def directives(root: Path = ROOT) -> list[Directive]:
    """The ``:::`` blocks of the API reference pages, in page order."""
    found = []
    for page in sorted((root / "docs" / "api").glob("*.md")):
        for match in _DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            block = yaml.safe_load(match["options"]) if match["options"].strip() else None
            options = (block or {}).get("options") or {}
            found.append(Directive(page.name, match["identifier"], options))
    return found


def planned_entries(
    collection: griffe.ModulesCollection, blocks: Iterable[Directive], defaults: dict[str, Any]
) -> set[str]:
    """The identifiers the directives render: the object itself, and for a module its public
    names (only those of a ``members`` list when one is given, which applies to the module named
    by the directive) and, with ``show_submodules``, its public submodules' in the same way."""
    entries: set[str] = set()
    for block in blocks:
        options = {**defaults, **block.options}
        obj = _lookup(collection, block.identifier)
        if obj is None:
            continue
        entries.add(block.identifier)
        if isinstance(obj, griffe.Module):
            members = options.get("members")
            _plan_module(obj, members if isinstance(members, list) else None, options, entries)
    return entries


def _plan_module(
    module: griffe.Module, members: list[str] | None, options: dict[str, Any], entries: set[str]
) -> None:
    names = members if members is not None else [str(name) for name in module.exports or ()]
    entries.update(f"{module.path}.{name}" for name in names)
    if options.get("show_submodules"):
        for name, submodule in module.modules.items():
            if not name.startswith("_") and not submodule.is_alias:
                entries.add(submodule.path)
                _plan_module(submodule, None, options, entries)


def check_pages(root: Path = ROOT) -> list[str]:
    """:func:`problems` for the entries the pages' directives render (no site build needed)."""
    collection = load(root)
    defaults = handler_config(root).get("options", {})
    return problems(collection, planned_entries(collection, directives(root), defaults))


if __name__ == "__main__":
    import sys

    lines = check_pages()
    print("\n".join(lines) or "every public name has a rendered entry")
    sys.exit(1 if lines else 0)
