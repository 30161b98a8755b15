"""The structural JSON diff names exact paths; the credential scan finds planted keys."""

from __future__ import annotations

from modelport_conformance.credentials import redact, scan_text
from modelport_conformance.jsondiff import Difference, diff_json, format_differences

FAKE_KEY = "AIza" + "S" * 35


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


def test_planted_google_key_is_found_and_masked():
    findings = scan_text(f"uri: https://x.test/v1?alt=sse\nbody: '{FAKE_KEY}'\n")
    assert [(f.kind, f.line, f.masked) for f in findings] == [("Google API key", 2, "AIza…")]
    assert FAKE_KEY not in findings[0].describe("cassette.yaml")


def test_other_credential_shapes_are_found():
    text = "\n".join(
        [
            "x-goog-api-key: [abc]",
            "token: "
            + "ya29."
            + "a0AfH6SMBx1234567890abcdef",  # built at run time: no token-shaped literal in git
            "uri: https://h.test/v1/models?key=0123456789abcdef",
            "Authorization: Bearer abcdefghijklmnopqrstuvwx",
        ]
    )
    kinds = [(f.line, f.kind) for f in scan_text(text)]
    assert kinds == [
        (1, "credential header"),
        (2, "Google OAuth access token"),
        (3, "credential in URL"),
        (4, "credential header"),
        (4, "bearer token"),
    ]


def test_key_inside_a_longer_token_is_not_a_finding():
    # thought signatures are long base64 blobs; "AIza" inside one is not a key.
    assert scan_text("thoughtSignature: Cq" + FAKE_KEY + "xyz") == []


def test_redact_replaces_keys():
    assert redact(f"{{'k': '{FAKE_KEY}'}}") == "{'k': 'REDACTED'}"
