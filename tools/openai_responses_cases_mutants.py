# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai-responses`` cases pointed to by mutants no case reached (``modelport conformance
--mutate``, docs/conformance.md): inputs refused before any request (a tool result before its call,
a file in a system message, text in a tool message, a file in an assistant turn, a call in a user
turn, a file of a type the API does not take), PDFs by file id and by URL, a stored history sent
back with its item ids, an approval request from another model of the API, responses that are no
answer (failed, cancelled), an answer without usage, request settings no case sent (verbosity, tools
without a choice, a reasoning budget), and output items no recording has (file search results
with a malformed entry, an annotation of a type with no citation). Recorded answers and requests with the one value named in each ``source.note`` changed
(MOCK where no recording has it)."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

from modelport_openai._responses_stream import merge_frames
from openai_responses_case_data import CAPITAL, GET_CAPITAL, P, V
from openai_responses_cases_settings import RESULTS
from openai_responses_corpus import raw_json, vcr

__all__ = ["mutant_cases"]

SIMPLE = P + "openai_responses_model_simple_response.yaml"
TOOL_CALL = P + "openai_responses_model_simple_response_with_tool_call.yaml"
FILE_SEARCH = V + "openai-file-search-tool.1.json"
SEARCH = V + "openai-web-search-tool.1.json"
JPEG = P + "openai_responses_image_generation_jpeg.yaml"
#: The Response object's ``error`` (code, message) of a failed response; the message invented.
SERVER_ERROR = {"code": "server_error", "message": "The server had an error processing your request."}
REFUSED = (
    "the recorded question in a history the mapping refuses before any request: no interaction is recorded"
)
USER = {"role": "user", "content": CAPITAL}


def _edited(recorded: tuple[int, str, str], **changes: Any) -> tuple[int, str, str]:
    """A recorded JSON answer with top-level ``changes``."""
    status, kind, text = recorded
    return status, kind, json.dumps({**json.loads(text), **changes}, ensure_ascii=False)


def _output_edited(saved: str, kind: str, edit: Any) -> tuple[int, str, str]:
    """The recorded body-only answer with each output item of type ``kind`` passed to ``edit``."""
    status, content_type, text = raw_json(saved)
    body = json.loads(text)
    body["output"] = [edit(copy.deepcopy(item)) if item["type"] == kind else item for item in body["output"]]
    return status, content_type, json.dumps(body, ensure_ascii=False)


def _malformed_results(item: dict[str, Any]) -> dict[str, Any]:
    """The MOCK results of generate-file-search-results-mock with, first, a null entry and the
    cited file's entry of the highest score without its text."""
    first = RESULTS[0]
    return {**item, "results": [None, {**first, "score": 0.99, "text": ""}, *RESULTS]}


def _file_path_annotation(saved: str) -> tuple[int, str, str]:
    """The recorded web search answer with a ``file_path`` annotation (a documented annotation
    type that cites no source) before its ``url_citation``."""
    status, kind, text = raw_json(saved)
    body = json.loads(text)
    for item in body["output"]:
        if item["type"] == "message":
            annotations = item["content"][0]["annotations"]
            annotations.insert(0, {"type": "file_path", "file_id": "file-2dtbBZdjtDKS8eqWxqbgDi", "index": 0})
    return status, kind, json.dumps(body, ensure_ascii=False)


def _variant(base: dict[str, Any], name: str, description: str, response: Any, note: str) -> dict[str, Any]:
    """Another case's request with its recorded answer edited (``note``: how)."""
    spec = copy.deepcopy(base)
    return {
        **spec,
        "name": name,
        "description": description,
        "response": response,
        "note": f"{spec['note']}; {note}",
    }


def _refused(name: str, description: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": "gpt-4o",
        "request": {"messages": messages},
        "source": SIMPLE,
        "note": REFUSED,
    }


def _refusals() -> list[dict[str, Any]]:
    image = {"type": "file", "media_type": "image/png", "uri": "https://example.com/map.png"}
    call = {"type": "tool-call", "id": "call_l8vCMqnvzxLCCVRyIh4pnHsa", "name": "get_capital", "args": {}}
    result = {
        "type": "tool-result",
        "call_id": "call_l8vCMqnvzxLCCVRyIh4pnHsa",
        "name": "get_capital",
        "output": "Paris",
    }
    return [
        _refused(
            "error-tool-result-without-call",
            "A tool result whose call no earlier assistant turn made (and no previous_response_id): InvalidRequestError before any request, naming the message and the call id.",
            [USER, {"role": "tool", "content": [result]}],
        ),
        _refused(
            "error-system-message-file",
            "A system message holding an image beside its text: the Responses API's system input takes text only, InvalidRequestError before any request.",
            [
                {
                    "role": "system",
                    "content": [{"type": "text", "text": "You are a helpful assistant."}, image],
                },
                USER,
            ],
        ),
        _refused(
            "error-tool-message-text",
            "A tool message holding text instead of tool results: InvalidRequestError before any request.",
            [USER, {"role": "tool", "content": [{"type": "text", "text": "Paris"}]}],
        ),
        _refused(
            "error-assistant-file-part",
            "An assistant turn holding an image that no image generation produced (no item id): it has no output item to go back as, InvalidRequestError before any request.",
            [USER, {"role": "assistant", "content": [image]}, {"role": "user", "content": "And this?"}],
        ),
        _refused(
            "error-user-tool-call-part",
            "A user message holding a tool call: InvalidRequestError before any request.",
            [{"role": "user", "content": [{"type": "text", "text": CAPITAL}, call]}],
        ),
        _refused(
            "error-file-media-type",
            "A user file of type text/plain: the Responses API takes images and PDFs, InvalidRequestError before any request.",
            [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": CAPITAL},
                        {"type": "file", "media_type": "text/plain", "data": "UGFyaXM="},
                    ],
                }
            ],
        ),
    ]


def _from_another_model(base: dict[str, Any]) -> dict[str, Any]:
    """stream-mcp-approval-refused with its approval request produced by another model."""
    spec = copy.deepcopy(base)
    for message in spec["request"]["messages"]:
        if message["role"] == "assistant":
            message["origin"] = {"provider": "openai-responses", "api": "responses", "model": "gpt-5"}
    status, _, text = spec["response"]
    frames = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]
    return {
        **spec,
        "name": "generate-mcp-approval-from-another-model",
        "method": "generate",
        "description": "stream-mcp-approval-refused's turn with the approval request produced by gpt-5 and answered to gpt-5-mini, not streamed: another model's reasoning state is dropped (a warning), but the request keeps its item (id, server label), which the mcp_approval_response refers to.",
        "response": (status, "application/json", json.dumps(merge_frames(frames), ensure_ascii=False)),
        "note": spec["note"]
        + "; the approval request's message carries the origin gpt-5 (the recorded turn 1 was gpt-5-mini's), and the recorded stream is merged into the body a non-streamed call returns (the plugin's merge_frames, as the suite's merged check does: a stream's accumulated events carry no request warnings)",
    }


def _stored_history() -> dict[str, Any]:
    turn = {
        "role": "assistant",
        "content": [
            {
                "type": "reasoning",
                "text": "",
                "provider_metadata": {
                    "openai-responses": {"item_id": "rs_68c1fb6c15c48196b964881266a03c8e0c14a8a9087e8689"}
                },
            },
            {
                "type": "text",
                "text": "Let me look it up.",
                "provider_metadata": {
                    "openai-responses": {"item_id": "msg_68c1fb6b6a248196a6216e80fc2ace380c14a8a9087e8689"}
                },
            },
            {
                "type": "tool-call",
                "id": "call_l8vCMqnvzxLCCVRyIh4pnHsa",
                "name": "get_capital",
                "args": {"country": "France"},
                "provider_metadata": {
                    "openai-responses": {"item_id": "fc_68c1fb6d7a3c8196a1a7bf4c28ad36010c14a8a9087e8689"}
                },
            },
        ],
    }
    result = {
        "type": "tool-result",
        "call_id": "call_l8vCMqnvzxLCCVRyIh4pnHsa",
        "name": "get_capital",
        "output": "Paris",
    }
    return {
        "name": "generate-stored-history-mock",
        "description": "MOCK history, store on: the turn goes back with its item ids (a reasoning item by its id alone, no encrypted_content; the message's msg_ and the call's fc_ ids), then the call's output; the recorded text answer.",
        "method": "generate",
        "model": "gpt-5",
        "request": {
            "messages": [USER, turn, {"role": "tool", "content": [result]}],
            "tools": [GET_CAPITAL],
            "provider_options": {"openai-responses": {"store": True}},
        },
        "response": vcr(SIMPLE),
        "source": SIMPLE,
        "note": "MOCK request: no recording sends a stored turn back; an invented turn of a reasoning item without encrypted_content, a message and a function call (ids in OpenAI's shape), store true; the answer is the recorded one",
    }


def _image_history() -> dict[str, Any]:
    """The recorded jpeg image generation answer as the turn a follow-up sends back (its image's
    data replaced by a small stand-in)."""
    body = json.loads(vcr(JPEG)[2])
    reasoning, call, message = body["output"]

    def meta(item: dict[str, Any], **extra: Any) -> dict[str, Any]:
        return {"openai-responses": {"item_id": item["id"], **extra}}

    image = {
        "type": "file",
        "media_type": "image/jpeg",
        "data": base64.b64encode(b"\xff\xd8\xff\xdb").decode(),
    }
    turn = {
        "role": "assistant",
        "content": [
            {
                "type": "reasoning",
                "text": "",
                "signature": reasoning["encrypted_content"],
                "provider_metadata": meta(reasoning),
            },
            {
                "type": "tool-call",
                "id": call["id"],
                "name": "image_generation",
                "args": {},
                "provider_executed": True,
                "provider_metadata": meta(call, item_type="image_generation_call"),
            },
            {**image, "provider_metadata": meta(call)},
            *(
                {"type": "text", "text": c["text"], "provider_metadata": meta(message)}
                for c in message["content"]
            ),
        ],
    }
    return {
        "name": "generate-after-image-generation-mock",
        "description": "MOCK history: gpt-5's image generation turn sent back unstored: its generated image and its image_generation_call left out (only a stored item could stand for them), the reasoning item before the call with them; the message goes back.",
        "method": "generate",
        "model": "gpt-5",
        "request": {
            "messages": [
                {"role": "user", "content": "Generate an image of axolotl."},
                turn,
                {"role": "user", "content": "What did you draw?"},
            ]
        },
        "response": vcr(SIMPLE),
        "source": JPEG,
        "note": "MOCK request and answer: the recorded answer's items as the turn a follow-up sends back (the image's data replaced by a four-byte JPEG header), a follow-up question added; the answer is openai_responses_model_simple_response's",
    }


def mutant_cases() -> list[dict[str, Any]]:
    from openai_responses_cases_built_in import built_in_cases
    from openai_responses_cases_settings import settings_cases

    built = {spec["name"]: spec for spec in built_in_cases()}
    settings = {spec["name"]: spec for spec in settings_cases()}
    approval = built["stream-mcp-approval-refused"]
    simple = vcr(SIMPLE)
    error = SERVER_ERROR
    return [
        *_refusals(),
        {
            "name": "generate-pdf-file-id-and-url-mock",
            "description": "MOCK request: a user turn with a PDF by file id and a PDF by URL, sent as input_file file_id and input_file file_url; the recorded text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": CAPITAL},
                            {
                                "type": "file",
                                "media_type": "application/pdf",
                                "uri": "file-6F2ksmvXxt4VdoqmHRw6kL",
                            },
                            {
                                "type": "file",
                                "media_type": "application/pdf",
                                "uri": "https://www.berkshirehathaway.com/letters/2024ltr.pdf",
                            },
                        ],
                    }
                ]
            },
            "response": simple,
            "source": SIMPLE,
            "note": "MOCK request: no recording sends the Responses API a PDF by file id or URL; the file parts (an invented file id, a public PDF's URL) are added to the recorded question, the answer is the recorded one",
        },
        _stored_history(),
        _from_another_model(approval),
        {
            "name": "generate-response-failed-mock",
            "description": "MOCK a 200 answer whose status is failed, with its error (server_error): the typed error, not a result.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL},
            "response": _edited(simple, status="failed", error=error, output=[], usage=None),
            "source": SIMPLE,
            "note": "MOCK answer: no recording has a failed response; the recorded answer with status failed, the documented error object (code server_error, message invented), no output and no usage",
        },
        {
            "name": "generate-response-failed-without-error-mock",
            "description": "MOCK a 200 answer whose status is failed with error null: still no answer, a typed error without a provider error.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL},
            "response": _edited(simple, status="failed", output=[], usage=None),
            "source": SIMPLE,
            "note": "MOCK answer: no recording has a failed response; the recorded answer with status failed, its error left null (as a proxy that drops it sends it), no output and no usage",
        },
        _image_history(),
        {
            "name": "generate-response-cancelled-mock",
            "description": "MOCK a 200 answer whose status is cancelled (a background response cancelled): a ProviderResponseError whose provider_status is cancelled.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL},
            "response": _edited(simple, status="cancelled", output=[], usage=None),
            "source": SIMPLE,
            "note": "MOCK answer: no recording has a cancelled response; the recorded answer with status cancelled, no output and no usage",
        },
        {
            "name": "generate-without-usage-mock",
            "description": "MOCK a completed answer with usage null (as a proxy sends it): no token counts, the text kept.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL},
            "response": _edited(simple, usage=None),
            "source": SIMPLE,
            "note": "MOCK answer: the recorded answer with usage null",
        },
        {
            "name": "generate-verbosity-tools-without-choice",
            "description": "The verbosity option (text.verbosity low) and a function tool with no tool_choice (none sent); a reasoning budget on gpt-5 is not sent, with a warning.",
            "method": "generate",
            "model": "gpt-5",
            "features": ["function_tools", "reasoning"],
            "request": {
                "messages": [{"role": "user", "content": "What is the capital of PotatoLand?"}],
                "tools": [GET_CAPITAL],
                "reasoning": {"effort": "low", "budget_tokens": 1024},
                "provider_options": {"openai-responses": {"verbosity": "low"}},
            },
            "response": vcr(TOOL_CALL, 0),
            "source": TOOL_CALL,
            "interaction": 0,
            "note": "MOCK request: the recorded tool-call answer (gpt-4o) paired with a gpt-5 request with verbosity low, no tool_choice and a reasoning effort with a budget",
        },
        _variant(
            settings["generate-file-search-results-mock"],
            "generate-file-search-malformed-results-mock",
            "MOCK results with a null entry and the cited file's top-scored entry without text: both skipped, the excerpt is the best passage with text.",
            _output_edited(FILE_SEARCH, "file_search_call", _malformed_results),
            "and before them a null entry and a copy of the first with score 0.99 and empty text",
        ),
        _variant(
            built["generate-web-search"],
            "generate-web-search-file-path-annotation-mock",
            "MOCK a file_path annotation (it cites no source) before the first recorded url_citation: skipped, the url citations kept.",
            _file_path_annotation(SEARCH),
            "MOCK answer: a file_path annotation (invented file id) inserted before its first url_citation",
        ),
    ]
