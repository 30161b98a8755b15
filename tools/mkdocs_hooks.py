"""MkDocs hooks for the documentation site (``hooks:`` in mkdocs.yml).

- Links from a page to a repository file that is not part of the site (``../tests/...``,
  ``../tools/...``, the worked example under ``docs/examples/``) keep working on GitHub and in an
  editor, but would be dead links on the site: they become plain text there, or links into the
  repository when ``repo_url`` is configured. A link to a file that exists nowhere is left alone, so
  ``mkdocs build --strict`` still reports it.
- Docstrings use Sphinx roles (``:class:`Result```); Markdown renders them as ``:class:`` followed by
  a code span, so the role prefix is dropped and ``~a.b.Name`` is shortened to ``Name``. A
  reStructuredText ``::`` before a literal block is shown as one colon.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any

_FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]\n]+)\]\((?P<target>[^)\s]+)\)")
_ROLE = re.compile(r":(?:class|func|data|meth|attr|mod|exc|obj):<code>(~?)([^<]*)</code>")
_LITERAL_BLOCK = re.compile(r"::</p>(\s*<div class=\"highlight\">)")


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


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    def code(match: re.Match[str]) -> str:
        name = match[2].rsplit(".", 1)[-1] if match[1] else match[2]
        return f"<code>{name}</code>"

    return _LITERAL_BLOCK.sub(r":</p>\1", _ROLE.sub(code, html))
