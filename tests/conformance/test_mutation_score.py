"""``modelport conformance --mutate`` on the Example plugin: a mutant killed by a check, one killed
by ``expected.json`` alone, survivors (reached and not), mutants that hang or exit, seeded sampling,
and that nothing on disk is edited."""

from __future__ import annotations

import hashlib
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport.cli import main
from modelport_conformance.mutants import find_mutants
from modelport_conformance.mutation import MutantResult, Target, find_target, run_mutation, sample_mutants

from .conftest import EXAMPLE_ROOT, install_alone

PROVIDER = "modelport_example/provider.py"

#: Appended to a copy of the Example's provider module; ``decode`` calls the first two.
_EXTRA = """

def _settle(done: bool = True) -> None:
    while not done:
        pass


def _check_exit(code: int = 0) -> None:
    if code != 0:
        os._exit(3)


def _never_called() -> int:
    return 7
"""


def _forget_example() -> None:
    for name in [n for n in sys.modules if n == "modelport_example" or n.startswith("modelport_example.")]:
        del sys.modules[name]


@pytest.fixture
def example_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> Iterator[Path]:
    """A copy of the Example plugin, its ``decode`` calling ``_settle`` and ``_check_exit``."""
    root = tmp_path / "plugin"
    shutil.copytree(EXAMPLE_ROOT / "modelport_example", root / "modelport_example")
    provider = root / PROVIDER
    text = provider.read_text(encoding="utf-8")
    text = text.replace(
        "from collections.abc import Iterator", "import os\nfrom collections.abc import Iterator"
    )
    text = text.replace(
        '    """Wire JSON → canonical result."""\n',
        '    """Wire JSON."""\n    _settle()\n    _check_exit()\n',
    )
    provider.write_text(text + _EXTRA, encoding="utf-8")
    _forget_example()
    install_alone(
        monkeypatch, tmp_path / "site", "modelport-example", {"example": "modelport_example._plugin"}, root
    )
    yield root
    _forget_example()


def _line(root: Path, text: str) -> int:
    """The first line of the copy's provider module that holds ``text``."""
    lines = (root / PROVIDER).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def _digest(root: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*.py"))}


def _run(changes: dict[str, int], **options: object) -> dict[str, MutantResult]:
    """Run the mutants of the copy's provider module making each change, the first at or after
    the line given with it."""
    report = run_mutation(
        "example",
        sample=0,
        only=lambda file, m: file == PROVIDER and m.line >= changes.get(m.change, sys.maxsize),
        **options,
    )
    assert report.problem == ""
    found: dict[str, MutantResult] = {}
    for result in report.results:
        found.setdefault(result.mutant.change, result)
    assert sorted(found) == sorted(changes)
    return found


def test_mutants_are_killed_by_checks_by_goldens_alone_or_survive(example_copy: Path) -> None:
    before = _digest(example_copy)
    swap = "input_tokens= and output_tokens= values swapped in Usage(…)"
    request = "is not → is in request.temperature is not None"
    stop = "'length' → 'length_x'"
    unreached = "statement deleted: return 7"
    results = _run(dict.fromkeys((swap, request, stop, unreached), 0))
    # Usage swapped in the one function both decoders share: only expected.json tells.
    assert (results[swap].status, results[swap].killed_without_goldens) == ("killed", False)
    assert results[swap].how == "generate-basic: expected"
    # temperature dropped where set (and null where unset): the recorded request does not match.
    assert (results[request].status, results[request].killed_without_goldens) == ("killed", True)
    assert results[request].how == "generate-basic: request"
    # No recorded answer stops at max_tokens (length); no case calls _never_called.
    assert (results[stop].status, results[stop].how) == ("survived", "")
    assert (results[unreached].status, results[unreached].how) == ("survived", "no case reaches it")
    assert re.fullmatch(rf"{PROVIDER}:\d+: statement deleted: return 7", results[unreached].where())
    assert _digest(example_copy) == before


def test_a_mutant_that_hangs_or_exits_is_killed_and_the_run_goes_on(example_copy: Path) -> None:
    hang, exit_, stop = "True → False", "!= → == in code != 0", "'length' → 'length_x'"
    settle = _line(example_copy, "def _settle")
    results = _run({hang: settle, exit_: 0, stop: 0}, mutant_timeout=3.0)
    assert results[hang].mutant.line == settle
    assert (results[hang].status, results[hang].killed_without_goldens) == ("killed", True)
    assert results[hang].how == "generate-basic: time-out" or re.fullmatch(
        r"timed out twice \(after [\d.]+ s, then [\d.]+ s\)", results[hang].how
    )
    assert (results[exit_].status, results[exit_].killed_without_goldens) == ("killed", True)
    assert results[exit_].how == "the worker exited without a result"
    assert results[stop].status == "survived"


def test_without_fork_each_mutant_runs_in_a_fresh_interpreter(example_copy: Path) -> None:
    exit_, stop = "!= → == in code != 0", "'length' → 'length_x'"
    results = _run({exit_: 0, stop: 0}, fork=False)
    assert (results[exit_].status, results[exit_].how) == ("killed", "the worker exited with 3")
    assert results[stop].status == "survived"


def test_the_mapping_modules_are_the_provider_package_less_its_exclusions(example_copy: Path) -> None:
    target = find_target("example")
    assert [target.label(f) for f in target.files] == [
        "modelport_example/__init__.py",
        "modelport_example/_plugin.py",
        PROVIDER,
    ]
    assert target.cases == ["generate-basic", "stream-basic"]
    assert target.golden_checks == {"expected"}  # the Example gives merge_frames
    assert target.module(example_copy / PROVIDER) == "modelport_example.provider"


def test_sampling_is_seeded_and_keeps_the_listed_order() -> None:
    every = list(range(200))
    first = sample_mutants(every, 10, seed=7)
    assert first == sample_mutants(every, 10, seed=7) == sorted(first)
    assert len(first) == 10 and first != sample_mutants(every, 10, seed=8)
    assert sample_mutants(every, 0, seed=7) == every == sample_mutants(every, 500, seed=7)


def test_the_command_reports_the_score_and_each_survivor(example_copy: Path) -> None:
    result = CliRunner().invoke(
        main, ["conformance", "--mutate", "--provider", "example", "--sample", "3", "--seed", "2", "-q"]
    )
    assert result.exit_code == 0, result.output
    head = result.output.splitlines()[0]
    assert re.fullmatch(
        r"mutation: example: 3 of \d+ mutants in 3 modules \(seed 2\): (\d) killed \(\d+%\), \d without goldens"
        r" \(\d+%\), (\d) survived, 0 not run; \d+ s",
        head,
    ), head
    killed, survived = re.findall(r"(\d) killed|(\d) survived", head)
    assert int(killed[0]) + int(survived[1]) == 3
    survivors = [line for line in result.output.splitlines() if line.startswith("    ")]
    assert all(re.match(r"    modelport_example/[\w/]+\.py:\d+: ", line) for line in survivors)


def test_a_function_the_suite_leaves_out_is_not_mutated(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    root.mkdir()
    module = root / "shared.py"
    module.write_text("def chat():\n    return 1\n\n\ndef both():\n    return 2\n", encoding="utf-8")
    target = Target("x", "pkg", root, [module], [], frozenset(), scopes=(("shared.py", "chat"),))
    kept = [m for m in find_mutants(module.read_text(encoding="utf-8")) if target.keeps(module, m)]
    assert [(m.scope, m.change) for m in kept] == [
        ("both", "statement deleted: return 2"),
        ("both", "2 → 3"),
        ("both", "2 → 1"),
    ]


def test_a_module_level_table_the_suite_leaves_out_is_not_mutated(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    root.mkdir()
    module = root / "maps.py"
    module.write_text('CHAT = {"a": 1}\nRESPONSES: dict = {"b": 2}\nBOTH = ONE = 3\n', encoding="utf-8")
    target = Target("x", "pkg", root, [module], [], frozenset(), scopes=(("maps.py", "CHAT"),))
    kept = [m for m in find_mutants(module.read_text(encoding="utf-8")) if target.keeps(module, m)]
    assert [(m.scope, m.change) for m in kept] == [
        ("RESPONSES", "'b' → 'b_x'"),
        ("RESPONSES", "2 → 3"),
        ("RESPONSES", "2 → 1"),
        ("", "3 → 4"),
        ("", "3 → 2"),
    ]
