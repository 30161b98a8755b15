"""The edits the metamorphic check writes: one letter, never one that breaks the JSON of streamed
tool-call arguments, and count steps whose sums stay distinct."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from modelport_conformance.wire_edits import edit_letter, one_letter_apart, usage_step


def test_a_text_gets_its_first_letter_marked() -> None:
    assert edit_letter("4 Paris") == "4 Qaris"
    assert edit_letter("Quiet") == "Zuiet"
    assert edit_letter("42 + 7 ✓") is None
    assert one_letter_apart("Paris", "Qaris") and not one_letter_apart("Paris", "Qbris")


@pytest.mark.parametrize(
    ("fragment", "edited"),
    [
        ('{"city": "Paris"}', '{"citQ": "Paris"}'),
        ('{"ok": true, "n": null}', '{"oQ": true, "n": null}'),
        ('{"a": true, "b": 1e5, "name": "x"}', '{"a": true, "Q": 1e5, "name": "x"}'),
        ('"\\nParis"', '"\\nParis"'.replace("Paris", "PariQ")),
        ("true, fals", None),
        ('"\\u00e9"', None),
    ],
)
def test_json_arguments_get_a_letter_inside_a_string(fragment: str, edited: str | None) -> None:
    assert edit_letter(fragment, json_text=True) == edited
    if edited is not None and fragment.startswith(("{", '"')):
        json.loads(edited)  # still JSON


def test_every_sum_of_steps_is_distinct() -> None:
    steps = [usage_step(i) for i in range(8)]
    sums = {sum(chosen) for n in range(1, 9) for chosen in combinations(steps, n)}
    assert steps[:3] == [100, 200, 400] and len(sums) == 2**8 - 1
