"""The Google cases (K6): shipped as package data, attributed, clean, and passing through the registry.

Most replay a recording of the vendored corpus; the few MOCK cases (traffic the corpus has no
recording of: ``:countTokens``, Maps and enterprise web grounding) name the REST reference pages
their responses follow instead.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files

from click.testing import CliRunner

from modelport_conformance.cases import discover_suites, load_cases
from modelport_conformance.cli import main
from modelport_conformance.report import run_conformance

CASSETTES = files("modelport_google") / "cassettes"
GOOGLE = load_cases(CASSETTES / "google")
VERTEX = load_cases(CASSETTES / "google-vertex")

#: Every G and S requirement with a wire shape (G1 and S6, S9, S10 are pure client-side behaviour).
WIRE_REQUIREMENTS = {f"G{n}" for n in range(2, 19)} | {"S1", "S2", "S3", "S4", "S5", "S7", "S8", "S11", "S12"}


def test_every_wire_requirement_has_a_case():
    covered = {r for case in GOOGLE + VERTEX for r in case.requirements}
    assert WIRE_REQUIREMENTS - covered == set()
    assert (len(GOOGLE), len(VERTEX)) == (140, 7)


def test_every_case_carries_attribution_and_no_credentials():
    from modelport_conformance.credentials import scan_text

    mocks = []
    for case in GOOGLE + VERTEX:
        source = case.source
        if source.get("mock"):
            mocks.append(case.name)
            assert set(source) == {"mock", "docs", "note"}, case.name
            assert source["note"].startswith("MOCK: "), case.name
            assert source["docs"] and all(u.startswith("https://") for u in source["docs"]), case.name
        else:
            assert source["repo"] in {
                "pydantic/pydantic-ai",
                "vercel/ai",
                "FirebaseExtended/vertexai-sdk-test-data",
                "simonw/llm-gemini",
                "crmne/ruby_llm",
            }, case.name
            assert re.fullmatch(r"[0-9a-f]{40}", source["commit"]), case.name
            assert source["license"] in {"MIT", "Apache-2.0"}, case.name
        assert case.cassette.metadata["source"] == source, case.name
        assert [f for text in case.files.values() for f in scan_text(text)] == [], case.name
        assert case.expected is not None, case.name
    assert sorted(mocks) == [
        "count-tokens-cached-content",
        "count-tokens-system-function-tool",
        "count-tokens-text",
        "count-tokens-total-negative",
        "count-tokens-total-omitted",
        "embed-single-value",
        "generate-answer-inline-data-not-base64",
        "generate-answer-inline-image-and-file",
        "generate-edited-call-arguments-history",
        "generate-edited-call-with-id-history",
        "generate-inline-image-and-file-uri",
        "generate-malformed-function-call",
        "generate-server-executed-call",
        "generate-thinking-budget-zero",
        "generate-thinking-disabled-gemini25",
        "grounding-maps-generate",
        "grounding-maps-stream",
        "refused-candidate-count-two",
        "refused-documents",
        "refused-maps-latitude-over-90",
        "refused-maps-latitude-string",
        "refused-maps-latitude-under-minus-90",
        "refused-max-output-tokens-over-int32",
        "refused-reasoning-budget-over-int32",
        "refused-reasoning-disabled-gemini3",
        "refused-reasoning-disabled-with-effort",
        "refused-replay-calls-not-matching-parts",
        "refused-replay-parts-not-objects",
        "refused-replayed-results-out-of-order",
        "refused-seed-over-int32",
        "refused-seed-under-int32",
        "refused-thinking-budget-option-not-integer",
        "refused-thinking-budget-option-under-minus-one",
        "refused-thinking-budget-option-with-effort-gemini3",
        "refused-thinking-level-and-budget-generation-config",
        "refused-thinking-level-and-budget-options",
        "refused-thinking-level-gemini25-generation-config",
        "refused-thinking-level-option-gemini25",
        "refused-thinking-level-option-with-budget-gemini3",
        "refused-time-range-leap-second-after-end",
        "refused-time-range-no-such-date",
        "refused-time-range-not-ordered",
        "refused-time-range-offset-minute-60",
        "refused-time-range-offset-over-23-hours",
        "refused-tool-result-first",
        "stream-logprobs",
        "stream-partial-args-gemini3",
        "stream-server-executed-call",
        "vertex-count-tokens",
        "vertex-enterprise-web-search",
    ]


def test_refused_cases_record_no_exchange_and_a_typed_error():
    """A request refused before any I/O has a cassette with no interaction (so an adapter that sent
    it would fail the request check, not only expected.json) and a typed error as its answer."""
    refused = [case for case in GOOGLE if case.name.startswith("refused-")]
    assert len(refused) == 28
    for case in refused:
        assert case.cassette.interactions == [], case.name
        assert set(case.expected) == {"error"}, case.name
        assert case.expected["error"]["type"] in {"InvalidRequestError", "ProviderToolError"}, case.name
        assert "no HTTP exchange" in case.source["note"], case.name
    others = [case for case in GOOGLE + VERTEX if not case.name.startswith("refused-")]
    assert all(case.cassette.interactions for case in others)


def test_cassettes_keep_only_allow_listed_headers():
    for case in GOOGLE + VERTEX:
        for interaction in case.cassette.interactions:
            credential = "authorization" if case in VERTEX else "x-goog-api-key"
            assert set(interaction.request["headers"]) <= {"content-type", "accept", credential}, case.name
            assert interaction.request["headers"][credential] == ["<credential>"], case.name
            assert set(interaction.response["headers"]) <= {"content-type", "retry-after"}, case.name
            assert "key=" not in interaction.uri, case.name


def test_token_counting_maps_and_enterprise_search_have_shipped_cases():
    """Issue 13's count_tokens, google_maps and enterprise_web_search are exercised by the suite."""
    by_name = {case.name: case for case in GOOGLE + VERTEX}
    assert {c.name for c in GOOGLE if c.method == "count_tokens"} == {
        "count-tokens-text",
        "count-tokens-system-function-tool",
        "count-tokens-cached-content",
        "count-tokens-total-omitted",
        "count-tokens-total-negative",
    }
    assert [c.name for c in VERTEX if c.method == "count_tokens"] == ["vertex-count-tokens"]
    counted = by_name["count-tokens-system-function-tool"].cassette.interactions[0]
    assert counted.uri.endswith("/models/gemini-2.5-flash:countTokens")
    assert "labels" not in counted.request["body"]["json"]["generateContentRequest"]
    maps = by_name["grounding-maps-generate"].cassette.interactions[0].request["body"]["json"]
    assert maps["tools"] == [{"googleMaps": {"enableWidget": True}}]
    assert maps["toolConfig"]["retrievalConfig"]["latLng"] == {
        "latitude": 34.050481,
        "longitude": -118.248526,
    }
    assert by_name["grounding-maps-generate"].expected["result"]["sources"][0]["title"] == "Caffè Aurora"
    enterprise = by_name["vertex-enterprise-web-search"].cassette.interactions[0].request["body"]["json"]
    assert enterprise["tools"] == [{"enterpriseWebSearch": {"excludeDomains": ["wikipedia.org"]}}]


def test_stream_cassettes_store_one_event_per_entry():
    case = next(c for c in GOOGLE if c.name == "grounding-search-stream")
    entries = case.cassette.interactions[0].response["body"]["sse"]
    assert len(entries) == 10
    assert entries[-1]["data"]["candidates"][0]["finishReason"] == "STOP"
    assert all(set(e) == {"data"} for e in entries)


def test_google_suites_are_discovered_and_pass():
    suites, errors = discover_suites(["google", "google-vertex"])
    assert errors == {}
    assert [len(suites["google"].cases), len(suites["google-vertex"].cases)] == [140, 7]
    assert suites["google"].merge_frames is not None
    report = run_conformance(["google", "google-vertex"], strict=True)
    failures = {c.case: c.message for p in report.providers for c in p.cases if c.status != "pass"}
    assert failures == {}
    merged = {
        c.case: check.status
        for p in report.providers
        for c in p.cases
        for check in c.checks
        if check.name == "merged" and c.method == "stream"
    }
    assert len(merged) == 33
    assert sorted(k for k, v in merged.items() if v != "pass") == [
        "error-mid-stream",
        "error-stream-http-status",
    ]


def test_generate_with_a_grounded_cassette_prints_markers_and_sources():
    cassette = str(CASSETTES / "google" / "grounding-search-generate" / "cassette.yaml")
    args = [
        "generate",
        "google/gemini-2.5-pro",
        "What is the weather in San Francisco today?",
        "--system",
        "You are a helpful chatbot.",
        "--tool",
        "google_search",
        "--cassette",
        cassette,
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert (
        "temperatures hovering around 69°F.[1] There is a very low chance of rain throughout the day.[1]"
        in result.output
    )
    assert (
        "\nSources:\n[1] Weather information for San Francisco, CA, US - https://www.google.com/"
        in result.output
    )
    as_json = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert [s["number"] for s in as_json["sources"]] == [1, 2, 3]


def test_unknown_tool_names_resolve_only_through_the_allow_list():
    result = CliRunner().invoke(main, ["generate", "google/gemini-2.5-flash", "hi", "--tool", "__import__"])
    assert result.exit_code == 1
    assert result.output.startswith("error: unknown provider tool '__import__' for 'google' (allowed: ")


def test_cli_never_prints_the_key_even_when_the_server_echoes_it(monkeypatch):
    import httpx

    canary = "AIza" + "K" * 35

    def server(self, request):
        key = request.headers.get("x-goog-api-key", "")
        body = {"error": {"code": 400, "message": f"API key not valid: {key}", "status": "INVALID_ARGUMENT"}}
        return httpx.Response(400, json=body, request=request)

    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", server)
    monkeypatch.setenv("GOOGLE_API_KEY", canary)
    for extra in ([], ["--stream"], ["--json"]):
        result = CliRunner().invoke(main, ["generate", "google/gemini-2.5-flash", "hi", *extra])
        assert result.exit_code == 1
        assert result.output == "error: google: API key not valid: [REDACTED] (HTTP 400, INVALID_ARGUMENT)\n"


def test_every_cassette_round_trips_through_the_vcrpy_serializer():
    from modelport_conformance.cassette import serializer, store_body

    for case in GOOGLE + VERTEX:
        vcr_dict = serializer.deserialize(case.files["cassette.yaml"])
        for stored, played in zip(case.cassette.interactions, vcr_dict["interactions"], strict=True):
            body = store_body(played["response"]["body"]["string"], played["response"]["headers"])
            assert body == stored.response["body"], case.name


def test_mock_batches_map_an_inlined_error_and_a_cancel():
    """The two batches derived from batch-answers: a google.rpc.Status inlined response is that
    request's typed error (gRPC 7 is HTTP 403), and a cancelled batch counts its pending requests
    cancelled, not expired."""
    by_name = {case.name: case for case in GOOGLE}
    errored = by_name["batch-inlined-error"].expected["batch"]
    assert errored["job"]["counts"] == {
        "cancelled": 0,
        "expired": 0,
        "failed": 1,
        "processing": 0,
        "succeeded": 1,
        "total": 2,
    }
    assert [sorted(r) for r in errored["results"]] == [["custom_id", "result"], ["custom_id", "error"]]
    assert errored["results"][1]["error"] == {
        "provider_status": "PERMISSION_DENIED",
        "retryable": False,
        "status_code": 403,
        "type": "ProviderAuthError",
    }
    expected = by_name["batch-cancelled"].expected
    assert expected["error"]["type"] == "InvalidRequestError"
    cancelled = expected["batch"]
    assert (cancelled["job"]["status"], cancelled["job"]["raw_status"]) == (
        "cancelled",
        "BATCH_STATE_CANCELLED",
    )
    assert cancelled["job"]["counts"] == {
        "cancelled": 2,
        "expired": 0,
        "failed": 0,
        "processing": 0,
        "succeeded": 0,
        "total": 2,
    }
    assert "results" not in cancelled  # the results step raised: no output to read
