"""docs/plugin-authors.md is executed: its plugin is the one in docs/examples/modelport-acme, which
records its cases against a local fake server, then passes conformance under pytest and under the
``modelport conformance`` command (issue 11: a provider on the kit is pure mapping, in at most 150
lines of code, with no sync/async twins).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conformance.conftest import write_distribution

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "plugin-authors.md"
ACME = ROOT / "docs" / "examples" / "modelport-acme"
PACKAGE = ACME / "src" / "modelport_acme"
CASES = PACKAGE / "cases"
CASE_NAMES = [
    "error-400",
    "error-401",
    "error-429",
    "error-500",
    "generate-parallel-tool-calls",
    "generate-text",
    "stream-text",
    "stream-tool-call-fragments",
]


def _blocks() -> dict[str, str]:
    """Code blocks of the guide preceded by ``<!-- file: PATH -->``, by path."""
    text = GUIDE.read_text(encoding="utf-8")
    found = re.findall(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```", text, flags=re.S)
    return dict(found)


def test_the_guide_shows_the_plugin_files_exactly() -> None:
    blocks = _blocks()
    assert sorted(blocks) == [
        "docs/examples/modelport-acme/pyproject.toml",
        "docs/examples/modelport-acme/src/modelport_acme/_plugin.py",
        "docs/examples/modelport-acme/src/modelport_acme/provider.py",
        "docs/examples/modelport-acme/src/modelport_acme/wire_map.py",
    ]
    for path, body in blocks.items():
        assert body == (ROOT / path).read_text(encoding="utf-8"), f"{path} differs from the guide"


def _code_lines(path: Path) -> int:
    source = path.read_text(encoding="utf-8")
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and ast.get_docstring(node) is not None
        ):
            first = node.body[0]
            docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return sum(
        1
        for number, line in enumerate(source.splitlines(), 1)
        if line.strip() and not line.strip().startswith("#") and number not in docstrings
    )


def test_the_plugin_is_pure_mapping_in_at_most_150_lines_of_code() -> None:
    files = [PACKAGE / "provider.py", PACKAGE / "_plugin.py"]
    assert sum(_code_lines(f) for f in files) <= 150
    source = "".join(f.read_text(encoding="utf-8") for f in files)
    for twin_or_io in ("async def", "httpx", ".post(", ".stream(", ".send(", "modelport._"):
        assert twin_or_io not in source


def test_recording_the_cases_again_gives_the_committed_cases(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from record_acme_cases import record
    finally:
        sys.path.remove(str(ROOT / "tools"))
    for name in CASE_NAMES:
        (tmp_path / name).mkdir()
        shutil.copy(CASES / name / "case.yaml", tmp_path / name / "case.yaml")
    assert record(tmp_path) == [f"{name}: pass" for name in CASE_NAMES]
    for name in CASE_NAMES:
        for file in ("cassette.yaml", "expected.json"):
            fresh = (tmp_path / name / file).read_text(encoding="utf-8")
            committed = (CASES / name / file).read_text(encoding="utf-8")
            drop_date = re.compile(r"^  recorded_at: .*\n", flags=re.M)
            assert drop_date.sub("", fresh) == drop_date.sub("", committed), f"{name}/{file}"
            assert "acme-test-key" not in fresh


@pytest.fixture
def acme_installed(tmp_path: Path) -> dict[str, str]:
    """The environment of a process that has the Acme plugin installed by entry point."""
    site = tmp_path / "site"
    write_distribution(site, "modelport-acme", {"acme": "modelport_acme._plugin"})
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ACME / "src"), env.get("PYTHONPATH", "")])
    env["MODELPORT_BLOCK_PLUGINS"] = "google,google-vertex"
    return env


def test_the_plugin_passes_modelport_conformance(acme_installed: dict[str, str], tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    run = subprocess.run(
        [sys.executable, "-c", "from modelport_conformance.cli import main; main()", "conformance", "--provider", "acme", "--strict",
         "--format", "json", "--output", str(report)],
        env=acme_installed, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert list(data["providers"]) == ["acme"]
    assert data["providers"]["acme"]["summary"] == {"pass": 8, "fail": 0, "skip": 0}


def test_the_plugin_passes_conformance_under_pytest(acme_installed: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "test_acme_conformance.py").write_text(
        "from modelport_conformance import ProviderConformanceTests\n\n\n"
        "class TestAcme(ProviderConformanceTests):\n"
        '    provider_id = "acme"\n',
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        env=acme_installed, capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert re.search(r"^\d+ passed(, \d+ skipped)? in ", run.stdout.splitlines()[-1])
