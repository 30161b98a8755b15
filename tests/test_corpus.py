"""The vendored recordings are complete and attributed, and a missing one fails, naming the file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import recordings

_ROW = re.compile(r"^\| `?(?P<saved>[^|`]+?)`? \|")


def _listed(provider: str) -> set[str]:
    """Every saved file a provider's MANIFEST lists (rows may abbreviate the folder as ``…/``)."""
    folder = recordings.CORPUS / provider
    files = _vendored(provider)
    listed: set[str] = set()
    for line in (folder / "MANIFEST.md").read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        if not match or "__" not in match["saved"]:
            continue
        saved = match["saved"]
        if saved.startswith("…/"):
            tail = saved.removeprefix("…")
            found = [f for f in files if f.endswith(tail)]
            listed.add(found[0] if len(found) == 1 else saved)
        else:
            listed.add(saved)
    return listed


def _vendored(provider: str) -> set[str]:
    folder = recordings.CORPUS / provider
    return {
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name != "MANIFEST.md"
    }


@pytest.mark.parametrize("provider", recordings.PROVIDERS)
def test_every_listed_recording_is_vendored(provider: str) -> None:
    missing = sorted(_listed(provider) - _vendored(provider))
    assert not missing, f"tests/corpus/{provider}: listed in MANIFEST.md but missing: {missing}"


@pytest.mark.parametrize("provider", recordings.PROVIDERS)
def test_every_vendored_recording_is_attributed(provider: str) -> None:
    unlisted = sorted(_vendored(provider) - _listed(provider))
    assert not unlisted, (
        f"tests/corpus/{provider}: files with no MANIFEST.md row (source, commit, license): {unlisted}"
    )


@pytest.mark.parametrize(("provider", "count"), [("anthropic", 58), ("gemini", 54), ("openai", 55)])
def test_the_corpus_sizes_are_as_vendored(provider: str, count: int) -> None:
    assert len(_vendored(provider)) == count


def test_a_missing_recording_fails_the_test_naming_the_file() -> None:
    with pytest.raises(pytest.fail.Exception) as info:
        recordings.gemini("vercel__ai/no-such-recording.json")
    assert str(info.value).startswith(
        "vendored recording missing: tests/corpus/gemini/vercel__ai/no-such-recording.json"
    )


def test_nothing_in_the_project_reads_outside_the_repository() -> None:
    root = Path(__file__).resolve().parents[1]
    offenders = []
    for path in root.rglob("*"):
        if path.suffix not in {".py", ".md", ".toml", ".ini", ".cfg", ".yaml", ".sh"} and path.name != "run":
            continue
        relative = path.relative_to(root).as_posix()
        if (
            relative == "tests/test_corpus.py"
            or relative.startswith(("tests/corpus/", ".venv", ".tox", ".ci-venv", ".git/"))
            or "/cassettes/" in relative
        ):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if re.search(r"\.\./shared|\"shared\" / |'shared' / |parents\[\d\]\s*/\s*\"shared", text):
            offenders.append(relative)
    assert not offenders, (
        f"files that read the team folder beside the clone (outside the repository): {offenders}"
    )
