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
#: The Files API id of the PDF the prism citations recording quotes (invented: the recording has no request).
PDF_FILE_ID = "file_011CNha8iCJcU1wXNR6q4V8w"


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
    ]
