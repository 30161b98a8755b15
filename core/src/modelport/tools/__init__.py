"""Neutral provider tools: one web search, one page fetch, one code runner and one remote MCP
server (:func:`mcp_server`) for every provider.

``modelport.tools.web_search(allowed_domains=[...], time_range=(start, end))`` asks for *a* web
search without naming whose; the call's provider compiles it to its own provider tool
(``google.google_search``, ``openai.web_search``, ``anthropic.web_search``) before any request is
sent, and that tool is then validated like one given by hand. The compiled request is what
:meth:`Model.prepare <modelport.Model.prepare>` returns.

The plugin contract: a provider says in its :class:`~modelport.provider.Capabilities` which neutral
tools it has (``web_search``, ``web_fetch``, ``code_execution``, ``mcp_server``) and maps each to a
:class:`NeutralToolMapping` in :meth:`Provider.neutral_tool <modelport.provider.Provider.neutral_tool>`:
pure data (the provider tool's id and the neutral options it can express) and a pure function from
those options to the provider tool's arguments. The core does the rest (:func:`compile_tool`):

- a neutral tool the provider lacks is an :class:`~modelport.errors.InvalidRequestError`, before I/O;
- an option the backend cannot express is an ``InvalidRequestError`` naming the option and the
  backend, or, for a tool made with ``best_effort=True``, an ``unsupported-setting``
  :class:`~modelport.types.CallWarning` on the result: never dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol, Union, get_args

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..errors import InvalidRequestError, validation_message
from .args import ApproximateLocation, DomainLimits, HttpHeaders, ToolArgs

if TYPE_CHECKING:
    from .._contract.results import CallWarning
    from ..types import ProviderTool

__all__ = [
    "NEUTRAL_TOOL_NAMES",
    "CodeExecutionOptions",
    "McpServerOptions",
    "NeutralTool",
    "NeutralToolHost",
    "NeutralToolMapping",
    "NeutralToolName",
    "TimeRange",
    "WebFetchOptions",
    "WebSearchOptions",
    "code_execution",
    "compile_tool",
    "compile_tools",
    "mcp_server",
    "web_fetch",
    "web_search",
]

#: The neutral tools; each is also a :class:`~modelport.provider.Capabilities` flag.
NeutralToolName = Literal["web_search", "web_fetch", "code_execution", "mcp_server"]
#: The names of the neutral tools the command line's ``--tool`` takes (those that need no option:
#: ``mcp_server`` needs a URL and a name).
NEUTRAL_TOOL_NAMES: tuple[str, ...] = tuple(n for n in get_args(NeutralToolName) if n != "mcp_server")


class TimeRange(BaseModel):
    """Only results published in ``[start, end)``: aware datetimes (or RFC 3339 strings)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    start: AwareDatetime
    end: AwareDatetime

    @model_validator(mode="after")
    def _ordered(self) -> TimeRange:
        if self.start >= self.end:
            raise ValueError("start must be before end (an empty interval matches nothing)")
        return self


class WebSearchOptions(DomainLimits):
    """What :func:`web_search` can ask for; ``None`` leaves the provider's default."""

    user_location: ApproximateLocation | None = None
    time_range: TimeRange | None = None
    context_size: Literal["low", "medium", "high"] | None = None
    """How much of the search results the model reads (OpenAI's ``search_context_size``)."""


class WebFetchOptions(DomainLimits):
    """What :func:`web_fetch` can ask for; ``None`` leaves the provider's default."""

    max_content_tokens: int | None = Field(default=None, ge=1)
    """Cut a fetched page to about this many tokens."""


class CodeExecutionOptions(ToolArgs):
    """:func:`code_execution` takes no options: each provider's sandbox as it comes."""


class McpServerOptions(ToolArgs):
    """What :func:`mcp_server` can ask for: a remote MCP server (streamable HTTP or SSE) that the
    provider connects to, lists and calls itself.

    ``headers`` are credentials: each value is a :class:`pydantic.SecretStr`, shown as
    ``'**********'`` in every ``repr``, dump and error; a provider reveals it only into the body it
    sends, and the HTTP kit scrubs it from every error and kept answer.
    """

    url: str = Field(pattern=r"^https?://[^\s]+$")
    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")
    """The server's label: how the model and the provider's parts name it."""
    description: str | None = Field(default=None, min_length=1)
    """What the server is for, told to the model."""
    allowed_tools: list[str] | None = Field(default=None, min_length=1)
    """Only these of the server's tools (``None``: all it lists)."""
    headers: HttpHeaders | None = None
    """HTTP headers the provider sends to the server (e.g. ``Authorization``)."""
    require_approval: Literal["always", "never"] | None = None
    """``"always"``: each call waits for the tool loop's ``approve=`` hook."""

    def header_values(self) -> dict[str, str]:
        """The headers revealed, for the one request body that carries them."""
        return {name: value.get_secret_value() for name, value in (self.headers or {}).items()}


NeutralOptions = Union[WebSearchOptions, WebFetchOptions, CodeExecutionOptions, McpServerOptions]
_OPTIONS: dict[str, type[ToolArgs]] = {
    "web_search": WebSearchOptions,
    "web_fetch": WebFetchOptions,
    "code_execution": CodeExecutionOptions,
    "mcp_server": McpServerOptions,
}


class NeutralTool(BaseModel):
    """A provider tool named by what it does, compiled to the call's provider's own tool.

    As a mapping: ``{"type": "neutral", "name": "web_search", "options": {...}}``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["neutral"] = "neutral"
    name: NeutralToolName
    options: NeutralOptions
    best_effort: bool = False
    """An option the backend cannot express is left out with a warning instead of refused."""

    @model_validator(mode="before")
    @classmethod
    def _typed_options(cls, value: Any) -> Any:
        if isinstance(value, dict) and value.get("name") in _OPTIONS:
            options = value.get("options") or {}
            if isinstance(options, dict):
                value = {**value, "options": _OPTIONS[value["name"]].model_validate(options)}
        return value

    @model_validator(mode="after")
    def _matching_options(self) -> NeutralTool:
        if type(self.options) is not _OPTIONS[self.name]:
            raise ValueError(f"options of {self.name} must be {_OPTIONS[self.name].__name__}")
        return self

    def given(self) -> list[str]:
        """The options set on this tool, in declaration order."""
        return [name for name, value in self.options if value is not None]


@dataclass(frozen=True)
class NeutralToolMapping:
    """How a provider (on one backend) expresses a neutral tool: pure data for the core.

    ``tool_id`` is the provider tool it compiles to, ``options`` the neutral options the backend can
    express, and ``to_args`` turns the options (only those, the others ``None``) into that provider
    tool's ``args``. The core refuses (or, best effort, warns about) every other option.
    """

    tool_id: str
    options: frozenset[str] = frozenset()
    to_args: Callable[[Any], dict[str, Any]] = lambda options: {}


def _tool(tool_name: str, best_effort: bool, **options: Any) -> NeutralTool:
    name = tool_name
    given = {
        key: list(value) if isinstance(value, (tuple, list)) and key.endswith("domains") else value
        for key, value in options.items()
        if value is not None
    }
    if "time_range" in given:
        window = given["time_range"]
        if not isinstance(window, (tuple, list)) or len(window) != 2:
            raise InvalidRequestError(f"{name}: time_range must be a (start, end) pair")
        given["time_range"] = {"start": window[0], "end": window[1]}
    for key in ("allowed_domains", "blocked_domains"):
        if isinstance(given.get(key), str):
            raise InvalidRequestError(f"{name}: {key} must be a list of domains, not a string")
    try:
        return NeutralTool(name=name, options=given, best_effort=best_effort)  # type: ignore[arg-type]
    except ValidationError as error:
        raise InvalidRequestError(
            f"{name}: invalid options: {validation_message(error, root='options')}"
        ) from None


def web_search(
    *,
    allowed_domains: Sequence[str] | None = None,
    blocked_domains: Sequence[str] | None = None,
    user_location: ApproximateLocation | dict[str, Any] | None = None,
    max_uses: int | None = None,
    time_range: tuple[datetime | str, datetime | str] | None = None,
    context_size: Literal["low", "medium", "high"] | None = None,
    best_effort: bool = False,
) -> NeutralTool:
    """A web search run by the provider (see :class:`WebSearchOptions`)."""
    return _tool(
        "web_search",
        best_effort,
        allowed_domains=allowed_domains,
        blocked_domains=blocked_domains,
        user_location=user_location,
        max_uses=max_uses,
        time_range=time_range,
        context_size=context_size,
    )


def web_fetch(
    *,
    allowed_domains: Sequence[str] | None = None,
    blocked_domains: Sequence[str] | None = None,
    max_uses: int | None = None,
    max_content_tokens: int | None = None,
    best_effort: bool = False,
) -> NeutralTool:
    """Fetching the pages whose URLs are in the conversation, run by the provider."""
    return _tool(
        "web_fetch",
        best_effort,
        allowed_domains=allowed_domains,
        blocked_domains=blocked_domains,
        max_uses=max_uses,
        max_content_tokens=max_content_tokens,
    )


def code_execution(*, best_effort: bool = False) -> NeutralTool:
    """Code run in the provider's sandbox."""
    return _tool("code_execution", best_effort)


def mcp_server(
    *,
    url: str,
    name: str,
    description: str | None = None,
    allowed_tools: Sequence[str] | None = None,
    headers: Mapping[str, str] | None = None,
    require_approval: Literal["always", "never"] | None = None,
    best_effort: bool = False,
) -> NeutralTool:
    """A remote MCP server the provider calls itself (see :class:`McpServerOptions`): its tool
    listings, calls and results come back as provider-executed parts."""
    if isinstance(allowed_tools, str):
        raise InvalidRequestError("mcp_server: allowed_tools must be a list of tool names, not a string")
    if headers is not None and not isinstance(headers, Mapping):
        raise InvalidRequestError("mcp_server: headers must be a mapping of header names to values")
    return _tool(
        "mcp_server",
        best_effort,
        url=url,
        name=name,
        description=description,
        allowed_tools=None if allowed_tools is None else list(allowed_tools),
        headers=None if headers is None else dict(headers),
        require_approval=require_approval,
    )


class NeutralToolHost(Protocol):
    """What compiling a neutral tool reads of a provider (every
    :class:`~modelport.provider.Provider` is one): its name, backend, capabilities and mappings."""

    @property
    def id(self) -> str: ...

    @property
    def backend(self) -> str: ...

    @property
    def capabilities(self) -> object: ...

    def neutral_tool(self, name: str) -> NeutralToolMapping | None: ...


def _where(provider: NeutralToolHost) -> str:
    backend = f" (backend {provider.backend!r})" if provider.backend != "default" else ""
    return f"provider {provider.id!r}{backend}"


def compile_tool(tool: NeutralTool, provider: NeutralToolHost) -> tuple[ProviderTool, list[CallWarning]]:
    """``tool`` as ``provider``'s own provider tool, with a warning per option left out (best effort).

    Raises :class:`~modelport.errors.InvalidRequestError` for a tool the provider lacks, or an
    option its backend cannot express (unless ``tool.best_effort``). Never does I/O.
    """
    from .._contract.results import CallWarning
    from ..types import ProviderTool

    mapping = provider.neutral_tool(tool.name) if getattr(provider.capabilities, tool.name, False) else None
    if mapping is None:
        raise InvalidRequestError(f"{_where(provider)} has no {tool.name} tool")
    warnings: list[CallWarning] = []
    left_out = [option for option in tool.given() if option not in mapping.options]
    if left_out and not tool.best_effort:
        named = ", ".join(repr(option) for option in left_out)
        raise InvalidRequestError(
            f"{tool.name} option{'s' if len(left_out) > 1 else ''} {named} not supported by"
            f" {_where(provider)} (it supports: {', '.join(sorted(mapping.options)) or 'no options'};"
            " best_effort=True leaves them out with a warning)"
        )
    for option in left_out:
        details = f"{_where(provider)} cannot express {tool.name} option {option!r}; it is not sent"
        warnings.append(
            CallWarning(type="unsupported-setting", setting=f"{tool.name}.{option}", details=details)
        )
    options = tool.options.model_copy(update=dict.fromkeys(left_out))
    name = mapping.tool_id.split(".", 1)[-1]
    return ProviderTool(id=mapping.tool_id, name=name, args=mapping.to_args(options)), warnings


def compile_tools(tools: Sequence[Any], provider: NeutralToolHost) -> tuple[list[Any], list[CallWarning]]:
    """``tools`` with every neutral tool (or its mapping form) compiled for ``provider``; the rest
    unchanged."""
    compiled: list[Any] = []
    warnings: list[CallWarning] = []
    for tool in tools:
        if isinstance(tool, dict) and tool.get("type") == "neutral":
            try:
                tool = NeutralTool.model_validate(tool)
            except ValidationError as error:
                problems = validation_message(error, root="neutral tool")
                raise InvalidRequestError(f"invalid neutral tool: {problems}") from None
        if isinstance(tool, NeutralTool):
            tool, more = compile_tool(tool, provider)
            warnings += more
        compiled.append(tool)
    return compiled, warnings
