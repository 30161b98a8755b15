# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The ``anthropic`` cases of mappings no other case reaches: two system messages, a
``cache_control`` set on a part by hand, a tool subset that leaves a tool out, a PDF document by
Files API id, and a streamed call whose input arrives whole in its block start.

Each keeps a recorded answer and changes one thing of the request it answers (the note names it):
the answer stands for the changed request as well, and the ``request`` check pins the body the
mapping sends, with no golden read.
"""

from __future__ import annotations

from typing import Any

from anthropic_case_kit import RECONSTRUCTED, F, P, R, V, body_only, input_in_block_start, recorded, user_turn
from anthropic_corpus import chunks, raw_json

__all__ = ["request_cases"]

FILES_BETA = "files-api-2025-04-14"
OPUS = V + "anthropic-claude-opus-5-reasoning-high.1.json"
STRAWBERRY = user_turn("How many r's are in strawberry?")
#: The Files API id of the PDF the prism citations recording quotes (invented: the recording has no request).
PDF_FILE_ID = "file_011CNha8iCJcU1wXNR6q4V8w"
#: The base64 of a minimal PDF (header and end-of-file marker), standing for the recording's PDF.
MINIMAL_PDF = "JVBERi0xLjQKJSVFT0YK"
#: The Files API id of pdfobject.com's sample.pdf (invented: the recording sent it by URL).
SAMPLE_PDF_FILE_ID = "file_011CPMxVD3fHLUhvTqtsQA5w"


def request_cases() -> list[dict[str, Any]]:
    """Two system messages, a part's own cache_control, a tool subset of one of two tools, a file id."""
    instructions = P + "test_anthropic_model_instructions.yaml"
    return [
        input_in_block_start(
            recorded(
                "stream-tool-call-input-in-block-start",
                F + "TestAnthropicCommon__claude-sonnet-4__multi_tool_streaming.yaml",
                "Streamed text and two parallel tool_use blocks, the first with its whole input in content_block_start and no input_json_delta: its arguments as given there.",
                features=("function_tools",),
            )
        ),
        {
            **recorded(
                "generate-system-two-messages",
                instructions,
                "Two system messages: system goes as a list of two text blocks, in order (one system message is a string).",
            ),
            "request_update": {
                "messages": [
                    {"role": "system", "content": [{"type": "text", "text": "You are a helpful assistant."}]},
                    {"role": "system", "content": [{"type": "text", "text": "Answer in one sentence."}]},
                    {"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]},
                ]
            },
            "note": "the recorded request has one system string ('You are a helpful assistant.' and a blank line); here a second system message, 'Answer in one sentence.', is added, which the recorded one-sentence answer answers as well",
        },
        {
            **recorded(
                "generate-cache-control-on-part",
                instructions,
                "A user text part with provider_metadata anthropic.cache_control (set by hand): the turn goes as a text block carrying that cache_control, not as a string.",
            ),
            "request_update": {
                "messages": [
                    {
                        "role": "system",
                        "content": [{"type": "text", "text": "You are a helpful assistant.\n\n"}],
                    },
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "text",
                                "text": "What is the capital of France?",
                                "provider_metadata": {
                                    "anthropic": {"cache_control": {"type": "ephemeral", "ttl": "1h"}}
                                },
                            }
                        ],
                    },
                ]
            },
            "note": "the recorded request has no breakpoint; here the question carries cache_control (ttl 1h) set by hand; the prompt is far below the 1024 tokens a prompt must reach to be cached, and a shorter one marked with cache_control is processed without caching, as this answer was (no cache write, no read)",
        },
        {
            **body_only(
                "stream-tool-choice-subset-of-two",
                V + "anthropic-tool-no-args.chunks.txt",
                "tool_choice a subset of one of two tools (get_current_time): only that tool is sent, with tool_choice naming it; the answer is its call.",
                chunks(V + "anthropic-tool-no-args.chunks.txt"),
                "stream",
                "claude-sonnet-4-5",
                {
                    "messages": user_turn("What is the current time?"),
                    "max_output_tokens": 1024,
                    "tools": [
                        {
                            "type": "function",
                            "name": "get_current_time",
                            "parameters": {"type": "object", "properties": {}},
                        },
                        {
                            "type": "function",
                            "name": "get_weather",
                            "parameters": {
                                "type": "object",
                                "properties": {"city": {"type": "string"}},
                                "required": ["city"],
                            },
                        },
                    ],
                    "tool_choice": {"type": "tools", "names": ["get_current_time"]},
                },
                features=("function_tools",),
            ),
            "note": RECONSTRUCTED
            + "; the request offers a second tool (get_weather, invented) that the subset leaves out, so the body is the one tool and its call that the recorded answer makes",
        },
        {
            **body_only(
                "generate-documents-pdf-file-id",
                R + "generate-text-with-pdf-citations-1.json",
                "documents= with one PDF by Files API id (file_…) and its title, with beta files-api-2025-04-14: a document block with a file source (not a URL) and citations on; the page_location citations come back as for the PDF by URL.",
                raw_json(R + "generate-text-with-pdf-citations-1.json"),
                "generate",
                "claude-3-5-sonnet-20241022",
                {
                    "messages": user_turn("What color is the grass and sky?"),
                    "documents": [
                        {
                            "type": "file",
                            "media_type": "application/pdf",
                            "uri": PDF_FILE_ID,
                            "title": "All aboout the grass and the sky",
                        }
                    ],
                    "max_output_tokens": 1024,
                },
            ),
            "config": {"beta": FILES_BETA},
            "note": RECONSTRUCTED
            + "; the recording has no request, so the PDF is sent by an invented Files API id (the files-api beta the Files API needs, as the beta= model keyword)",
        },
        {
            **recorded(
                "generate-user-id-metadata",
                instructions,
                "user_id: sent as metadata.user_id.",
            ),
            "request_update": {"user_id": "user-7f3a"},
            "note": "the recorded request has no metadata; here user_id is set (invented), which the API records and the answer does not depend on",
        },
        {
            **body_only(
                "generate-opus-effort-high",
                OPUS,
                "reasoning.effort high on claude-opus-5 (adaptive thinking): thinking adaptive with output_config.effort high; a thinking block with its signature, then text.",
                raw_json(OPUS),
                "generate",
                "claude-opus-5",
                {"messages": STRAWBERRY, "max_output_tokens": 32000, "reasoning": {"effort": "high"}},
                features=("reasoning",),
            ),
            "note": RECONSTRUCTED
            + "; the recording is named reasoning-high: high effort asked the adaptive way",
        },
        {
            **body_only(
                "generate-opus-budget-and-effort",
                OPUS,
                "reasoning budget_tokens 16384 and effort high on claude-opus-5: the budget as thinking enabled, the effort as output_config.effort beside it.",
                raw_json(OPUS),
                "generate",
                "claude-opus-5",
                {
                    "messages": STRAWBERRY,
                    "max_output_tokens": 32000,
                    "reasoning": {"budget_tokens": 16384, "effort": "high"},
                },
                features=("reasoning",),
            ),
            "note": RECONSTRUCTED
            + "; the recording is named reasoning-high: a budget with high effort beside it",
        },
        {
            **body_only(
                "generate-effort-max-on-opus-4-5",
                OPUS,
                "reasoning.effort max on claude-opus-4-5 (an effort beside a budget, up to high): thinking enabled with the max budget (32000), output_config.effort high, and an unsupported-setting warning on reasoning.effort.",
                raw_json(OPUS),
                "generate",
                "claude-opus-4-5",
                {"messages": STRAWBERRY, "max_output_tokens": 64000, "reasoning": {"effort": "max"}},
                features=("reasoning",),
            ),
            "source": {
                "mock": True,
                "docs": ["https://platform.claude.com/docs/en/build-with-claude/effort"],
                "note": "MOCK: no recording of Claude Opus 4.5 with an effort is in the corpus; the answer is vercel/ai's claude-opus-5 reasoning-high recording (packages/anthropic/src/__fixtures__/anthropic-claude-opus-5-reasoning-high.1.json, Apache-2.0), the request written from the effort guide",
            },
        },
        {
            **recorded(
                "generate-thinking-effort-low",
                F + "TestAnthropicThinking__claude-sonnet-4__thinking.yaml",
                "reasoning.effort low on claude-sonnet-4 (a budget-only model): thinking enabled with the low effort's budget (2048), no output_config.effort; thinking then a tool_use.",
                features=("reasoning", "function_tools"),
            ),
            "request_update": {"reasoning": {"effort": "low"}},
            "note": "the recorded request asked thinking with budget_tokens 4000; here reasoning.effort low, whose budget is 2048",
        },
        {
            **body_only(
                "stream-tool-choice-named",
                V + "anthropic-tool-no-args.chunks.txt",
                "tool_choice naming one tool (get_current_time): tool_choice type tool with its name; the answer is its call.",
                chunks(V + "anthropic-tool-no-args.chunks.txt"),
                "stream",
                "claude-sonnet-4-5",
                {
                    "messages": user_turn("What is the current time?"),
                    "max_output_tokens": 1024,
                    "tools": [
                        {
                            "type": "function",
                            "name": "get_current_time",
                            "parameters": {"type": "object", "properties": {}},
                        }
                    ],
                    "tool_choice": {"type": "tool", "name": "get_current_time"},
                },
                features=("function_tools",),
            ),
        },
        {
            **recorded(
                "generate-pdf-file-id",
                P + "test_document_url_input.yaml",
                "A PDF file part by Files API id (file_…), with beta files-api-2025-04-14: a document block with a file source; text answer.",
            ),
            "request_update": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "What is the main content on this document?"},
                            {"type": "file", "media_type": "application/pdf", "uri": SAMPLE_PDF_FILE_ID},
                        ],
                    }
                ]
            },
            "config": {"beta": FILES_BETA},
            "note": "the recorded request gave the PDF by URL (https://pdfobject.com/pdf/sample.pdf); here the same PDF by a Files API id (invented), with the files-api beta the Files API needs",
        },
        {
            **body_only(
                "generate-documents-pdf-data",
                R + "generate-text-with-pdf-citations-1.json",
                "documents= with one PDF given as its bytes and its title: a document block with a base64 source and citations on; the page_location citations come back as for the PDF by URL.",
                raw_json(R + "generate-text-with-pdf-citations-1.json"),
                "generate",
                "claude-3-5-sonnet-20241022",
                {
                    "messages": user_turn("What color is the grass and sky?"),
                    "documents": [
                        {
                            "type": "file",
                            "media_type": "application/pdf",
                            "data": MINIMAL_PDF,
                            "title": "All aboout the grass and the sky",
                        }
                    ],
                    "max_output_tokens": 1024,
                },
            ),
            "note": RECONSTRUCTED
            + "; the recording has no request, so the PDF is sent as invented bytes (a minimal PDF header and trailer)",
        },
    ]
