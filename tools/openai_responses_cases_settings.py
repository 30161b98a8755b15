# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai-responses`` cases about request settings: the ones the Responses API does not take
(warned about, not sent), an effort the model has no level for, a tool subset, a stateful turn not
stored, provider options refused before any request (no recording: the cassette is empty), and
output items this version does not map (shell calls: a warning, kept raw)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import corpus_attribution
from openai_responses_case_data import CAPITAL, P, V, multi, turn
from openai_responses_corpus import JSON_TYPE, chunks, raw_json, vcr

__all__ = ["settings_cases"]

BATCH = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "batch"  # see its MANIFEST
STATE_CAPITALS = "tidyverse__ellmer/tests__testthat__batch__state-capitals.json"
MCP = P + "openai_responses_model_mcp_server_tool_with_connector.yaml"
AZURE_IMAGE = "Mirascope__mirascope/python__tests__e2e__input__cassettes__test_call_with_image_url__azure-openai_responses_gpt_4o_mini.yaml"
#: The image-URL recording is from a pull request's head commit of Mirascope (see the MANIFEST row).
MIRASCOPE_PR = {
    "Mirascope__mirascope": ("Mirascope/mirascope", "b3223fc3df0268983378a2d838b2663ba28f5f45", "MIT")
}
ELLMER = {"tidyverse__ellmer": ("tidyverse/ellmer", "57e3d72d5dbe1a8bce4a3017b3468ad5fe3b2945", "MIT")}
FILE_SEARCH = V + "openai-file-search-tool.1.json"
#: MOCK passages in the documented shape (as tests/openai/test_file_search_sources.py has them): no
#: public recording asked for ``file_search_call.results``.
RESULTS = [
    {
        "file_id": "file-Ebzhf8H4DPGPr9pUhr7n7v",
        "filename": "ai.pdf",
        "score": 0.41,
        "text": "Generative models write text.",
        "attributes": {},
    },
    {
        "file_id": "file-Ebzhf8H4DPGPr9pUhr7n7v",
        "filename": "ai.pdf",
        "score": 0.93,
        "text": "An embedding model turns words or images into a dense vector of numbers.",
        "attributes": {},
    },
    {"file_id": "file-other", "filename": "other.pdf", "score": 0.99, "text": "Not cited.", "attributes": {}},
]
#: MOCK: a one-page PDF's first bytes (the mapping sends them as they are, as a data URL).
PDF = base64.b64encode(b"%PDF-1.4\n%modelport\n").decode()
REFUSED = "the recorded question with a provider option the mapping refuses before any request: no interaction is recorded"


def _r_nulls(value: Any, key: str = "") -> Any:
    """R's jsonlite wrote each JSON null as ``{}``: the nulls again (``metadata`` is a real empty
    object, the API's default)."""
    if isinstance(value, dict):
        if not value and key != "metadata":
            return None
        return {k: _r_nulls(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_r_nulls(v) for v in value]
    return value


def _batch_answer(saved: str, index: int) -> tuple[int, str, str]:
    """One answer body of an ellmer batch state file (the Responses body of its result ``index``),
    its nulls restored."""
    data = json.loads((BATCH / saved).read_text(encoding="utf-8"))
    found = data["results"][index]
    return found["status_code"], JSON_TYPE, json.dumps(_r_nulls(found["body"]), ensure_ascii=False)


def _without_authorization(recorded: tuple[int, str, str]) -> tuple[int, str, str]:
    """The recorded answer without the credential field its echoed MCP tools carry."""
    status, kind, text = recorded
    body = json.loads(text)
    body["tools"] = [
        {k: v for k, v in tool.items() if k != "authorization"} for tool in body.get("tools") or []
    ]
    return status, kind, json.dumps(body, ensure_ascii=False)


def _with_results() -> tuple[int, str, str]:
    status, kind, text = raw_json(FILE_SEARCH)
    body = json.loads(text)
    body["output"] = [
        {**item, "results": RESULTS} if item["type"] == "file_search_call" else item
        for item in body["output"]
    ]
    return status, kind, json.dumps(body, ensure_ascii=False)


def _split_text(message: dict[str, Any]) -> dict[str, Any]:
    """MOCK: the assistant turn's text cut in two parts after its first paragraph, both of one
    message item (as a message with two ``output_text`` contents comes back) under a MOCK item id;
    its reasoning left out (the recorded answer it came from would be the answer of that history,
    and is not: the history check would compare with it)."""
    meta = {"openai-responses": {"item_id": "msg_mock_two_output_texts"}}
    (text,) = [part["text"] for part in message["content"] if part["type"] == "text"]
    head, tail = text.split("\n\n", 1)
    parts = [{"type": "text", "text": head + "\n\n"}, {"type": "text", "text": tail}]
    return {**message, "content": [{**part, "provider_metadata": meta} for part in parts]}


def settings_cases() -> list[dict[str, Any]]:
    simple = P + "openai_responses_model_simple_response.yaml"
    thinking = P + "openai_responses_model_thinking_part.yaml"
    previous = P + "openai_previous_response_id.yaml"
    parallel = "charmbracelet__fantasy/providertests__testdata__TestOpenAIResponsesCommon__openai-gpt-4o__multi_tool_streaming.yaml"
    street = [{"role": "user", "content": "How do I cross the street?"}]
    return [
        {
            "name": "generate-text-unsupported-settings",
            "description": "gpt-4o asked for stop sequences, a seed, a top_k and reasoning: none is sent, each warned about; user_id sent as user.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                "prompt": CAPITAL,
                "stop_sequences": ["\n\n"],
                "seed": 7,
                "top_k": 40,
                "reasoning": {"effort": "low"},
                "user_id": "user-1234",
            },
            "response": vcr(simple),
            "source": simple,
            "note": "the recorded request sent the question alone; the canonical one adds settings the API has no field for (not sent) and a user id (sent as user, which the answer does not depend on)",
        },
        {
            "name": "generate-reasoning-effort-max-lowered",
            "description": "Effort max on gpt-5, whose highest level is high: reasoning.effort high sent, a warning says it was lowered.",
            "method": "generate",
            "model": "gpt-5",
            "features": ["reasoning"],
            "request": {"messages": street, "reasoning": {"effort": "max"}},
            "response": vcr(thinking, 0),
            "source": thinking,
            "interaction": 0,
            "note": "the recorded request sent effort high; the canonical one asks for max, which gpt-5 takes as high",
        },
        {
            "name": "stream-parallel-calls-tool-subset",
            "description": "tool_choice a subset of two tools: allowed_tools in required mode; the answer calls both, in parallel.",
            "method": "stream",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {
                **multi(parallel, 0),
                "tool_choice": {"type": "tools", "names": ["add", "multiply"]},
                "max_output_tokens": 4000,
            },
            "response": vcr(parallel, 0),
            "source": parallel,
            "interaction": 0,
            "note": "the recorded request sent tool_choice auto; the canonical one requires a call of add or multiply, which the recorded answer (both called) satisfies",
        },
        {
            "name": "generate-previous-response-id-not-stored",
            "description": "previous_response_id with store false given: the turn continues the stored answer and is not stored itself (store false, encrypted reasoning asked).",
            "method": "generate",
            "model": "gpt-5",
            "request": {
                "prompt": "What is the secret key again?",
                "provider_options": {
                    "openai-responses": {"previous_response_id": "resp_1234", "store": False}
                },
            },
            "response": vcr(previous, 1),
            "source": previous,
            "interaction": 1,
            "note": "the recorded request sent store true; the canonical one asks for store false (which adds include reasoning.encrypted_content) and the recorded answer",
        },
        {
            "name": "error-extra-body-stream",
            "description": "extra_body cannot set stream, a field the mapping owns: InvalidRequestError before any request.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                "prompt": CAPITAL,
                "provider_options": {"openai-responses": {"extra_body": {"stream": True}}},
            },
            "source": simple,
            "note": REFUSED,
        },
        {
            "name": "error-documents",
            "description": "Request documents (contract 2.3): the Responses API cites files it searched, not documents passed with a request (Capabilities.documents is false): InvalidRequestError naming documents, before any request.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                "prompt": CAPITAL,
                "documents": [{"type": "text", "text": "Paris is the capital of France."}],
            },
            "source": simple,
            "note": "the recorded question with request documents, which the core refuses for this provider before any request: no interaction is recorded",
        },
        {
            "name": "error-logprobs-option",
            "description": "provider_options logprobs: the Responses API has no logprobs field, InvalidRequestError before any request.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL, "provider_options": {"openai-responses": {"logprobs": True}}},
            "source": simple,
            "note": REFUSED,
        },
        {
            "name": "generate-sampling-model-dated-snapshot",
            "description": "gpt-5.4-nano-2026-03-17, a dated snapshot of a reasoning model that takes a temperature while it does not reason: temperature 0 sent; the answer echoes it, effort none.",
            "method": "generate",
            "model": "gpt-5.4-nano-2026-03-17",
            "request": {"prompt": "What is the capital of Iowa?", "temperature": 0},
            "response": _batch_answer(STATE_CAPITALS, 0),
            "attribution": corpus_attribution.attribution(
                ELLMER,
                STATE_CAPITALS,
                note="the first answer body of ellmer's saved Responses batch state (R wrote each null as {}: restored to null but metadata), as a generate answer; canonical request: the question is not in the state file",
            ),
        },
        {
            "name": "generate-sampling-model-reasoning-temperature-mock",
            "description": "gpt-5.4-nano-2026-03-17 asked for a temperature and effort low: it takes a temperature only while it does not reason, so none is sent (a warning says why); reasoning.effort low sent.",
            "method": "generate",
            "model": "gpt-5.4-nano-2026-03-17",
            "features": ["reasoning"],
            "request": {
                "prompt": "What is the capital of Iowa?",
                "temperature": 0,
                "reasoning": {"effort": "low"},
            },
            "response": _batch_answer(STATE_CAPITALS, 0),
            "attribution": corpus_attribution.attribution(
                ELLMER,
                STATE_CAPITALS,
                note="MOCK pairing: no recording asks this model to reason with a temperature; the canonical request adds effort low to ellmer's question, the answer is the first answer body of its saved batch state (R's nulls restored), which echoes effort none and temperature 0",
            ),
        },
        {
            "name": "generate-request-labels-mock",
            "description": "MOCK request labels: request_labels sent as the Responses metadata object; the recorded text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL, "request_labels": {"team": "docs", "run": "conformance"}},
            "response": vcr(simple),
            "source": simple,
            "note": "MOCK request: no recording sends metadata; invented labels are added to the recorded question (the answer, which echoes metadata {}, does not depend on them)",
        },
        {
            "name": "error-insufficient-quota",
            "description": "The insufficient_quota error body on a 429: a quota error (ProviderQuotaError), not a retryable rate limit.",
            "method": "generate",
            "model": "gpt-5",
            "request": {"prompt": "Hello"},
            "response": raw_json(V + "openai-error.1.json", 429),
            "source": V + "openai-error.1.json",
            "note": "body-only recording (status 429, the status OpenAI documents for insufficient_quota); canonical request",
        },
        {
            "name": "generate-file-inputs-mock",
            "description": "MOCK request: a user turn with an image by file id and an inline PDF, sent as input_image file_id and input_file file_data; the recorded text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": CAPITAL},
                            {"type": "file", "media_type": "image/png", "uri": "file-6F2ksmvXxt4VdoqmHRw6kL"},
                            {"type": "file", "media_type": "application/pdf", "data": PDF},
                        ],
                    }
                ]
            },
            "response": vcr(simple),
            "source": simple,
            "note": "MOCK request: no recording sends the Responses API an image by file id or a PDF; the file parts (an invented file id, a PDF header) are added to the recorded question, the answer is the recorded one",
        },
        {
            "name": "generate-file-search-results-mock",
            "description": "MOCK results: include file_search_call.results; the cited file's source carries the passage with the highest score as its excerpt, the results in the tool result.",
            "method": "generate",
            "model": "gpt-5-mini",
            "features": ["provider_tools", "reasoning"],
            "request": {
                "prompt": "Hello",
                "tools": [
                    {
                        "type": "provider",
                        "id": "openai.file_search",
                        "args": {
                            "vector_store_ids": ["vs_68caad8bd5d88191ab766cf043d89a18"],
                            "max_num_results": 20,
                            "ranking_options": {"ranker": "auto", "score_threshold": 0},
                        },
                    }
                ],
                "tool_choice": "auto",
                "reasoning": {"effort": "medium"},
                "provider_options": {"openai-responses": {"include": ["file_search_call.results"]}},
            },
            "response": _with_results(),
            "source": FILE_SEARCH,
            "note": "body-only recording; MOCK results: the recorded file_search_call has results null (not requested), three invented passages in the documented shape are filled in",
        },
        {
            "name": "generate-shell-call-unmapped",
            "description": "gpt-5.1 with the shell tool (sent through extra_body): a shell_call item, not mapped in this version, kept raw under unmapped_items with a warning; the answer ends with tool-calls.",
            "method": "generate",
            "model": "gpt-5.1-2025-11-13",
            "request": {
                "prompt": "Hello",
                "provider_options": {"openai-responses": {"extra_body": {"tools": [{"type": "shell"}]}}},
            },
            "response": raw_json(V + "openai-shell-tool.1.json"),
            "source": V + "openai-shell-tool.1.json",
            "note": "body-only recording; canonical request with the tools the response echoes (shell has no provider tool here: extra_body)",
        },
        {
            "name": "stream-local-shell-call-unmapped",
            "description": "gpt-5-codex stream: a reasoning item without summary, then a local_shell_call item, not mapped in this version: a warning, the item kept raw, the answer ending with tool-calls.",
            "method": "stream",
            "model": "gpt-5-codex",
            "features": ["reasoning"],
            "request": {"prompt": "Hello", "reasoning": {"effort": "medium"}},
            "response": chunks(V + "openai-local-shell-tool.1.chunks.txt"),
            "source": V + "openai-local-shell-tool.1.chunks.txt",
            "note": "body-only recording; canonical request with the reasoning effort the response echoes (it echoes no tools)",
        },
        {
            "name": "generate-replayed-message-of-two-parts-mock",
            "description": "MOCK history: the assistant's text in two parts of one message item, sent back (not stored, so without its id) as one message with two output_text contents.",
            "method": "generate",
            "model": "gpt-5",
            "features": ["reasoning"],
            "request": {
                "messages": [
                    *street,
                    _split_text(turn(vcr(thinking, 0))),
                    {
                        "role": "user",
                        "content": "Considering the way to cross the street, analogously, how do I cross the river?",
                    },
                ],
                "reasoning": {"effort": "high"},
            },
            "response": vcr(thinking, 1),
            "source": thinking,
            "interaction": 1,
            "note": "MOCK history: no recorded answer has a message of two output_text contents; the recorded first answer's text is cut in two parts of one message under a MOCK item id, its reasoning item left out (the recorded request sent both whole), the answer is the recorded one",
        },
        {
            "name": "generate-image-url-input",
            "description": "A user turn of text and an image by URL: input_text and input_image image_url content; gpt-4o-mini describes the image.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "Describe the following image in one sentence"},
                            {
                                "type": "file",
                                "media_type": "image/png",
                                "uri": "https://en.wikipedia.org/static/images/icons/wikipedia.png",
                            },
                        ],
                    }
                ]
            },
            "response": vcr(AZURE_IMAGE),
            "attribution": corpus_attribution.attribution(
                MIRASCOPE_PR,
                AZURE_IMAGE,
                interaction=0,
                note="recorded on Azure's Responses route; the canonical request to api.openai.com sends the image without the recorded detail auto (the default) and message type",
            ),
        },
        {
            "name": "generate-mcp-call-failed",
            "description": "o4-mini with a remote MCP connector (Google Calendar): mcp_list_tools, then two mcp_call items that failed (output null, an http_error): error results carrying the error, then the text answer.",
            "method": "generate",
            "model": "o4-mini",
            "features": ["reasoning"],
            "request": {
                "system": "You are a helpful assistant.",
                "prompt": "What do I have on my Google Calendar for today?",
                "provider_options": {
                    "openai-responses": {
                        "extra_body": {
                            "tools": [
                                {
                                    "type": "mcp",
                                    "server_label": "google_calendar",
                                    "server_description": "Google Calendar",
                                    "connector_id": "connector_googlecalendar",
                                    "allowed_tools": ["search_events"],
                                    "require_approval": "never",
                                }
                            ],
                            "tool_choice": "auto",
                        }
                    }
                },
            },
            "response": _without_authorization(vcr(MCP)),
            "source": MCP,
            "note": "the recorded request sent the system text as instructions; the MCP tool (no provider tool here) goes through extra_body as recorded, without its authorization (fake in the request, <redacted> in the response's echo: left out of both, as a recorder scrubs a credential field)",
        },
    ]
