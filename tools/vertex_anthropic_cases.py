"""The ``anthropic-vertex`` case table: which recording of tests/corpus/vertex-anthropic each case is
built from (interaction numbers 0-based, as in the file), and the MOCK cases where the corpus has no
recording (Vertex errors) or none is possible (what is refused before any I/O)."""

from __future__ import annotations

from typing import Any

from convert_vertex_anthropic_corpus import F, M

VERTEX_DOCS = "https://docs.anthropic.com/en/api/claude-on-vertex-ai"
ERRORS_DOCS = "https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude"
HI = {"messages": [{"role": "user", "content": [{"type": "text", "text": "Say hi in Portuguese"}]}]}
MODEL = "claude-haiku-4-5@20251001"
#: The Mirascope cassettes' file-name tail for the model.
H = "anthropic-vertex_claude_haiku_4_5@20251001"


def _recorded(name: str, saved: str, description: str, interaction: int = 0, **more: Any) -> dict[str, Any]:
    return {"name": name, "saved": saved, "interaction": interaction, "description": description, **more}


def _google_error(code: int, status: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "status": status}}


def _anthropic_error(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def _error(name: str, status: int, body: dict[str, Any], description: str, **more: Any) -> dict[str, Any]:
    why = (
        "the corpus has no recording of a Vertex AI error for Claude; the answer is written for this "
        "case in the documented shape, its message invented"
    )
    request = {**HI, "max_output_tokens": 64}
    return {
        "name": name,
        "mock": True,
        "model": MODEL,
        "status": status,
        "body": body,
        "why": why,
        "docs": [VERTEX_DOCS, ERRORS_DOCS],
        "description": description,
        "request": request,
        **more,
    }


def _refused(name: str, request: dict[str, Any], description: str) -> dict[str, Any]:
    why = "a request refused before any I/O: nothing is sent, so nothing can be recorded"
    return {
        "name": name,
        "mock": True,
        "model": MODEL,
        "why": why,
        "docs": [VERTEX_DOCS],
        "description": description,
        "request": request,
    }


def cases() -> list[dict[str, Any]]:
    common = F + "TestGoogleCommon__vertex-claude-3-7-sonnet__"
    objects = F + "TestGoogleVertexObjectGeneration__vertex-claude-3-7-sonnet__"
    tools = M + "output__cassettes__test_call_with_tools__" + H + "__sync.yaml"
    thinking = M + "output__cassettes__test_call_with_thinking_true__" + H + "__sync.yaml"
    return [
        _recorded(
            "generate-text-system",
            common + "simple.yaml",
            "rawPredict: system and one user turn; Messages answer with a msg_vrtx_ id, end_turn.",
        ),
        _recorded(
            "stream-text-system",
            common + "simple_streaming.yaml",
            "streamRawPredict: the Anthropic SSE stream (message_start ... message_stop).",
        ),
        _recorded(
            "stream-tool-call",
            common + "tool_streaming.yaml",
            "streamRawPredict: text, then a tool_use whose input arrives as input_json_delta.",
            features=["function_tools"],
        ),
        _recorded(
            "stream-tool-result",
            common + "tool_streaming.yaml",
            "streamRawPredict: the tool_result turn replayed with the streamed call; the final answer.",
            interaction=1,
            features=["function_tools"],
        ),
        _recorded(
            "generate-answer-tool",
            objects + "simple_object.yaml",
            "rawPredict: response_format sent as a forced answer tool; its input is the answer.",
            response_format=True,
            features=["structured_output"],
        ),
        _recorded(
            "stream-answer-tool",
            objects + "complex_object_streaming.yaml",
            "streamRawPredict: a nested answer object streamed as input_json_delta of the answer tool.",
            response_format=True,
            features=["structured_output"],
        ),
        _recorded(
            "stream-text",
            M + "output__cassettes__test_call__" + H + "__stream.yaml",
            "streamRawPredict on claude-haiku-4-5@20251001 (after the dropped OAuth refresh).",
            interaction=1,
        ),
        _recorded(
            "generate-parallel-tool-calls",
            tools,
            "rawPredict: two tool_use blocks (toolu_vrtx_ ids) in one answer, stop_reason tool_use.",
            interaction=1,
            features=["function_tools"],
        ),
        _recorded(
            "generate-parallel-tool-results",
            tools,
            "rawPredict: both tool results sent back in one user turn; the final text.",
            interaction=2,
            features=["function_tools"],
        ),
        _recorded(
            "generate-max-tokens",
            M + "output__cassettes__test_max_tokens__" + H + "__sync.yaml",
            "rawPredict with max_tokens 50: the answer cut short, stop_reason max_tokens.",
            interaction=1,
        ),
        _recorded(
            "generate-thinking-signature",
            thinking,
            "rawPredict with thinking enabled: a thinking block with its signature, then the text.",
            interaction=1,
            features=["reasoning"],
        ),
        _recorded(
            "generate-thinking-replayed",
            thinking,
            "rawPredict: the signed thinking block replayed in the next turn.",
            interaction=2,
            features=["reasoning"],
        ),
        _recorded(
            "generate-image-base64",
            M + "input__cassettes__test_call_with_image_content__" + H + ".yaml",
            "rawPredict with a base64 image block.",
            interaction=1,
        ),
        _recorded(
            "generate-answer-tool-system",
            M + "output__cassettes__test_structured_output__tool__" + H + "__sync.yaml",
            "rawPredict: a system text and response_format as the forced answer tool (haiku 4.5, which "
            "has native JSON outputs on the Anthropic API: the tool is Vertex's default here).",
            interaction=1,
            response_format=True,
            features=["structured_output"],
        ),
        _error(
            "error-401",
            401,
            _google_error(
                401,
                "UNAUTHENTICATED",
                "Request had invalid authentication credentials. Expected OAuth 2 access token.",
            ),
            "A Vertex AI 401 in Google's error shape: a ProviderAuthError.",
        ),
        _error(
            "error-403",
            403,
            _google_error(
                403, "PERMISSION_DENIED", "Permission 'aiplatform.endpoints.predict' denied on resource."
            ),
            "A Vertex AI 403 (no access to the model in this project) in Google's error shape.",
        ),
        _error(
            "error-404",
            404,
            _google_error(
                404,
                "NOT_FOUND",
                "Publisher Model `projects/conformance-project/locations/us-east5/publishers/anthropic/"
                "models/claude-haiku-4-5@20251001` was not found or your project does not have access to it.",
            ),
            "A model not served in this location: Vertex AI's 404 in Google's error shape.",
        ),
        _error(
            "error-429",
            429,
            _google_error(
                429,
                "RESOURCE_EXHAUSTED",
                "Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model.",
            ),
            "Vertex AI quota exhausted: a rate-limit error.",
            headers={"retry-after": "0"},
        ),
        _error(
            "error-400",
            400,
            _anthropic_error("invalid_request_error", "messages: at least one message is required"),
            "A 400 from Claude behind Vertex AI in the Anthropic error shape.",
        ),
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
            "A Files API id is refused before any I/O: Vertex AI has no Files API.",
        ),
    ]
