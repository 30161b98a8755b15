"""``text_delta`` and ``reasoning_delta`` (P3): the event the constructor makes, without validation
for ``str`` values, and through the constructor (so validated) for anything else."""

from __future__ import annotations

import copy
import pickle

import pytest
from pydantic import ValidationError

from modelport.events import (
    ReasoningDeltaEvent,
    TextDeltaEvent,
    parse_event,
    reasoning_delta,
    text_delta,
)

CASES = [
    (text_delta, TextDeltaEvent, "text-0", "Hello, wörld"),
    (reasoning_delta, ReasoningDeltaEvent, "reasoning-1", "**Thinking** about it"),
]


@pytest.mark.parametrize(("build", "cls", "id_", "delta"), CASES)
def test_the_built_event_is_the_constructed_one(build, cls, id_, delta) -> None:  # type: ignore[no-untyped-def]
    built, made = build(id_, delta), cls(id=id_, delta=delta)
    assert type(built) is cls
    assert built == made and hash(built) == hash(made)
    assert built.model_fields_set == made.model_fields_set == {"id", "delta"}
    assert built.model_dump() == made.model_dump()
    assert built.model_dump_json() == made.model_dump_json()
    assert repr(built) == repr(made)
    assert parse_event(built.model_dump_json()) == made
    assert pickle.loads(pickle.dumps(built)) == made and copy.deepcopy(built) == made
    with pytest.raises(ValidationError):
        built.delta = "changed"  # type: ignore[misc]  # frozen like any event


@pytest.mark.parametrize(("build", "cls", "id_", "delta"), CASES)
def test_a_value_that_is_not_a_string_is_validated(build, cls, id_, delta) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError):
        build(id_, None)
    with pytest.raises(ValidationError):
        build(3, delta)
