# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai-responses`` cases about built-in tools: web search with ``url_citation`` sources,
file search with ``file_citation``, code interpreter with ``container_file_citation``, image
generation (the image as a file part) and remote MCP items, each call a provider-executed call and
result. The vercel recordings are bodies only: their requests are rebuilt from the tool settings
the response echoes (``tools``, ``reasoning``)."""

from __future__ import annotations

from typing import Any

from openai_responses_case_data import ADAPTED, F, P, V
from openai_responses_corpus import chunks, raw_json, vcr

__all__ = ["built_in_cases"]

BODY_ONLY = "body-only recording; canonical request with the tool settings the response echoes"


def _tool(name: str, **args: Any) -> dict[str, Any]:
    return {"type": "provider", "id": f"openai.{name}", "args": args}


def _vercel(name: str, kind: str, model: str, tool: dict[str, Any], description: str) -> dict[str, Any]:
    saved = V + name
    return {
        "name": f"{'stream' if kind == 'chunks' else 'generate'}-{name.split('openai-')[1].split('-tool')[0]}",
        "description": description,
        "method": "stream" if kind == "chunks" else "generate",
        "model": model,
        "features": ["provider_tools", "reasoning"],
        "request": {
            "prompt": "Hello",
            "tools": [tool],
            "tool_choice": "auto",
            "reasoning": {"effort": "medium"},
        },
        "response": chunks(saved) if kind == "chunks" else raw_json(saved),
        "source": saved,
        "note": BODY_ONLY,
    }


DEEPWIKI = "https://mcp.deepwiki.com/mcp"
MCP_QUESTION = "Can you tell me more about the pydantic/pydantic-ai repo? Keep your answer short"
#: The recorded request's tool headers (a placeholder custom-header-value) are left out of the case.
NO_HEADERS = "the recorded request sent the system text as instructions; the mcp tool asked for as the neutral mcp_server without the recorded headers (a header value is a credential field: the response echoes it as <redacted>, and a case keeps none)"


#: The zip1 link shortener of vercel/ai's approval recordings, asked for as the neutral mcp_server.
ZIP1 = {
    "type": "neutral",
    "name": "mcp_server",
    "options": {
        "url": "https://zip1.io/mcp",
        "name": "zip1",
        "description": "Link shortener",
        "require_approval": "always",
    },
}
#: Its recorded mcp_approval_request (openai-mcp-tool-approval.1.json) as the decoded part.
APPROVAL_REQUEST = {
    "type": "tool-call",
    "id": "mcpr_04f6b17429cf2b02006949a6712b1081968b3c7a72dec695d8",
    "name": "create_short_url",
    "args": {"alias": "", "description": "", "max_clicks": 100, "password": "", "url": "https://ai-sdk.dev/"},
    "provider_executed": True,
    "approval": "requested",
    "provider_metadata": {
        "openai-responses": {
            "item_id": "mcpr_04f6b17429cf2b02006949a6712b1081968b3c7a72dec695d8",
            "item_type": "mcp_approval_request",
            "server_label": "zip1",
        }
    },
}


def _mcp_server(**options: Any) -> dict[str, Any]:
    return {
        "type": "neutral",
        "name": "mcp_server",
        "options": {"url": DEEPWIKI, "name": "deepwiki", **options},
    }


def _mcp_server_cases() -> list[dict[str, Any]]:
    """The neutral mcp_server (modelport.tools) against pydantic-ai's recorded deepwiki calls."""
    generate = P + "openai_responses_model_mcp_server_tool.yaml"
    stream = P + "openai_responses_model_mcp_server_tool_stream.yaml"
    return [
        {
            "name": "generate-mcp-server-neutral",
            "description": "o4-mini with the neutral mcp_server (description, allowed_tools, require_approval never): the Responses mcp tool; mcp_list_tools and mcp_call items as provider-executed calls and results.",
            "method": "generate",
            "model": "o4-mini",
            "features": ["mcp_server", "reasoning"],
            "request": {
                "system": "You are a helpful assistant.",
                "prompt": MCP_QUESTION,
                "tools": [
                    _mcp_server(
                        description="DeepWiki MCP server",
                        allowed_tools=["ask_question"],
                        require_approval="never",
                    )
                ],
                "tool_choice": "auto",
            },
            "response": vcr(generate, 0),
            "source": generate,
            "interaction": 0,
            "note": NO_HEADERS,
        },
        {
            "name": "stream-mcp-server-neutral",
            "description": "Streamed: the neutral mcp_server with two allowed tools; response.mcp_list_tools.* and response.mcp_call.* events, the mcp_call arguments streamed, then the answer.",
            "method": "stream",
            "model": "o4-mini",
            "features": ["mcp_server", "reasoning"],
            "request": {
                "system": "You are a helpful assistant.",
                "prompt": MCP_QUESTION,
                "tools": [
                    _mcp_server(
                        allowed_tools=["ask_question", "read_wiki_structure"], require_approval="never"
                    )
                ],
                "tool_choice": "auto",
            },
            "response": vcr(stream, 0),
            "source": stream,
            "interaction": 0,
            "note": "the recorded request sent the system text as instructions; the mcp tool asked for as the neutral mcp_server",
        },
        {
            "name": "generate-mcp-approval-request",
            "description": "The neutral mcp_server with require_approval always (zip1, the link shortener): mcp_list_tools, then an mcp_approval_request as a provider-executed call with approval requested and no result; finish tool-calls (the answer waits for the decision).",
            "method": "generate",
            "model": "gpt-5-mini",
            "features": ["mcp_server", "reasoning"],
            "request": {
                "prompt": "Hello",
                "tools": [ZIP1],
                "tool_choice": "auto",
                "reasoning": {"effort": "medium"},
            },
            "response": raw_json(V + "openai-mcp-tool-approval.1.json"),
            "source": V + "openai-mcp-tool-approval.1.json",
            "note": BODY_ONLY,
        },
        {
            "name": "stream-mcp-approval-refused",
            "description": "Turn 2 of the approval flow: the approval request sent back whole and the tool loop's refusal as an mcp_approval_response (approve false, its reason); the streamed answer says the call was not approved.",
            "method": "stream",
            "model": "gpt-5-mini",
            "features": ["mcp_server", "reasoning"],
            "request": {
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "Hello"}]},
                    {"role": "assistant", "content": [APPROVAL_REQUEST]},
                    {
                        "role": "tool",
                        "content": [
                            {
                                "type": "tool-result",
                                "call_id": APPROVAL_REQUEST["id"],
                                "name": "create_short_url",
                                "output": "the call was refused by the user",
                                "is_error": True,
                            }
                        ],
                    },
                ],
                "tools": [ZIP1],
                "tool_choice": "auto",
                "reasoning": {"effort": "medium"},
            },
            "response": chunks(V + "openai-mcp-tool-approval.2.chunks.txt"),
            "source": V + "openai-mcp-tool-approval.2.chunks.txt",
            "note": "body-only recording; canonical request: turn 1's answer (generate-mcp-approval-request) as the tool loop sends it back, its listing and its reasoning item (no encrypted_content) left out as the adapter leaves them out when nothing is stored",
        },
    ]


def built_in_cases() -> list[dict[str, Any]]:
    search = _tool(
        "web_search", search_context_size="medium", user_location={"type": "approximate", "country": "US"}
    )
    files = _tool(
        "file_search",
        vector_store_ids=["vs_68caad8bd5d88191ab766cf043d89a18"],
        max_num_results=20,
        ranking_options={"ranker": "auto", "score_threshold": 0},
    )
    code = _tool("code_interpreter")
    out = [
        _vercel(
            "openai-web-search-tool.1.json",
            "json",
            "gpt-5-mini",
            search,
            "gpt-5-mini web search: three web_search_call items (search, open_page, find_in_page) as provider-executed calls and results; ten url_citation annotations as seven numbered sources and their exact spans.",
        ),
        _vercel(
            "openai-web-search-tool.1.chunks.txt",
            "chunks",
            "gpt-5-mini",
            search,
            "The streamed web search: web_search_call progress events, 121 text deltas, annotation.added; the same sources and spans from the done message.",
        ),
        {
            **_vercel(
                "openai-web-search-tool.1.json",
                "json",
                "gpt-5-mini",
                {
                    "type": "neutral",
                    "name": "web_search",
                    "options": {"context_size": "medium", "user_location": {"country": "US"}},
                },
                "The neutral web_search with a context size and a location: search_context_size and user_location (approximate) as the response echoes them.",
            ),
            "name": "generate-web-search-neutral-options",
            "features": ["web_search", "reasoning"],
        },
        {
            **_vercel(
                "openai-web-search-tool.1.json",
                "json",
                "gpt-5-mini",
                {
                    "type": "neutral",
                    "name": "web_search",
                    "options": {"allowed_domains": ["www.theverge.com", "www.wired.com"]},
                },
                "The neutral web_search limited to two domains: filters.allowed_domains on the web_search tool.",
            ),
            "name": "generate-web-search-neutral-domains",
            "features": ["web_search", "reasoning"],
            "note": BODY_ONLY
            + "; MOCK request option: the recording's tools echo filters null, allowed_domains (two of the cited sites) is added to test its mapping",
        },
        _vercel(
            "openai-file-search-tool.1.json",
            "json",
            "gpt-5-mini",
            files,
            "A file_search_call (four queries, no results included) and one file_citation: a zero-width span at its index, the file name as the source.",
        ),
        _vercel(
            "openai-file-search-tool.1.chunks.txt",
            "chunks",
            "gpt-5-mini",
            files,
            "The streamed file search: two file_citation annotations on one text, one source.",
        ),
        _vercel(
            "openai-code-interpreter-tool.1.json",
            "json",
            "gpt-5-nano",
            code,
            "Three code_interpreter_call items (code, container, logs outputs) and a container_file_citation span over the sandbox path.",
        ),
        _vercel(
            "openai-code-interpreter-tool.1.chunks.txt",
            "chunks",
            "gpt-5-nano",
            code,
            "The streamed code interpreter: 149 code deltas folded into the done items; the container_file_citation span.",
        ),
        _vercel(
            "openai-image-generation-tool.1.json",
            "json",
            "gpt-5-nano",
            _tool(
                "image_generation",
                background="auto",
                moderation="auto",
                output_compression=100,
                output_format="webp",
                quality="low",
                size="1024x1024",
            ),
            "An image_generation_call: its settings as the tool result, the webp image as a file part.",
        ),
        _vercel(
            "openai-image-generation-tool.1.chunks.txt",
            "chunks",
            "gpt-5",
            _tool(
                "image_generation",
                background="auto",
                moderation="auto",
                output_compression=100,
                output_format="webp",
                quality="low",
                size="auto",
            ),
            "A streamed image generation whose base64 the fixture elided ('...'): no file part, the text kept in the tool result, a warning.",
        ),
        {
            "name": "generate-mcp-items",
            "description": "Remote MCP items: mcp_list_tools and an mcp_call (its arguments parsed, its output text) as provider-executed calls and results.",
            "method": "generate",
            "model": "gpt-5-mini",
            "features": ["reasoning"],
            "request": {"prompt": "Hello", "reasoning": {"effort": "medium"}},
            "response": raw_json(V + "openai-mcp-tool.1.json"),
            "source": V + "openai-mcp-tool.1.json",
            "note": "body-only recording; canonical request without the mcp tool (no openai.mcp provider tool in this version): the answer's items are what is checked",
        },
        *_mcp_server_cases(),
        {
            "name": "generate-web-search-gpt-4-1",
            "description": "gpt-4.1 web search: one web_search_call, five url_citation annotations over text with Japanese titles.",
            "method": "generate",
            "model": "gpt-4.1",
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful assistant",
                "prompt": "What is the current population of Tokyo? Cite your source.",
                "max_output_tokens": 4000,
                "tools": [_tool("web_search")],
                "tool_choice": "auto",
            },
            "response": vcr(F + "TestOpenAIWebSearch__generate.yaml"),
            "source": F + "TestOpenAIWebSearch__generate.yaml",
            "note": "the canonical request sends the question as text content, not an input_text list",
        },
        {
            "name": "generate-web-search-neutral",
            "description": "The neutral web_search (modelport.tools), no option set: the same web_search tool, no null options.",
            "method": "generate",
            "model": "gpt-4.1",
            "features": ["web_search"],
            "request": {
                "system": "You are a helpful assistant",
                "prompt": "What is the current population of Tokyo? Cite your source.",
                "max_output_tokens": 4000,
                "tools": [{"type": "neutral", "name": "web_search", "options": {}}],
                "tool_choice": "auto",
            },
            "response": vcr(F + "TestOpenAIWebSearch__generate.yaml"),
            "source": F + "TestOpenAIWebSearch__generate.yaml",
            "note": "the canonical request sends the question as text content, not an input_text list; web_search asked for as the neutral tool",
        },
        {
            "name": "generate-web-search-annotations",
            "description": "gpt-5.2 web search with search_context_size medium: a url_citation at the end of a one-sentence answer.",
            "method": "generate",
            "model": "gpt-5.2",
            "features": ["provider_tools"],
            "request": {
                "system": "Use web search and include citations in your answer.",
                "prompt": "What is the tallest mountain in Alberta? Provide one sentence with a citation.",
                "tools": [_tool("web_search", search_context_size="medium")],
                "tool_choice": "auto",
            },
            "response": vcr(P + "openai_include_raw_annotations_non_streaming.yaml", 0),
            "source": P + "openai_include_raw_annotations_non_streaming.yaml",
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "stream-web-search-sources",
            "description": "gpt-5 streamed web search with the searched sources included: reasoning, web_search_call (its sources in the tool result), reasoning, message.",
            "method": "stream",
            "model": "gpt-5",
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful assistant.",
                "prompt": "What is the weather in San Francisco today?",
                "tools": [_tool("web_search", search_context_size="medium")],
                "tool_choice": "auto",
                "provider_options": {"openai-responses": {"include": ["web_search_call.action.sources"]}},
            },
            "response": vcr(P + "openai_responses_model_web_search_tool_stream.yaml", 0),
            "source": P + "openai_responses_model_web_search_tool_stream.yaml",
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "stream-file-search-vector-store",
            "description": "gpt-4o streamed file search over a vector store: file_search_call, then a text answer.",
            "method": "stream",
            "model": "gpt-4o",
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful assistant.",
                "prompt": "What is the capital of France?",
                "tools": [_tool("file_search", vector_store_ids=["vs_6931d752e41c8191833fcaad1cf47055"])],
                "tool_choice": "auto",
            },
            "response": vcr(P + "openai_responses_model_file_search_tool_stream.yaml", 3),
            "source": P + "openai_responses_model_file_search_tool_stream.yaml",
            "interaction": 3,
            "note": ADAPTED
            + " (the recording's /v1/files and /v1/vector_stores set-up calls are not part of the case)",
        },
        {
            "name": "stream-code-interpreter-reasoning",
            "description": "gpt-5 streamed code interpreter with detailed reasoning summaries: three code_interpreter_call items between summary deltas.",
            "method": "stream",
            "model": "gpt-5",
            "features": ["provider_tools", "reasoning"],
            "request": {
                "prompt": "what's 123456 to the power of 123?",
                "tools": [code],
                "tool_choice": "auto",
                "reasoning": {"effort": "low"},
                "provider_options": {"openai-responses": {"reasoning_summary": "detailed"}},
            },
            "response": vcr(P + "openai_responses_thinking_with_code_execution_tool_stream.yaml", 0),
            "source": P + "openai_responses_thinking_with_code_execution_tool_stream.yaml",
            "interaction": 0,
            "note": "the canonical request reproduces the recorded one (reasoning.summary detailed through provider_options)",
        },
        {
            "name": "generate-image-generation-jpeg",
            "description": "gpt-5 image generation forced by tool_choice required: the jpeg as a file part, its settings and revised prompt as the tool result.",
            "method": "generate",
            "model": "gpt-5",
            "features": ["provider_tools"],
            "request": {
                "prompt": "Generate an image of axolotl.",
                "tools": [
                    _tool(
                        "image_generation",
                        background="auto",
                        moderation="auto",
                        output_compression=100,
                        output_format="jpeg",
                        partial_images=0,
                        quality="auto",
                        size="auto",
                    )
                ],
                "tool_choice": "any",
            },
            "response": vcr(P + "openai_responses_image_generation_jpeg.yaml", 0),
            "source": P + "openai_responses_image_generation_jpeg.yaml",
            "interaction": 0,
            "note": "the canonical request reproduces the recorded one (input_fidelity null left out)",
        },
    ]
    return out
