"""``modelport new-provider NAME``: the names it derives, what it refuses before writing anything,
and the files it writes (rendered completely, clean under ruff whatever the name's length). That
the generated project installs and passes its own CI is tests/cli/test_new_provider_ci.py.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import modelport
from modelport.cli import main
from modelport.cli._new_provider import scaffold_names

FILES = sorted(
    [
        ".github/workflows/ci.yml",
        ".gitignore",
        "README.md",
        "pyproject.toml",
        "src/modelport_my_llm/__init__.py",
        "src/modelport_my_llm/_plugin.py",
        "src/modelport_my_llm/mapping.py",
        "src/modelport_my_llm/provider.py",
        "src/modelport_my_llm/py.typed",
        "tests/__init__.py",
        "tests/fake_server.py",
        "tests/import_cases.py",
        "tests/record_traffic.py",
        "tests/test_conformance.py",
        "tests/test_recording.py",
        "recordings/README.md",
        "recordings/demo-api.yaml",
        *(
            f"recordings/{stream}.{suffix}"
            for stream in ("stream-cited", "stream-cut-short", "stream-text", "stream-tool-call")
            for suffix in ("request.json", "sse")
        ),
        *(
            f"src/modelport_my_llm/cases/{case}/{file}"
            for case in (
                "embed-texts",
                "error-400",
                "error-401",
                "error-429",
                "error-500",
                "generate-cited",
                "generate-text",
                "generate-tool-call",
                "generate-tool-result",
                "generate-unsupported-setting",
                "stream-cited",
                "stream-cut-short",
                "stream-text",
                "stream-tool-call",
            )
            for file in ("case.yaml", "cassette.yaml", "expected.json")
        ),
    ]
)


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_the_names_derived_from_the_provider_id() -> None:
    names = scaffold_names("my-llm2")
    assert (names.name, names.distribution, names.package) == (
        "my-llm2",
        "modelport-my-llm2",
        "modelport_my_llm2",
    )
    assert (names.class_name, names.display_name, names.env_prefix) == (
        "MyLlm2Provider",
        "My Llm2",
        "MY_LLM2",
    )


def test_it_writes_the_project_into_a_new_folder_named_after_the_distribution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new-provider", "my-llm"])
    assert result.exit_code == 0, result.output
    assert _files(tmp_path / "modelport-my-llm") == FILES
    assert (
        result.output.splitlines()[0]
        == f"Created modelport-my-llm in modelport-my-llm ({len(FILES)} files). Next:"
    )


def test_every_placeholder_is_rendered(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["new-provider", "my-llm", "--directory", str(tmp_path / "p")])
    assert result.exit_code == 0, result.output
    root = tmp_path / "p"
    for relative in FILES:
        text = (root / relative).read_text(encoding="utf-8")
        # GitHub's expressions and the shell's MODELPORT_SPEC are the "${" a generated file keeps.
        for kept in ("${{ matrix.python-version }}", "${{ vars.MODELPORT_SPEC }}", "${MODELPORT_SPEC:-"):
            text = text.replace(kept, "")
        assert "${" not in text, relative
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert 'name = "modelport-my-llm"' in pyproject
    assert '[project.entry-points.modelport]\nmy-llm = "modelport_my_llm._plugin"\n' in pyproject
    assert f'dependencies = ["modelport>={modelport.__version__}"]' in pyproject
    provider = (root / "src/modelport_my_llm/provider.py").read_text(encoding="utf-8")
    assert "class MyLlmProvider(HttpProvider):" in provider
    assert 'id: ClassVar[str] = "my-llm"' in provider
    assert 'api_key_env: ClassVar[tuple[str, ...]] = ("MY_LLM_API_KEY",)' in provider
    assert 'contract_version: ClassVar[str] = "2.3"' in provider
    cassette = (root / "src/modelport_my_llm/cases/generate-text/cassette.yaml").read_text(encoding="utf-8")
    assert "    uri: https://api.my-llm.test/v1/generate\n" in cassette


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("My-LLM", "is not a provider id"),
        ("my_llm", "is not a provider id"),
        ("1llm", "is not a provider id"),
        ("my--llm", "is not a provider id"),
        ("llm-", "is not a provider id"),
        ("a" * 31, "at most 30 characters"),
        ("http", "would name its provider class HttpProvider"),
    ],
)
def test_a_name_that_cannot_be_a_provider_id_is_refused_before_anything_is_written(
    tmp_path: Path, name: str, problem: str
) -> None:
    result = CliRunner().invoke(main, ["new-provider", name, "--directory", str(tmp_path / "p")])
    assert result.exit_code == 2
    assert f"Invalid value for NAME: '{name}'" in result.output
    assert problem in result.output
    assert not (tmp_path / "p").exists()


def test_a_folder_that_is_not_empty_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(main, ["new-provider", "my-llm", "--directory", str(tmp_path)])
    assert result.exit_code == 2
    assert f"{tmp_path} is not an empty folder; give a new or empty one" in result.output
    assert _files(tmp_path) == ["notes.txt"]
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_an_empty_folder_is_filled(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["new-provider", "my-llm", "-d", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert _files(tmp_path) == FILES


@pytest.mark.parametrize("name", ["x", "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o", "abcdefghij" * 3])
def test_the_generated_code_is_clean_under_ruff_for_the_shortest_and_longest_names(
    tmp_path: Path, name: str
) -> None:
    result = CliRunner().invoke(main, ["new-provider", name, "-d", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for command in (["check", "--no-cache", "."], ["format", "--no-cache", "--check", "."]):
        run = subprocess.run(
            [sys.executable, "-m", "ruff", *command],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(
    ("name", "taken"),
    [
        ("openai", "the installed distribution modelport-openai"),
        ("google", "the installed distribution modelport-google"),
        ("anthropic", "the installed distribution modelport-anthropic"),
        ("conformance", "the installed distribution modelport-conformance"),
        ("openai-compatible", "the installed provider 'openai-compatible'"),
        ("groq", "the installed provider 'groq'"),
    ],
)
def test_a_name_an_installed_plugin_has_is_refused_before_anything_is_written(
    tmp_path: Path, name: str, taken: str
) -> None:
    result = CliRunner().invoke(main, ["new-provider", name, "--directory", str(tmp_path / "p")])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f"Error: Invalid value for NAME: '{name}' would clash with {taken}; choose another id (e.g. my-{name})"
    )
    assert not (tmp_path / "p").exists()


def test_a_name_whose_package_is_importable_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "modelport_local_thing").mkdir()
    (tmp_path / "modelport_local_thing" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(main, ["new-provider", "local-thing", "--directory", str(tmp_path / "p")])
    assert result.exit_code == 2
    assert "would clash with the installed package modelport_local_thing" in result.output.splitlines()[-1]
    assert not (tmp_path / "p").exists()


def code_lines(source: str) -> int:
    """The lines of ``source`` that hold code: not blank, not a comment, not in a docstring (cloc's
    "code" count; the rule docs/plugin-authors.md states)."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and ast.get_docstring(node) is not None
        ):
            docstrings.update(range(node.body[0].lineno, (node.body[0].end_lineno or 0) + 1))
    lines = enumerate(source.splitlines(), 1)
    return sum(
        1 for n, line in lines if line.strip() and not line.lstrip().startswith("#") and n not in docstrings
    )


def test_the_line_count_in_the_plugin_authors_guide_is_the_generated_plugins(tmp_path: Path) -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "plugin-authors.md").read_text(encoding="utf-8")
    files = ("mapping.py", "provider.py", "_plugin.py", "__init__.py")
    each = r": `mapping\.py` (\d+), `provider\.py` (\d+), `_plugin\.py` (\d+), `__init__\.py` (\d+)"
    stated_code = re.search(r"after `ruff format`, is \*\*(\d+) lines of code\*\*" + each, guide)
    stated_all = re.search(r"\*\*(\d+) lines\*\* in all" + each, guide)
    assert stated_code is not None and stated_all is not None
    result = CliRunner().invoke(main, ["new-provider", "my-llm", "-d", str(tmp_path)])
    assert result.exit_code == 0, result.output
    package = tmp_path / "src" / "modelport_my_llm"
    # Already formatted (test_the_generated_code_is_clean_under_ruff...), so these are the counts after it.
    sources = [(package / f).read_text(encoding="utf-8") for f in files]
    code = [code_lines(source) for source in sources]
    assert [int(n) for n in stated_code.groups()] == [sum(code), *code]
    assert sum(code) <= 150  # the goal: chat, streaming, tools, citations, usage, errors, embeddings
    every = [len(source.splitlines()) for source in sources]
    assert [int(n) for n in stated_all.groups()] == [sum(every), *every]
    readme = " ".join((tmp_path / "README.md").read_text(encoding="utf-8").split())
    in_readme = re.search(
        r"is (\d+) lines of code after `ruff format`, counted as cloc counts code \([^)]*\)" + each, readme
    )
    assert in_readme is not None
    assert [int(n) for n in in_readme.groups()] == [sum(code), *code]


def test_code_lines_leave_out_blank_lines_comments_and_docstrings() -> None:
    source = '''"""A module.

Its docstring."""

import json  # a comment counts with its code


def f() -> str:
    """One line."""
    # a comment
    return json.dumps(
        """not a docstring"""
    )
'''
    assert code_lines(source) == 5
