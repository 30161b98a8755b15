"""The structural JSON diff names exact paths, ignores key order and bounds its report."""

from __future__ import annotations

from modelport_conformance.jsondiff import Difference, diff_json, format_differences


def test_diff_names_the_json_path_of_a_changed_signature():
    expected = {"contents": [{"parts": [{"text": "hi"}]}, {"parts": [{"thoughtSignature": "abc"}]}]}
    actual = {"contents": [{"parts": [{"text": "hi"}]}, {"parts": [{"thoughtSignature": "abd"}]}]}
    assert diff_json(expected, actual) == [
        Difference("$.contents[1].parts[0].thoughtSignature", "changed", "abc", "abd")
    ]


def test_diff_reports_missing_unexpected_and_array_length():
    differences = diff_json(
        {"a": 1, "b": [1, 2], "odd key": True}, {"a": 1.0, "b": [1], "c": None, "odd key": 1}
    )
    assert [d.describe() for d in differences] == [
        "$.b[1]: missing (expected 2)",
        '$["odd key"]: expected true, got 1',
        "$.c: unexpected (got null)",
    ]


def test_diff_ignores_key_order_and_formats_a_bounded_list():
    assert diff_json({"x": 1, "y": 2}, {"y": 2, "x": 1}) == []
    differences = [Difference(f"$.a[{i}]", "missing", expected=i) for i in range(25)]
    text = format_differences(differences, limit=2)
    assert (
        text == "  $.a[0]: missing (expected 0)\n  $.a[1]: missing (expected 1)\n  … and 23 more differences"
    )
