"""The contract's building blocks: content parts, messages and tool definitions (public through
:mod:`modelport.types`), and the frozen base every contract class shares.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    field_validator,
    model_validator,
)

if TYPE_CHECKING:
    from typing_extensions import Self

_M = TypeVar("_M", bound=BaseModel)

#: Provider-specific data keyed by provider id, e.g. ``{"google": {"thoughtSignature": "..."}}``.
ProviderMetadata = dict[str, dict[str, Any]]

#: Largest integer a JSON number carries exactly (2**53 - 1).
MAX_SAFE_INTEGER = 9_007_199_254_740_991

#: Deepest nesting of a free-form value in a request (tool arguments and outputs, provider metadata,
#: JSON schemas, provider options): the nesting the strict wire parser accepts (128 levels).
MAX_VALUE_DEPTH = 128


def check_counts(**counts: object) -> None:
    """A ``ValueError`` unless every count given is an ``int`` (not a ``bool``) in ``[0, 2**53)``;
    ``None`` is a count not reported, except for ``input_tokens``. For what a plugin decoded: under
    the decoder guard the error is a ``ProviderResponseError``."""
    for name, value in counts.items():
        if value is None and name != "input_tokens":
            continue
        if type(value) is not int or not 0 <= value <= MAX_SAFE_INTEGER:
            shown = repr(value) if value is None or isinstance(value, (bool, int)) else type(value).__name__
            raise ValueError(f"{name} must be a non-negative integer, got {shown}")


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

    @classmethod
    def trusted(cls, **fields: Any) -> Self:
        """An object built from ``fields`` as given, without validating them (P4).

        For a decoder whose values are already what validation would make of them (parts,
        :class:`~modelport.types.Usage` and :class:`~modelport.types.CallWarning` objects it built, JSON
        data it parsed, counts it checked): the object is equal to, and dumps the same as,
        ``cls(**fields)``, in a fraction of the time. Lists and dicts given become the object's own
        (not copied), and no validator runs (nothing is normalised). A name that is no field is a
        ``TypeError``; a value of the wrong type is not caught here but by the conformance suite's
        round-trip check (C5).
        """
        template = _TEMPLATES.get(cls) or _template(cls)
        defaults, factories, private = template
        state = dict(defaults)  # every field, in declared order
        state.update(fields)
        if len(state) != len(defaults):
            unknown = ", ".join(sorted(fields.keys() - defaults.keys()))
            raise TypeError(f"{cls.__name__} has no field {unknown}")
        for name, factory in factories:
            if name not in fields:
                state[name] = factory()
        return built(cls, state, set(fields), dict(private) if private is not None else None)


_new = object.__new__
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def built(cls: type[_M], state: dict[str, Any], fields_set: set[str], private: dict[str, Any] | None) -> _M:
    """An instance of pydantic model ``cls`` with its state set as given, nothing validated: what
    :meth:`_Frozen.trusted` and the events' delta builders finish with (``state`` holds every field,
    in declared order)."""
    made = _new(cls)
    _set_dict(made, state)
    _set_fields(made, fields_set)
    _set_extra(made, None)
    _set_private(made, private)
    return made


_Template = tuple[dict[str, Any], list[tuple[str, Callable[[], Any]]], dict[str, Any] | None]
#: Per class, what :meth:`_Frozen.trusted` fills in: every field in declared order with its default,
#: the fields whose default a factory makes, and the private attributes' defaults.
_TEMPLATES: dict[type[BaseModel], _Template] = {}


def _template(cls: type[BaseModel]) -> _Template:
    fields = cls.model_fields
    defaults = {name: info.default for name, info in fields.items()}
    factories: list[tuple[str, Callable[[], Any]]] = [
        (name, info.default_factory)  # type: ignore[misc]  # none of ours takes the validated data
        for name, info in fields.items()
        if info.default_factory
    ]
    private: dict[str, Any] | None = None
    if cls.__private_attributes__:
        private = {name: attr.get_default() for name, attr in cls.__private_attributes__.items()}
        if any(value is not None for value in private.values()):  # shared, so it must be immutable
            raise TypeError(f"{cls.__name__} has private defaults trusted() cannot share")
    _TEMPLATES[cls] = template = (defaults, factories, private)
    return template


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
    """The model's reasoning (thought summary), with the provider's opaque signature if any.

    ``signature`` (and any state in ``provider_metadata``) belongs to the provider and model named by
    the enclosing message's ``origin``: sent back to them exactly, dropped elsewhere (see
    :mod:`modelport.reasoning`).
    """

    type: Literal["reasoning"] = "reasoning"
    text: str
    signature: str | None = None
    provider_metadata: ProviderMetadata | None = None


class ToolCallPart(_Frozen):
    """A call of a tool; ``provider_executed`` is true when the provider ran it itself.

    ``approval="requested"``: a call the provider runs itself only once approved (a remote MCP
    server's tool with ``require_approval``); it has no result yet. The tool loop's ``approve=``
    hook answers it with a :class:`ToolResultPart` of the same ``call_id``: not an error when
    approved, an error holding the reason when refused.
    """

    type: Literal["tool-call"] = "tool-call"
    id: str
    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    provider_executed: bool = False
    provider_metadata: ProviderMetadata | None = None
    approval: Literal["requested"] | None = None


class ToolResultPart(_Frozen):
    """The result of a tool call, matched to it by ``call_id``."""

    type: Literal["tool-result"] = "tool-result"
    call_id: str
    name: str
    output: Any = None
    is_error: bool = False
    provider_executed: bool = False
    provider_metadata: ProviderMetadata | None = None


#: Any part of a message, told apart by ``type``.
Part = Annotated[
    Union[TextPart, FilePart, ReasoningPart, ToolCallPart, ToolResultPart],
    Field(discriminator="type"),
]


# --------------------------------------------------------------------------- documents

#: Bounds of a request document's names (contract 2.3): an id, a title, a context note.
MAX_DOCUMENT_ID = 256
MAX_DOCUMENT_TITLE = 1024
MAX_DOCUMENT_CONTEXT = 65_536
#: Most documents one request takes.
MAX_DOCUMENTS = 100

_MEDIA_TYPE = r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+\-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+\-]*$"


class _Document(_Frozen):
    id: str | None = Field(default=None, min_length=1, max_length=MAX_DOCUMENT_ID)
    """The caller's name for the document, unique in the request (never sent where the API has no
    place for it; a source names the document by what the provider returns, see ``Source.id``)."""
    title: str | None = Field(default=None, min_length=1, max_length=MAX_DOCUMENT_TITLE)
    """A title the provider may show and quote back in its sources."""
    context: str | None = Field(default=None, min_length=1, max_length=MAX_DOCUMENT_CONTEXT)
    """Text about the document the model reads but never cites (Anthropic's ``context``)."""


class TextDocument(_Document):
    """A plain-text document passed with the request (``documents=``), the basis of citations."""

    type: Literal["text"] = "text"
    text: str = Field(min_length=1)


class FileDocument(_Document):
    """A file document passed with the request: inline ``data`` or a reference (``uri``: a URL, or
    a provider's file id such as Anthropic's ``file_…``), with its media type."""

    type: Literal["file"] = "file"
    media_type: str = Field(max_length=255, pattern=_MEDIA_TYPE)
    data: Base64Bytes | None = None
    uri: str | None = Field(default=None, min_length=1, max_length=8192)

    @model_validator(mode="after")
    def _one_source(self) -> FileDocument:
        if (self.data is None) == (self.uri is None):
            raise ValueError("a file document needs exactly one of 'data' or 'uri'")
        return self


#: A document of a request's ``documents``, told apart by ``type`` (contract 2.3).
Document = Annotated[Union[TextDocument, FileDocument], Field(discriminator="type")]


class Origin(_Frozen):
    """Who produced an assistant turn: the provider id, its wire API and the model asked for.

    The core stamps it on every :class:`~modelport.types.Result` (and so on ``Result.message``);
    the turn's opaque reasoning state (signatures, raw parts in ``provider_metadata``) is addressed to
    this origin, and the reasoning replay policy (:mod:`modelport.reasoning`) compares it with the
    model a history is sent to. A message without one (a history saved before it existed, or built
    by hand) is sent as it is.
    """

    provider: str = Field(min_length=1)
    api: str | None = None
    model: str = Field(min_length=1)


class Message(_Frozen):
    """One turn of a conversation.

    ``content`` is a string (shorthand for one text part) or a list of parts. ``provider_metadata``
    carries what a provider needs to replay this turn exactly (e.g. raw parts with signatures), and
    ``origin`` says which provider, API and model that state came from.
    """

    role: Literal["system", "user", "assistant", "tool"]
    content: list[Part]
    provider_metadata: ProviderMetadata | None = None
    origin: Origin | None = None

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

    @property
    def parsed_args(self) -> BaseModel | None:
        """``args`` as the tool's spec parsed them when the core validated a call with this tool
        (for the selected provider and backend, before any I/O): what a plugin maps, without
        validating again. ``None`` for a tool no call validated."""
        parsed: BaseModel | None = self.__dict__.get(_PARSED_ARGS)
        return parsed

    def _carry(self, parsed: BaseModel) -> None:
        # Kept beside the fields, not as one: equality, hashing, dumps and copies see the fields
        # only (the place pydantic keeps a cached property's value). A parse is a function of
        # ``args``, and every validation writes it afresh.
        self.__dict__[_PARSED_ARGS] = parsed


_PARSED_ARGS = "_parsed_args"

#: A tool offered to the model: a function tool or a provider tool, told apart by ``type``.
Tool = Annotated[Union[FunctionTool, ProviderTool], Field(discriminator="type")]


class SpecificToolChoice(_Frozen):
    """Force a call of one named tool."""

    type: Literal["tool"] = "tool"
    name: str


class ToolSubsetChoice(_Frozen):
    """Force a call of one of a named subset of tools."""

    type: Literal["tools"] = "tools"
    names: list[str] = Field(min_length=1)


#: Which tools the model may or must call: a mode, one named tool, or a named subset.
ToolChoice = Union[Literal["auto", "any", "required", "none"], SpecificToolChoice, ToolSubsetChoice]
