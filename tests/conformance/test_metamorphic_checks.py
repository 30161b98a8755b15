"""The metamorphic checks catch the mapping bugs a scaffold-built plugin shipped with, with no
``merge_frames`` and with goldens regenerated from the buggy plugin (so ``expected`` passes): each
bug is planted in a plugin made by ``modelport new-provider`` (see ``scaffold_plugin``), its cases are recorded again where the bug changes the request, every
``expected.json`` is regenerated, and then exactly one check fails, with the message naming the
edit and how the decoded value moved.
"""

from __future__ import annotations

import pytest

from modelport_conformance.runner import run_case

from . import scaffold_plugin


def test_the_scaffold_with_citations_passes_every_check(build_plugin) -> None:
    suite = build_plugin(None)
    assert scaffold_plugin.failing_checks(suite) == {}
    outcome = run_case(suite, next(c for c in suite.cases if c.name == "stream-cited"))
    checks = {c.name: (c.status, c.message) for c in outcome.checks}
    assert checks["metamorphic"] == (
        "pass",
        "moved as mapped: usage, text, finish reason, citation start, citation end",
    )
    assert checks["request-edits"] == ("pass", "prompt edited")


def test_input_and_output_counts_swapped_fail_the_metamorphic_check(build_plugin) -> None:
    failures = scaffold_plugin.failing_checks(build_plugin("usage swapped"))
    assert set(failures) == {
        "generate-cited",
        "generate-text",
        "generate-tool-call",
        "generate-tool-result",
        "generate-unsupported-setting",
        "stream-cited",
        "stream-text",
        "stream-tool-call",
    }
    assert {name for checks in failures.values() for name in checks} == {"metamorphic"}
    assert failures["stream-text"]["metamorphic"].splitlines() == [
        "usage (input_tokens +100 at frame 3 /usage/input_tokens, output_tokens +200 at frame 3"
        " /usage/output_tokens, total_tokens +400 at frame 3 /usage/total_tokens):"
        " usage.input_tokens moved by +200, the map says +100",
        "usage (input_tokens +100 at frame 3 /usage/input_tokens, output_tokens +200 at frame 3"
        " /usage/output_tokens, total_tokens +400 at frame 3 /usage/total_tokens):"
        " usage.output_tokens moved by +100, the map says +200",
    ]


def test_tool_arguments_dropped_from_the_stream_fail_the_metamorphic_check(build_plugin) -> None:
    failures = scaffold_plugin.failing_checks(build_plugin("streamed tool arguments dropped"))
    assert failures == {
        "stream-tool-call": {
            "metamorphic": "tool arguments at frame 1 /arguments: moved nothing the map covers"
        }
    }


@pytest.mark.parametrize(("bug", "decoded"), [("citation offsets +1", 6), ("citation offsets -1", 4)])
def test_citation_offsets_shifted_fail_the_metamorphic_check(build_plugin, bug: str, decoded: int) -> None:
    failures = scaffold_plugin.failing_checks(build_plugin(bug))
    assert set(failures) == {"generate-cited", "stream-cited"}
    assert failures["generate-cited"] == {
        "metamorphic": f"citation start 4 → 5 at /citations/0/start: the decoded offset is {decoded},"
        " not the wire's 5 from the start of a text part"
    }
    assert failures["stream-cited"] == {
        "metamorphic": f"citation start 4 → 5 at frame 7 /citations/0/start: the decoded offset is {decoded},"
        " not the wire's 5 from the start of a text part"
    }


def test_a_system_message_lost_fails_the_request_edits_check(build_plugin) -> None:
    failures = scaffold_plugin.failing_checks(build_plugin("system message lost"))
    assert failures == {
        case: {"request-edits": "the system text edited: the body sent did not change (the map says /system)"}
        for case in ("generate-text", "stream-text")
    }


def test_a_map_path_the_decoder_does_not_read_fails(build_plugin) -> None:
    failures = scaffold_plugin.failing_checks(build_plugin("map names the id as text"))
    # The first text fragment the map locates is now the start frame's id: editing it moves no text.
    assert failures == {
        case: {"metamorphic": "text at frame 0 /id: moved nothing the map covers"}
        for case in ("stream-cited", "stream-text", "stream-tool-call")
    }


def test_a_map_path_that_reaches_nothing_fails(build_plugin) -> None:
    failures = scaffold_plugin.failing_checks(build_plugin("map misspells a count"))
    assert set(failures) == {"stream-cited", "stream-text", "stream-tool-call"}
    assert failures["stream-text"]["metamorphic"].splitlines()[0] == (
        "usage.output_tokens is 3, but the map locates no count of it"
    )
