"""MkDocs hooks for the documentation site (``hooks:`` in mkdocs.yml).

- Links from a page to a repository file that is not part of the site (``../tests/...``,
  ``../tools/...``, the worked example under ``docs/examples/``) keep working on GitHub and in an
  editor, but would be dead links on the site: they become plain text there, or links into the
  repository when ``repo_url`` is configured. A link to a file that exists nowhere is left alone, so
  ``mkdocs build --strict`` still reports it.
- Docstrings use Sphinx roles (``:class:`Result```); Markdown renders them as ``:class:`` followed by
  a code span, so the role prefix is dropped and ``~a.b.Name`` is shortened to ``Name``. A
  reStructuredText ``::`` before a literal block is shown as one colon.
- A class's ``Bases:`` line names its public bases only: a private base (``_Frozen``, ``_Event``)
  has no page to link to and says nothing to a reader; a line left with none is dropped.
- Every public name of the distributions must have an entry in the API reference: the anchors the
  pages were rendered with are checked by ``tools/api_reference.py`` after the build, and each
  public name without one is a warning (an error under ``--strict``).
"""

from __future__ import annotations

import importlib.util
import logging
import re
import sys
from pathlib import Path, PurePosixPath
from types import ModuleType
from typing import Any

_FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]\n]+)\]\((?P<target>[^)\s]+)\)")
_ROLE = re.compile(r":(?:class|func|data|meth|attr|mod|exc|obj):<code>(~?)([^<]*)</code>")
_LITERAL_BLOCK = re.compile(r"::</p>(\s*<div class=\"highlight\">)")
_ANCHOR = re.compile(r'\bid="([A-Za-z_][\w.]*)"')
_BASES = re.compile(r'(?P<open><p class="doc doc-class-bases">\s*Bases: )(?P<items>.*?)</p>', re.S)
_BASE = re.compile(r"<code>.*?</code>", re.S)
_TAG = re.compile(r"<[^>]+>")

log = logging.getLogger("mkdocs.hooks.api_reference")
_anchors: set[str] = set()


def _api_reference() -> ModuleType:
    """tools/api_reference.py, loaded by path (tools/ is not a package)."""
    name = "modelport_tools_api_reference"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("api_reference.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _repository_path(page_src: str, target: str, docs_dir: Path, root: Path, files: Any) -> str | None:
    """The target's path from the repository root when it is a repository file outside the site."""
    if "://" in target or target.startswith(("#", "/", "mailto:")):
        return None
    path = target.split("#", 1)[0]
    if not path:
        return None
    resolved = (docs_dir / PurePosixPath(page_src).parent / path).resolve()
    if not resolved.exists():
        return None  # a broken link: leave it for mkdocs to report
    try:
        site_file = files.get_file_from_path(resolved.relative_to(docs_dir.resolve()).as_posix())
    except ValueError:
        site_file = None
    if site_file is not None and site_file.inclusion.is_included():
        return None  # a page or asset of the site
    try:
        return resolved.relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    docs_dir = Path(config["docs_dir"])
    root = Path(config["config_file_path"]).parent
    repo_url = (config.get("repo_url") or "").rstrip("/")

    def relink(match: re.Match[str]) -> str:
        repo_path = _repository_path(page.file.src_uri, match["target"], docs_dir, root, files)
        if repo_path is None:
            return match[0]
        if repo_url:
            return f"[{match['text']}]({repo_url}/blob/HEAD/{repo_path})"
        return match["text"]

    out: list[str] = []
    position = 0
    for fence in _FENCE.finditer(markdown):
        out.append(_LINK.sub(relink, markdown[position : fence.start()]))
        out.append(fence[0])
        position = fence.end()
    out.append(_LINK.sub(relink, markdown[position:]))
    return "".join(out)


def public_bases(html: str) -> str:
    """``html`` with private classes left out of every ``Bases:`` line (see the module doc)."""

    def keep(match: re.Match[str]) -> str:
        bases = [
            base
            for base in _BASE.findall(match["items"])
            if not _TAG.sub("", base).strip().rsplit(".", 1)[-1].startswith("_")
        ]
        return f"{match['open']}{', '.join(bases)}</p>" if bases else ""

    return _BASES.sub(keep, html)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    def code(match: re.Match[str]) -> str:
        name = match[2].rsplit(".", 1)[-1] if match[1] else match[2]
        return f"<code>{name}</code>"

    _anchors.update(_ANCHOR.findall(html))
    return public_bases(_LITERAL_BLOCK.sub(r":</p>\1", _ROLE.sub(code, html)))


def on_pre_build(config: Any) -> None:
    _anchors.clear()


def on_post_build(config: Any) -> None:
    api_reference = _api_reference()
    root = Path(config["config_file_path"]).parent
    for problem in api_reference.problems(api_reference.load(root), _anchors):
        log.warning("API reference: %s", problem)
