"""Q1 for batch results: every results format is total over mutated real results.

The recorded results of each format (tests/batches/shapes.py: Anthropic and OpenAI JSON Lines,
Gemini inline responses and responses file, Vertex predictions file), spread over four requests,
are mutated with the structural mutations of :mod:`.mutate` (lines and fields dropped, retyped,
duplicated, truncated, emptied, hostile text, huge lists) and, for the JSON Lines formats, half of
the time byte-wise too (truncation, random bytes, invalid UTF-8, flipped and deleted bytes, deep
nesting, ``NaN``), then read through the public API (``job.results()`` of a restored job). Every
input gives results or a typed :class:`~modelport.errors.ModelportError`; every item carries a
result or a typed error; every result round-trips through JSON (C5); and a line the mutations left
alone, whose id no other line names, still arrives with its recorded answer.

Sizes: ``BATCH_FUZZ_EXAMPLES`` examples per format when set (the long run of docs/reliability.md:
30,000), else a quarter of the profile's ``max_examples`` (``ci``: 50 per format). With
``BATCH_FUZZ_TALLY=FILE`` the run writes its counts there as it goes (cases, outcomes, items).
"""

from __future__ import annotations

import functools
import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from modelport import Result
from modelport.errors import ModelportError

from .batch_formats import FORMATS, IDS, TEXTS, Format, jsonl
from .mutate import mutated_bytes, mutated_json


def _examples() -> int:
    given_count = os.environ.get("BATCH_FUZZ_EXAMPLES")
    return int(given_count) if given_count else max(10, settings().max_examples // 4)


def fuzzed() -> settings:
    return settings(
        settings(),
        max_examples=_examples(),
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )


#: Counts of the run, per format (written to ``BATCH_FUZZ_TALLY`` as they grow).
TALLY: dict[str, dict[str, int]] = {}


def _tally(name: str, **counts: int) -> None:
    tally = TALLY.setdefault(name, {})
    for key, value in counts.items():
        tally[key] = tally.get(key, 0) + value
    path = os.environ.get("BATCH_FUZZ_TALLY")
    if path and tally["cases"] % 500 == 0:
        with open(path, "w", encoding="utf-8") as file:
            json.dump(TALLY, file)


@functools.cache
def _format(name: str) -> Format:
    return FORMATS[name]()


def _untouched_ids(original: list[Any], mutated: Any) -> set[str]:
    """The ids whose recorded line is still there, as recorded, and named by no other line."""
    if not isinstance(mutated, list):
        return set()
    texts = [json.dumps(line, sort_keys=True) for line in mutated]
    kept = set()
    for custom_id, line in zip(IDS, original):
        recorded = json.dumps(line, sort_keys=True)
        others = [text for text in texts if text != recorded]
        if texts.count(recorded) == 1 and not any(custom_id in text for text in others):
            kept.add(custom_id)
    return kept


@pytest.mark.parametrize("name", sorted(FORMATS))
@fuzzed()
@given(data=st.data())
def test_mutated_batch_results_decode_or_fail_typed(name: str, data: st.DataObject) -> None:
    try:
        _check_one(name, data)
    except HypothesisException:  # hypothesis's own flow (an assumption, a case it discards)
        raise
    except Exception:
        _tally(name, cases=1, failures=1)  # an untyped error or a broken property: the run fails
        raise


def _check_one(name: str, data: Any) -> str:
    """One case of format ``name``, drawn with ``data.draw``: its outcome ("result", "typed error")."""
    form = _format(name)
    lines = data.draw(mutated_json(form.lines))
    untouched = _untouched_ids(form.lines, lines)
    if form.inline:
        form.serve(lines)
    else:
        body = jsonl(lines) if isinstance(lines, list) else json.dumps(lines).encode() + b"\n"
        if data.draw(st.booleans()):
            body = data.draw(mutated_bytes(body))
            untouched = set()
        form.serve(body)
    try:
        items = form.results()
    except ModelportError:
        _tally(name, cases=1, typed_failures=1)
        return "typed error"
    assert [item.custom_id for item in items[: len(IDS)]] == list(IDS)
    for item in items:
        assert (item.result is None) != (item.error is None)
        if item.error is not None:
            assert isinstance(item.error, ModelportError)
        elif isinstance(item.result, Result):
            assert Result.model_validate_json(item.result.model_dump_json()) == item.result
    for item in items[: len(IDS)]:
        if item.custom_id in untouched:
            assert item.result is not None and item.result.text == TEXTS[item.custom_id], item
    errors = sum(item.error is not None for item in items)
    _tally(name, cases=1, results=1, items=len(items), item_errors=errors, untouched_arrived=len(untouched))
    return "result"
