"""The ``bedrock`` cases of content beyond text: images and documents, reasoning with signatures
and redacted reasoning (replayed as history), cache points with cache read/write usage,
CountTokens and a guardrail trace, from the recordings; written by :mod:`bedrock_cases` with its
helpers. The canonical messages are read back from each recorded Converse body
(:func:`canonical_messages`), so a case's request is the recording's, and its cassette pins that
the mapping sends exactly the recorded body.

    python tools/bedrock_cases.py           # rewrites these with every other case
"""

from __future__ import annotations

import json
from typing import Any

from bedrock_cases import P, interaction, user, write

#: Converse ``document.format`` → the media type a canonical file part names.
MEDIA = {
    "pdf": "application/pdf",
    "txt": "text/plain",
    "csv": "text/csv",
    "html": "text/html",
    "md": "text/markdown",
}
#: What pydantic-ai sends with no system prompt and no settings (its real client's body).
RAW_EMPTY = {"bedrock": {"system": [], "inferenceConfig": {}}}
THINKING = {"budget_tokens": 1024}


def _part(block: dict[str, Any], documents: int) -> dict[str, Any]:
    if "text" in block:
        return {"type": "text", "text": block["text"]}
    if "image" in block:
        image = block["image"]
        return {"type": "file", "media_type": f"image/{image['format']}", "data": image["source"]["bytes"]}
    if "document" in block:
        document = block["document"]
        part: dict[str, Any] = {
            "type": "file",
            "media_type": MEDIA[document["format"]],
            "data": document["source"]["bytes"],
        }
        if document["name"] != f"Document {documents + 1}":
            part["provider_metadata"] = {"bedrock": {"name": document["name"]}}
        return part
    if "toolUse" in block:
        tool = block["toolUse"]
        return {"type": "tool-call", "id": tool["toolUseId"], "name": tool["name"], "args": tool["input"]}
    if "toolResult" in block:
        result = block["toolResult"]
        (content,) = result["content"]
        return {
            "type": "tool-result",
            "call_id": result["toolUseId"],
            "name": "",  # named after its call by canonical_messages
            "output": content.get("text", content.get("json")),
            "is_error": result.get("status") == "error",
        }
    reasoning = block["reasoningContent"]
    if "redactedContent" in reasoning:
        redacted = {"bedrock": {"redacted_content": reasoning["redactedContent"]}}
        return {"type": "reasoning", "text": "", "provider_metadata": redacted}
    text = reasoning["reasoningText"]
    return {"type": "reasoning", "text": text["text"], "signature": text["signature"]}


def canonical_messages(body: dict[str, Any], *, cached_ends: bool = False) -> list[dict[str, Any]]:
    """The canonical messages of a recorded Converse body. A ``cachePoint`` becomes the hand-placed
    ``cache_point`` of the part before it; with ``cached_ends``, the ones that end the system text
    and the last user turn are left to ``prompt_cache`` instead."""
    out: list[dict[str, Any]] = []
    turns = [("system", body.get("system") or [])] if body.get("system") else []
    turns += [(m["role"], m["content"]) for m in body["messages"]]
    last_user = max(i for i, (role, _) in enumerate(turns) if role == "user")
    documents = 0
    names: dict[str, str] = {}
    for number, (role, blocks) in enumerate(turns):
        parts: list[dict[str, Any]] = []
        for index, block in enumerate(blocks):
            if "cachePoint" in block:
                ends = index == len(blocks) - 1 and (role == "system" or number == last_user)
                if not (cached_ends and ends):
                    parts[-1]["provider_metadata"] = {"bedrock": {"cache_point": block["cachePoint"]}}
                continue
            parts.append(_part(block, documents))
            documents += "document" in block
        names.update({p["id"]: p["name"] for p in parts if p["type"] == "tool-call"})
        for part in parts:
            if part["type"] == "tool-result":
                part["name"] = names[part["call_id"]]
        if parts and all(p["type"] == "tool-result" for p in parts):
            role = "tool"
        out.append({"role": role, "content": parts})
    return out


def tools_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The function tools of a recorded Converse body (its ``toolSpec`` entries)."""
    return [
        {
            "type": "function",
            "name": t["toolSpec"]["name"],
            "parameters": t["toolSpec"]["inputSchema"]["json"],
        }
        for t in body["toolConfig"]["tools"]
        if "toolSpec" in t
    ]


def recorded_request(corpus_file: str, index: int) -> dict[str, Any]:
    body = interaction(P + corpus_file, index)[0]["body"]
    return dict(json.loads(body))


def content_cases() -> None:
    _files_cases()
    _reasoning_cases()
    _cache_cases()
    _count_and_guardrail_cases()
    _citations_case()
    _adaptive_cases()


def _citations_case() -> None:
    corpus_file = (
        "crmne__ruby_llm/spec__fixtures__vcr_cassettes__"
        "chat_citations_with_bedrock_claude-haiku-4-5_streams_citations.yml"
    )
    body = json.loads(interaction(corpus_file, 0)[0]["body"])
    question, document = body["messages"][0]["content"]
    write(
        "stream-document-citations",
        {
            "description": "ConverseStream, claude-haiku-4-5: a text document (documents=, citations "
            "enabled); a citation delta (documentChar 0-73) before the text it supports.",
            "method": "stream",
            "model": "us.anthropic.claude-haiku-4-5-20251001-v1:0",
            "request": {
                "messages": [user(question["text"])],
                "documents": [
                    {
                        "type": "text",
                        "title": document["document"]["name"],
                        "text": document["document"]["source"]["text"],
                    }
                ],
                "provider_options": {"bedrock": {"inferenceConfig": {}}},
            },
        },
        corpus_file,
        0,
        uri="https://bedrock-runtime.us-east-1.amazonaws.com/model/"
        "us.anthropic.claude-haiku-4-5-20251001-v1%3A0/converse-stream",
    )


def _adaptive_cases() -> None:
    """claude-sonnet-5 with adaptive thinking, a raw ``additionalModelRequestFields`` (the canonical
    ``reasoning`` maps budgets only): a streamed answer, then the whole answer after its replay."""
    corpus_file = "langchain-ai__langchain-aws/libs__aws__tests__cassettes__test_thinking[v1].yaml.gz"
    for index, name, method, what in (
        (0, "stream-adaptive-thinking", "stream", "61 reasoningContent text deltas, a signature, text"),
        (1, "generate-adaptive-thinking-replayed", "generate", "turn 2 replays the streamed reasoning"),
    ):
        request = interaction(corpus_file, index)[0]
        body = json.loads(request["body"])
        write(
            name,
            {
                "description": f"{'ConverseStream' if method == 'stream' else 'Converse'}, claude-sonnet-5, "
                f'thinking {{"type": "adaptive", "display": "summarized"}} passed raw: {what}.',
                "method": method,
                "model": "us.anthropic.claude-sonnet-5",
                "request": {
                    "messages": canonical_messages(body),
                    "max_output_tokens": body["inferenceConfig"]["maxTokens"],
                    "provider_options": {
                        "bedrock": {
                            "system": [],
                            "additionalModelRequestFields": body["additionalModelRequestFields"],
                        }
                    },
                },
            },
            corpus_file,
            index,
            uri=request["uri"].replace(".us-west-2.", ".us-east-1."),  # the replay's region
        )


def _files_cases() -> None:
    for name, corpus_file, model, what in (
        ("generate-image-bytes", "test_image_url_input.yaml", "us.amazon.nova-pro-v1:0", "a JPEG image"),
        ("generate-document-pdf", "test_document_url_input.yaml", "anthropic.claude-v2", "a PDF document"),
    ):
        body = recorded_request(corpus_file, 1)
        write(
            name,
            {
                "description": f"Converse, {model}: {what} inline as bytes (file part → "
                f"{'image' if 'image' in name else 'document'} block); a text answer.",
                "method": "generate",
                "model": model,
                "request": {
                    "messages": canonical_messages(body),
                    "provider_options": {"bedrock": {"inferenceConfig": {}}},
                },
            },
            P + corpus_file,
            1,
        )


def _reasoning_cases() -> None:
    sonnet = "us.anthropic.claude-sonnet-4-20250514-v1:0"
    for name, corpus_file, index, model, method, what in (
        (
            "generate-reasoning-signature",
            "test_bedrock_model_thinking_part_anthropic.yaml",
            0,
            sonnet,
            "generate",
            "reasoningContent with its signature, then text",
        ),
        (
            "generate-reasoning-replayed",
            "test_bedrock_model_thinking_part_anthropic.yaml",
            1,
            sonnet,
            "generate",
            "turn 2: the signed reasoning replayed in the assistant turn",
        ),
        (
            "generate-redacted-reasoning",
            "test_bedrock_model_thinking_part_redacted.yaml",
            0,
            "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
            "generate",
            "redactedContent, then text",
        ),
        (
            "generate-redacted-reasoning-replayed",
            "test_bedrock_model_thinking_part_redacted.yaml",
            1,
            "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
            "generate",
            "turn 2: the redacted reasoning replayed as it came",
        ),
        (
            "generate-reasoning-tool-call",
            "test_bedrock_anthropic_tool_with_thinking.yaml",
            0,
            "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
            "generate",
            "signed reasoning, text and a toolUse; stopReason tool_use",
        ),
        (
            "generate-reasoning-after-tool-result",
            "test_bedrock_anthropic_tool_with_thinking.yaml",
            1,
            "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
            "generate",
            "turn 2: the signed reasoning, text and toolUse replayed, then the toolResult",
        ),
        (
            "stream-reasoning-signature",
            "test_bedrock_model_thinking_part_stream.yaml",
            0,
            sonnet,
            "stream",
            "reasoningContent text deltas, a signature delta, then text",
        ),
    ):
        body = recorded_request(corpus_file, index)
        write(
            name,
            {
                "description": f"{'ConverseStream' if method == 'stream' else 'Converse'}, {model}, "
                f"reasoning budget 1024 (additionalModelRequestFields.thinking): {what}.",
                "method": method,
                "model": model,
                "request": {
                    "messages": canonical_messages(body),
                    **({"tools": tools_of(body)} if "toolConfig" in body else {}),
                    "reasoning": THINKING,
                    "provider_options": RAW_EMPTY,
                },
            },
            P + corpus_file,
            index,
        )


def _cache_cases() -> None:
    corpus_file = "test_bedrock_cache_write_and_read.yaml"
    body = recorded_request(corpus_file, 0)
    tools = tools_of(body)
    for index, name, what in (
        (0, "generate-cache-write", "write 1322"),
        (1, "generate-cache-read", "read 1322"),
    ):
        write(
            name,
            {
                "description": "Converse, claude-sonnet-4-5: prompt_cache puts cache points after the "
                "system text, the tools and the last user turn, one more by hand mid-turn; a txt "
                f"document; cache {what} tokens, input_tokens 2 + {what.split()[1]}.",
                "method": "generate",
                "model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
                "request": {
                    "messages": canonical_messages(body, cached_ends=True),
                    "tools": tools,
                    "prompt_cache": {"ttl": "5m"},
                    "provider_options": {
                        "bedrock": {"inferenceConfig": {}, "toolConfig": {"toolChoice": {"auto": {}}}}
                    },
                },
            },
            P + corpus_file,
            index,
        )


def _count_and_guardrail_cases() -> None:
    weather = {
        "type": "function",
        "name": "get_weather",
        "description": "Get the weather for a location",
        "parameters": {"type": "object", "properties": {"location": {"type": "string"}}},
    }
    auto = {"bedrock": {"system": [], "toolConfig": {"toolChoice": {"auto": {}}}}}
    write(
        "count-tokens-tool-config",
        {
            "description": "CountTokens (POST /model/{id}/count-tokens) with a tool: inputTokens 375.",
            "method": "count_tokens",
            "model": "anthropic.claude-sonnet-4-20250514-v1:0",
            "request": {
                "messages": [user("What is the weather in Paris?")],
                "tools": [weather],
                "provider_options": auto,
            },
        },
        P + "test_bedrock_count_tokens_tool_config.yaml",
        0,
    )
    write(
        "count-tokens-error-invalid-model",
        {
            "description": "CountTokens on an unknown model id: HTTP 400.",
            "method": "count_tokens",
            "model": "does-not-exist-model-v1:0",
            "request": {"messages": [user("hello")], "provider_options": {"bedrock": {"system": []}}},
        },
        P + "test_bedrock_count_tokens_error.yaml",
        0,
    )
    body = recorded_request("test_bedrock_model_guardrail_config.yaml", 0)
    write(
        "generate-guardrail-trace",
        {
            "description": "Converse, nova-micro, guardrailConfig with trace enabled: the guardrail's "
            "trace (input and output assessments) in provider_metadata.bedrock.trace.",
            "method": "generate",
            "model": "us.amazon.nova-micro-v1:0",
            "request": {
                "messages": canonical_messages(body),
                "provider_options": {
                    "bedrock": {"inferenceConfig": {}, "guardrailConfig": body["guardrailConfig"]}
                },
            },
        },
        P + "test_bedrock_model_guardrail_config.yaml",
        0,
    )
