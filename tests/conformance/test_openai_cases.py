"""The OpenAI and OpenAI-compatible cases: shipped as package data, attributed, clean, passing."""

from __future__ import annotations

import re
from importlib.resources import files

from modelport_conformance import ProviderConformanceTests
from modelport_conformance.cases import discover_suites, load_cases
from modelport_conformance.credentials import scan_text
from modelport_conformance.report import run_conformance

CASSETTES = files("modelport_openai") / "cassettes"
COUNTS = {
    "openai": 112,
    "openai-compatible": 5,
    "openai-responses": 128,
    "groq": 6,
    "deepseek": 4,
    "openrouter": 3,
    "xai": 2,
    "together": 2,
    "mistral": 2,
    "ollama": 1,
}
CASES = {provider: load_cases(CASSETTES / provider) for provider in COUNTS}
REPOS = {
    "pydantic/pydantic-ai",
    "vercel/ai",
    "simonw/llm",
    "open-telemetry/opentelemetry-python-contrib",
    "traceloop/openllmetry",
    "Future-House/ldp",
    "Mirascope/mirascope",
    "charmbracelet/fantasy",
    "crmne/ruby_llm",
    "tidyverse/ellmer",
}


def test_case_counts() -> None:
    assert {p: len(c) for p, c in CASES.items()} == COUNTS
    assert sum(COUNTS.values()) >= 30
    assert (
        len([p for p in COUNTS if p not in ("openai", "openai-compatible", "openai-responses") and COUNTS[p]])
        >= 3
    )


def test_every_case_carries_attribution_and_no_credentials() -> None:
    mocks = []
    for cases in CASES.values():
        for case in cases:
            source = case.source
            if source.get("mock"):  # no recording behind it: the reference it follows, and why
                mocks.append(case.name)
                assert set(source) == {"mock", "docs", "note"}, case.name
                assert source["note"].startswith("MOCK: "), case.name
                assert source["docs"] and all(u.startswith("https://") for u in source["docs"]), case.name
            else:
                assert source["repo"] in REPOS, case.name
                assert re.fullmatch(r"[0-9a-f]{40}", source["commit"]), case.name
                assert source["license"] in {"MIT", "Apache-2.0"}, case.name
                assert source["path"] and source["corpus_file"], case.name
            assert case.cassette.metadata["source"] == source, case.name
            assert [f for text in case.files.values() for f in scan_text(text)] == [], case.name
            assert case.expected is not None, case.name
    assert sorted(mocks) == [
        "embed-error-encoding-format-contradicts",
        "embed-error-encoding-format-unknown",
        "embed-error-extra-body-input",
        "embed-error-extra-body-model",
        "embed-error-int8-refused",
        "embed-error-task-type",
        "embed-error-unknown-option",
        "error-audio-by-uri",
        "error-audio-mp3-by-uri",
        "error-extra-body-reserved-messages",
        "error-extra-body-reserved-model",
        "error-extra-body-reserved-n",
        "error-extra-body-reserved-stream",
        "error-extra-body-reserved-stream-options",
        "error-frequency-penalty-out-of-range",
        "error-frequency-penalty-too-high",
        "error-history-assistant-image",
        "error-history-system-image",
        "error-history-tool-message-text",
        "error-history-user-tool-call",
        "error-media-type-not-sendable",
        "error-option-logprobs-not-boolean",
        "error-option-parallel-tool-calls-not-boolean",
        "error-option-store-not-boolean",
        "error-option-top-logprobs-not-integer",
        "error-pdf-by-url",
        "error-presence-penalty-too-high",
        "error-presence-penalty-too-low",
        "error-temperature-out-of-range",
        "error-tool-result-without-call",
        "error-top-logprobs-out-of-range",
        "error-top-logprobs-over-20",
        "error-top-logprobs-without-logprobs",
        "generate-input-audio-wav",
        "generate-json-object",
        "generate-legacy-function-call",
        "generate-pdf-file-id",
        "generate-reasoning-effort-max-gpt-5-2",
        "generate-reasoning-effort-max-gpt-5-3",
        "generate-reasoning-effort-max-gpt-5-4",
        "generate-reasoning-effort-max-gpt-5-6",
        "generate-reasoning-effort-max-xhigh",
        "generate-reasoning-effort-medium",
        "generate-sampling-model-reasoning-on",
        "generate-sampling-model-snapshot",
        "generate-strict-schema-format-dropped",
        "generate-tool-arguments-object",
        "generate-user-reasoning-dropped",
    ]


def test_cassettes_keep_only_allow_listed_headers() -> None:
    for cases in CASES.values():
        for case in cases:
            for interaction in case.cassette.interactions:
                assert set(interaction.request["headers"]) <= {"content-type", "accept", "authorization"}
                assert interaction.request["headers"]["authorization"] == ["<credential>"], case.name
                assert set(interaction.response["headers"]) <= {"content-type"}, case.name


def test_stream_oddities_are_stored_as_recorded() -> None:
    groq = next(c for c in CASES["groq"] if c.name == "stream-error-event-no-done")
    entries = groq.cassette.interactions[0].response["body"]["sse"]
    assert entries[-1]["event"] == "error" and entries[-1]["data"]["error"]["code"] == "tool_use_failed"
    assert all(e.get("data") != "[DONE]" for e in entries)
    openrouter = next(c for c in CASES["openrouter"] if c.name == "stream-error-in-chunk")
    comments = [e for e in openrouter.cassette.interactions[0].response["body"]["sse"] if "comments" in e]
    assert comments and comments[0]["comments"] == ["OPENROUTER PROCESSING"]


def test_the_suites_are_discovered_and_pass() -> None:
    suites, errors = discover_suites(list(COUNTS))
    assert errors == {}
    assert {p: len(s.cases) for p, s in suites.items()} == COUNTS
    report = run_conformance(list(COUNTS), strict=True)
    failures = {
        (p.provider_id, c.case): c.message for p in report.providers for c in p.cases if c.status != "pass"
    }
    assert failures == {}
    merged = [
        check.status
        for p in report.providers
        for c in p.cases
        for check in c.checks
        if check.name == "merged" and c.method == "stream"
    ]
    assert merged and set(merged) <= {"pass", "skip"}


class TestOpenAIConformance(ProviderConformanceTests):
    provider_id = "openai"


class TestGroqConformance(ProviderConformanceTests):
    provider_id = "groq"


class TestDeepSeekConformance(ProviderConformanceTests):
    provider_id = "deepseek"


class TestOpenRouterConformance(ProviderConformanceTests):
    provider_id = "openrouter"


class TestOpenAIResponsesConformance(ProviderConformanceTests):
    provider_id = "openai-responses"
