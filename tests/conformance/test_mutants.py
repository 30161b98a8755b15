"""The mutation operators of ``modelport conformance --mutate``: what each finds, what each applied
mutant does when run, and what is never mutated."""

from __future__ import annotations

import textwrap
import traceback
from typing import Any

import pytest

from modelport_conformance.mutants import OPERATORS, find_mutants, mutated_code

SOURCE = textwrap.dedent(
    '''\
    """A module docstring: "role" here is never a key."""
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        LIMIT = 5

    def encode(tokens: "int", flag: bool = True) -> dict:
        """A docstring."""
        body = {"input": tokens, "output": 1}
        if tokens == 0:
            return make(first=tokens, second=flag)
        body["n"] = 2  # pragma: no mutate
        return body

    def make(*, first, second):
        return (first, second)
    '''
)


def _run(index: int) -> Any:
    namespace: dict[str, Any] = {}
    exec(mutated_code(SOURCE, index, "example.py"), namespace)
    return namespace


def _changes() -> list[tuple[int, str, str]]:
    return [(m.line, m.operator, m.change) for m in find_mutants(SOURCE)]


def test_each_operator_finds_its_sites_and_nothing_else() -> None:
    assert _changes() == [
        (7, "boolean", "True → False"),
        (9, "delete", "statement deleted: body = {'input': tokens, 'output': 1}"),
        (9, "swap", "values of 'input' and 'output' swapped in a dict"),
        (9, "key", "'input' → 'input_x'"),
        (9, "key", "'output' → 'output_x'"),
        (9, "number", "1 → 2"),
        (9, "number", "1 → 0"),
        (10, "compare", "== → != in tokens == 0"),
        (10, "number", "0 → 1"),
        (10, "number", "0 → -1"),
        (11, "delete", "statement deleted: return make(first=tokens, second=flag)"),
        (11, "swap", "first= and second= values swapped in make(…)"),
        (13, "delete", "statement deleted: return body"),
        (16, "delete", "statement deleted: return (first, second)"),
    ]
    assert {m.operator for m in find_mutants(SOURCE)} == set(OPERATORS)


def test_docstrings_annotations_type_checking_and_pragma_lines_are_left_alone() -> None:
    lines = {line for line, _, _ in _changes()}
    assert not lines & {1, 4, 5, 8, 12}  # docstrings, TYPE_CHECKING block, the pragma line
    assert not any("'int'" in change for _, _, change in _changes())  # a string annotation


def test_values_written_the_same_are_not_swapped() -> None:
    source = "def f(x):\n    return g(a=True, b=True, c=x), {'k': 1, 'l': 1}\n"
    assert [m.change for m in find_mutants(source) if m.operator == "swap"] == [
        "b= and c= values swapped in g(…)"
    ]


def test_module_level_code_is_marked_as_run_at_import() -> None:
    mutants = find_mutants("TABLE = {'a': 1}\ndef f():\n    return TABLE['a']\n")
    assert [(m.change, m.in_function) for m in mutants] == [
        ("'a' → 'a_x'", False),
        ("1 → 2", False),
        ("1 → 0", False),
        ("statement deleted: return TABLE['a']", True),
        ("'a' → 'a_x'", True),
    ]
    assert mutants[3].span == (3, 3)
    assert [m.scope for m in mutants] == ["TABLE", "TABLE", "TABLE", "f", "f"]


@pytest.mark.parametrize(
    ("change", "call", "result"),
    [
        ("True → False", lambda ns: ns["encode"](0), (0, False)),
        (
            "values of 'input' and 'output' swapped in a dict",
            lambda ns: ns["encode"](5),
            {"input": 1, "output": 5, "n": 2},
        ),
        ("'output' → 'output_x'", lambda ns: ns["encode"](5), {"input": 5, "output_x": 1, "n": 2}),
        ("1 → 2", lambda ns: ns["encode"](5)["output"], 2),
        ("== → != in tokens == 0", lambda ns: ns["encode"](0), {"input": 0, "output": 1, "n": 2}),
        ("first= and second= values swapped in make(…)", lambda ns: ns["encode"](0), (True, 0)),
        ("statement deleted: return body", lambda ns: ns["encode"](5), None),
    ],
)
def test_an_applied_mutant_changes_what_the_code_does(change: str, call: Any, result: Any) -> None:
    (mutant,) = [m for m in find_mutants(SOURCE) if m.change == change]
    assert call(_run(mutant.index)) == result


def test_the_unmutated_code_for_comparison() -> None:
    namespace: dict[str, Any] = {}
    exec(compile(SOURCE, "example.py", "exec"), namespace)
    assert namespace["encode"](5) == {"input": 5, "output": 1, "n": 2}
    assert namespace["encode"](0) == (0, True)


def test_a_mutant_keeps_the_original_line_numbers() -> None:
    source = "def f(x):\n\n\n    return {'a': 1}[x]\n"
    (key,) = [m for m in find_mutants(source) if m.operator == "key"]
    namespace: dict[str, Any] = {}
    exec(mutated_code(source, key.index, "mapping.py"), namespace)
    with pytest.raises(KeyError) as raised:
        namespace["f"]("a")
    frame = traceback.extract_tb(raised.value.__traceback__)[-1]
    assert (frame.filename, frame.lineno) == ("mapping.py", 4)


def test_the_listing_is_the_same_every_time_and_bounded() -> None:
    assert find_mutants(SOURCE) == find_mutants(SOURCE)
    with pytest.raises(IndexError, match="has no mutant 14"):
        mutated_code(SOURCE, 14, "example.py")
