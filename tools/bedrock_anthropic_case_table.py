"""The ``anthropic-bedrock`` case table: which recording of tests/corpus/anthropic-bedrock each case is
built from (interaction numbers 0-based, as in the file), the MOCK errors (the corpus has only a 403
for Claude on Bedrock), the refusals (nothing is sent, nothing to record) and the case derived from a
Vertex AI recording (no Bedrock one exists). Read by tools/bedrock_anthropic_cases.py."""

from __future__ import annotations

from typing import Any

from bedrock_anthropic_cases import DOCS, ERRORS_DOCS, HI, C, F, L

COUNT_DOCS = [
    "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html",
    "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelTokensRequest.html",
]
COUNTED = "anthropic.claude-haiku-4-5-20251001-v1:0"


def _recorded(name: str, saved: str, description: str, interaction: int = 0, **more: Any) -> dict[str, Any]:
    return {"name": name, "saved": saved, "interaction": interaction, "description": description, **more}


def _error(name: str, status: int, kind: str, message: str, description: str, **more: Any) -> dict[str, Any]:
    why = (
        f"the corpus has no recording of a Bedrock {kind} for Claude; the answer is written for this case "
        'in the documented shape (x-amzn-errortype header, {"message"} body), its message invented'
    )
    return {
        "name": name,
        "mock": True,
        "status": status,
        "body": {"message": message},
        "headers": {"x-amzn-errortype": f"{kind}:http://internal.amazon.com/coral/com.amazon.bedrock/"},
        "why": why,
        "docs": [ERRORS_DOCS],
        "description": description,
        "request": {**HI, "max_output_tokens": 64},
        **more,
    }


def _refused(name: str, request: dict[str, Any], description: str) -> dict[str, Any]:
    why = "a request refused before any I/O: nothing is sent, so nothing can be recorded"
    return {
        "name": name,
        "mock": True,
        "why": why,
        "docs": [DOCS],
        "description": description,
        "request": request,
    }


def cases() -> list[dict[str, Any]]:
    tool, tools = F + "claude-opus-4-6__tool.yaml", C + "test_anthropic_tool_variations_async.yaml"
    return [
        _recorded(
            "generate-text-system",
            F + "claude-sonnet-4-5__simple.yaml",
            "InvokeModel: system and one user turn; a Messages answer with a msg_bdrk_ id, end_turn.",
        ),
        _recorded(
            "stream-text-system",
            F + "claude-haiku-4-5__simple_streaming.yaml",
            "InvokeModelWithResponseStream: event-stream chunk events, each the base64 of an Anthropic "
            "stream event (message_stop with amazon-bedrock-invocationMetrics).",
        ),
        _recorded(
            "generate-tool-call",
            tool,
            "InvokeModel on claude-opus-4-6: a tool_use (toolu_bdrk_ id), stop_reason tool_use.",
            features=["function_tools"],
        ),
        _recorded(
            "generate-tool-result",
            tool,
            "InvokeModel: the tool_result turn replayed with the call; the final text.",
            interaction=1,
            features=["function_tools"],
        ),
        _recorded(
            "stream-thinking-signature",
            C + "test_reasoning.yaml",
            "InvokeModelWithResponseStream with thinking: thinking_delta, signature_delta, then text.",
            features=["reasoning"],
        ),
        _recorded(
            "stream-tool-call",
            tools,
            "InvokeModelWithResponseStream: a tool_use whose input arrives as input_json_delta chunks.",
            features=["function_tools"],
        ),
        _recorded(
            "stream-tool-result",
            tools,
            "InvokeModelWithResponseStream: the tool_result turn; the final streamed answer.",
            interaction=1,
            features=["function_tools"],
        ),
        _recorded(
            "generate-cache-write-and-read",
            "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_cache_bedrock_real_api.yaml",
            "InvokeModel in eu-central-1 (an eu. inference profile): prompt_cache at the last user turn; "
            "1956 tokens written to the cache and 9511 read, with the 5m/1h split.",
            interaction=1,
            features=["prompt_cache"],
            request_update={"prompt_cache": {"at": ["messages"], "ttl": "5m"}},
        ),
        {
            "name": "generate-answer-tool",
            "derived_from": "charmbracelet__fantasy/providertests__testdata__"
            "TestGoogleVertexObjectGeneration__vertex-claude-3-7-sonnet__simple_object.yaml",
            "interaction": 0,
            "model": "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
            "response_format": True,
            "features": ["structured_output"],
            "why": "response_format sent as the forced answer tool, as on Vertex AI",
            "description": "InvokeModel: response_format sent as a forced answer tool; its input is the "
            "parsed answer (MOCK, from a Vertex AI recording).",
        },
        _recorded(
            "error-access-denied",
            L,
            "InvokeModel with tools on a model the account has no access to: Bedrock's 403 "
            "AccessDeniedException (x-amzn-errortype), a ProviderAuthError.",
        ),
        _error(
            "error-throttling",
            429,
            "ThrottlingException",
            "Too many requests, please wait before trying again.",
            "Bedrock throttling: a retryable rate-limit error with provider_status ThrottlingException.",
        ),
        _error(
            "error-validation",
            400,
            "ValidationException",
            "messages: at least one message is required",
            "Bedrock's 400 ValidationException: an InvalidRequestError.",
        ),
        _error(
            "error-model-not-ready",
            429,
            "ModelNotReadyException",
            "Model is not ready to serve inference requests.",
            "Bedrock's ModelNotReadyException (429): retryable.",
        ),
        {
            "name": "count-tokens-invoke-model",
            "mock": True,
            "method": "count_tokens",
            "model": COUNTED,
            "status": 200,
            "body": {"inputTokens": 403},
            "why": "no recording of CountTokens in its InvokeModel form exists; the request follows the "
            "API reference (input.invokeModel.body: the base64 of the InvokeModel body), the count is "
            "invented",
            "docs": COUNT_DOCS,
            "description": "CountTokens, InvokeModel form: the InvokeModel body generate would send "
            "(system, a tool, max_tokens), base64 in input.invokeModel.body; inputTokens is input_tokens.",
            "features": ["function_tools"],
            "request": {
                **HI,
                "messages": [
                    {"role": "system", "content": [{"type": "text", "text": "You are a helpful assistant"}]},
                    *HI["messages"],
                ],
                "max_output_tokens": 64,
                "tools": [
                    {
                        "type": "function",
                        "name": "weather",
                        "description": "Get weather information for a location",
                        "parameters": {
                            "type": "object",
                            "properties": {"location": {"type": "string", "description": "the city"}},
                            "required": ["location"],
                        },
                    }
                ],
            },
        },
        {
            "name": "count-tokens-error-invalid-model",
            "mock": True,
            "method": "count_tokens",
            "model": "does-not-exist-model-v1:0",
            "answer_from": (
                "pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__test_bedrock_count_tokens_error.yaml",
                0,
            ),
            "why": "the answer is pydantic-ai's recorded 400 for CountTokens on an unknown model id (the "
            "Converse form); the request is the InvokeModel form, which no recording has",
            "docs": COUNT_DOCS,
            "description": "CountTokens on an unknown model id: Bedrock's 400, a ProviderRequestError.",
            "request": {**HI, "max_output_tokens": 64},
        },
        _refused(
            "error-file-id-refused",
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "Describe this image."},
                            {
                                "type": "file",
                                "media_type": "image/png",
                                "uri": "file_011CNha8iCJcU1wXNR6q4V8w",
                            },
                        ],
                    }
                ],
                "max_output_tokens": 64,
            },
            "A Files API id is refused before any I/O: Bedrock has no Files API.",
        ),
        _refused(
            "error-mcp-connector-refused",
            {
                **HI,
                "max_output_tokens": 64,
                "provider_options": {
                    "anthropic": {
                        "extra_body": {
                            "mcp_servers": [
                                {"type": "url", "url": "https://mcp.example.com/sse", "name": "example"}
                            ]
                        }
                    }
                },
            },
            "The MCP connector (mcp_servers) is refused before any I/O: Claude on Bedrock has none.",
        ),
    ]
