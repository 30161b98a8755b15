"""``Result.deferred``: sources, citations and their warnings computed on first use (P2).

A deferred result must be indistinguishable from one built with the values up front: equal, the same
dump, JSON, repr, pickle and copies, the same set fields; the derivation runs at most once, and not
at all for a caller that reads only the text.
"""

from __future__ import annotations

import copy
import pickle
import threading

import pytest
from pydantic import TypeAdapter

from modelport.types import CallWarning, Citation, Derived, Result, Source, TextPart, Usage

DROPPED = CallWarning(type="unsupported-setting", setting="seed", details="not supported")
DERIVED_WARNING = CallWarning(type="skipped-citation", setting="groundingSupports[1]", details="no segment")
SOURCES = [Source(number=1, title="bbc.co.uk", uri="https://www.bbc.co.uk/weather")]
CITATIONS = [Citation(start=0, end=5, sources=[1])]


class Derivation:
    """Counts its runs."""

    def __init__(self) -> None:
        self.runs = 0

    def __call__(self) -> Derived:
        self.runs += 1
        return list(SOURCES), list(CITATIONS), [DERIVED_WARNING]


FIELDS = {
    "content": [TextPart(text="Sunny, 19°C.")],
    "finish_reason": "stop",
    "usage": Usage(input_tokens=7, output_tokens=5),
    "provider_metadata": {
        "google": {
            "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://www.bbc.co.uk/weather"}}]}
        }
    },
    "response_id": "resp-1",
}


def deferred(derive: Derivation | None = None) -> Result:
    return Result.deferred(derive or Derivation(), warnings=[DROPPED], **FIELDS)  # type: ignore[arg-type]


def eager() -> Result:
    return Result(
        warnings=[DROPPED, DERIVED_WARNING],
        sources=SOURCES,
        citations=CITATIONS,
        **FIELDS,  # type: ignore[arg-type]
    )


def test_reading_the_text_does_not_derive_and_the_first_field_read_derives_once() -> None:
    derive = Derivation()
    result = deferred(derive)
    assert result.text == "Sunny, 19°C."
    assert result.usage.input_tokens == 7 and "groundingMetadata" in result.provider_metadata["google"]
    assert derive.runs == 0
    assert result.citations == CITATIONS
    assert result.sources == SOURCES
    assert result.warnings == [DROPPED, DERIVED_WARNING]
    assert derive.runs == 1


@pytest.mark.parametrize(
    "view",
    [
        lambda r: r.model_dump(),
        lambda r: r.model_dump(mode="json"),
        lambda r: r.model_dump_json(),
        lambda r: r.model_dump(exclude_unset=True),
        repr,
        str,
        lambda r: dict(r),
        lambda r: r.model_fields_set,
        lambda r: TypeAdapter(list[Result]).dump_python([r]),
        lambda r: Result.model_validate_json(r.model_dump_json()),
        lambda r: pickle.loads(pickle.dumps(r)),
        copy.copy,
        copy.deepcopy,
        lambda r: r.model_copy(),
        lambda r: r.model_copy(update={"response_id": "resp-2"}).model_dump(),
    ],
    ids=[
        "dump",
        "dump-json-mode",
        "json",
        "exclude-unset",
        "repr",
        "str",
        "dict",
        "fields-set",
        "type-adapter",
        "json-round-trip",
        "pickle",
        "copy",
        "deepcopy",
        "model-copy",
        "model-copy-update",
    ],
)
def test_every_whole_view_equals_the_eager_result(view: object) -> None:
    assert view(deferred()) == view(eager())  # type: ignore[operator]


def test_equality_both_ways_and_with_a_different_result() -> None:
    assert deferred() == eager() and eager() == deferred() and deferred() == deferred()
    assert deferred() != eager().model_copy(update={"citations": []})


def test_serialization_schema_is_unchanged_by_the_deferral() -> None:
    schema = Result.model_json_schema(mode="serialization")
    assert {"sources", "citations", "warnings", "text"} <= set(schema["properties"])


def test_warnings_put_first_keep_the_result_deferred() -> None:
    derive = Derivation()
    result = Result.deferred(derive, **FIELDS)  # type: ignore[arg-type]
    first = result._with_warnings_first([DROPPED])
    assert derive.runs == 0
    assert first._known_warnings() == [DROPPED]
    assert first == eager()
    assert result.warnings == [DERIVED_WARNING]  # the original is unchanged


def test_known_warnings_do_not_derive() -> None:
    derive = Derivation()
    result = deferred(derive)
    assert result._known_warnings() == [DROPPED]
    assert derive.runs == 0


def test_a_deferred_result_refuses_sources_or_citations_given_up_front() -> None:
    with pytest.raises(TypeError, match="derives its sources and citations itself"):
        Result.deferred(Derivation(), sources=SOURCES)


def test_threads_reading_at_once_all_see_the_whole_result() -> None:
    for _ in range(50):
        result = deferred()
        seen: list[object] = []
        barrier = threading.Barrier(4)

        def read(result: Result = result) -> None:
            barrier.wait()
            seen.append((result.citations, result.content, result.warnings))

        threads = [threading.Thread(target=read) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert seen == [(CITATIONS, FIELDS["content"], [DROPPED, DERIVED_WARNING])] * 4


# --------------------------------------------------------------------------- Result.trusted


def test_a_trusted_result_is_the_validated_one() -> None:
    fields = {**FIELDS, "warnings": [DROPPED], "provider_metadata": {"google": {"modelVersion": "x"}}}
    trusted, validated = Result.trusted(**fields), Result(**fields)
    assert trusted == validated
    assert trusted.model_dump() == validated.model_dump()
    assert trusted.model_dump_json() == validated.model_dump_json()
    assert repr(trusted) == repr(validated)
    assert list(trusted.__dict__) == list(validated.__dict__)  # field order (dumps, reprs)
    assert trusted.model_fields_set == validated.model_fields_set == set(fields)
    assert pickle.loads(pickle.dumps(trusted)) == validated
    assert Result.model_validate_json(trusted.model_dump_json()) == trusted
    assert hash(trusted.usage) == hash(validated.usage)


def test_a_trusted_result_fills_defaults_with_fresh_values() -> None:
    first, second = Result.trusted(), Result.trusted()
    assert first == Result()
    assert first.content is not second.content and first.warnings is not second.warnings
    assert first.usage == Usage() and first.model_fields_set == set()


def test_a_trusted_result_refuses_a_name_that_is_no_field() -> None:
    with pytest.raises(TypeError, match="Result has no field colour, text"):
        Result.trusted(text="derived", colour="blue", finish_reason="stop")


def test_a_trusted_result_is_as_frozen_as_a_validated_one() -> None:
    result = Result.trusted(**FIELDS)
    with pytest.raises(ValueError, match="frozen"):
        result.finish_reason = "length"  # type: ignore[misc]


def test_a_lookup_that_missed_just_before_another_thread_resolved_still_finds_the_field() -> None:
    # The interleaving behind a rare failure of the test above in CI: a thread's attribute lookup
    # misses ``citations`` (not yet resolved) and calls ``__getattr__``; by then another thread has
    # resolved the result, so the deferred marker is gone but the field is there.
    result = deferred()
    assert result.citations == CITATIONS  # another thread resolves
    assert Result.__getattr__(result, "citations") == CITATIONS  # the late lookup
    with pytest.raises(AttributeError):
        Result.__getattr__(result, "no_such_field")
