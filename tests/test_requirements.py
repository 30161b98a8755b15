"""Every requirement ID the project cites is defined in docs/requirements.md and linked to its tests.

Code comments, docstrings, test modules, docs and the conformance cases' ``case.yaml`` files cite
requirement IDs (a section letter and a number, e.g. ``G13``, ``S8``, ``P5i``; ``G3-G12`` cites the
whole range). This guard scans them all and checks, for every cited ID, that

- docs/requirements.md has a row for it,
- the row links at least one test module (``tests/**/test_*.py``),
- every file the page links exists,
- at least one linked test module itself mentions the ID (see :data:`LINKED_WITHOUT_MENTION`).

Not scanned, each for a reason:

- ``tests/corpus/``: third-party recordings vendored as they were published;
- ``cassette.yaml`` files: recorded HTTP exchanges, whose base64 thought signatures, response ids and
  provider text give false hits (an ``X77`` or ``Q02`` inside a signature, a ``Q8`` ending a
  ``responseId``, an OpenBLAS warning about the "L2 cache"). The IDs a conformance case covers are
  listed in its ``case.yaml``, which is scanned, all but its ``request`` (a replayed history holds the
  same opaque values: Anthropic's redacted thinking data, thinking signatures);
- docs/requirements.md, which defines the IDs, and this module, which names some as examples.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "docs" / "requirements.md"

SCANNED_DIRS = ("core", "plugins", "conformance", "tests", "bench", "tools", "docs")
SCANNED_SUFFIXES = {".py", ".md", ".yaml"}
SKIPPED_DIRS = {"tests/corpus"}
SKIPPED_FILE_NAMES = {"cassette.yaml"}
SKIPPED_FILES = {"docs/requirements.md", "tests/test_requirements.py"}
SKIPPED_PARTS = {"__pycache__", ".venv", ".tox", ".pytest_cache", ".mypy_cache", ".ruff_cache"}

SECTIONS = "LCRTGSKXPQ"
CITATION = re.compile(rf"\b([{SECTIONS}])(\d{{1,2}}[a-z]?)\b")
# "G3-G12" or "T1–T4": the same letter on both ends, cites every number in between.
CITED_RANGE = re.compile(rf"\b([{SECTIONS}])(\d{{1,2}})\s*[-–]\s*\1(\d{{1,2}})\b")
ROW = re.compile(rf"^\|\s*([{SECTIONS}]\d{{1,2}}[a-z]?)\s*\|")
LINK = re.compile(r"\]\(([^)\s]+)\)")
UNTESTED = "untested"

#: Cited IDs whose linked tests check them without naming them, and why.
LINKED_WITHOUT_MENTION = {
    "P6": "a performance property: the benchmark payload carries full grounding metadata; "
    "test_bench_quick checks that the quick benchmark run produces its figures",
}


def cited_ids(text: str) -> Iterator[tuple[str, int]]:
    """Yield ``(id, line number)`` for every requirement ID cited in ``text``, ranges expanded."""
    for lineno, line in enumerate(text.splitlines(), start=1):
        for match in CITATION.finditer(line):
            yield match[1] + match[2], lineno
        for match in CITED_RANGE.finditer(line):
            first, last = int(match[2]), int(match[3])
            for number in range(first + 1, last):
                yield f"{match[1]}{number}", lineno


def parent_id(rid: str) -> str:
    """``P5i`` → ``P5``; an ID without a letter suffix is its own parent."""
    return rid.rstrip("abcdefghijklmnopqrstuvwxyz")


def scanned_files() -> list[Path]:
    files = []
    for top in SCANNED_DIRS:
        for path in (ROOT / top).rglob("*"):
            relative = path.relative_to(ROOT)
            name = relative.as_posix()
            if (
                path.suffix in SCANNED_SUFFIXES
                and path.is_file()
                and path.name not in SKIPPED_FILE_NAMES
                and name not in SKIPPED_FILES
                and not SKIPPED_PARTS.intersection(relative.parts)
                and not any(name.startswith(skipped + "/") for skipped in SKIPPED_DIRS)
            ):
                files.append(path)
    return sorted(files)


def without_request(case_yaml: str) -> str:
    """A ``case.yaml`` with the lines of its top-level ``request`` block blanked (line numbers kept)."""
    lines, inside = [], False
    for line in case_yaml.split("\n"):
        if line and not line[0].isspace():
            inside = line.startswith("request:")
        lines.append("" if inside else line)
    return "\n".join(lines)


def citations() -> dict[str, list[str]]:
    """Map each cited ID to the ``path:line`` places citing it."""
    places: dict[str, list[str]] = defaultdict(list)
    for path in scanned_files():
        relative = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if path.name == "case.yaml":
            text = without_request(text)
        for rid, lineno in cited_ids(text):
            places[rid].append(f"{relative}:{lineno}")
    return dict(places)


def rows() -> dict[str, tuple[str, str]]:
    """Map each ID with a row in docs/requirements.md to its (requirement, tests) cells."""
    table: dict[str, tuple[str, str]] = {}
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match is None:
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        assert len(cells) == 3, f"docs/requirements.md: row {match[1]} needs 3 cells: {line!r}"
        assert match[1] not in table, f"docs/requirements.md: {match[1]} has two rows"
        table[match[1]] = (cells[1], cells[2])
    return table


def linked_files(tests_cell: str) -> list[Path]:
    return [(REQUIREMENTS.parent / link.split("#")[0]).resolve() for link in LINK.findall(tests_cell)]


def is_test_module(path: Path) -> bool:
    try:
        relative = path.relative_to(ROOT)
    except ValueError:
        return False
    return relative.parts[0] == "tests" and path.name.startswith("test_") and path.suffix == ".py"


def _report(problems: Iterable[str]) -> str:
    return "\n".join(["", *problems])


def _places(rid: str, cited: dict[str, list[str]]) -> str:
    places = cited[rid]
    more = f" and {len(places) - 5} more" if len(places) > 5 else ""
    return ", ".join(places[:5]) + more


def test_the_extraction_finds_ids_and_expands_ranges() -> None:
    text = "see G3-G12 and T1–T4 (P5i, S8);\nnot test_g4, 0xC5F, sha c5e1, Q02 is one"
    found = list(cited_ids(text))
    assert [rid for rid, _ in found] == [
        *("G3", "G12", "T1", "T4", "P5i", "S8"),
        *(f"G{n}" for n in range(4, 12)),
        *("T2", "T3"),
        "Q02",
    ]
    assert {lineno for rid, lineno in found if rid == "Q02"} == {2}


def test_the_scan_covers_code_tests_and_cases_but_not_recordings() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in scanned_files()}
    assert "plugins/google/src/modelport_google/_decode.py" in names
    assert "tests/core/test_registry.py" in names
    assert any(name.endswith("/case.yaml") for name in names)
    assert not any(name.endswith("/cassette.yaml") for name in names)
    assert not any(name.startswith("tests/corpus/") for name in names)


def test_the_requirements_table_is_well_formed() -> None:
    table = rows()
    problems = []
    for rid, (requirement, tests_cell) in table.items():
        if not requirement:
            problems.append(f"{rid}: the requirement cell is empty")
        if not LINK.search(tests_cell) and UNTESTED not in tests_cell:
            problems.append(f"{rid}: link a test module or say {UNTESTED!r} (with the reason)")
        parent = parent_id(rid)
        if parent != rid and parent not in table:
            problems.append(f"{rid}: sub-ID of {parent}, which has no row")
    for section in SECTIONS:
        numbers = sorted(int(rid[1:]) for rid in table if rid[0] == section and rid[1:].isdigit())
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"section {section}: IDs are not 1..n without gaps: {numbers}")
    assert problems == [], _report(problems)


def test_every_linked_file_exists() -> None:
    problems = [
        f"{rid}: docs/requirements.md links {link}, which does not exist"
        for rid, (_, tests_cell) in rows().items()
        for link in LINK.findall(tests_cell)
        if not (REQUIREMENTS.parent / link.split("#")[0]).is_file()
    ]
    assert problems == [], _report(problems)


def test_every_cited_id_is_defined() -> None:
    cited = citations()
    table = rows()
    problems = [
        f"{rid} has no row in docs/requirements.md; cited in {_places(rid, cited)}"
        for rid in sorted(cited)
        if rid not in table
    ]
    assert problems == [], _report(problems)


def test_every_cited_id_links_a_test_module() -> None:
    cited = citations()
    table = rows()
    problems = [
        f"{rid}: its row in docs/requirements.md links no test module (tests/**/test_*.py); "
        f"cited in {_places(rid, cited)}"
        for rid in sorted(cited)
        if rid in table and not any(is_test_module(path) for path in linked_files(table[rid][1]))
    ]
    assert problems == [], _report(problems)


def test_a_linked_test_module_mentions_each_cited_id() -> None:
    cited = citations()
    table = rows()
    problems = []
    for rid in sorted(cited):
        if rid not in table or rid in LINKED_WITHOUT_MENTION:
            continue
        modules = [path for path in linked_files(table[rid][1]) if is_test_module(path) and path.is_file()]
        # A sub-ID (P5i) mentions its parent (P5) too.
        mentioned = {
            mention
            for path in modules
            for found, _ in cited_ids(path.read_text(encoding="utf-8"))
            for mention in (found, parent_id(found))
        }
        if modules and rid not in mentioned:
            names = ", ".join(path.relative_to(ROOT).as_posix() for path in modules)
            problems.append(
                f"{rid}: none of its linked test modules ({names}) mentions it; "
                f"cited in {_places(rid, cited)}"
            )
    assert problems == [], _report(problems)


def test_a_case_request_is_not_read_for_citations() -> None:
    case = "description: covers G3.\nrequest:\n  messages:\n  - data: x/G3a+X77 Q8\nrequirements:\n- S8\n"
    assert sorted(cited_ids(without_request(case))) == [("G3", 1), ("S8", 6)]


#: The case issue 34 reported as citing ``G0``, an ID docs/requirements.md does not define.
WEB_SEARCH_REPLAYED = (
    ROOT
    / "plugins/anthropic/src/modelport_anthropic/cassettes/anthropic/generate-web-search-replayed/case.yaml"
)


def test_the_g0_of_the_replayed_web_search_case_is_opaque_data_not_a_citation() -> None:
    """Issue 34 found ``G0`` in ``generate-web-search-replayed/case.yaml``: it is the ``+G0/`` of a
    web search result's ``encrypted_content`` (base64) in the replayed request (line 52), no
    citation (nor is the ``+S1/`` of line 37), so docs/requirements.md needs no G0 row, and the case
    cites nothing. The scan
    reads every ``case.yaml`` but its ``request``: a real citation of an undefined ID anywhere else
    in it (a ``description``, the ``requirements`` list) is one :func:`test_every_cited_id_is_defined`
    reports, as the last assertions show with a planted one."""
    text = WEB_SEARCH_REPLAYED.read_text(encoding="utf-8")
    assert list(cited_ids(text)) == [("S1", 37), ("G0", 52)]
    assert "e5WrmM7btdnVXg+S1/YWv+oplR1KHsft" in text.splitlines()[36]
    assert "WozuxG6waCCNQ7FjjvS+G0/GiqIPbzG3gcxjeYC1aW" in text.splitlines()[51]
    assert list(cited_ids(without_request(text))) == []
    scanned = {path.relative_to(ROOT).as_posix() for path in scanned_files()}
    assert WEB_SEARCH_REPLAYED.relative_to(ROOT).as_posix() in scanned
    planted = text.replace("description: Turn 2", "description: (G0) Turn 2", 1)
    planted += "requirements:\n- G0\n"
    assert [rid for rid, _ in cited_ids(without_request(planted))] == ["G0", "G0"]
    assert "G0" not in rows()
