"""Canonical :class:`~modelport.types.Request` → Gemini ``generateContent`` body (G3-G12).

A pure function of the request and the backend: the same body is sent by generate and stream. The
order of the body is fixed — standard fields, then ``provider_options["google"]`` (G9), then the
structured-output keys again so an options override cannot drop them (G8).
"""

from __future__ import annotations

import base64
from typing import Any

from modelport.errors import InvalidRequestError
from modelport.http import wire_settings
from modelport.types import (
    CallWarning,
    FilePart,
    FunctionTool,
    Message,
    Part,
    ProviderTool,
    ReasoningPart,
    Request,
    SpecificToolChoice,
    TextPart,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    ToolSubsetChoice,
)
from modelport.wire import dumps

from ._labels import check_labels, label_value
from ._options import GoogleOptions, parse_options
from ._parts import CODE_EXECUTION
from ._replay import ReplayedCall, replay_parts
from ._thinking import (
    EFFORT_BUDGETS,
    EFFORT_LEVELS,
    check_reasoning,
    check_thinking,
    effort_warnings,
    explicit_thinking,
    is_gemini_3,
    thinking_config,
)

__all__ = [
    "EFFORT_BUDGETS",
    "EFFORT_LEVELS",
    "is_gemini_3",
    "build_body",
    "check_reasoning",
    "encode_body",
    "thinking_config",
    "tool_config",
    "unsupported_warnings",
]

_UNSUPPORTED = ("presence_penalty", "frequency_penalty")


# --------------------------------------------------------------------------- settings


def tool_config(choice: ToolChoice | None) -> dict[str, Any] | None:
    """G12: ``tool_choice`` → ``toolConfig.functionCallingConfig``."""
    if choice is None:
        return None
    if isinstance(choice, SpecificToolChoice):
        config: dict[str, Any] = {"mode": "ANY", "allowedFunctionNames": [choice.name]}
    elif isinstance(choice, ToolSubsetChoice):
        config = {"mode": "ANY", "allowedFunctionNames": list(choice.names)}
    else:
        config = {"mode": {"auto": "AUTO", "any": "ANY", "required": "ANY", "none": "NONE"}[choice]}
    return {"functionCallingConfig": config}


#: The request's settings ``generationConfig`` takes as they are → their Gemini names.
_GENERATION_FIELDS = {
    "max_output_tokens": "maxOutputTokens",
    "temperature": "temperature",
    "top_p": "topP",
    "top_k": "topK",
    "stop_sequences": "stopSequences",
    "seed": "seed",
}


def _generation_config(request: Request, options: GoogleOptions, model_name: str) -> dict[str, Any]:
    config = wire_settings(request, _GENERATION_FIELDS)
    if options.response_logprobs is not None:
        config["responseLogprobs"] = options.response_logprobs
    if options.logprobs is not None:
        if options.response_logprobs is not True:
            raise InvalidRequestError("provider_options logprobs needs response_logprobs=True")
        config["logprobs"] = options.logprobs
    thinking = explicit_thinking(thinking_config(request.reasoning, model_name), options, model_name)
    if thinking is not None:
        config["thinkingConfig"] = thinking
    return config


def _apply_response_format(config: dict[str, Any], request: Request) -> list[CallWarning]:
    # G8: name, description and strict have no Gemini equivalent and are not sent. Applied last,
    # over a generation_config given in provider_options. The schema goes in Gemini's dialect.
    fmt = request.response_format
    warnings: list[CallWarning] = []
    if fmt is None or fmt.type == "text":
        return warnings
    config["responseMimeType"] = "application/json"
    if fmt.type == "json_schema" and fmt.json_schema is not None:
        # here: a request without a schema imports no schema compiler
        from modelport.outputs.schemas import gemini_schema

        compiled = gemini_schema(fmt.json_schema)
        config["responseJsonSchema"] = compiled.schema
        warnings += compiled.warnings
    return warnings


def _tools(request: Request, backend: str) -> list[dict[str, Any]] | None:
    entries: list[dict[str, Any]] = []
    declarations: list[dict[str, Any]] = []
    for tool in request.tools or []:
        if isinstance(tool, ProviderTool):
            from .tools import tool_to_wire  # type: ignore[attr-defined,unused-ignore]

            entries.append(tool_to_wire(tool, backend))
        elif isinstance(tool, FunctionTool):
            declaration: dict[str, Any] = {"name": tool.name}
            if tool.description:
                declaration["description"] = tool.description
            declaration["parametersJsonSchema"] = tool.parameters
            declarations.append(declaration)
    if declarations:
        entries.append({"functionDeclarations": declarations})
    return entries or None


def _declares_functions(tools: list[dict[str, Any]] | None) -> bool:
    return any("functionDeclarations" in entry for entry in tools or ())


def _without_tools(request: Request) -> ToolChoice | None:
    """The choice sent when no function is declared: none ("none" and "auto" mean what no functions
    mean); ``"any"`` stays (with provider tools only), for Google to judge."""
    choice = request.tool_choice
    return None if choice in ("none", "auto") else choice


def _retrieval(request: Request) -> dict[str, Any] | None:
    provider_tools = [t for t in request.tools or [] if isinstance(t, ProviderTool)]
    if not provider_tools:
        return None
    from .tools import retrieval_config

    return retrieval_config(provider_tools)


# --------------------------------------------------------------------------- contents


def _signed(part: dict[str, Any], source: Part) -> dict[str, Any]:
    signature = ((source.provider_metadata or {}).get("google") or {}).get("thoughtSignature")
    if isinstance(signature, str):
        part["thoughtSignature"] = signature
    return part


def _file(part: FilePart) -> dict[str, Any]:
    if part.data is not None:
        data = base64.b64encode(part.data).decode("ascii")
        return {"inlineData": {"mimeType": part.media_type, "data": data}}
    return {"fileData": {"mimeType": part.media_type, "fileUri": part.uri}}


def _function_response(part: ToolResultPart, wire_ids: dict[str, str]) -> dict[str, Any]:
    output = part.output
    if part.is_error:
        response: Any = {"error": output}
    else:
        response = output if isinstance(output, dict) else {"result": output}
    body: dict[str, Any] = {"name": part.name, "response": response}
    wire_id = wire_ids.get(part.call_id)
    if wire_id is not None:
        body["id"] = wire_id
    return {"functionResponse": body}


def _user_part(part: Part, wire_ids: dict[str, str]) -> dict[str, Any]:
    match part:
        case TextPart():
            return {"text": part.text}
        case FilePart():
            return _file(part)
        case ToolResultPart():
            return _function_response(part, wire_ids)
        case ReasoningPart() | ToolCallPart():
            raise InvalidRequestError(f"a user or tool message cannot contain a {part.type!r} part")
    raise InvalidRequestError(f"unsupported part {part!r}")  # pragma: no cover


def _assistant_part(part: Part) -> dict[str, Any] | None:
    match part:
        case TextPart():
            return _signed({"text": part.text}, part)
        case ReasoningPart():
            raw: dict[str, Any] = {"text": part.text, "thought": True}
            if part.signature is not None:
                raw["thoughtSignature"] = part.signature
            return raw
        case FilePart():
            return _file(part)
        case ToolCallPart() if not part.provider_executed:
            return _signed({"functionCall": {"name": part.name, "args": part.args}}, part)
        case ToolCallPart() if part.name == CODE_EXECUTION:
            return _signed({"executableCode": dict(part.args)}, part)
        case ToolResultPart() if part.provider_executed and part.name == CODE_EXECUTION:
            output = part.output if isinstance(part.output, dict) else {"output": part.output}
            return _signed({"codeExecutionResult": output}, part)
        case ToolCallPart() | ToolResultPart() if part.provider_executed:
            return None  # other server-side tool records replay only from raw parts
        case ToolResultPart():
            raise InvalidRequestError("tool results belong in a 'tool' message, not an assistant one")
    raise InvalidRequestError(f"unsupported part {part!r}")  # pragma: no cover


def _system_text(message: Message) -> list[dict[str, Any]]:
    parts = []
    for part in message.content:
        if not isinstance(part, TextPart):
            raise InvalidRequestError("system messages may only contain text parts")
        parts.append({"text": part.text})
    return parts


class _Step:
    """The function calls of the latest assistant turn and the results seen for them since."""

    def __init__(self, calls: list[ReplayedCall], strict: bool) -> None:
        self.calls = calls
        self.strict = strict
        self.results: list[str] = []
        self.wire_ids = {ident: wire for ident, _, wire in calls if wire is not None}

    def check(self) -> None:
        expected = [ident for ident, _, _ in self.calls]
        if self.strict and self.results and self.results != expected:
            raise InvalidRequestError(
                f"tool results {self.results} do not match the replayed assistant turn's calls "
                f"{expected} (every call needs one result, in the same order)"
            )


def _fresh(part: Part, wire_id: str | None) -> dict[str, Any] | None:
    """An edited assistant part, unsigned (a signature belongs to the content it came with)."""
    if isinstance(part, ReasoningPart):
        part = part.model_copy(update={"signature": None})
    raw = _assistant_part(part.model_copy(update={"provider_metadata": None}))
    if raw is not None and wire_id is not None and "functionCall" in raw:
        raw["functionCall"]["id"] = wire_id
    return raw


#: Gemini refuses a functionResponse turn that does not come right after a functionCall turn
#: (HTTP 400 "Please ensure that function response turn comes immediately after a function call
#: turn"): refused here, before any request.
_MISPLACED_RESULTS = (
    "messages[{index}]: a tool result must follow the assistant message whose tool calls it "
    "answers (or another tool result answering them)"
)


def _contents(
    messages: list[Message],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[CallWarning]]:
    system: list[dict[str, Any]] = []
    warnings: list[CallWarning] = []
    contents: list[dict[str, Any]] = []
    step = _Step([], strict=False)
    tool_content: dict[str, Any] | None = None
    answering = False  # whether a tool message may come now: right after an assistant's calls
    for index, message in enumerate(messages):
        if message.role != "tool":
            tool_content = None
        match message.role:
            case "system":
                system.extend(_system_text(message))
            case "user":
                results = [p for p in message.content if isinstance(p, ToolResultPart)]
                if results and not answering:
                    raise InvalidRequestError(_MISPLACED_RESULTS.format(index=index))
                answering = len(results) == len(message.content) and answering
                parts = [_user_part(p, step.wire_ids) for p in message.content]
                contents.append({"role": "user", "parts": parts})
            case "assistant":
                step.check()
                replay = replay_parts(message, _fresh)
                if replay is not None:
                    raw_parts, calls, edited = replay
                    step = _Step(calls, strict=True)
                    if edited:
                        warnings.append(
                            CallWarning(
                                type="other",
                                setting=f"messages.{index}",
                                details="the assistant message was edited after it was returned: its "
                                "edited content was sent, with thought signatures only on unchanged parts",
                            )
                        )
                else:
                    raw_parts = [r for r in map(_assistant_part, message.content) if r is not None]
                    calls = [
                        (p.id, p.name, None)
                        for p in message.content
                        if isinstance(p, ToolCallPart) and not p.provider_executed
                    ]
                    step = _Step(calls, strict=False)
                contents.append({"role": "model", "parts": list(raw_parts)})
                answering = bool(calls)
            case "tool":
                if not answering:
                    raise InvalidRequestError(_MISPLACED_RESULTS.format(index=index))
                parts = [_user_part(p, step.wire_ids) for p in message.content]
                step.results.extend(p.call_id for p in message.content if isinstance(p, ToolResultPart))
                # Responses to the parallel calls of one step go back in one Content.
                if tool_content is None:
                    tool_content = {"role": "user", "parts": parts}
                    contents.append(tool_content)
                else:
                    tool_content["parts"].extend(parts)
    step.check()
    return system, contents, warnings


# --------------------------------------------------------------------------- body


def unsupported_warnings(request: Request) -> list[CallWarning]:
    """G11: settings Gemini does not accept, dropped with a warning each."""
    return [
        CallWarning(
            type="unsupported-setting",
            setting=name,
            details=f"Gemini does not support {name}; it was not sent",
        )
        for name in _UNSUPPORTED
        if getattr(request, name) is not None
    ]


def build_body(
    request: Request, *, backend: str, option_keys: tuple[str, ...] = ("google",), model: str = ""
) -> tuple[dict[str, Any], list[CallWarning]]:
    """The JSON body for ``request`` to ``model`` and the warnings for what was not sent."""
    options = parse_options(request.provider_options, *option_keys)
    system, contents, edits = _contents(request.messages)
    body: dict[str, Any] = {"contents": contents}
    if system:
        body["systemInstruction"] = {"parts": system}
    generation = _generation_config(request, options, model)
    if generation:
        body["generationConfig"] = generation
    tools = _tools(request, backend)
    if tools:
        body["tools"] = tools
    config = tool_config(request.tool_choice if _declares_functions(tools) else _without_tools(request))
    retrieval = _retrieval(request)
    if retrieval:
        config = {**(config or {}), "retrievalConfig": retrieval}
    if config:
        body["toolConfig"] = config
    warnings = [*edits, *unsupported_warnings(request), *effort_warnings(request, model)]
    labels = request.request_labels if request.request_labels is not None else None
    if labels is None and request.user_id is not None:
        user_id = request.user_id
        if backend == "vertex":
            user_id = label_value(user_id, warnings)
        labels = {"user_id": user_id}
    if labels:
        body["labels"] = dict(labels)
    body.update(options.wire())
    if backend == "vertex" and isinstance(body.get("labels"), dict):
        check_labels(body["labels"])
    given = body.get("generationConfig")
    if isinstance(given, dict) and given is not generation:  # replaced by generation_config or extra_body
        body["generationConfig"] = _kept_settings(given, generation)
    if request.response_format is not None and request.response_format.type != "text":
        generation = dict(body.get("generationConfig") or {})
        warnings += _apply_response_format(generation, request)
        body["generationConfig"] = generation
    check_thinking(body.get("generationConfig"), model)
    _check_candidates(body.get("generationConfig"))
    return body, warnings


#: What ``generation_config`` does not replace besides the structured output (G8, applied last):
#: the thinking and log-probability settings, which come from their own request fields and options.
_KEPT = ("responseLogprobs", "logprobs")


def _kept_settings(given: dict[str, Any], built: dict[str, Any]) -> dict[str, Any]:
    """``generation_config`` with the settings of :data:`_KEPT` and ``thinkingConfig`` built from the
    request re-applied (a ``thinkingConfig`` of both is merged, the request's keys winning)."""
    merged = {**given, **{key: built[key] for key in _KEPT if key in built}}
    thinking = built.get("thinkingConfig")
    if thinking is not None:
        own = given.get("thinkingConfig")
        merged["thinkingConfig"] = {**own, **thinking} if isinstance(own, dict) else thinking
    return merged


def _check_candidates(generation: dict[str, Any] | None) -> None:
    """One candidate per result: ``candidateCount`` > 1 would be dropped, so it is refused."""
    count = (generation or {}).get("candidateCount")
    if count is not None and count != 1:
        raise InvalidRequestError(
            f"candidateCount={count!r} is not supported: a result holds one candidate (the others "
            "would be dropped); make separate calls, or use seed/temperature for variety"
        )


def encode_body(body: Any) -> bytes:
    """The body as compact UTF-8 JSON; a value JSON cannot carry is an :class:`InvalidRequestError`
    (the core's strict encoder, :func:`modelport.wire.dumps`)."""
    return dumps(body)
