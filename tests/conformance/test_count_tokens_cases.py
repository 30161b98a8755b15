"""The conformance runner replays ``count_tokens`` cases (method ``count_tokens``) like the others:
request mapping from the cassette, ``{"token_count": ...}`` as the expected output, sync and async.

This case lives in the test so that a wrong count can be shown to fail; the shipped count_tokens
cases (``count-tokens-*`` and ``vertex-count-tokens``) are MOCKs too, as the corpus holds no
``:countTokens`` recording: the response shape is the Gemini API's documented
``{"totalTokens", "cachedContentTokenCount"}``.
"""

from __future__ import annotations

import json
from pathlib import Path

from modelport_conformance import Suite, load_cases, run_case

CASSETTE = """version: 1
interactions:
- request:
    method: POST
    uri: https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens
    headers:
      content-type: [application/json]
      x-goog-api-key: [<credential>]
    body:
      json:
        generateContentRequest:
          model: models/gemini-2.5-flash
          contents:
          - role: user
            parts:
            - text: What is the capital of France?
  response:
    status: {code: 200, message: OK}
    headers:
      content-type: [application/json]
    body:
      json: {totalTokens: 8, cachedContentTokenCount: 3}
"""


def _case(root: Path, expected: dict[str, object]) -> Path:
    case = root / "count-tokens-text"
    case.mkdir(parents=True)
    (case / "case.yaml").write_text(
        "method: count_tokens\nmodel: gemini-2.5-flash\nrequest:\n  prompt: What is the capital of France?\n",
        encoding="utf-8",
    )
    (case / "cassette.yaml").write_text(CASSETTE, encoding="utf-8")
    (case / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    return root


def test_a_count_tokens_case_passes_every_check(tmp_path: Path) -> None:
    suite = Suite(
        "google", load_cases(_case(tmp_path, {"token_count": {"input_tokens": 8, "cached_input_tokens": 3}}))
    )
    outcome = run_case(suite, suite.cases[0])
    assert outcome.status == "pass", outcome
    assert {c.name: c.status for c in outcome.checks}["async"] == "pass"


def test_a_wrong_count_fails_the_expected_check(tmp_path: Path) -> None:
    suite = Suite("google", load_cases(_case(tmp_path, {"token_count": {"input_tokens": 9}})))
    outcome = run_case(suite, suite.cases[0])
    failed = [c for c in outcome.checks if c.status == "fail"]
    assert [c.name for c in failed] == ["expected"]
    assert "$.token_count.input_tokens: expected 9, got 8" in failed[0].message
