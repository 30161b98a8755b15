"""A request: what a call asks of a model, and the keywords a call takes (:class:`RequestKeywords`).

Everything is a frozen pydantic v2 class, so a value can be shared, hashed by identity, and
round-tripped through JSON (``model_dump_json`` then ``model_validate_json`` gives an equal object).
Tags (``type``) are wire format and are never renamed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal, Protocol

from pydantic import (
    ConfigDict,
    Field,
    model_validator,
)
from typing_extensions import TypedDict

__all__ = [
    "PromptCache",
    "ReasoningConfig",
    "ReasoningReplay",
    "Request",
    "RequestKeywords",
    "ResponseFormat",
]

from .content import (
    MAX_DOCUMENTS,
    MAX_SAFE_INTEGER,
    MAX_VALUE_DEPTH,
    Document,
    FunctionTool,
    Message,
    SpecificToolChoice,
    Tool,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    ToolSubsetChoice,
    _Frozen,
    _too_deep,
)

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


class PromptCache(_Frozen):
    """Prompt caching asked of the provider: which parts of the prompt end a cached prefix, for how
    long it should stay cached at least, and a key that groups requests sharing a prefix.

    Each provider maps what it can express and warns about the rest (``unsupported-setting``);
    a provider that cannot cache per request at all gets a warning from the core (its
    :class:`~modelport.provider.Capabilities` has ``prompt_cache=False``). See docs/providers.md.
    """

    ttl: Literal["5m", "1h", "24h"] = "5m"
    """How long the cached prefix should live at least; a provider uses its shortest retention that
    covers it, and refuses a TTL longer than any it has."""
    at: tuple[Literal["system", "tools", "messages"], ...] = Field(
        default=("system", "tools", "messages"), min_length=1
    )
    """Where cached prefixes end: after the system text, after the tools, after the last user turn.
    A provider that caches the longest matching prefix by itself caches every one of them."""
    key: str | None = Field(default=None, min_length=1, max_length=1024)
    """A routing key for requests that share a prefix (OpenAI's ``prompt_cache_key``)."""

    @model_validator(mode="after")
    def _distinct(self) -> PromptCache:
        if len(set(self.at)) != len(self.at):
            raise ValueError("prompt_cache.at names a place twice")
        return self


#: What happens to reasoning state in a history sent to a model (see :mod:`modelport.reasoning`):
#: ``"auto"`` replays it where its origin allows and drops it with a warning elsewhere, ``"strict"``
#: refuses a request that would drop or change any (before any I/O), ``"drop"`` never sends any.
ReasoningReplay = Literal["auto", "strict", "drop"]


def _coerce_shorthand(value: Any, key: str) -> Any:
    return {key: value} if isinstance(value, str) else value


def _document_shorthand(value: Any) -> Any:
    """A string is a text document; a mapping without ``type`` is one of text if it has ``text``."""
    if isinstance(value, str):
        return {"type": "text", "text": value}
    if isinstance(value, Mapping) and "type" not in value:
        return {"type": "text" if "text" in value else "file", **value}
    return value


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
    reasoning_replay: ReasoningReplay = "auto"
    prompt_cache: PromptCache | None = None
    user_id: str | None = None
    request_labels: dict[str, str] | None = None
    provider_options: dict[str, dict[str, Any]] | None = None
    documents: list[Document] | None = Field(default=None, max_length=MAX_DOCUMENTS)
    """Documents passed with the request, the basis of the provider's citations (contract 2.3): a
    provider whose ``Capabilities.documents`` is false refuses them before any I/O."""

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
        if isinstance(data.get("documents"), (list, tuple)):
            data["documents"] = [_document_shorthand(d) for d in data["documents"]]
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Request:
        if self.tools or self.tool_choice is not None:
            self._tools_consistent()
        if self.documents:
            ids = [d.id for d in self.documents if d.id is not None]
            if duplicates := sorted({i for i in ids if ids.count(i) > 1}):
                raise ValueError(f"duplicate document ids: {', '.join(duplicates)}")
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


class _ToolFunction(Protocol):
    """A :func:`modelport.tool` function, as ``tools`` takes it: its spec is what is sent."""

    @property
    def spec(self) -> FunctionTool: ...


class _NeutralTool(Protocol):
    """A neutral tool (:func:`modelport.tools.web_search`...), as ``tools`` takes it: the call's
    provider compiles it to its own provider tool."""

    @property
    def type(self) -> Literal["neutral"]: ...

    def given(self) -> list[str]: ...


class KeywordsBesidesFormat(TypedDict, total=False):
    """:class:`RequestKeywords` less ``response_format``: what a call typed by its output type
    (``generate(..., response_format=Person) -> Result[Person]``) takes beside it."""

    prompt: str
    system: str
    messages: Sequence[Message | Mapping[str, Any]]
    max_output_tokens: int | None
    temperature: float | None
    top_p: float | None
    top_k: int | None
    stop_sequences: Sequence[str] | None
    seed: int | None
    presence_penalty: float | None
    frequency_penalty: float | None
    #: Function tools, provider tools, and neutral tools (:mod:`modelport.tools`, compiled to the
    #: provider's own before any I/O).
    tools: Sequence[Tool | _ToolFunction | _NeutralTool | Mapping[str, Any]] | None
    tool_choice: ToolChoice | Mapping[str, Any] | None
    reasoning: ReasoningConfig | Mapping[str, Any] | None
    reasoning_replay: ReasoningReplay
    #: Prompt caching: ``{}`` for the defaults, or ``{"ttl": "1h", "at": ["system"], "key": ...}``.
    prompt_cache: PromptCache | Mapping[str, Any] | None
    user_id: str | None
    request_labels: Mapping[str, str] | None
    provider_options: Mapping[str, Mapping[str, Any]] | None
    #: Text and file documents the answer may cite (``{"text": ..., "title": ...}`` or a
    #: :class:`~modelport.types.TextDocument` / :class:`~modelport.types.FileDocument`).
    documents: Sequence[Document | Mapping[str, Any]] | None


class RequestKeywords(KeywordsBesidesFormat, total=False):
    """The keywords of a call (``generate``, ``stream``, ``count_tokens``, ``run``... and their async
    twins): :class:`Request`'s fields, as a caller may give them, plus ``prompt`` and ``system``.

    The call signatures read ``**kwargs: Unpack[RequestKeywords]``, so editors complete the
    keywords and ``mypy --strict`` checks them; validation into a :class:`Request` stays the judge.
    """

    #: A spec, its shorthand (``"json"``), or a Python type the answer is parsed into.
    response_format: ResponseFormat | Mapping[str, Any] | Literal["text", "json"] | type[Any] | None


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
