"""Where a vendored recording came from, for the corpus readers of both providers
(:mod:`gemini_corpus`, :mod:`openai_corpus`): each has its own table of sources."""

from __future__ import annotations

from typing import Any

#: ``folder -> (repository, commit, license)``, as in each corpus's MANIFEST.
Sources = dict[str, tuple[str, str, str]]


def original_path(saved_name: str) -> str:
    """Undo the corpus naming (``/`` saved as ``__``); ``__fixtures__`` is a real directory name."""
    protected = saved_name.replace("____fixtures____", "/\0fixtures\0/")
    return protected.replace("__", "/").replace("\0", "__")


def attribution(
    sources: Sources,
    saved: str,
    *,
    commit: str | None = None,
    interaction: int | None = None,
    note: str = "",
) -> dict[str, Any]:
    """Where the recording ``saved`` (``folder/name``) came from: repository, commit, original path,
    license (from ``sources``)."""
    folder, name = saved.split("/", 1)
    repo, default_commit, license_ = sources[folder]
    source: dict[str, Any] = {
        "repo": repo,
        "commit": commit or default_commit,
        "path": original_path(name),
        "license": license_,
        "corpus_file": saved,
    }
    if interaction is not None:
        source["interaction"] = interaction
    if note:
        source["note"] = note
    return source
