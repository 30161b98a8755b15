"""What a generation produced: results, usage, warnings, sources and citations and log probabilities
(public through :mod:`modelport.types`; embeddings are in :mod:`._contract.embeddings`).
"""

from __future__ import annotations

import warnings as _warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal

from pydantic import (
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
    model_validator,
)
from typing_extensions import TypeVar

from .content import (
    MAX_SAFE_INTEGER,
    Message,
    Origin,
    Part,
    ProviderMetadata,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    _Frozen,
    built,
)

# --------------------------------------------------------------------------- result

#: Why a generation ended, the same names for every provider (the raw reason is kept beside it).
FinishReason = Literal["stop", "length", "tool-calls", "content-filter", "error", "other"]


class Usage(_Frozen):
    """Token counts, with one meaning on every provider (contract 2.2; see docs/usage.md), and the
    provider's own tool runs (:attr:`server_tool_calls`).

    ``input_tokens`` and ``output_tokens`` are the whole bill of each side; the other input and
    output counts are parts of them, never added on top. A count the provider did not report stays
    ``None``, never zero; a reported zero stays ``0``.
    """

    input_tokens: int | None = None
    """Every input token billed: the prompt, cache reads, cache writes and tool-use prompts."""
    output_tokens: int | None = None
    """Every output token billed: the answer, reasoning included."""
    reasoning_tokens: int | None = None
    """The part of :attr:`output_tokens` spent on reasoning (thinking)."""
    total_tokens: int | None = None
    """:attr:`input_tokens` + :attr:`output_tokens`."""
    cache_read_input_tokens: int | None = None
    """The part of :attr:`input_tokens` read from a prompt cache."""
    cache_write_input_tokens: int | None = None
    """The part of :attr:`input_tokens` written to a prompt cache (new in contract 2.1)."""
    tool_use_prompt_tokens: int | None = None
    """The part of :attr:`input_tokens` the provider added for its own tools' results (Gemini)."""
    server_tool_calls: int | None = None
    """How many times the provider ran its own tools for this answer: web searches, page fetches,
    code runs, file searches (new in contract 2.2; not a token count). Anthropic's reported
    ``server_tool_use`` requests; on the OpenAI Responses API the built-in tool calls of the answer;
    on Gemini its search queries, fetched URLs and code runs. ``None`` when none was reported or
    seen."""

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


class CallWarning(_Frozen):
    """Something the provider ignored or the SDK had to skip, e.g. an unsupported setting."""

    type: Literal[
        "unsupported-setting", "unsupported-tool", "skipped-citation", "reanchored-citation", "other"
    ]
    setting: str | None = None
    details: str | None = None


#: What a source is, as the provider says it (``Source.kind``, contract 2.3).
SourceKind = Literal["document", "tool-result", "web-page", "file"]


class Source(_Frozen):
    """A numbered source (1-based) that citations point at: what the answer rests on."""

    number: int = Field(ge=1)
    """Its number, 1 for the first source of the result; :attr:`Citation.sources` lists numbers."""
    title: str | None = None
    """Its title as the provider gives it (a page's, a file's name, a document's ``title``)."""
    uri: str | None = None
    """Where it lives, as sent (a web page's URL, a ``gs://`` object): not always a link."""
    domain: str | None = None
    """The host of :attr:`uri`, or the domain the provider names."""
    file_id: str | None = None
    """The provider's id of a searched file (OpenAI ``file_citation``, Gemini File Search)."""
    excerpt: str | None = None
    """The passage of the source that was retrieved, when the provider returns it (Gemini File Search)."""
    id: str | None = None
    """The provider's name of the source within the answer (contract 2.3): for a request document
    cited by position (Anthropic's ``document_index``), its 0-based index in ``documents=`` as a
    string; a file's id; a search result's id. ``None`` when the provider names none."""
    kind: SourceKind | None = None
    """What the source is (contract 2.3): ``"document"`` (one of the request's ``documents``),
    ``"tool-result"`` (a tool's output the model cited), ``"web-page"`` (found by a web search or
    fetched by URL), ``"file"`` (a file the provider searched or made: OpenAI ``file_citation`` and
    ``container_file_citation``, a Gemini ``retrievedContext``). ``None`` when the provider does
    not say."""


class Citation(_Frozen):
    """A character span ``[start, end)`` of ``Result.text`` supported by the numbered sources
    (:func:`modelport.citations.cited_spans` gives its UTF-8 byte offsets and cited words too).
    The table of docs/web-search.md shows each field on a real answer."""

    start: int = Field(ge=0)
    """Where the supported span of the answer starts: a character offset into ``Result.text``."""
    end: int = Field(ge=0)
    """Where it ends (exclusive); ``start == end`` marks a point (OpenAI's ``file_citation``)."""
    sources: list[int] = Field(min_length=1)
    """The :attr:`Source.number` of each source supporting the span."""
    cited_text: str | None = None
    """The source's own words the span rests on, when the provider quotes them (Anthropic): words
    of the source, never of the answer (those are ``Result.text[start:end]``)."""

    @model_validator(mode="after")
    def _ordered(self) -> Citation:
        if self.end < self.start:
            raise ValueError("citation end is before its start")
        return self


def is_refusal(metadata: ProviderMetadata | None) -> bool:
    """Whether a text part's metadata marks it as the model's refusal (the ``modelport`` namespace)."""
    return bool(metadata) and (metadata or {}).get("modelport", {}).get("refusal") is True


#: What a plugin puts on a text part that holds a refusal (see :attr:`Result.refusal`).
REFUSAL_METADATA: ProviderMetadata = {"modelport": {"refusal": True}}

_DERIVED_RESULT_KEYS = ("text", "tool_calls", "message", "reasoning_text")

#: What :meth:`Result.deferred`'s function returns: the sources, the citations and the warnings
#: found while deriving them (appended to the result's other warnings).
Derived = tuple[list["Source"], list["Citation"], list["CallWarning"]]

#: The fields a deferred result computes on first use.
_DEFERRED_FIELDS = ("sources", "citations", "warnings")


#: The Python type a result's answer is parsed into (``response_format=Person`` → ``Result[Person]``);
#: a bare ``Result`` is ``Result[Any]``.
OutputT = TypeVar("OutputT", default=Any)


class Result(_Frozen, Generic[OutputT]):
    """What a generation produced: ordered content parts plus finish reason, usage and metadata.

    Generic in the type of :attr:`parsed` for type checkers only: ``model.generate(...,
    response_format=Person)`` is a ``Result[Person]``, whose ``parsed`` is a ``Person``; at run time
    every result is a plain ``Result``."""

    content: list[Part] = Field(default_factory=list)
    finish_reason: FinishReason = "other"
    raw_finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    warnings: list[CallWarning] = Field(default_factory=list)
    provider_metadata: ProviderMetadata = Field(default_factory=dict)
    sources: list[Source] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    response_id: str | None = None
    model_version: str | None = None
    replay: ProviderMetadata | None = None
    """What the provider needs to replay this turn exactly; copied onto :attr:`message`."""
    origin: Origin | None = None
    """The provider, API and model that produced this result (set by the core); copied onto
    :attr:`message`, so its reasoning state is replayed by the policy of :mod:`modelport.reasoning`."""
    logprobs: list[TokenLogprob] | None = None
    """Per-token log probabilities of the answer, when requested and sent (provider-neutral)."""
    _parsed: Any = PrivateAttr(default=None)
    # ``(derive, warnings known now)`` until the deferred fields are computed (see ``deferred``).
    _deferred: tuple[Callable[[], Derived], list[CallWarning]] | None = PrivateAttr(default=None)

    @property
    def parsed(self) -> OutputT:
        """The answer validated into the Python type given as ``response_format`` (else ``None``)."""
        return self._parsed  # type: ignore[no-any-return]

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
        result = cls.trusted(**fields)
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

    def _known_warnings(self) -> list[CallWarning]:
        """The warnings known without resolving (the request's and the decoder's, not derivations')."""
        private = self.__pydantic_private__
        pending = private.get("_deferred") if private else None
        return pending[1] if pending is not None else self.warnings

    def _with_warnings_first(self, warnings: list[CallWarning]) -> Result:
        """A copy with ``warnings`` before the others, still deferred if this one is."""
        return self._stamped(None, warnings)

    def _stamped(self, origin: Origin | None, warnings: list[CallWarning]) -> Result:
        """A copy with ``warnings`` before the others and ``origin`` set where the decoder left it
        unset, still deferred if this one is (``self`` itself when there is nothing to change).

        Not ``model_copy``, which resolves a deferred result and costs several times more (this
        runs once per call, P4)."""
        update: dict[str, Any] = {}
        if origin is not None and self.origin is None:
            update["origin"] = origin
        if not warnings and not update:
            return self
        private = dict(self.__pydantic_private__ or {})
        pending = private.get("_deferred")
        if pending is not None:
            private["_deferred"] = (pending[0], [*warnings, *pending[1]])
        elif warnings:
            update["warnings"] = [*warnings, *self.warnings]
        return built(
            type(self), {**self.__dict__, **update}, {*self.__pydantic_fields_set__, *update}, private
        )

    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any:
            if name in _DEFERRED_FIELDS:
                private = self.__pydantic_private__
                if private and private.get("_deferred") is not None:
                    self._resolve()
                state = self.__dict__
                if name in state:  # resolved here, or by another thread since this lookup missed it
                    return state[name]
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
        return moved_grounding(value)

    @property
    def grounding_metadata(self) -> dict[str, Any] | None:
        """Deprecated (contract 2.1): read ``modelport_google.grounding.grounding_metadata(result)``,
        i.e. ``provider_metadata["google"]["groundingMetadata"]``; removed in the next minor version."""
        return deprecated_grounding("Result", self.provider_metadata)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """Visible (non-reasoning) text of all text parts, joined."""
        return "".join(p.text for p in self.content if isinstance(p, TextPart))

    @property
    def refusal(self) -> str | None:
        """The model's refusal to answer (e.g. OpenAI's ``refusal``), else ``None``.

        A refusal is a text part marked ``provider_metadata["modelport"]["refusal"]``; its words are
        also in :attr:`text`. With a Python type as ``response_format`` a refusal raises
        :class:`~modelport.errors.OutputRefusedError` instead of a parse error.
        """
        found = [p.text for p in self.content if isinstance(p, TextPart) and is_refusal(p.provider_metadata)]
        return "".join(found) if found else None

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
        return Message(
            role="assistant", content=list(self.content), provider_metadata=self.replay, origin=self.origin
        )


#: Where Google's grounding metadata lives since contract 2.1: ``provider_metadata[namespace][key]``.
GROUNDING_NAMESPACE, GROUNDING_KEY = "google", "groundingMetadata"


def moved_grounding(value: Any) -> Any:
    """``value`` (the input of a result or finish event) with a ``grounding_metadata`` of contract
    2.0 moved to ``provider_metadata["google"]["groundingMetadata"]``, so stored results still load."""
    if not isinstance(value, dict) or "grounding_metadata" not in value:
        return value
    value = dict(value)
    metadata = value.pop("grounding_metadata")
    if metadata is not None:
        provider_metadata = dict(value.get("provider_metadata") or {})
        namespace = dict(provider_metadata.get(GROUNDING_NAMESPACE) or {})
        namespace.setdefault(GROUNDING_KEY, metadata)
        provider_metadata[GROUNDING_NAMESPACE] = namespace
        value["provider_metadata"] = provider_metadata
    return value


def deprecated_grounding(owner: str, provider_metadata: ProviderMetadata) -> dict[str, Any] | None:
    """What the deprecated ``grounding_metadata`` property of ``owner`` reads, with its warning."""
    _warnings.warn(
        f"{owner}.grounding_metadata is deprecated since contract 2.1 and will be removed in the next "
        "minor version: use modelport_google.grounding.grounding_metadata(...) "
        '(provider_metadata["google"]["groundingMetadata"])',
        DeprecationWarning,
        stacklevel=3,
    )
    found = (provider_metadata.get(GROUNDING_NAMESPACE) or {}).get(GROUNDING_KEY)
    return found if isinstance(found, dict) else None
