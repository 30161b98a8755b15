"""The documentation site's configuration (mkdocs.yml) points at pages and modules that exist.

The strict build itself (``mkdocs build --strict``) runs in ``tox -e docs``; these checks need no
MkDocs and catch a renamed page or module in the ordinary test run.
"""

from __future__ import annotations

import configparser
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CONFIG = ROOT / "mkdocs.yml"


def _config() -> dict[str, Any]:
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    assert isinstance(config, dict)
    return config


def _nav_files(nav: Any) -> Iterator[str]:
    if isinstance(nav, str):
        yield nav
    elif isinstance(nav, list):
        for item in nav:
            yield from _nav_files(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            yield from _nav_files(value)


def _excluded(relative: str, patterns: list[str]) -> bool:
    return any(relative == p or (p.endswith("/") and relative.startswith(p)) for p in patterns)


def test_nav_entries_exist() -> None:
    nav = list(_nav_files(_config()["nav"]))
    assert nav, "mkdocs.yml has no nav"
    missing = [page for page in nav if not (DOCS / page).is_file()]
    assert not missing, f"mkdocs.yml nav names pages that do not exist: {missing}"
    assert len(nav) == len(set(nav)), "a page is listed twice in the nav"


def test_every_page_is_in_the_nav() -> None:
    config = _config()
    nav = set(_nav_files(config["nav"]))
    excluded = [line.strip() for line in config.get("exclude_docs", "").splitlines() if line.strip()]
    pages = {
        path.relative_to(DOCS).as_posix()
        for path in DOCS.rglob("*.md")
        if not _excluded(path.relative_to(DOCS).as_posix(), excluded)
    }
    assert not pages - nav, f"pages missing from the mkdocs.yml nav: {sorted(pages - nav)}"


def test_existing_guides_are_in_the_nav() -> None:
    nav = set(_nav_files(_config()["nav"]))
    for page in ("plugin-authors.md", "grounding.md", "reliability.md", "requirements.md"):
        assert page in nav


def test_api_reference_modules_exist() -> None:
    """Every ``::: module`` directive names a module in one of the handler's source paths."""
    plugins = [p for p in _config()["plugins"] if isinstance(p, dict) and "mkdocstrings" in p]
    handler = plugins[0]["mkdocstrings"]["handlers"]["python"]
    paths = [ROOT / p for p in handler["paths"]]
    identifiers = [
        match
        for page in (DOCS / "api").glob("*.md")
        for match in re.findall(r"^::: (\S+)$", page.read_text(encoding="utf-8"), flags=re.M)
    ]
    assert len(identifiers) >= 15
    for identifier in identifiers:
        relative = Path(*identifier.split("."))
        assert any(
            (base / relative).with_suffix(".py").is_file() or (base / relative / "__init__.py").is_file()
            for base in paths
        ), f"{identifier} is not a module under {handler['paths']}"


def test_tox_builds_the_docs_strictly() -> None:
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini", encoding="utf-8")
    assert "docs" in [env.strip() for env in tox["tox"]["env_list"].split(",")]
    assert "mkdocs build --strict" in tox["testenv:docs"]["commands"]
