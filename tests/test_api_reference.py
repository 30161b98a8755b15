"""Every public name of the five distributions has a rendered entry in the API reference.

The check (tools/api_reference.py) reads the sources with griffe as mkdocstrings does; here it runs
on what the ``:::`` directives of docs/api/*.md render, and ``mkdocs build --strict`` runs it on the
anchors the build wrote (tools/mkdocs_hooks.py).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import sys
from pathlib import Path
from types import ModuleType

import pytest

if sys.version_info < (3, 11):
    pytest.skip("griffe 2, which reads the sources, needs Python 3.11+", allow_module_level=True)

import griffe  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> ModuleType:
    """A module of tools/ (not a package), loaded by path once."""
    module_name = f"modelport_tools_{name}"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, ROOT / "tools" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


api_reference = _tool("api_reference")


@pytest.fixture(scope="module")
def collection() -> griffe.ModulesCollection:
    return api_reference.load(ROOT)


@pytest.fixture(scope="module")
def defaults() -> dict[str, object]:
    options: dict[str, object] = api_reference.handler_config(ROOT)["options"]
    return options


def test_every_public_name_has_a_rendered_entry() -> None:
    assert api_reference.check_pages(ROOT) == []


def test_the_check_covers_every_public_module(collection: griffe.ModulesCollection) -> None:
    modules = {module.path for module in api_reference.public_modules(collection)}
    assert {
        "modelport",
        "modelport.cli.transports",
        "modelport.http",
        "modelport.testing",
        "modelport_google.grounding.envelope",
        "modelport_openai.presets",
        "modelport_anthropic.tools",
        "modelport_conformance.cassette",
    } <= modules
    assert not [path for path in modules if any(part.startswith("_") for part in path.split("."))]


def test_a_name_left_out_of_a_members_list_is_reported(
    collection: griffe.ModulesCollection, defaults: dict[str, object]
) -> None:
    blocks = []
    for block in api_reference.directives(ROOT):
        if block.identifier == "modelport":
            members = [name for name in block.options["members"] if name != "embed"]
            block = dataclasses.replace(block, options={**block.options, "members": members})
        blocks.append(block)
    rendered = api_reference.planned_entries(collection, blocks, defaults)
    assert api_reference.problems(collection, rendered) == ["modelport.embed: no rendered entry in docs/api"]


def test_a_module_without_a_page_is_reported(
    collection: griffe.ModulesCollection, defaults: dict[str, object]
) -> None:
    blocks = [block for block in api_reference.directives(ROOT) if block.identifier != "modelport.testing"]
    rendered = api_reference.planned_entries(collection, blocks, defaults)
    assert api_reference.problems(collection, rendered) == [
        f"modelport.testing.{name}: no rendered entry in docs/api"
        for name in ("Script", "ScriptedProvider", "install", "text_events", "text_result")
    ]


def test_a_re_export_is_documented_by_its_module_page(
    collection: griffe.ModulesCollection, defaults: dict[str, object]
) -> None:
    """``modelport.Result`` has no entry on the modelport page; ``modelport.types.Result`` is it."""
    rendered = api_reference.planned_entries(collection, api_reference.directives(ROOT), defaults)
    assert "modelport.Result" not in rendered
    assert "modelport.types.Result" in rendered
    without_types = rendered - {path for path in rendered if path.startswith("modelport.types.")}
    assert "modelport.Result: no rendered entry in docs/api" in api_reference.problems(
        collection, without_types
    )


def test_undocumented_and_undeclared_names_are_reported() -> None:
    sources = {
        "__init__.py": '"""A package."""\nfrom .shown import Shown\n__all__ = ["Shown", "missing"]\n',
        "shown.py": (
            '"""Shown."""\n__all__ = ["Shown", "LIMIT", "BARE"]\n'
            'class Shown:\n    """A class."""\n'
            "#: A documented constant.\nLIMIT = 3\n"
            "BARE = 4\n"
        ),
        "loose.py": "X = 1\n",
        "_private.py": "Y = 2\n",
    }
    extensions = griffe.load_extensions("griffe_sphinx")
    with griffe.temporary_visited_package(
        "pkg", sources, extensions=extensions, resolve_aliases=True
    ) as package:
        rendered = {"pkg.shown.Shown", "pkg.shown.LIMIT", "pkg.shown.BARE"}
        assert api_reference.problems(package.modules_collection, rendered, packages=["pkg"]) == [
            "pkg.missing: in __all__ but not defined",
            "pkg.shown.BARE: no docstring (on pkg.shown.BARE)",
            "pkg.loose: the module has no docstring",
            "pkg.loose: the module has no __all__",
        ]


def test_the_site_build_warns_for_a_name_without_an_anchor(
    collection: griffe.ModulesCollection, defaults: dict[str, object], caplog: pytest.LogCaptureFixture
) -> None:
    """The mkdocs hook checks the anchors the pages were rendered with, not the directives."""
    hooks = _tool("mkdocs_hooks")
    rendered = api_reference.planned_entries(collection, api_reference.directives(ROOT), defaults)
    html = "".join(f'<h2 id="{path}">' for path in sorted(rendered - {"modelport.embed"}))
    hooks.on_pre_build({})
    hooks.on_page_content(html, None, {}, None)
    with caplog.at_level(logging.WARNING, logger="mkdocs.hooks.api_reference"):
        hooks.on_post_build({"config_file_path": str(ROOT / "mkdocs.yml")})
    assert [record.getMessage() for record in caplog.records] == [
        "API reference: modelport.embed: no rendered entry in docs/api"
    ]


def test_a_bases_line_names_public_bases_only() -> None:
    """As mkdocstrings renders ``Bases:``: a private base is a bare ``<span>`` with no page."""
    hooks = _tool("mkdocs_hooks")
    private = '<code><span title="modelport._contract.content._Frozen">_Frozen</span></code>'
    public = '<code><a class="autorefs" href="../errors/#x">ProviderError</a></code>'
    line = '<p class="doc doc-class-bases">\n              Bases: {}</p>\n<p>Docstring.</p>'
    assert hooks.public_bases(line.format(private)) == "\n<p>Docstring.</p>"
    assert hooks.public_bases(line.format(f"{private}, {public}")) == line.format(public)
    assert hooks.public_bases(line.format(public)) == line.format(public)
    # The whole page goes through it: a site page had 22 lines of "Bases: _Frozen" before.
    assert hooks.on_page_content(line.format(private), None, {}, None) == "\n<p>Docstring.</p>"
