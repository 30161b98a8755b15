"""The feature-by-provider matrix: generated from the registered capabilities, never stale.

The README and docs/providers.md hold the table ``modelport providers --format markdown`` prints;
``python tools/provider_matrix.py`` rewrites both copies, and this module fails when either one
differs from what the installed distributions declare now.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from modelport import plugins
from modelport.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    name = "modelport_tools_provider_matrix"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / "provider_matrix.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


provider_matrix = _tool()


def _markdown() -> str:
    outcome = CliRunner().invoke(main, ["providers", "--format", "markdown"])
    assert outcome.exit_code == 0, outcome.output
    return outcome.output


def _rows(table: str) -> dict[str, list[str]]:
    lines = table.strip().splitlines()
    head = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = dict(zip(head, cells))
    return rows


def test_both_copies_match_the_registered_capabilities() -> None:
    assert provider_matrix.stale() == []


def test_the_check_names_a_copy_whose_table_was_edited(tmp_path: Path) -> None:
    for name in provider_matrix.TARGETS:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((ROOT / name).read_text(encoding="utf-8"), encoding="utf-8")
    readme = tmp_path / "README.md"
    text = readme.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `anthropic` |"))
    readme.write_text(text.replace(row, row.replace("✓", "", 1)), encoding="utf-8")
    assert provider_matrix.stale(tmp_path) == ["README.md"]


def test_a_file_without_the_markers_is_an_error_naming_it() -> None:
    with pytest.raises(ValueError, match="notes.md has no"):
        provider_matrix.render("no block here", "| x |\n", name="notes.md")


def test_rendering_twice_changes_nothing() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = _markdown()
    assert provider_matrix.render(provider_matrix.render(text, table), table) == text


def test_one_row_per_installed_provider_with_its_distribution() -> None:
    rows = _rows(_markdown())
    installed = {provider_id for provider_id in plugins.providers() if provider_id in rows}
    assert set(rows) == installed
    assert {"google", "google-vertex", "openai", "openai-responses", "anthropic"} <= set(rows)
    assert rows["google"]["distribution"] == "`modelport-google`"
    assert rows["openai-compatible"]["distribution"] == "`modelport-openai`"
    assert rows["anthropic"]["distribution"] == "`modelport-anthropic`"


def test_each_cell_is_the_declared_capability() -> None:
    rows = _rows(_markdown())
    providers = plugins.providers()
    for provider_id, row in rows.items():
        declared = providers[provider_id].capabilities.as_dict()
        for field, title in provider_matrix_features():
            assert row[title] == ("✓" if declared[field] else ""), (provider_id, field)
    # Exact values from the first-party declarations: Anthropic has no embeddings, Google no
    # documents to cite, and only Chat Completions' OpenAI preset batches among the presets.
    assert rows["anthropic"]["embed"] == ""
    assert rows["anthropic"]["count tokens"] == "✓"
    assert rows["google"]["embed"] == "✓"
    assert rows["google"]["documents"] == ""
    assert rows["groq"]["batch"] == ""
    assert rows["openai"]["batch"] == "✓"


def provider_matrix_features() -> tuple[tuple[str, str], ...]:
    from modelport.cli._matrix import FEATURES

    return FEATURES


def test_a_provider_registered_at_run_time_is_left_out() -> None:
    from modelport import testing

    testing.install()  # registered in this process, by no distribution's entry point
    assert "scripted" in plugins.providers()
    assert "scripted" not in _rows(_markdown())
