"""Issue 30: the conformance table fits the terminal's width, and a detail too long for its column
wraps within it instead of being cut (so do the failures under the table)."""

from __future__ import annotations

import io
import os

import pytest

from modelport_conformance.report import ProviderReport, Report, render
from modelport_conformance.runner import CaseOutcome
from modelport_conformance.table import UNWRAPPED, fit_table, terminal_width

DETAIL = (
    "[expected] output differs from expected.json: $.result.usage.input_tokens: expected 9, got 2; "
    "see tests/cases/generate-basic/expected.json"
)
HEADER = ("provider", "case", "method", "result", "requirements", "detail")
ROWS = [
    ("example", "generate-basic", "generate", "FAIL", "EX1", DETAIL),
    ("example", "stream-basic", "stream", "PASS", "EX2", ""),
]


def _report() -> Report:
    cases = [
        CaseOutcome("example", "generate-basic", "generate", "fail", message=DETAIL, requirements=["EX1"]),
        CaseOutcome("example", "stream-basic", "stream", "pass", requirements=["EX2"]),
    ]
    return Report([ProviderReport("example", cases, status="fail")], {}, False, {})


@pytest.mark.parametrize("width", [70, 100, 140])
def test_every_line_fits_and_the_detail_is_whole(width: int) -> None:
    lines = fit_table(HEADER, ROWS, width)
    assert max(len(line) for line in lines) <= width
    column = lines[1].rindex(" ") + 1  # where the detail column starts (its rule)
    pieces = [line[column:] for line in lines[2:-1] if line[column:]]
    assert "".join(pieces).replace(" ", "") == DETAIL.replace(" ", "")  # every character, in order
    if width >= 100:  # wide enough for each word: wrapped at spaces only
        assert " ".join(pieces) == DETAIL
    assert lines[0].split() == list(HEADER)
    assert lines[2].split()[:5] == ["example", "generate-basic", "generate", "FAIL", "EX1"]


def test_a_wide_terminal_keeps_one_line_per_row() -> None:
    lines = fit_table(HEADER, ROWS, 300)
    assert len(lines) == 4
    assert lines[2].endswith(DETAIL)


def test_a_word_longer_than_its_column_is_split_not_cut() -> None:
    word = "x" * 50
    lines = fit_table(("case", "detail"), [("c", word)], 30)
    assert [line[6:] for line in lines[2:]] == ["x" * 24, "x" * 24, "xx"]


def test_render_takes_the_terminal_width_from_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "72")
    assert terminal_width() == 71
    text = render(_report())
    assert max(len(line) for line in text.splitlines()) <= 71
    failures = text.splitlines()[text.splitlines().index("Failures:") + 1 :]
    assert failures[0] == "example / generate-basic:"
    assert " ".join(line.strip() for line in failures[1 : failures.index("")]) == DETAIL
    assert render(_report(), width=400).splitlines()[2].endswith(DETAIL)


def test_a_table_written_to_a_pipe_is_not_wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no ``COLUMNS`` and stdout not a terminal (``| grep``, a CI log), a row stays one line."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert terminal_width() == UNWRAPPED
    lines = render(_report()).splitlines()
    assert lines[2].split()[:5] == ["example", "generate-basic", "generate", "FAIL", "EX1"]
    assert lines[2].endswith(DETAIL)


def test_a_terminal_without_columns_keeps_its_own_width(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr("sys.stdout", Terminal())
    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback=(80, 24): os.terminal_size((90, 30)))
    assert terminal_width() == 89
