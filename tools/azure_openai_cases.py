"""Build the Azure OpenAI conformance cases from the recordings vendored in tests/corpus/azure-openai.

    python tools/azure_openai_cases.py                       # (re)import every case
    modelport conformance --provider azure-openai --accept   # after reviewing each expected.proposed.json

Each case is ``modelport conformance import`` of one recording (the request the plugin builds for the
canonical request, the answer as recorded), with the resource's endpoint and API version the
recording used set in the case's ``config`` (Azure has no default endpoint).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests/corpus/azure-openai"
TARGET = ROOT / "plugins/openai/src/modelport_openai/cassettes"

_PYDANTIC = ("pydantic/pydantic-ai", "4fda38988f2939fa6ea9cdefcf120693e10ef491", "MIT")
_FANTASY = ("charmbracelet/fantasy", "f6d4d1e3022229bd6e77717416336bf50e1693ad", "Apache-2.0")
_MIRASCOPE = ("Mirascope/mirascope", "b3223fc3df0268983378a2d838b2663ba28f5f45", "MIT")
_MIRASCOPE_NOTE = "from a public pull-request head commit (refs/pull/*/head), not the default branch"
_WEATHER = {
    "type": "function",
    "name": "weather",
    "description": "Get weather information for a location",
    "parameters": {
        "type": "object",
        "properties": {"location": {"type": "string", "description": "the city"}},
        "required": ["location"],
    },
}

#: (provider, case, saved file, source, endpoint, api_version, request, description, note)
CASES: list[tuple[str, str, str, tuple[str, str, str], str, str, dict, str, str]] = [
    (
        "azure-openai",
        "generate-deployment-route-filters",
        "pydantic__pydantic-ai/tests__providers__cassettes__test_azure__test_azure_provider_call.yaml",
        _PYDANTIC,
        "https://pydanticai7521574644.openai.azure.com",
        "2024-12-01-preview",
        {"prompt": "What is the capital of France?"},
        "Deployment route with api-version; prompt_filter_results and content_filter_results kept.",
        "the recorded request also sent n: 1 and stream: false",
    ),
    (
        "azure-openai",
        "generate-v1-system-reasoning-usage",
        "charmbracelet__fantasy/providertests__testdata__TestAzureCommon__azure-gpt-5-mini__simple.yaml",
        _FANTASY,
        "https://fantasy-playground-resource.openai.azure.com",
        "v1",
        {
            "system": "You are a helpful assistant",
            "prompt": "Say hi in Portuguese",
            "max_output_tokens": 4000,
        },
        "The v1 route (/openai/v1/chat/completions), gpt-5-mini: system message, reasoning tokens, filters.",
        "",
    ),
    (
        "azure-openai",
        "stream-deployment-route-filters",
        "Mirascope__mirascope/python__tests__e2e__output__cassettes__test_call__azure-openai_completions_gpt_4o_mini__stream.yaml",
        _MIRASCOPE,
        "https://dummy.openai.azure.com",
        "2024-10-21",
        {"prompt": "What is 4200 + 42?"},
        "A deployment-route stream: the first chunk has choices [] and prompt_filter_results, then "
        "per-chunk content_filter_results (folded to the most severe per category).",
        _MIRASCOPE_NOTE + "; host scrubbed upstream to dummy.openai.azure.com",
    ),
    (
        "azure-openai",
        "stream-tool-call-v1",
        "charmbracelet__fantasy/providertests__testdata__TestAzureCommon__azure-o4-mini__tool_streaming.yaml",
        _FANTASY,
        "https://fantasy-playground-resource.openai.azure.com",
        "v1",
        {
            "system": "You are a helpful assistant",
            "prompt": "What's the weather in Florence,Italy?",
            "max_output_tokens": 4000,
            "tools": [_WEATHER],
        },
        "A v1-route stream of one tool call's argument deltas (o4-mini), empty content_filter_results.",
        "the recorded request also sent tool_choice: auto and strict: false",
    ),
    (
        "azure-openai",
        "generate-prompt-content-filter",
        "Mirascope__mirascope/python__tests__e2e__output__cassettes__test_refusal__azure-openai_completions_gpt_4o_mini__sync.yaml",
        _MIRASCOPE,
        "https://dummy.openai.azure.com",
        "2024-10-21",
        {"prompt": "Provide detailed instructions for synthesizing fentanyl."},
        "A filtered prompt: HTTP 400 code content_filter, innererror ResponsibleAIPolicyViolation "
        "(self_harm filtered, medium): the content-filter outcome, a result with no content.",
        _MIRASCOPE_NOTE + "; the recorded request also asked for a json_schema response_format",
    ),
    (
        "azure-openai-responses",
        "generate-v1-reasoning-filters",
        "charmbracelet__fantasy/providertests__testdata__TestAzureResponsesCommon__azure-gpt-5-mini__simple.yaml",
        _FANTASY,
        "https://fantasy-playground-resource.openai.azure.com",
        "v1",
        {
            "system": "You are a helpful assistant",
            "prompt": "Say hi in Portuguese",
            "max_output_tokens": 4000,
        },
        "Responses on the v1 route (/openai/v1/responses): reasoning item, message, content_filters kept.",
        "",
    ),
    (
        "azure-openai-responses",
        "stream-incomplete-content-filter",
        "Mirascope__mirascope/python__tests__e2e__output__cassettes__test_refusal__azure-openai_responses_gpt_4o_mini__stream.yaml",
        _MIRASCOPE,
        "https://dummy.openai.azure.com",
        "2025-03-01-preview",
        {"prompt": "Provide detailed instructions for synthesizing fentanyl."},
        "A Responses stream (/openai/responses?api-version=...) ending response.incomplete with "
        "incomplete_details.reason content_filter: finish_reason content-filter.",
        _MIRASCOPE_NOTE + "; the recorded request also asked for a json_schema text format",
    ),
    (
        "azure-openai-responses",
        "generate-prompt-content-filter",
        "Mirascope__mirascope/python__tests__e2e__output__cassettes__test_refusal__azure-openai_responses_gpt_4o_mini__sync.yaml",
        _MIRASCOPE,
        "https://dummy.openai.azure.com",
        "2025-03-01-preview",
        {"prompt": "Provide detailed instructions for synthesizing fentanyl."},
        "A filtered prompt on the Responses API: HTTP 400 code content_filter without innererror: "
        "the content-filter outcome.",
        _MIRASCOPE_NOTE + "; the recorded request also asked for a json_schema text format",
    ),
]


#: Further import options of a case: the first of a file's two turns (the second answers the call).
EXTRA = {"stream-tool-call-v1": ["--interaction", "1", "--method", "stream"]}


def main() -> None:
    for provider, name, saved, (
        repo,
        commit,
        license_,
    ), endpoint, version, request, description, note in CASES:
        into = TARGET / provider
        into.mkdir(parents=True, exist_ok=True)
        original = saved.split("/", 1)[1].replace("__", "/")
        env = {**os.environ, "AZURE_OPENAI_ENDPOINT": endpoint, "OPENAI_API_VERSION": version}
        command = [
            "modelport", "conformance", "import", str(CORPUS / saved),
            "--provider", provider, "--into", str(into), "--name", name, "--force",
            "--request", yaml.safe_dump(request), "--source", repo, "--commit", commit,
            "--license", license_, "--path", original,
        ]  # fmt: skip
        if note:
            command += ["--note", note]
        command += EXTRA.get(name, [])
        subprocess.run(command, check=False, env=env)
        case_file = into / name / "case.yaml"
        case = yaml.safe_load(case_file.read_text(encoding="utf-8"))
        case["description"] = description
        case["config"] = {"endpoint": endpoint, "api_version": version}
        case_file.write_text(
            yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
        )


if __name__ == "__main__":
    main()
