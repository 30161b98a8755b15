"""The provider contract's data: content parts, messages, requests, results, usage and warnings.

Everything is a frozen pydantic v2 class, so a value can be shared, hashed by identity, and
round-tripped through JSON (``model_dump_json`` then ``model_validate_json`` gives an equal object).
Tags (``type``) are wire format and are never renamed.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    computed_field,
    field_validator,
    model_serializer,
    model_validator,
)

__all__ = [
    "Citation",
    "Derived",
    "EmbeddingResult",
    "FilePart",
    "FinishReason",
    "FunctionTool",
    "Message",
    "Part",
    "ProviderMetadata",
    "ProviderTool",
    "ReasoningConfig",
    "ReasoningPart",
    "Request",
    "ResponseFormat",
    "Result",
    "Source",
    "TextPart",
    "Tool",
    "ToolCallPart",
    "ToolChoice",
    "ToolResultPart",
    "Usage",
    "Warning",
]

#: Provider-specific data keyed by provider id, e.g. ``{"google": {"thoughtSignature": "..."}}``.
ProviderMetadata = dict[str, dict[str, Any]]

#: Largest integer a JSON number carries exactly (2**53 - 1).
MAX_SAFE_INTEGER = 9_007_199_254_740_991

#: Deepest nesting of a free-form value in a request (tool arguments and outputs, provider metadata,
#: JSON schemas, provider options): the nesting the strict wire parser accepts (128 levels).
MAX_VALUE_DEPTH = 128


def _too_deep(value: Any, limit: int) -> bool:
    """Whether ``value`` nests dicts/lists/tuples deeper than ``limit`` (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list, tuple)))
    return False


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _decode_bytes(value: Any) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except ValueError as error:
            raise ValueError("file data must be bytes or a base64 string") from error
    raise ValueError("file data must be bytes or a base64 string")


#: Bytes in memory, base64 text in JSON.
Base64Bytes = Annotated[
    bytes,
    PlainValidator(_decode_bytes),
    PlainSerializer(lambda b: base64.b64encode(b).decode("ascii"), return_type=str, when_used="json"),
]


# --------------------------------------------------------------------------- parts


class TextPart(_Frozen):
    """Visible text."""

    type: Literal["text"] = "text"
    text: str
    provider_metadata: ProviderMetadata | None = None


class FilePart(_Frozen):
    """A file given inline (``data``) or by reference (``uri``), with its media type."""

    type: Literal["file"] = "file"
    media_type: str
    data: Base64Bytes | None = None
    uri: str | None = None
    provider_metadata: ProviderMetadata | None = None

    @model_validator(mode="after")
    def _one_source(self) -> FilePart:
        if (self.data is None) == (self.uri is None):
            raise ValueError("a file part needs exactly one of 'data' or 'uri'")
        return self


class ReasoningPart(_Frozen):
    """The model's reasoning (thought summary), with the provider's opaque signature if any."""

    type: Literal["reasoning"] = "reasoning"
    text: str
    signature: str | None = None
    provider_metadata: ProviderMetadata | None = None


class ToolCallPart(_Frozen):
    """A call of a tool; ``provider_executed`` is true when the provider ran it itself."""

    type: Literal["tool-call"] = "tool-call"
    id: str
    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    provider_executed: bool = False
    provider_metadata: ProviderMetadata | None = None


class ToolResultPart(_Frozen):
    """The result of a tool call, matched to it by ``call_id``."""

    type: Literal["tool-result"] = "tool-result"
    call_id: str
    name: str
    output: Any = None
    is_error: bool = False
    provider_executed: bool = False
    provider_metadata: ProviderMetadata | None = None


Part = Annotated[
    Union[TextPart, FilePart, ReasoningPart, ToolCallPart, ToolResultPart],
    Field(discriminator="type"),
]


class Message(_Frozen):
    """One turn of a conversation.

    ``content`` is a string (shorthand for one text part) or a list of parts. ``provider_metadata``
    carries what a provider needs to replay this turn exactly (e.g. raw parts with signatures).
    """

    role: Literal["system", "user", "assistant", "tool"]
    content: list[Part]
    provider_metadata: ProviderMetadata | None = None

    @field_validator("content", mode="before")
    @classmethod
    def _string_content(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [{"type": "text", "text": value}]
        return value

    @property
    def text(self) -> str:
        """The message's visible text, joined."""
        return "".join(p.text for p in self.content if isinstance(p, TextPart))


# --------------------------------------------------------------------------- tools


class FunctionTool(_Frozen):
    """A tool the caller runs: the model emits calls, the application executes them."""

    type: Literal["function"] = "function"
    name: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
    description: str | None = None
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})

    @field_validator("parameters")
    @classmethod
    def _object_schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        # A JSON schema describing the arguments object: checked where a wrong shape is certain.
        kind = value.get("type", "object")
        if kind != "object":
            raise ValueError(f"must be a JSON schema of type 'object', got type {kind!r}")
        properties = value.get("properties", {})
        if not isinstance(properties, dict) or not all(
            isinstance(schema, (dict, bool)) for schema in properties.values()
        ):
            raise ValueError("'properties' must map each argument name to its JSON schema (an object)")
        required = value.get("required", [])
        if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
            raise ValueError("'required' must be a list of argument names")
        return value


class ProviderTool(_Frozen):
    """A tool the provider runs itself, e.g. ``{"type": "provider", "id": "google.google_search"}``.

    ``args`` are validated against the tool's registered spec before any request is sent.
    """

    type: Literal["provider"] = "provider"
    id: str
    name: str
    args: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _default_name(cls, value: Any) -> Any:
        if isinstance(value, dict) and "name" not in value and isinstance(value.get("id"), str):
            value = {**value, "name": value["id"].split(".", 1)[-1]}
        return value


Tool = Annotated[Union[FunctionTool, ProviderTool], Field(discriminator="type")]


class SpecificToolChoice(_Frozen):
    """Force a call of one named tool."""

    type: Literal["tool"] = "tool"
    name: str


class ToolSubsetChoice(_Frozen):
    """Force a call of one of a named subset of tools."""

    type: Literal["tools"] = "tools"
    names: list[str] = Field(min_length=1)


ToolChoice = Union[Literal["auto", "any", "required", "none"], SpecificToolChoice, ToolSubsetChoice]


# --------------------------------------------------------------------------- request


class ResponseFormat(_Frozen):
    """Plain text, any JSON, or JSON matching ``schema``."""

    type: Literal["text", "json", "json_schema"] = "text"
    json_schema: dict[str, Any] | None = Field(default=None, alias="schema")
    name: str | None = None
    description: str | None = None
    strict: bool | None = Field(default=None, strict=True)

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @model_validator(mode="after")
    def _schema_only_for_json_schema(self) -> ResponseFormat:
        if self.type == "json_schema" and self.json_schema is None:
            raise ValueError("response_format type 'json_schema' needs a 'schema'")
        if self.type != "json_schema" and self.json_schema is not None:
            raise ValueError("'schema' is only allowed with response_format type 'json_schema'")
        return self


class ReasoningConfig(_Frozen):
    """Reasoning ("thinking") controls: on/off, an effort level, or an explicit token budget."""

    enabled: bool | None = Field(default=None, strict=True)
    effort: Literal["low", "medium", "high", "max"] | None = None
    budget_tokens: int | None = Field(default=None, ge=0, le=MAX_SAFE_INTEGER, strict=True)


def _coerce_shorthand(value: Any, key: str) -> Any:
    return {key: value} if isinstance(value, str) else value


class Request(_Frozen):
    """A canonical generation request. Build it with keywords; ``prompt`` becomes a user message."""

    messages: list[Message] = Field(min_length=1)
    max_output_tokens: int | None = Field(default=None, gt=0, le=MAX_SAFE_INTEGER, strict=True)
    temperature: float | None = Field(default=None, ge=0)
    top_p: float | None = Field(default=None, ge=0, le=1)
    top_k: int | None = Field(default=None, gt=0, strict=True)
    stop_sequences: list[str] | None = None
    seed: int | None = Field(default=None, ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER, strict=True)
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    response_format: ResponseFormat | None = None
    tools: list[Tool] | None = None
    tool_choice: ToolChoice | None = None
    reasoning: ReasoningConfig | None = None
    user_id: str | None = None
    request_labels: dict[str, str] | None = None
    provider_options: dict[str, dict[str, Any]] | None = None

    @model_validator(mode="before")
    @classmethod
    def _prompt_and_system(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        data = dict(value)
        prompt = data.pop("prompt", None)
        system = data.pop("system", None)
        messages = data.get("messages")
        if prompt is not None and messages is not None:
            raise ValueError("give either 'prompt' or 'messages', not both")
        if prompt is None and messages is None:
            raise ValueError("a request needs 'prompt' or 'messages'")
        if prompt is not None:
            if not isinstance(prompt, str):
                raise ValueError("'prompt' must be a string")
            messages = [{"role": "user", "content": prompt}]
        messages = list(messages) if isinstance(messages, (list, tuple)) else messages
        if system is not None:
            if not isinstance(system, str):
                raise ValueError("'system' must be a string")
            messages = [{"role": "system", "content": system}, *(messages or [])]
        data["messages"] = messages
        if "response_format" in data:
            data["response_format"] = _coerce_shorthand(data["response_format"], "type")
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Request:
        if self.tools or self.tool_choice is not None:
            self._tools_consistent()
        where = _too_deep_field(self)
        if where is not None:
            raise ValueError(f"{where} is nested deeper than {MAX_VALUE_DEPTH} levels")
        return self

    def _tools_consistent(self) -> None:
        names = [t.name for t in self.tools or []]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"duplicate tool names: {', '.join(duplicates)}")
        choice = self.tool_choice
        function_names = {t.name for t in self.tools or [] if isinstance(t, FunctionTool)}
        wanted: list[str] = []
        if isinstance(choice, SpecificToolChoice):
            wanted = [choice.name]
        elif isinstance(choice, ToolSubsetChoice):
            wanted = choice.names
        missing = [n for n in wanted if n not in function_names]
        if missing:
            raise ValueError(f"tool_choice names tools that are not in 'tools': {', '.join(missing)}")
        if choice in ("any", "required") and not self.tools:
            raise ValueError(f"tool_choice {choice!r} needs at least one tool")


def _free_form_values(request: Request) -> Iterator[tuple[tuple[object, ...], Any]]:
    """Every free-form (``Any``) value of a request that is a container, with its path.

    A generator of cheap tuples: the dotted path is only joined for a value that fails (this runs
    on every request, so a plain prompt must cost next to nothing).
    """
    if request.provider_options:
        yield ("provider_options",), request.provider_options
    if request.response_format is not None and request.response_format.json_schema:
        yield ("response_format", "schema"), request.response_format.json_schema
    for i, tool in enumerate(request.tools or ()):
        yield ("tools", i), tool.parameters if isinstance(tool, FunctionTool) else tool.args
    for i, message in enumerate(request.messages):
        if message.provider_metadata:
            yield ("messages", i, "provider_metadata"), message.provider_metadata
        for j, part in enumerate(message.content):
            if part.provider_metadata:
                yield ("messages", i, "content", j, "provider_metadata"), part.provider_metadata
            if isinstance(part, ToolCallPart):
                yield ("messages", i, "content", j, "args"), part.args
            elif isinstance(part, ToolResultPart):
                yield ("messages", i, "content", j, "output"), part.output


def _too_deep_field(request: Request) -> str | None:
    """Where a free-form value of ``request`` nests too deeply (``None`` when none does)."""
    for path, value in _free_form_values(request):
        if isinstance(value, (dict, list, tuple)) and _too_deep(value, MAX_VALUE_DEPTH):
            return ".".join(map(str, path))
    return None


# --------------------------------------------------------------------------- result

FinishReason = Literal["stop", "length", "tool-calls", "content-filter", "error", "other"]


class Usage(_Frozen):
    """Token counts. A count the provider did not report stays ``None``, never zero."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    reasoning_tokens: int | None = None
    total_tokens: int | None = None
    cache_read_input_tokens: int | None = None
    tool_use_prompt_tokens: int | None = None

    @model_validator(mode="before")
    @classmethod
    def _drop_alias(cls, value: Any) -> Any:
        if isinstance(value, dict) and "cached_input_tokens" in value:
            value = dict(value)
            alias = value.pop("cached_input_tokens")
            value.setdefault("cache_read_input_tokens", alias)
        if isinstance(value, dict):
            for count in value.values():  # a loop, not any() over a generator: one runs per result
                if count is not None and _unusable_count(count):
                    # A negative (or not exactly representable) count is no count: "not reported".
                    return {k: (None if _unusable_count(v) else v) for k, v in value.items()}
        return value

    @computed_field  # type: ignore[prop-decorator]
    @property
    def cached_input_tokens(self) -> int | None:
        """Alias of :attr:`cache_read_input_tokens`."""
        return self.cache_read_input_tokens


def _unusable_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= MAX_SAFE_INTEGER


class TopLogprob(_Frozen):
    """One of the most likely tokens at a position, with its log probability."""

    token: str
    logprob: float
    bytes: list[int] | None = None


class TokenLogprob(_Frozen):
    """The log probability of one generated token, and the most likely alternatives (``top``)."""

    token: str
    logprob: float
    bytes: list[int] | None = None
    top: list[TopLogprob] = Field(default_factory=list)


class Warning(_Frozen):
    """Something the provider ignored or the SDK had to skip, e.g. an unsupported setting."""

    type: Literal[
        "unsupported-setting", "unsupported-tool", "skipped-citation", "reanchored-citation", "other"
    ]
    setting: str | None = None
    details: str | None = None


class Source(_Frozen):
    """A numbered source (1-based) that citations point at."""

    number: int = Field(ge=1)
    title: str | None = None
    uri: str | None = None
    domain: str | None = None


class Citation(_Frozen):
    """A character span ``[start, end)`` of ``Result.text`` supported by the numbered sources."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    sources: list[int] = Field(min_length=1)

    @model_validator(mode="after")
    def _ordered(self) -> Citation:
        if self.end < self.start:
            raise ValueError("citation end is before its start")
        return self


_DERIVED_RESULT_KEYS = ("text", "tool_calls", "message", "reasoning_text")

#: What :meth:`Result.deferred`'s function returns: the sources, the citations and the warnings
#: found while deriving them (appended to the result's other warnings).
Derived = tuple[list["Source"], list["Citation"], list["Warning"]]

#: The fields a deferred result computes on first use.
_DEFERRED_FIELDS = ("sources", "citations", "warnings")


class Result(_Frozen):
    """What a generation produced: ordered content parts plus finish reason, usage and metadata."""

    content: list[Part] = Field(default_factory=list)
    finish_reason: FinishReason = "other"
    raw_finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    warnings: list[Warning] = Field(default_factory=list)
    provider_metadata: ProviderMetadata = Field(default_factory=dict)
    grounding_metadata: dict[str, Any] | None = None
    sources: list[Source] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    response_id: str | None = None
    model_version: str | None = None
    replay: ProviderMetadata | None = None
    """What the provider needs to replay this turn exactly; copied onto :attr:`message`."""
    logprobs: list[TokenLogprob] | None = None
    """Per-token log probabilities of the answer, when requested and sent (provider-neutral)."""
    _parsed: Any = PrivateAttr(default=None)
    # ``(derive, warnings known now)`` until the deferred fields are computed (see ``deferred``).
    _deferred: tuple[Callable[[], Derived], list[Warning]] | None = PrivateAttr(default=None)

    @property
    def parsed(self) -> Any:
        """The answer validated into the Python type given as ``response_format`` (else ``None``)."""
        return self._parsed

    @classmethod
    def deferred(cls, derive: Callable[[], Derived], /, **fields: Any) -> Result:
        """A result whose ``sources`` and ``citations`` are computed on first use.

        ``derive()`` returns ``(sources, citations, warnings)``; its warnings follow those in
        ``fields``. It runs at most once (its values are trusted: build them from validated data),
        the first time ``sources``, ``citations`` or ``warnings`` is read or the result is compared,
        copied, printed, pickled or serialized; a caller that only reads the text never pays for
        it. Such a result is equal to, and dumps the same as, one built with the values up front.
        """
        if any(name in fields for name in ("sources", "citations")):
            raise TypeError("a deferred result derives its sources and citations itself")
        result = cls(**fields)
        state = result.__dict__
        known = state.pop("warnings")
        del state["sources"], state["citations"]
        result.__pydantic_fields_set__.update(_DEFERRED_FIELDS)
        result._deferred = (derive, known)
        return result

    def _resolve(self) -> None:
        """Compute the deferred fields now (nothing to do for an ordinary result)."""
        private = self.__pydantic_private__
        pending = private.get("_deferred") if private else None
        if pending is None:
            return
        derive, known = pending
        assert private is not None
        sources, citations, warnings = derive()
        computed = {"sources": sources, "citations": citations, "warnings": [*known, *warnings]}
        state = self.__dict__
        # Field order as declared (dumps and reprs list fields in ``__dict__`` order), swapped in
        # whole so that a reader on another thread never sees a field missing.
        ordered = {name: state[name] if name in state else computed[name] for name in type(self).model_fields}
        object.__setattr__(self, "__dict__", ordered)
        private["_deferred"] = None

    def _known_warnings(self) -> list[Warning]:
        """The warnings known without resolving (the request's and the decoder's, not derivations')."""
        private = self.__pydantic_private__
        pending = private.get("_deferred") if private else None
        return pending[1] if pending is not None else self.warnings

    def _with_warnings_first(self, warnings: list[Warning]) -> Result:
        """A copy with ``warnings`` before the others, still deferred if this one is."""
        private = self.__pydantic_private__
        pending = private.get("_deferred") if private else None
        if pending is None:
            return self.model_copy(update={"warnings": [*warnings, *self.warnings]})
        # Not ``model_copy``, which resolves first.
        copy = type(self).__new__(type(self))
        object.__setattr__(copy, "__dict__", dict(self.__dict__))
        object.__setattr__(copy, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        object.__setattr__(copy, "__pydantic_extra__", None)
        moved = (pending[0], [*warnings, *pending[1]])
        object.__setattr__(copy, "__pydantic_private__", {**(private or {}), "_deferred": moved})
        return copy

    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any:
            if name in _DEFERRED_FIELDS:
                private = self.__pydantic_private__
                if private and private.get("_deferred") is not None:
                    self._resolve()
                    return self.__dict__[name]
            return super().__getattr__(name)

    # Everything that reads the whole field set resolves first.

    def __eq__(self, other: object) -> bool:
        self._resolve()
        if isinstance(other, Result):
            other._resolve()
        return super().__eq__(other)

    def __repr_args__(self) -> Any:
        self._resolve()
        return super().__repr_args__()

    def __iter__(self) -> Any:
        self._resolve()
        return super().__iter__()

    def __copy__(self) -> Result:
        self._resolve()
        return super().__copy__()

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Result:
        self._resolve()
        return super().__deepcopy__(memo)

    def __getstate__(self) -> dict[Any, Any]:
        self._resolve()
        return super().__getstate__()

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Result:
        self._resolve()
        return super().model_copy(update=update, deep=deep)

    # No return annotation: pydantic would take it as the serialization schema.
    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        self._resolve()
        return handler(self)

    @model_validator(mode="before")
    @classmethod
    def _drop_derived(cls, value: Any) -> Any:
        if isinstance(value, dict) and any(k in value for k in _DERIVED_RESULT_KEYS):
            value = {k: v for k, v in value.items() if k not in _DERIVED_RESULT_KEYS}
        return value

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """Visible (non-reasoning) text of all text parts, joined."""
        return "".join(p.text for p in self.content if isinstance(p, TextPart))

    @property
    def reasoning_text(self) -> str:
        """Reasoning text of all reasoning parts, joined."""
        return "".join(p.text for p in self.content if isinstance(p, ReasoningPart))

    @property
    def tool_calls(self) -> list[ToolCallPart]:
        """Tool calls the application must run (provider-executed calls are excluded)."""
        return [p for p in self.content if isinstance(p, ToolCallPart) and not p.provider_executed]

    @property
    def message(self) -> Message:
        """The assistant message to append to the history for the next turn."""
        return Message(role="assistant", content=list(self.content), provider_metadata=self.replay)


class EmbeddingResult(_Frozen):
    """Embeddings in the order of the input values."""

    embeddings: list[list[float]]
    usage: Usage = Field(default_factory=Usage)
    model_version: str | None = None
    provider_metadata: ProviderMetadata = Field(default_factory=dict)
